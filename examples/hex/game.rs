//! Hex on an `n` x `n` board (issue 21) against the `Game` trait, with a zero evaluation:
//! the example's game, and the Python package's native Hex. Black (MAX, first) joins the
//! top and bottom rows, White the left and right columns.

use minimax::search::{Game, GameError, Move};

/// A Hex board of `n` x `n` cells (0 empty, 1 Black, 2 White).
#[derive(Clone)]
pub struct Hex {
    n: usize,
    cells: Vec<u8>,
    pub stones: usize,
}

impl Hex {
    pub fn new(n: usize) -> Hex {
        Hex {
            n,
            cells: vec![0; n * n],
            stones: 0,
        }
    }

    pub fn to_move(&self) -> u8 {
        if self.stones % 2 == 0 { 1 } else { 2 }
    }

    /// Whether `who` joins its two sides: a flood from its first side.
    fn joined(&self, who: u8) -> bool {
        let n = self.n;
        let mut seen = vec![false; n * n];
        let mut stack: Vec<usize> = (0..n)
            .map(|i| if who == 1 { i } else { i * n })
            .filter(|&c| self.cells[c] == who)
            .collect();
        for &c in &stack {
            seen[c] = true;
        }
        while let Some(c) = stack.pop() {
            let (r, col) = ((c / n) as i64, (c % n) as i64);
            if (who == 1 && r as usize == n - 1) || (who == 2 && col as usize == n - 1) {
                return true;
            }
            for (dr, dc) in [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] {
                let (rr, cc) = (r + dr, col + dc);
                if rr < 0 || cc < 0 || rr >= n as i64 || cc >= n as i64 {
                    continue;
                }
                let d = rr as usize * n + cc as usize;
                if !seen[d] && self.cells[d] == who {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        false
    }
}

impl Game for Hex {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(
            (0..self.cells.len())
                .filter(|&c| self.cells[c] == 0)
                .map(|c| c as Move),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.cells[mv as usize] = self.to_move();
        self.stones += 1;
    }
    fn undo(&mut self, mv: Move) {
        self.cells[mv as usize] = 0;
        self.stones -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        let last = if self.to_move() == 1 { 2 } else { 1 };
        (self.stones > 0 && self.joined(last)).then_some(if last == 1 { 1 } else { -1 })
    }
    fn evaluate(&mut self) -> i32 {
        0 // Hex has no simple evaluation: that is the point
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.to_move() == 1)
    }
}
