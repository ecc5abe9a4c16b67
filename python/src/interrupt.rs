//! Ctrl-C during the search of a Python game. Python raises `KeyboardInterrupt` at
//! whatever bytecode the game's method was running, which could leave it half-played;
//! so while such a search runs (on the main thread, with Python's default handler in
//! place), SIGINT only sets a flag, which the adapter reads at its next call, stopping
//! the search at a point where every move is whole, and the search then raises
//! `KeyboardInterrupt` once the game is back in its position.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use pyo3::prelude::*;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The handler in place during a search: notes the signal.
#[pyfunction]
fn note_interrupt(_signum: &Bound<'_, PyAny>, _frame: &Bound<'_, PyAny>) {
    INTERRUPTED.store(true, Relaxed);
}

/// Whether a SIGINT came since the last look (and forgets it).
pub fn taken() -> bool {
    INTERRUPTED.load(Relaxed) && INTERRUPTED.swap(false, Relaxed)
}

/// SIGINT deferred while this lives; Python's handler is back when it drops.
pub struct Deferred<'py> {
    /// The `signal` module and the handler to put back, if one was replaced.
    restore: Option<(Bound<'py, PyModule>, Bound<'py, PyAny>)>,
}

impl<'py> Deferred<'py> {
    /// Defers SIGINT if this is the main thread and Python's default handler is in place
    /// (a program's own handler, or a search inside a search, is left as it is).
    pub fn install(py: Python<'py>) -> PyResult<Self> {
        let threading = py.import("threading")?;
        let main = threading.call_method0("main_thread")?;
        if !threading.call_method0("current_thread")?.is(&main) {
            return Ok(Deferred { restore: None });
        }
        let signal = py.import("signal")?;
        let sigint = signal.getattr("SIGINT")?;
        let previous = signal.call_method1("getsignal", (&sigint,))?;
        if !previous.is(&signal.getattr("default_int_handler")?) {
            return Ok(Deferred { restore: None });
        }
        INTERRUPTED.store(false, Relaxed);
        let handler = wrap_pyfunction!(note_interrupt, py)?;
        signal.call_method1("signal", (&sigint, handler))?;
        Ok(Deferred {
            restore: Some((signal, previous)),
        })
    }

    /// Whether this search deferred SIGINT, and so reads the signal: a search on another
    /// thread (or inside another search) leaves it to the main thread's outer one.
    pub fn active(&self) -> bool {
        self.restore.is_some()
    }
}

impl Drop for Deferred<'_> {
    fn drop(&mut self) {
        if let Some((signal, previous)) = self.restore.take() {
            let restored = signal
                .getattr("SIGINT")
                .and_then(|sigint| signal.call_method1("signal", (sigint, previous)));
            if let Err(e) = restored {
                e.write_unraisable(signal.py(), None);
            }
        }
    }
}
