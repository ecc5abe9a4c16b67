//! The panic boundary and the thread-local last error of the textbook functions.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::status::mm_status;

thread_local! {
    static LAST_ERROR: Cell<mm_status> = const { Cell::new(mm_status::MM_OK) };
    static FORCE_PANIC: Cell<bool> = const { Cell::new(false) };
}

/// Test-only hook (not exported to C): while on, every call through the boundary on this
/// thread panics inside it, so that a test can show that the panic becomes a status.
#[doc(hidden)]
pub fn force_panic_for_tests(on: bool) {
    FORCE_PANIC.with(|f| f.set(on));
}

/// Runs `f`, and turns a panic into `Err(MM_ERR_PANIC)` so that no unwind reaches C.
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> Result<T, mm_status>) -> Result<T, mm_status> {
    // AssertUnwindSafe holds because a panic is reported as an error and no state that
    // the closure touched is used afterwards.
    catch_unwind(AssertUnwindSafe(|| {
        if FORCE_PANIC.with(Cell::get) {
            panic!("forced by force_panic_for_tests");
        }
        f()
    }))
    .unwrap_or(Err(mm_status::MM_ERR_PANIC))
}

/// The boundary for functions that return a status: catches panics and flattens the result.
pub(crate) fn status_call(f: impl FnOnce() -> Result<(), mm_status>) -> mm_status {
    match catch_panic(f) {
        Ok(()) => mm_status::MM_OK,
        Err(status) => status,
    }
}

/// The boundary for the textbook functions, which cannot return a status: the value on
/// success, 0 on failure, and the outcome recorded for `mm_last_error`.
pub(crate) fn textbook_call(f: impl FnOnce() -> Result<i32, mm_status>) -> i32 {
    let result = catch_panic(f);
    let status = result.err().unwrap_or(mm_status::MM_OK);
    LAST_ERROR.with(|e| e.set(status));
    result.unwrap_or(0)
}

/// The status of the last `minimax` or `alphabeta` call on this thread: `MM_OK` after a
/// successful call, otherwise the reason it returned 0. Each thread has its own.
#[unsafe(no_mangle)]
pub extern "C" fn mm_last_error() -> mm_status {
    LAST_ERROR.with(|e| e.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_errors_and_are_recorded() {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let v = textbook_call(|| panic!("boom"));
        std::panic::set_hook(prev);
        assert_eq!((v, mm_last_error()), (0, mm_status::MM_ERR_PANIC));
        assert_eq!(textbook_call(|| Ok(7)), 7);
        assert_eq!(mm_last_error(), mm_status::MM_OK);
    }

    #[test]
    fn last_error_is_per_thread() {
        textbook_call(|| Err(mm_status::MM_ERR_NULL_ARGUMENT));
        let other = std::thread::spawn(|| mm_last_error()).join().unwrap();
        assert_eq!(other, mm_status::MM_OK);
        assert_eq!(mm_last_error(), mm_status::MM_ERR_NULL_ARGUMENT);
    }
}
