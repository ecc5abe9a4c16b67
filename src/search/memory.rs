//! Zeroed memory for the transposition table. A table of 64 KiB or more is mapped
//! straight from the kernel (on Linux), whose fresh pages read as zeros and cost nothing
//! until they are first written: a search that touches a few entries of a 16 MiB table
//! pays for a few pages, not for zeroing 16 MiB. (The allocator's `calloc` would not do:
//! once a large block has been freed, glibc serves the next from memory it must clear.)
//! A search that writes most of its table pays a fault a page instead, so a search's own
//! table is kept for the next search (`kept.rs`).
//! Smaller tables come zeroed from the global allocator. A table about to be filled for
//! many searches can instead be aligned to a huge page and advised onto 2 MiB pages: a
//! probe lands anywhere in the table, and with 4 KiB pages nearly every probe would also
//! miss the TLB.

use std::alloc::Layout;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use super::game::GameError;

/// Room for `more` items in `v`, or [`GameError::OutOfMemory`]: memory that cannot be had
/// is an error, never an abort.
#[inline]
pub(crate) fn room<T>(v: &mut Vec<T>, more: usize) -> Result<(), GameError> {
    match v.capacity() - v.len() >= more {
        true => Ok(()),
        false => v.try_reserve(more).map_err(|_| GameError::OutOfMemory),
    }
}

/// `v` lengthened to at least `len` items made by `fill` (the per-ply buffers of a
/// search), or [`GameError::OutOfMemory`] with `v` as it was.
pub(crate) fn lengthen<T>(
    v: &mut Vec<T>,
    len: usize,
    fill: impl FnMut() -> T,
) -> Result<(), GameError> {
    if v.len() < len {
        room(v, len - v.len())?;
        v.resize_with(len, fill);
    }
    Ok(())
}

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
    /// An anonymous mapping of `size` bytes at `base`, which `ptr` lies inside (made by
    /// `mapped`).
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        size: usize,
    },
}

/// Huge pages on x86-64 and aarch64 Linux; a table smaller than one gains nothing.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// From this size on, `new` maps fresh pages from the kernel rather than the heap.
#[cfg(target_os = "linux")]
const MAPPED_FROM: usize = 64 << 10;

/// The pages a mapping is aligned to (4 KiB on the systems this runs on; a mapping is
/// always aligned at least that much).
#[cfg(target_os = "linux")]
const PAGE: usize = 4 << 10;

impl<T: Zeroable> Zeroed<T> {
    /// `len` zeroed values, or `None` if the memory cannot be had. Large ones are mapped
    /// lazily: a page costs its zeroing only when first written.
    pub(crate) fn new(len: usize) -> Option<Zeroed<T>> {
        let layout = Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return Some(Zeroed {
                ptr: NonNull::dangling(),
                len,
                source: Source::Empty,
            });
        }
        #[cfg(target_os = "linux")]
        if layout.size() >= MAPPED_FROM && layout.align() <= PAGE {
            return Self::mapped(layout, len, PAGE, false);
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
        Self::mapped(layout, len, HUGE_PAGE, true)
    }

    /// `len` values of `layout` in a fresh anonymous mapping, aligned to `align` (a power
    /// of two, at least the layout's alignment), advised onto huge pages if `huge`.
    #[cfg(target_os = "linux")]
    fn mapped(layout: Layout, len: usize, align: usize, huge: bool) -> Option<Zeroed<T>> {
        // A mapping is page-aligned; for a larger alignment, map one `align` more than
        // needed, so that an aligned start fits inside.
        let extra = if align > PAGE { align } else { 0 };
        let size = layout.size().checked_add(extra)?;
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
        let offset = (base as usize).next_multiple_of(align) - base as usize;
        // SAFETY: `offset` is 0 when `extra` is (a mapping is page-aligned), else below
        // `align == extra`, and the mapping is `extra` longer than the layout, so the
        // values lie inside it.
        let start = unsafe { base.cast::<u8>().add(offset) };
        // (Miri, which checks the unsafe code under `cargo miri test`, has no madvise.)
        if huge && !cfg!(miri) {
            // SAFETY: advice on pages of our own mapping (`start` and `layout.size()` lie
            // inside it): MADV_HUGEPAGE changes only how the kernel backs them, never
            // their contents. If the kernel declines, the pages stay small.
            unsafe { libc::madvise(start.cast(), layout.size(), libc::MADV_HUGEPAGE) };
        }
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

impl<T: Zeroable> DerefMut for Zeroed<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; `&mut self` is the only access to the values while the
        // slice lives.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
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
                // SAFETY: the whole mapping made in `mapped`, unmapped once; no reference
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
    #[cfg_attr(
        miri,
        ignore = "megabytes written a word at a time: over 15 minutes under Miri"
    )]
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
