//! A native search with the GIL released, stopped by Ctrl-C. Python runs a signal's
//! handler only on the main thread, between bytecodes, and a native search runs none.
//!
//! On Unix, a search on the main thread runs there: while it runs, SIGINT's handler is
//! one that only sets the search's stop flag (an atomic store, safe in a signal
//! handler); afterwards Python's handler is put back and the signal handed to it
//! (`PyErr_SetInterrupt`), so that Python's own handler, the default one or a program's,
//! decides, as if the signal had come then. Two `sigaction` calls cost far less than a
//! thread (a search of a few microseconds is common: a solved Connect Four position). A
//! search on another thread runs there too: Python gives signals to the main thread only.
//! Pending Python signals are looked at once the handler is in place, so that a SIGINT
//! which came just before is not left waiting until the search ends.
//!
//! Elsewhere the search runs on a thread of its own while the calling thread waits
//! without the GIL and, every 20 ms, takes it to run pending handlers; an exception from
//! one (`KeyboardInterrupt`) stops the search through its stop flag and is raised once
//! the search has returned.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
#[cfg(not(unix))]
use std::sync::mpsc;
#[cfg(not(unix))]
use std::time::Duration;

#[cfg(not(unix))]
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

use crate::main_thread;

/// How often the waiting thread looks for a signal.
#[cfg(not(unix))]
const LOOK_EVERY: Duration = Duration::from_millis(20);

#[cfg(not(unix))]
/// The stack of the search's thread: deep lines grow theirs as they go, as on any thread.
const STACK: usize = 8 << 20;

/// Runs `work`, which `stop` stops, without the GIL; `KeyboardInterrupt` (or any
/// exception a signal handler raises) if a signal came meanwhile.
#[cfg(not(unix))]
pub fn detached<T: Send>(
    py: Python<'_>,
    stop: &AtomicI32,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let _running = crate::exit::Running::start(py, stop);
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

/// The running main-thread search's stop flag, for the SIGINT handler (NULL: none).
#[cfg(unix)]
static STOP: std::sync::atomic::AtomicPtr<AtomicI32> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// Whether a SIGINT came during the running main-thread search.
#[cfg(unix)]
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// SIGINT's handler during a main-thread search.
#[cfg(unix)]
extern "C" fn on_sigint(_: std::ffi::c_int) {
    let stop = STOP.load(Relaxed);
    if !stop.is_null() {
        // SAFETY: `STOP` points to the running search's flag, which outlives the time the
        // handler is installed (it is set before and cleared before the flag goes).
        unsafe { (*stop).store(1, Relaxed) };
    }
    INTERRUPTED.store(true, Relaxed);
}

/// Runs `work`, which `stop` stops, without the GIL; on the main thread, a SIGINT
/// meanwhile stops it and is handed to Python's handler afterwards (whose exception,
/// `KeyboardInterrupt` by default, is raised).
#[cfg(unix)]
pub fn detached<T: Send>(
    py: Python<'_>,
    stop: &AtomicI32,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let _running = crate::exit::Running::start(py, stop);
    if !main_thread::on_main_thread() {
        return Ok(py.detach(work));
    }
    INTERRUPTED.store(false, Relaxed);
    STOP.store(stop as *const AtomicI32 as *mut AtomicI32, Relaxed);
    // SAFETY: zeroed `sigaction` structs are valid (no handler, empty masks); the new
    // action's handler is an `extern "C" fn(c_int)`, and the old one is written by
    // sigaction before it is read.
    let mut action: libc::sigaction = unsafe { std::mem::zeroed() };
    action.sa_sigaction = on_sigint as *const () as libc::sighandler_t;
    action.sa_flags = libc::SA_RESTART;
    let mut previous: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: both pointers are to live `sigaction` structs.
    let installed = unsafe { libc::sigaction(libc::SIGINT, &action, &mut previous) } == 0;
    let put_back = || {
        if installed {
            // SAFETY: puts back the handler read above.
            unsafe { libc::sigaction(libc::SIGINT, &previous, std::ptr::null_mut()) };
        }
        STOP.store(std::ptr::null_mut(), Relaxed);
    };
    // A SIGINT that came after Python last looked and before the handler above was in
    // place went to Python's handler, which runs only when Python next looks: after the
    // search, perhaps minutes later. So look now, with this search's handler in place.
    if let Err(e) = py.check_signals() {
        put_back();
        INTERRUPTED.store(false, Relaxed);
        return Err(e);
    }
    let out = py.detach(work);
    put_back();
    if INTERRUPTED.swap(false, Relaxed) {
        // SAFETY: the GIL is held (we are back from `detach`).
        unsafe { pyo3::ffi::PyErr_SetInterrupt() };
        py.check_signals()?;
    }
    Ok(out)
}
