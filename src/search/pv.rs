//! Principal variations in memory and time linear in the work done. The textbook keeps a
//! copy of the best line at every ply and copies the line below into it at each new best
//! move: on a line of `D` plies that is `D²/2` moves of memory and copying per iteration.
//! Here a line is a list of cells in one arena; a new best move at ply `p` takes the line
//! of ply `p + 1` as its tail without copying it, and a line that loses is given back to
//! the arena. Each cell is made once and freed once.

use super::game::{GameError, Move};
use super::memory::{lengthen, room};

/// The end of a line.
const NIL: u32 = u32::MAX;

/// The best line found below each ply of the current search path.
pub(crate) struct Lines {
    /// The cells: a move, and the index of the next cell of its line (or of the next free
    /// cell).
    cells: Vec<(Move, u32)>,
    /// The first free cell.
    free: u32,
    /// The line of each ply's node (`NIL`: empty).
    heads: Vec<u32>,
    /// Whether a line lost moves for want of memory: `to_vec` then reports it, so that
    /// the search's hot path need not.
    short: bool,
}

impl Default for Lines {
    fn default() -> Self {
        Lines {
            cells: Vec::new(),
            free: NIL,
            heads: Vec::new(),
            short: false,
        }
    }
}

/// How many cells a thread keeps between searches: a rare very deep search should not
/// leave its memory behind.
const KEPT_CELLS: usize = 1 << 16;

impl Lines {
    /// Ready for a new search, keeping the memory of a usual one.
    pub(crate) fn reset(&mut self) {
        if self.cells.capacity() > KEPT_CELLS {
            self.cells = Vec::new();
        }
        self.cells.clear();
        self.heads.clear();
        self.free = NIL;
        self.short = false;
    }

    /// Makes room for plies up to `ply + 1`.
    #[inline(always)]
    pub(crate) fn reach(&mut self, ply: usize) -> Result<(), GameError> {
        lengthen(&mut self.heads, ply + 2, || NIL)
    }

    /// Empties the line of `ply` (a node starting its search).
    #[inline(always)]
    pub(crate) fn clear(&mut self, ply: usize) {
        let head = std::mem::replace(&mut self.heads[ply], NIL);
        if head != NIL {
            self.release(head);
        }
    }

    fn release(&mut self, mut cell: u32) {
        while cell != NIL {
            let next = self.cells[cell as usize].1;
            self.cells[cell as usize].1 = self.free;
            self.free = cell;
            cell = next;
        }
    }

    /// A cell for `mv` followed by `next`; `None` (and `next` given back) when memory
    /// for it cannot be had.
    fn cell(&mut self, mv: Move, next: u32) -> Option<u32> {
        if self.free != NIL {
            let c = self.free;
            self.free = self.cells[c as usize].1;
            self.cells[c as usize] = (mv, next);
            Some(c)
        } else if room(&mut self.cells, 1).is_ok() {
            self.cells.push((mv, next));
            Some((self.cells.len() - 1) as u32)
        } else {
            self.release(next);
            self.short = true;
            None
        }
    }

    /// The line of `ply` becomes `mv` followed by the line of `ply + 1` (moved, not
    /// copied), or `mv` alone if not `with_below`. Without memory for it, the line is
    /// left empty and `to_vec` reports the loss.
    #[inline(always)]
    pub(crate) fn set(&mut self, ply: usize, mv: Move, with_below: bool) {
        let below = if with_below {
            std::mem::replace(&mut self.heads[ply + 1], NIL)
        } else {
            NIL
        };
        self.clear(ply);
        self.heads[ply] = self.cell(mv, below).unwrap_or(NIL);
    }

    /// The line of `ply` becomes `line`.
    pub(crate) fn set_line(&mut self, ply: usize, line: &[Move]) -> Result<(), GameError> {
        self.clear(ply);
        let mut head = NIL;
        for &mv in line.iter().rev() {
            head = self.cell(mv, head).ok_or(GameError::OutOfMemory)?;
        }
        self.heads[ply] = head;
        Ok(())
    }

    /// The first move of the line of `ply`.
    pub(crate) fn first(&self, ply: usize) -> Option<Move> {
        let head = *self.heads.get(ply)?;
        (head != NIL).then(|| self.cells[head as usize].0)
    }

    /// The line of `ply`, as moves.
    /// [`GameError::OutOfMemory`] if any line lost moves for want of memory.
    pub(crate) fn to_vec(&self, ply: usize) -> Result<Vec<Move>, GameError> {
        if self.short {
            return Err(GameError::OutOfMemory);
        }
        let mut line = Vec::new();
        let mut cell = self.heads.get(ply).copied().unwrap_or(NIL);
        while cell != NIL {
            let (mv, next) = self.cells[cell as usize];
            room(&mut line, 1)?;
            line.push(mv);
            cell = next;
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_built_from_below_and_cells_reused() {
        let mut l = Lines::default();
        l.reset();
        l.reach(3).unwrap();
        l.set(3, 30, true);
        l.set(2, 20, true);
        l.set(1, 10, true);
        assert_eq!(l.to_vec(1).unwrap(), [10, 20, 30]);
        assert_eq!(l.to_vec(2).unwrap(), Vec::<Move>::new()); // moved up, not copied
        l.set(1, 11, false);
        assert_eq!((l.to_vec(1).unwrap(), l.first(1)), (vec![11], Some(11)));
        let used = l.cells.len();
        l.set_line(0, &[1, 2, 3]).unwrap();
        assert_eq!(l.to_vec(0).unwrap(), [1, 2, 3]);
        assert_eq!(l.cells.len(), used + 1, "the freed cells were reused");
        l.clear(0);
        assert_eq!(l.first(0), None);
    }

    /// A line of `D` plies built ply by ply from the bottom, as a search of a game with
    /// one move a position builds it, makes `D` cells, not `D²/2`.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "314 s under Miri (a 20,000-ply line three times), for safe code only"
    )]
    fn a_long_line_costs_one_cell_a_ply() {
        let mut l = Lines::default();
        let d = 20_000;
        l.reach(d).unwrap();
        for iteration in 0..3 {
            // Each node empties its line as it starts, then takes its child's.
            for ply in 0..=d {
                l.clear(ply);
            }
            for ply in (0..d).rev() {
                l.set(ply, ply as Move, true);
            }
            assert_eq!(l.to_vec(0).unwrap().len(), d, "iteration {iteration}");
            assert!(l.cells.len() <= d + 1);
        }
    }
}
