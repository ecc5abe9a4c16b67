//! Tic-tac-toe on two bitmasks: X (MAX) moves first; 1 a win for X, -1 for O, 0 a draw.

use minimax::search::{Game, GameError, Move};

/// The eight lines, as masks of cells 0-8 (row by row).
const LINES: [u16; 8] = [0x7, 0x38, 0x1c0, 0x49, 0x92, 0x124, 0x111, 0x54];

/// The cells in the order they are tried: the centre, the corners, the edges.
const ORDER: [Move; 9] = [4, 0, 2, 6, 8, 1, 3, 5, 7];

#[derive(Clone, Default)]
pub struct TicTacToe {
    /// X's cells and O's.
    marks: [u16; 2],
}

impl TicTacToe {
    fn full(&self) -> u16 {
        self.marks[0] | self.marks[1]
    }
    fn x_to_move(&self) -> bool {
        self.full().count_ones() % 2 == 0
    }
    fn won(marks: u16) -> bool {
        LINES.iter().any(|&line| line & !marks == 0)
    }
}

impl Game for TicTacToe {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.outcome().is_none() {
            out.extend(ORDER.iter().filter(|&&c| self.full() >> c & 1 == 0));
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let side = usize::from(!self.x_to_move());
        self.marks[side] |= 1 << mv;
    }
    fn undo(&mut self, mv: Move) {
        let side = usize::from(self.x_to_move()); // the side that moved last
        self.marks[side] &= !(1 << mv);
    }
    fn outcome(&mut self) -> Option<i32> {
        if Self::won(self.marks[0]) {
            Some(1)
        } else if Self::won(self.marks[1]) {
            Some(-1)
        } else if self.full() == 0x1ff {
            Some(0)
        } else {
            None
        }
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(u64::from(self.marks[0]) | u64::from(self.marks[1]) << 9)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.x_to_move())
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-1, 1))
    }
}

/// For batched MCTS: the side to move's marks, then the other side's (cells row by row),
/// and one action a cell.
impl minimax::search::batched::Encode for TicTacToe {
    fn observation_size(&self) -> usize {
        18
    }
    fn action_count(&self) -> usize {
        9
    }
    fn observe(&mut self, out: &mut [f32]) {
        let (mine, theirs) = if self.x_to_move() {
            (self.marks[0], self.marks[1])
        } else {
            (self.marks[1], self.marks[0])
        };
        for cell in 0..9 {
            if mine >> cell & 1 == 1 {
                out[cell] = 1.0;
            } else if theirs >> cell & 1 == 1 {
                out[9 + cell] = 1.0;
            }
        }
    }
    fn action_index(&mut self, mv: Move) -> usize {
        mv as usize
    }
}
