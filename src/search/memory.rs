//! Zeroed memory for the transposition table. By default it comes zeroed from the global
//! allocator, which for a run of short searches reuses memory already mapped. A table
//! about to be filled for many searches can instead be mapped straight from the kernel,
//! aligned to a huge page and advised onto 2 MiB pages (on Linux): a probe lands anywhere
//! in the table, and with 4 KiB pages nearly every probe would also miss the TLB.

use std::alloc::Layout;
use std::ops::Deref;
use std::ptr::NonNull;

/// A type for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement it only for such types (integers, atomics, arrays and structs of them).
pub(crate) unsafe trait Zeroable {}

/// A fixed-length slice of zero-initialised values, owned like a `Box<[T]>`.
pub(crate) struct Zeroed<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    source: Source,
}

/// Where the memory came from, so that it goes back there.
enum Source {
    /// Nothing allocated (zero values).
    Empty,
    Heap(Layout),
    /// An anonymous mapping of `size` bytes at `base`, which `ptr` lies inside.
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        size: usize,
    },
}

/// Huge pages on x86-64 and aarch64 Linux; a table smaller than one gains nothing.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl<T: Zeroable> Zeroed<T> {
    /// `len` zeroed values, or `None` if the memory cannot be had.
    pub(crate) fn new(len: usize) -> Option<Zeroed<T>> {
        let layout = Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return Some(Zeroed {
                ptr: NonNull::dangling(),
                len,
                source: Source::Empty,
            });
        }
        // SAFETY: the layout's size is not zero (checked).
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(Zeroed {
            ptr: ptr.cast(),
            len,
            source: Source::Heap(layout),
        })
    }

    /// `len` zeroed values on huge pages, for memory about to be filled and then used at
    /// random for a long time; `None` for less than one huge page, on other systems, or
    /// if the kernel refuses. (Not the default: every huge page costs 2 MiB of zeroing at
    /// its first touch, and a fresh mapping never reuses memory already mapped.)
    #[cfg(target_os = "linux")]
    pub(crate) fn huge(len: usize) -> Option<Zeroed<T>> {
        let layout = Layout::array::<T>(len).ok()?;
        if layout.size() < HUGE_PAGE || layout.align() > HUGE_PAGE {
            return None;
        }
        // One huge page more than needed, so that an aligned start fits inside.
        let size = layout.size().checked_add(HUGE_PAGE)?;
        // SAFETY: a new private anonymous mapping: it touches no existing memory, and
        // the kernel fills its pages with zeros when they are first used.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (base as usize).next_multiple_of(HUGE_PAGE) - base as usize;
        // SAFETY: `offset` is below one huge page, and the mapping is one huge page longer
        // than the layout, so the values lie inside it.
        let start = unsafe { base.cast::<u8>().add(offset) };
        // SAFETY: advice on pages of our own mapping (`start` and `layout.size()` lie
        // inside it): MADV_HUGEPAGE changes only how the kernel backs them, never their
        // contents. If the kernel declines, the pages stay small.
        unsafe { libc::madvise(start.cast(), layout.size(), libc::MADV_HUGEPAGE) };
        Some(Zeroed {
            ptr: NonNull::new(start)?.cast(),
            len,
            source: Source::Mapped { base, size },
        })
    }
}

#[cfg(not(target_os = "linux"))]
impl<T: Zeroable> Zeroed<T> {
    pub(crate) fn huge(_: usize) -> Option<Zeroed<T>> {
        None
    }
}

impl<T: Zeroable> Deref for Zeroed<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` values of `T` (or is dangling with a zero-sized
        // layout), suitably aligned (the layout's or a huge page's alignment), all
        // initialised since all-zero bytes are a valid `T` (`Zeroable`), and owned by
        // `self`, which hands out only shared references.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Zeroed<T> {
    fn drop(&mut self) {
        match self.source {
            Source::Empty => {}
            // SAFETY: allocated by the global allocator with this layout, freed once.
            Source::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), layout)
            },
            #[cfg(target_os = "linux")]
            Source::Mapped { base, size } => {
                // SAFETY: the whole mapping made in `huge`, unmapped once; no reference
                // into it outlives `self`.
                unsafe { libc::munmap(base, size) };
            }
        }
    }
}

// SAFETY: `Zeroed<T>` owns its values as a `Box<[T]>` does: it may move to another
// thread when `T` may, and be shared between threads when `T` may.
unsafe impl<T: Zeroable + Send> Send for Zeroed<T> {}
// SAFETY: as above; shared access gives only `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for Zeroed<T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    // SAFETY: an all-zero AtomicU64 is 0.
    unsafe impl Zeroable for AtomicU64 {}

    #[test]
    fn zeroed_writable_and_aligned_at_every_size() {
        // Empty, small, and at and above one huge page; from the heap, and mapped on huge
        // pages where that applies.
        let lens = [0, 1, 1000, (2 << 20) / 8, (5 << 20) / 8 + 3];
        let heap = lens.map(|len| (len, Zeroed::<AtomicU64>::new(len).expect("memory")));
        let huge = lens
            .iter()
            .filter_map(|&len| Some((len, Zeroed::huge(len)?)));
        for (len, z) in heap.into_iter().chain(huge) {
            assert_eq!(z.len(), len);
            assert!(z.iter().all(|w| w.load(Relaxed) == 0));
            for (i, w) in z.iter().enumerate() {
                w.store(i as u64, Relaxed);
            }
            assert!(
                z.iter()
                    .enumerate()
                    .all(|(i, w)| w.load(Relaxed) == i as u64)
            );
            assert_eq!(z.as_ptr() as usize % align_of::<AtomicU64>(), 0);
        }
    }

    #[test]
    fn absurd_sizes_are_refused() {
        assert!(Zeroed::<AtomicU64>::new(usize::MAX / 4).is_none());
        assert!(Zeroed::<AtomicU64>::huge(usize::MAX / 4).is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn huge_only_from_one_huge_page() {
        assert!(Zeroed::<AtomicU64>::huge(1000).is_none());
        assert!(Zeroed::<AtomicU64>::huge((2 << 20) / 8).is_some());
    }
}
