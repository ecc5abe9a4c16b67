//! One search at a time on an object that C holds (a table, an MCTS search object): a
//! search leases it, another search gets the object's "busy" status, and a free that
//! comes while it is leased (from a callback of that search, or another thread) is done
//! when the lease ends.

use std::sync::atomic::{AtomicU8, Ordering};

use super::status::mm_status;

/// Free to lease.
pub(crate) const IDLE: u8 = 0;
const IN_USE: u8 = 1;
const FREE_WHEN_DONE: u8 = 2;
const FREED: u8 = 3;

/// An object from `Box::into_raw` that searches lease: it has a state, `IDLE` when made.
pub(crate) trait Leased: Sized {
    /// The state, borrowed alone (a lease holds the object's other fields).
    ///
    /// # Safety
    /// `this` must be live.
    unsafe fn state<'a>(this: *const Self) -> &'a AtomicU8;
}

/// A search's hold on a leased object, given back when dropped.
pub(crate) struct Lease<T: Leased>(*mut T);

impl<T: Leased> Lease<T> {
    /// Leases `this`, or gives `busy` if another search holds it.
    ///
    /// # Safety
    /// `this` must be live, from `Box::into_raw`.
    pub(crate) unsafe fn take(this: *mut T, busy: mm_status) -> Result<Self, mm_status> {
        // SAFETY: live (caller's guarantee).
        let state = unsafe { T::state(this) };
        state
            .compare_exchange(IDLE, IN_USE, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| busy)?;
        Ok(Lease(this))
    }

    /// The object: live while leased, and held by this lease alone.
    pub(crate) fn ptr(&self) -> *mut T {
        self.0
    }
}

impl<T: Leased> Drop for Lease<T> {
    fn drop(&mut self) {
        // SAFETY: the object lives while leased (`free` defers to us).
        let state = unsafe { T::state(self.0) };
        if state
            .compare_exchange(IN_USE, IDLE, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            // FREE_WHEN_DONE: freed during the search.
            // SAFETY: from Box::into_raw (`take`'s contract); `free` left the freeing to
            // this lease, and nothing else holds it now.
            drop(unsafe { Box::from_raw(self.0) });
        }
    }
}

/// Frees `this` now, or when its lease ends; a second free is ignored.
///
/// # Safety
/// `this` must be from `Box::into_raw` and not freed before (a free pending at the end
/// of a lease counts as not yet freed).
pub(crate) unsafe fn free<T: Leased>(this: *mut T) {
    // SAFETY: live (caller's guarantee).
    let state = unsafe { T::state(this) };
    loop {
        let (now, next) = match state.load(Ordering::Acquire) {
            IDLE => (IDLE, FREED),
            IN_USE => (IN_USE, FREE_WHEN_DONE),
            _ => return, // already to be freed
        };
        if state
            .compare_exchange(now, next, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            if next == FREED {
                // SAFETY: from Box::into_raw (caller's guarantee); no search holds it.
                drop(unsafe { Box::from_raw(this) });
            }
            return;
        }
    }
}
