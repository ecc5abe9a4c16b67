//! MCTS's memory (issue 40): memory that cannot be had is a full tree, never an abort, on
//! one thread and on two. On 2 threads under `ulimit -v 1000000` with `max_nodes` 12M, a
//! search died with "memory allocation of 256174416 bytes failed" (the shared tree copied
//! back with infallible allocations); and `max_nodes` unlimited on 2 threads ran on one
//! (`FewerThreads::NoMemory`), the shared tree's whole room being asked for at once. An
//! allocator that counts (and can refuse) stands in for the system's; one test function,
//! so that no other test allocates meanwhile.

#[path = "common/games.rs"]
mod games;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use games::{Bits, TicTacToe};
use minimax::search::mcts::{Mcts, MctsOptions};
use minimax::search::{Game, GameError};

struct Capped;

static LIVE: AtomicUsize = AtomicUsize::new(0);
/// Allocations that would take the live bytes above this fail (usize::MAX: none do).
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

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

#[test]
fn memory_short_or_unlimited_is_never_an_abort_and_keeps_the_threads() {
    // 8 MiB above what is live: room for about 100,000 nodes where 300,000 playouts
    // would add about as many; max_nodes asks for 12M.
    for threads in [1, 2] {
        let mut g = Bits::new();
        CAP.store(LIVE.load(Relaxed) + (8 << 20), Relaxed);
        let r = Mcts::new().search_parallel(
            &mut g,
            &mut MctsOptions {
                playouts: 300_000,
                max_nodes: 12_000_000,
                threads,
                ..MctsOptions::default()
            },
        );
        CAP.store(usize::MAX, Relaxed);
        let r = r.unwrap();
        assert!(r.tree_full, "{threads} threads: the tree stopped growing");
        assert_eq!(
            r.threads, threads,
            "the threads searched in the memory there was"
        );
        let mut moves = Vec::new();
        g.moves(&mut moves).unwrap();
        assert!(moves.contains(&r.best_move.unwrap()), "a legal move");
        println!(
            "{threads} threads: {} nodes, {} playouts",
            r.nodes, r.playouts
        );
    }
    // So little memory that even the search's buffers cannot be had: a result or
    // GameError::OutOfMemory, never an abort (one thread: on threads, the helpers' few
    // hundred bytes of set-up, a job and a channel, are had infallibly).
    for spare in [0usize, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10] {
        let mut g = Bits::new();
        let mut o = MctsOptions {
            playouts: 2_000,
            ..MctsOptions::default()
        };
        let mut m = Mcts::new();
        CAP.store(LIVE.load(Relaxed) + spare, Relaxed);
        let r = m.search(&mut g, &mut o);
        CAP.store(usize::MAX, Relaxed);
        match r {
            Ok(r) => assert!(r.best_move.is_some(), "{spare} bytes: {r:?}"),
            Err(e) => assert_eq!(e, GameError::OutOfMemory, "{spare} bytes"),
        }
    }
    // No node limit on 2 threads: the shared tree takes the room the system gives, and
    // the search runs on both (tic-tac-toe is proven a draw).
    let r = Mcts::new()
        .search_parallel(
            &mut TicTacToe::new(),
            &mut MctsOptions {
                playouts: 0,
                max_nodes: usize::MAX,
                threads: 2,
                ..MctsOptions::default()
            },
        )
        .unwrap();
    assert_eq!((r.threads, r.fewer_threads), (2, None));
    assert_eq!(r.proven.map(|p| p.reward), Some(0.5));
}
