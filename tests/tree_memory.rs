//! The tree API's memory: building a tree from a leaf array or CSR arrays takes a few
//! words a node at its peak, and memory that cannot be had is `MM_ERR_OUT_OF_MEMORY`
//! rather than an abort. An allocator that counts (and can refuse) stands in for the
//! system's; one test function, so that no other test allocates meanwhile.

use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::tree::trees::*;
use minimax::tree::Tree;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Allocations that would take the live bytes above this fail (usize::MAX: none do).
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

// SAFETY: every call is passed on to the system allocator unchanged, or refused with
// NULL (which callers must handle), and the counts are only statistics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.load(Relaxed);
        if live.saturating_add(layout.size()) > CAP.load(Relaxed) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(now, Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: a block this allocator gave, with its layout.
        unsafe { System.dealloc(p, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak bytes allocated while `f` runs, above what was live before.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let out = f();
    (out, PEAK.load(Relaxed) - before)
}

fn from_leaves(leaves: &[i32], branching: usize) -> (mm_status, *mut mm_tree) {
    let mut tree = std::ptr::null_mut();
    // SAFETY: `leaves` holds its length; `tree` is writable.
    let s = unsafe { mm_tree_from_leaves(leaves.as_ptr(), leaves.len(), branching, &mut tree) };
    (s, tree)
}

#[test]
fn trees_take_a_few_words_a_node_and_report_out_of_memory() {
    const WORD: usize = size_of::<usize>();
    let leaves: Vec<i32> = (0..1i64 << 20)
        .map(|i| (i * 7919 % 2001) as i32 - 1000)
        .collect();
    let nodes = 2 * leaves.len() - 1;

    // A complete binary tree of 2^20 leaves: at most five words a node, at any time.
    let (tree, peak) = peak_of(|| Tree::from_complete(&leaves, 2).unwrap());
    assert_eq!(tree.node_count(), nodes);
    println!("from_complete: {} bytes a node", peak / nodes);
    assert!(peak <= 5 * WORD * nodes, "{} bytes a node", peak / nodes);
    // The same through C, labels and handle included.
    let ((s, handle), peak) = peak_of(|| from_leaves(&leaves, 2));
    assert_eq!(s, MM_OK);
    assert!(
        peak <= 5 * WORD * nodes,
        "{} bytes a node through C",
        peak / nodes
    );
    // SAFETY: a tree from this library, freed once.
    unsafe { mm_tree_free(handle) };

    // CSR arrays of the same tree.
    let offsets: Vec<usize> = (0..=nodes).map(|i| i.min(nodes / 2) * 2).collect();
    let children: Vec<usize> = (1..nodes).collect();
    let mut values = vec![0; nodes / 2];
    values.extend_from_slice(&leaves);
    let (tree, peak) = peak_of(|| Tree::from_csr(&offsets, &children, &values).unwrap());
    assert_eq!(
        tree,
        Tree::from_complete(&leaves, 2).unwrap(),
        "the same tree"
    );
    assert!(
        peak <= 5 * WORD * nodes,
        "{} bytes a node from CSR",
        peak / nodes
    );
    drop(tree);

    // Memory that cannot be had: a status, never an abort, and nothing written.
    for cap in [0, 1 << 10, 1 << 20, 16 << 20, 40 << 20] {
        CAP.store(LIVE.load(Relaxed) + cap, Relaxed);
        let (s, handle) = from_leaves(&leaves, 2);
        let mut csr = std::ptr::null_mut();
        // SAFETY: each array holds its length; `csr` is writable.
        let c = unsafe {
            mm_tree_from_csr(
                offsets.as_ptr(),
                offsets.len(),
                children.as_ptr(),
                children.len(),
                values.as_ptr(),
                values.len(),
                &mut csr,
            )
        };
        CAP.store(usize::MAX, Relaxed);
        assert_eq!(
            (s, handle.is_null()),
            (MM_ERR_OUT_OF_MEMORY, true),
            "cap {cap}"
        );
        assert_eq!(
            (c, csr.is_null()),
            (MM_ERR_OUT_OF_MEMORY, true),
            "cap {cap}"
        );
    }
}
