//! Which thread is Python's main one: the one signals go to, and the one that runs
//! `atexit` callbacks (`watch.rs` and `exit.rs` both ask).

#[cfg(unix)]
use std::sync::atomic::Ordering::Relaxed;

use pyo3::prelude::*;

/// The main thread's id (Python's `threading.main_thread().ident`, which is its
/// `pthread_self()`), read when the module is imported.
#[cfg(unix)]
static MAIN_THREAD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Notes the main thread, when the module is imported.
pub fn note_main_thread(py: Python<'_>) -> PyResult<()> {
    #[cfg(unix)]
    {
        let ident: u64 = py
            .import("threading")?
            .call_method0("main_thread")?
            .getattr("ident")?
            .extract()?;
        MAIN_THREAD.store(ident, Relaxed);
    }
    #[cfg(not(unix))]
    let _ = py;
    Ok(())
}

/// Whether this is Python's main thread (the one signals go to).
#[cfg(unix)]
pub fn on_main_thread() -> bool {
    // SAFETY: pthread_self has no preconditions.
    let me = unsafe { libc::pthread_self() } as u64;
    me == MAIN_THREAD.load(Relaxed)
}

/// Whether this is Python's main thread: asked of `threading` (without the GIL held by
/// this thread's caller, the answer is no).
#[cfg(not(unix))]
pub fn on_main_thread() -> bool {
    Python::try_attach(|py| {
        let threading = py.import("threading").ok()?;
        let main = threading.call_method0("main_thread").ok()?;
        Some(threading.call_method0("current_thread").ok()?.is(&main))
    })
    .flatten()
    .unwrap_or(false)
}
