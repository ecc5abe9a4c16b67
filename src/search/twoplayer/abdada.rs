//! The "being searched" marks of a parallel search (ABDADA, Weill 1996, in Kerrigan's
//! simplified form): a thread marks the positions it is searching, and another thread
//! puts off a move whose position is marked. Shared by every search of the process.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The fewest plies left below a node for its moves to be marked and put off: below it,
/// a subtree costs less than the marking.
pub(crate) const SHARE_DEPTH: u32 = 2;

/// Only nodes this close to the root mark their moves: every mark is a store to a line
/// the other threads read, and deeper subtrees are too small to be worth sharing. On the
/// first 40 positions of Test_L1_R2, 2 threads: 1.76x faster than one with 12 plies,
/// 1.61-1.70x marking at every ply, 1.68-1.70x with 6 or 8, 1.70x with 16.
pub(crate) const SHARE_PLIES: u32 = 12;

/// Whether a node's moves are marked and may be put off.
pub(crate) fn shares(depth: u32, ply: u32) -> bool {
    depth >= SHARE_DEPTH && ply < SHARE_PLIES
}

/// The positions being searched now, by any thread of any search, as hashes in a small
/// direct-mapped array: a mark may be lost or overwritten, which costs only some
/// duplicated work, never a wrong answer.
static BUSY: [AtomicU64; 1 << 15] = [const { AtomicU64::new(0) }; 1 << 15];

fn busy_slot(key: u64) -> &'static AtomicU64 {
    &BUSY[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 49) as usize]
}

/// Whether some thread is searching the position of hash `key` now.
pub(crate) fn is_busy(key: u64) -> bool {
    key != 0 && busy_slot(key).load(Relaxed) == key
}

/// A mark that a position is being searched, removed when dropped.
pub(crate) struct Claim(u64);

impl Claim {
    pub(crate) fn new(key: u64) -> Claim {
        busy_slot(key).store(key, Relaxed);
        Claim(key)
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let _ = busy_slot(self.0).compare_exchange(self.0, 0, Relaxed, Relaxed);
    }
}
