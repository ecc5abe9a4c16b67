//! Max^n's transposition table: a position's vector of values at a depth, by its hash,
//! with the best move found; or only the move where a cut left the values a bound.
//! One entry a slot, always replaced; owned by one search.

use super::Values;
use crate::search::game::{Move, NO_MOVE};
use crate::search::memory::{Zeroable, Zeroed};

/// A stored search of a position.
#[derive(Clone, Copy)]
#[repr(C)]
pub(super) struct Entry {
    /// The hash, 0 for an empty slot (a position whose hash is 0 is not stored).
    key: u64,
    /// Each player's value, when `exact`.
    pub values: Values,
    /// The best move found, or `NO_MOVE`.
    pub best: Move,
    /// The depth searched.
    depth: u32,
    /// The player to move, so that a game whose hash leaves it out is not misread.
    mover: u8,
    /// Whether `values` is the max^n value (a node cut by shallow pruning has a bound).
    pub exact: bool,
    /// Whether every line below reached a final position: the value then holds at any
    /// depth at least `depth`.
    pub proven: bool,
}

// SAFETY: integers, floats and bools, for which all-zero bytes are valid (0, 0.0, false).
unsafe impl Zeroable for Entry {}

impl Entry {
    /// Whether the entry's values are the position's max^n value at `depth`.
    pub fn fits(&self, depth: u32) -> bool {
        self.exact
            && if self.proven {
                self.depth <= depth
            } else {
                self.depth == depth
            }
    }
}

/// The table: a power-of-two count of slots.
pub(super) struct Table {
    slots: Zeroed<Entry>,
    shift: u32,
}

impl Table {
    /// A table of at most `bytes`, or `None` for less than one slot or memory that
    /// cannot be had (the search then runs without one).
    pub fn new(bytes: usize) -> Option<Table> {
        let most = bytes / size_of::<Entry>();
        if most == 0 {
            return None;
        }
        let bits = most.ilog2();
        Some(Table {
            slots: Zeroed::new(1 << bits)?,
            shift: 64 - bits,
        })
    }

    fn slot(&self, key: u64) -> usize {
        // The top bits of a Fibonacci multiple: games' hashes are often poorly mixed.
        key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .checked_shr(self.shift)
            .unwrap_or(0) as usize
    }

    /// The entry stored for `key` with `mover` to move.
    pub fn probe(&self, key: u64, mover: usize) -> Option<&Entry> {
        let e = &self.slots[self.slot(key)];
        (key != 0 && e.key == key && e.mover as usize == mover).then_some(e)
    }

    /// Stores a search of `key`: its values if `exact`, else only its best move.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        mover: usize,
        depth: u32,
        values: &Values,
        best: Option<Move>,
        exact: bool,
        proven: bool,
    ) {
        let i = self.slot(key);
        self.slots[i] = Entry {
            key,
            values: *values,
            best: best.unwrap_or(NO_MOVE),
            depth,
            mover: mover as u8,
            exact,
            proven,
        };
    }
}
