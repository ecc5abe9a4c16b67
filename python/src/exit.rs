//! Interpreter exit while searches run. Up to Python 3.13, a daemon thread that wants the
//! GIL once the interpreter is finalizing is ended by `pthread_exit`, whose unwinding
//! through this module's frames is stopped by PyO3's panic guard and aborts the process
//! ("FATAL: exception not rethrown"). Python runs `atexit` callbacks before it
//! finalizes, so the one registered here stops every running search (as its stop flag
//! would) and waits, the GIL released, until each has returned out of this module; a
//! search started on another thread after that never runs (its thread waits, without
//! the GIL, for the process to end).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::Relaxed};
use std::time::{Duration, Instant};

use pyo3::prelude::*;

use crate::addresses::{Addresses, Held};

/// Set by the exit hook.
static EXITING: AtomicBool = AtomicBool::new(false);

/// The stop flags of the searches running now, as addresses.
static RUNNING: Addresses = Addresses::new();

/// The longest the exit hook waits for searches to return (a game method that does not
/// return holds its search).
const MOST_WAIT: Duration = Duration::from_secs(5);

/// Whether the interpreter is exiting: a search stops at its next step.
fn exiting() -> bool {
    EXITING.load(Relaxed)
}

/// A running search, listed while this lives: the exit hook stops it through `stop`.
pub struct Running {
    _listed: Option<Held>,
}

impl Running {
    /// Lists a search stopped by `stop`. Once the interpreter is exiting, a search on the
    /// main thread runs as usual (an `atexit` callback may search), and one on another
    /// thread never starts: its thread waits for the end without the GIL.
    pub fn start(py: Python<'_>, stop: &AtomicI32) -> Running {
        if exiting() && !crate::main_thread::on_main_thread() {
            py.detach(|| {
                loop {
                    std::thread::park();
                }
            })
        }
        // (A live flag's address is held by no other search.)
        let listed = RUNNING.hold(stop as *const AtomicI32 as usize);
        if exiting() {
            // The hook may have stopped the others just before this one was listed.
            stop.store(1, Relaxed);
        }
        Running { _listed: listed }
    }
}

/// The `atexit` callback: stops the running searches and waits for them to return.
#[pyfunction]
fn stop_searches_at_exit(py: Python<'_>) {
    EXITING.store(true, Relaxed);
    let start = Instant::now();
    loop {
        {
            let running = RUNNING.lock();
            if running.is_empty() || start.elapsed() > MOST_WAIT {
                return;
            }
            for &stop in running.iter() {
                // SAFETY: a listed flag lives until its `Running` is dropped, which takes
                // this lock to give the address back.
                unsafe { (*(stop as *const AtomicI32)).store(1, Relaxed) };
            }
        }
        py.detach(|| std::thread::sleep(Duration::from_millis(1)));
    }
}

/// Registers the exit hook.
pub fn register(py: Python<'_>) -> PyResult<()> {
    let hook = wrap_pyfunction!(stop_searches_at_exit, py)?;
    py.import("atexit")?.call_method1("register", (hook,))?;
    Ok(())
}
