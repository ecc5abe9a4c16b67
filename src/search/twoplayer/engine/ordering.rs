//! Move ordering the engine learns as it searches ([`Options::killer_moves`],
//! [`Options::history_order`]): two killer moves a ply, the last moves that cut off at that ply elsewhere in the tree
//! (Akl and Newborn 1977), and a history table, a score per move and side that grows by
//! depth² at each cut-off (Schaeffer 1989, "The history heuristic"). After the table's
//! move, a node tries its killers, then its other moves by history, the game's order
//! among equals. Written from those papers' descriptions. The order never changes a value
//! (alpha-beta's value is the same in any order), only how soon the cut-offs come.
//!
//! [`Options::killer_moves`]: crate::search::Options::killer_moves
//! [`Options::history_order`]: crate::search::Options::history_order

use crate::search::game::{GameError, Move, NO_MOVE};
use crate::search::memory::lengthen;

/// History entries: a move's number and side are hashed to one (moves are any integers).
const HISTORY: usize = 1 << 12;

/// Lists longer than this keep the game's order after the killers: the insertion sort
/// that keeps ties in order is quadratic.
const MOST_SORTED: usize = 64;

pub(crate) struct Learned {
    /// Two killers per ply, the newest first.
    killers: Vec<[Move; 2]>,
    /// Empty without `history_order`.
    history: Vec<u32>,
    use_killers: bool,
}

fn slot(mv: Move, max_side: bool) -> usize {
    let h = (mv as u64 ^ max_side as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - HISTORY.trailing_zeros())) as usize
}

impl Learned {
    /// Empty tables for what is used, or [`GameError::OutOfMemory`].
    pub fn new(killers: bool, history: bool) -> Result<Learned, GameError> {
        let mut table = Vec::new();
        if history {
            lengthen(&mut table, HISTORY, || 0)?;
        }
        Ok(Learned {
            killers: Vec::new(),
            history: table,
            use_killers: killers,
        })
    }

    /// Room for the killers of plies up to `ply`.
    pub fn reach(&mut self, ply: usize) -> Result<(), GameError> {
        lengthen(&mut self.killers, ply + 1, || [NO_MOVE; 2])
    }

    /// `mv` cut off at `ply`, `depth` plies above the leaves.
    pub fn cutoff(&mut self, ply: usize, mv: Move, max_side: bool, depth: u32) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            *k = [mv, k[0]];
        }
        if let Some(h) = self.history.get_mut(slot(mv, max_side)) {
            *h = h.saturating_add(depth.saturating_mul(depth));
        }
    }

    /// Orders `moves` (a node's at `ply`, the table's move already taken out): killers
    /// first, then by history, ties in the game's order.
    pub fn order(&self, moves: &mut [Move], ply: usize, max_side: bool) {
        let mut front = 0;
        let killers = if self.use_killers {
            self.killers[ply]
        } else {
            [NO_MOVE; 2]
        };
        for killer in killers {
            if killer == NO_MOVE {
                continue;
            }
            if let Some(i) = moves[front..].iter().position(|&m| m == killer) {
                moves[front..=front + i].rotate_right(1);
                front += 1;
            }
        }
        let rest = &mut moves[front..];
        if rest.len() > MOST_SORTED || self.history.is_empty() {
            return;
        }
        let score = |m: Move| self.history[slot(m, max_side)];
        for i in 1..rest.len() {
            let (m, s) = (rest[i], score(rest[i]));
            let mut j = i;
            while j > 0 && score(rest[j - 1]) < s {
                rest[j] = rest[j - 1];
                j -= 1;
            }
            rest[j] = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn killers_come_first_then_history_with_ties_in_order() {
        let mut l = Learned::new(true, true).unwrap();
        l.reach(3).unwrap();
        l.cutoff(2, 40, true, 3); // history 9 for 40 (MAX)
        l.cutoff(2, 50, true, 1); // killers at ply 2: [50, 40]; 50 has 1
        l.cutoff(3, 30, true, 4); // 30: 16, a killer of ply 3 only
        let mut moves = [10, 20, 30, 40, 50, 60];
        l.order(&mut moves, 2, true);
        assert_eq!(moves, [50, 40, 30, 10, 20, 60]);
        let mut moves = [10, 20, 30, 40, 50, 60];
        l.order(&mut moves, 2, false); // MIN's history is its own
        assert_eq!(moves, [50, 40, 10, 20, 30, 60]);
        let mut moves = [10, 20];
        l.order(&mut moves, 0, true);
        assert_eq!(moves, [10, 20], "no killers, no history: the game's order");
        let mut alone = Learned::new(false, true).unwrap();
        alone.reach(2).unwrap();
        alone.cutoff(2, 50, true, 1);
        let mut moves = [10, 50, 20];
        alone.order(&mut moves, 2, true);
        assert_eq!(moves, [50, 10, 20], "history alone");
        let mut alone = Learned::new(true, false).unwrap();
        alone.reach(2).unwrap();
        alone.cutoff(2, 20, true, 1);
        alone.cutoff(2, 50, true, 5);
        let mut moves = [10, 20, 30, 50];
        alone.order(&mut moves, 2, true);
        assert_eq!(
            moves,
            [50, 20, 10, 30],
            "killers alone, the rest as they were"
        );
    }
}
