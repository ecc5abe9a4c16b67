//! An allocator that counts live bytes and refuses any allocation that would take them
//! above `CAP`: it stands in for the system's in the memory tests, which lower `CAP`
//! around a search and check that it answers or reports `OutOfMemory`, never aborts.
//! Each such test binary has its own main (no harness, whose main thread allocates as
//! a test starts), so that nothing else allocates meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

pub struct Capped;

pub static LIVE: AtomicUsize = AtomicUsize::new(0);
/// Allocations that would take the live bytes above this fail (usize::MAX: none do).
pub static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

impl Capped {
    fn admit(layout: Layout) -> bool {
        LIVE.load(Relaxed).saturating_add(layout.size()) <= CAP.load(Relaxed)
    }
    fn count(p: *mut u8, layout: Layout) -> *mut u8 {
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Relaxed);
        }
        p
    }
}

// SAFETY: every call is passed on to the system allocator unchanged, or refused with
// NULL (which callers must handle), and the count is only a statistic.
unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !Capped::admit(layout) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        Capped::count(unsafe { System.alloc(layout) }, layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !Capped::admit(layout) {
            return std::ptr::null_mut();
        }
        // SAFETY: as above (the system's zeroed pages, not written here).
        Capped::count(unsafe { System.alloc_zeroed(layout) }, layout)
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: a block this allocator gave, with its layout.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;
