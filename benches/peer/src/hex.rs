//! Hex on 7x7 for the MCTS comparison (issue 21): a bitboard of 49 cells (row by row),
//! Black (first) joining the top and bottom rows, White the left and right columns, the
//! same rules as `c_examples/hex.c`. A side has joined when a flood of its stones from its
//! first edge reaches the other; the board fills before Hex ends, and it has no draws.

use ours::search::{Game, GameError, Move, ScoreView};

use crate::rng::Xorshift;

pub const N: u32 = 7;
const CELLS: u64 = (1 << (N * N)) - 1;
const FIRST_COL: u64 = {
    let (mut m, mut r) = (0, 0);
    while r < N {
        m |= 1 << (r * N);
        r += 1;
    }
    m
};
const LAST_COL: u64 = FIRST_COL << (N - 1);
const FIRST_ROW: u64 = (1 << N) - 1;
const LAST_ROW: u64 = FIRST_ROW << (N * (N - 1));

/// A Hex position: each side's stones and the count.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hex {
    black: u64,
    white: u64,
    pub stones: u32,
}

/// The cells next to those of `x`: above, above-right, left, right, below-left, below.
fn neighbours(x: u64) -> u64 {
    let not_last = x & !LAST_COL;
    let not_first = x & !FIRST_COL;
    ((x >> N)
        | (x << N)
        | (not_last << 1)
        | (not_first >> 1)
        | (not_last >> (N - 1))
        | (not_first << (N - 1)))
        & CELLS
}

/// Whether `own` has a chain from `from` to `to`.
fn joins(own: u64, from: u64, to: u64) -> bool {
    let mut reached = own & from;
    loop {
        if reached & to != 0 {
            return true;
        }
        let next = (reached | neighbours(reached)) & own;
        if next == reached {
            return false;
        }
        reached = next;
    }
}

impl Hex {
    pub fn black_to_move(&self) -> bool {
        self.stones.is_multiple_of(2)
    }
    pub fn play(&mut self, cell: u32) {
        match self.black_to_move() {
            true => self.black |= 1 << cell,
            false => self.white |= 1 << cell,
        }
        self.stones += 1;
    }
    fn undo(&mut self, cell: u32) {
        self.black &= !(1 << cell);
        self.white &= !(1 << cell);
        self.stones -= 1;
    }
    /// Whether the side that just moved has joined its edges.
    pub fn won_by_last(&self) -> bool {
        match self.black_to_move() {
            false => joins(self.black, FIRST_ROW, LAST_ROW),
            true => joins(self.white, FIRST_COL, LAST_COL),
        }
    }
    /// The empty cells, in order.
    pub fn legal(&self) -> impl Iterator<Item = u8> + use<> {
        let mut empty = CELLS & !(self.black | self.white);
        std::iter::from_fn(move || {
            (empty != 0).then(|| {
                let c = empty.trailing_zeros();
                empty &= empty - 1;
                c as u8
            })
        })
    }
    /// A uniformly random game from here: whether Black (the first player) won.
    pub fn random_game(mut self, rng: &mut Xorshift, legal: &mut Vec<u8>) -> bool {
        while !self.won_by_last() {
            legal.clear();
            legal.extend(self.legal());
            self.play(legal[rng.below(legal.len())] as u32);
        }
        !self.black_to_move()
    }
    fn hash(&self) -> u64 {
        let h = self.black.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ self.white.rotate_left(29);
        h ^ (h >> 31)
    }
    /// The empty board and the openings of one stone on the long diagonal.
    pub fn openings() -> Vec<Hex> {
        let mut out = vec![Hex::default()];
        for i in 0..N {
            let mut h = Hex::default();
            h.play(i * N + (N - 1 - i));
            out.push(h);
        }
        out
    }
}

/// Ours: scores from the side to move (the side that just moved has won).
impl Game for Hex {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(self.legal().map(Move::from));
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        Hex::play(self, mv as u32);
    }
    fn undo(&mut self, mv: Move) {
        Hex::undo(self, mv as u32);
    }
    fn outcome(&mut self) -> Option<i32> {
        self.won_by_last().then_some(-1)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(Hex::hash(self))
    }
    fn score_view(&mut self) -> ScoreView {
        ScoreView::SideToMove
    }
}

/// Theirs (minimax-rs).
pub struct HexGame;

impl peer::Game for HexGame {
    type S = Hex;
    type M = u8;
    fn generate_moves(s: &Hex, moves: &mut Vec<u8>) -> Option<peer::Winner> {
        if let Some(w) = Self::get_winner(s) {
            return Some(w);
        }
        moves.extend(s.legal());
        None
    }
    fn apply(s: &mut Hex, m: u8) -> Option<Hex> {
        s.play(m as u32);
        None
    }
    fn undo(s: &mut Hex, m: u8) {
        s.undo(m as u32);
    }
    fn get_winner(s: &Hex) -> Option<peer::Winner> {
        s.won_by_last().then_some(peer::Winner::PlayerJustMoved)
    }
    fn zobrist_hash(s: &Hex) -> u64 {
        s.hash()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_of_black_wins_and_a_row_of_white_wins() {
        let mut h = Hex::default();
        for r in 0..N {
            h.play(r * N); // Black down the first column
            if r + 1 < N {
                assert!(!h.won_by_last());
                h.play(r * N + 3); // White elsewhere
            }
        }
        assert!(h.won_by_last(), "Black joined top and bottom");
        // A chain up and to the right (hex neighbours) joins White's edges; Black's
        // stones on the bottom rows join nothing.
        let mut h = Hex::default();
        let black = [(6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (6, 6), (5, 6)];
        for c in 0..N {
            let (r, col) = black[c as usize];
            h.play(r * N + col);
            assert!(!h.won_by_last());
            h.play((N - 1 - c) * N + c);
        }
        assert!(
            h.won_by_last(),
            "White's anti-diagonal joins left and right"
        );
    }

    #[test]
    fn a_random_game_fills_no_more_than_the_board() {
        let mut rng = Xorshift(7);
        let mut legal = Vec::new();
        for _ in 0..100 {
            let _ = Hex::default().random_game(&mut rng, &mut legal);
        }
    }
}
