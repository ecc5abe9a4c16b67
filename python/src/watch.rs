//! A native search with the GIL released, stopped by Ctrl-C. Python runs a signal's
//! handler only on the main thread, between bytecodes, so the search runs on a thread of
//! its own while the calling thread waits without the GIL and, every 20 ms, takes it to
//! run pending handlers; an exception from one (`KeyboardInterrupt`) stops the search
//! through its stop flag and is raised once the search has returned.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

/// How often the waiting thread looks for a signal.
const LOOK_EVERY: Duration = Duration::from_millis(20);

/// The stack of the search's thread: deep lines grow theirs as they go, as on any thread.
const STACK: usize = 8 << 20;

/// Runs `work`, which `stop` stops, without the GIL; `KeyboardInterrupt` (or any
/// exception a signal handler raises) if a signal came meanwhile.
pub fn detached<T: Send>(
    py: Python<'_>,
    stop: &AtomicI32,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done, answer) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("libminimax-search".into())
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let _ = done.send(work());
            })
            .map_err(|e| PyOSError::new_err(format!("could not start the search's thread: {e}")))?;
        let mut interrupted = None;
        let mut answer = answer;
        let out = loop {
            let (got, back) = py.detach(move || (answer.recv_timeout(LOOK_EVERY), answer));
            answer = back;
            match got {
                Ok(out) => break Some(out),
                Err(mpsc::RecvTimeoutError::Disconnected) => break None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(1, Relaxed);
                    interrupted = Some(e);
                }
            }
        };
        // A panic in the search (a bug) reaches the caller as PyO3's PanicException.
        if let Err(panic) = py.detach(|| thread.join()) {
            std::panic::resume_unwind(panic);
        }
        match (interrupted, out) {
            (Some(e), _) => Err(e),
            (None, Some(out)) => Ok(out),
            (None, None) => unreachable!("the search's thread ended without an answer"),
        }
    })
}
