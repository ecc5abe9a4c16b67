//! Breakthrough 8x8 for the matches (issue 41): the game (`examples/common/breakthrough.rs`,
//! which the npm package's native Breakthrough shares) as minimax-rs searches it, and as a
//! match arena.

#[path = "../../../examples/common/breakthrough.rs"]
mod game;

pub use game::{Breakthrough, NULL};
use peer::{Evaluation, Evaluator, Winner};

use super::matches::Arena;

/// Theirs: the same type, played in place.
pub struct BreakthroughRs;

impl peer::Game for BreakthroughRs {
    type S = Breakthrough;
    type M = u8;
    fn generate_moves(s: &Breakthrough, moves: &mut Vec<u8>) -> Option<Winner> {
        if s.lost() {
            return Some(Winner::PlayerJustMoved);
        }
        s.list(moves, false);
        moves.is_empty().then_some(Winner::PlayerJustMoved)
    }
    fn apply(s: &mut Breakthrough, m: u8) -> Option<Breakthrough> {
        s.play(m);
        None
    }
    fn undo(s: &mut Breakthrough, _: u8) {
        s.undo();
    }
    fn get_winner(s: &Breakthrough) -> Option<Winner> {
        s.over().map(|_| Winner::PlayerJustMoved)
    }
    fn zobrist_hash(s: &Breakthrough) -> u64 {
        s.key()
    }
    fn null_move(_: &Breakthrough) -> Option<u8> {
        Some(NULL)
    }
    fn table_index(m: u8) -> u16 {
        m as u16
    }
    fn max_table_index() -> u16 {
        NULL as u16
    }
}

#[derive(Clone, Copy, Default)]
pub struct BreakthroughEval;

impl Evaluator for BreakthroughEval {
    type G = BreakthroughRs;
    fn evaluate(&self, s: &Breakthrough) -> Evaluation {
        s.eval() as Evaluation
    }
    fn generate_noisy_moves(&self, s: &Breakthrough, moves: &mut Vec<u8>) {
        if !s.lost() {
            s.list(moves, true);
        }
    }
}

impl Arena for Breakthrough {
    type Peer = BreakthroughEval;
    const NAME: &'static str = "Breakthrough 8x8";
    const OPENING_PLIES: u32 = 4;
    const ABLATION_DEPTHS: [u32; 2] = [5, 7];
    fn start() -> Breakthrough {
        Breakthrough::new()
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        self.legal(out);
    }
    fn quiet(&self) -> bool {
        // No capture on the board for either side.
        let mut moves: Vec<u8> = Vec::new();
        self.list(&mut moves, true);
        let mut other = self.clone();
        other.play(NULL);
        other.list(&mut moves, true);
        moves.is_empty() && self.over().is_none()
    }
    fn play_move(&mut self, mv: u8) {
        self.play(mv);
    }
    fn result(&self) -> Option<f64> {
        self.over().map(|_| 0.0)
    }
    fn stage(&self) -> usize {
        // By pieces taken, in fours.
        (32 - self.pieces() as usize) / 4
    }
    fn plies_left(&self) -> u32 {
        // Each move advances a piece a row: at most 6 rows for each of 32 pieces.
        self.pieces() * 6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::Rng;

    fn perft(b: &mut Breakthrough, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::new();
        b.legal(&mut moves);
        if moves.is_empty() {
            return 1; // the end: counted as a leaf
        }
        let mut n = 0;
        for m in moves {
            b.play(m);
            n += perft(b, depth - 1);
            b.undo();
        }
        n
    }

    /// 22 moves at the start (8 pieces on the second row, 3 moves each but the two at
    /// the edges: 22); deeper counts agree with a plain array board written apart
    /// (`slow_perft`).
    #[test]
    fn perft_agrees_with_a_plain_board() {
        let mut b = Breakthrough::new();
        assert_eq!(perft(&mut b, 1), 22);
        for depth in 1..=4 {
            assert_eq!(
                perft(&mut b, depth),
                slow_perft(&start_cells(), 1, depth),
                "depth {depth}"
            );
        }
        // From positions 8 to 30 random plies in, where pieces meet and captures and wins
        // come into play.
        let mut rng = Rng(7);
        for plies in (8..=30).step_by(2) {
            let mut b = Breakthrough::new();
            for _ in 0..plies {
                if let Some(m) = b.random_move(&mut rng) {
                    b.play(m);
                }
            }
            let (cells, side) = cells_of(&b);
            assert_eq!(
                perft(&mut b, 3),
                slow_perft(&cells, side, 3),
                "{plies} plies in"
            );
        }
    }

    /// The position as cells, rows from the first player's side, and the side to move.
    fn cells_of(b: &Breakthrough) -> ([u8; 64], u8) {
        // The side to move's board is upright when the first player is to move.
        let (me, opp) = b.sides();
        let (first, second) = match b.first_to_move() {
            true => (me, opp),
            false => (opp.swap_bytes(), me.swap_bytes()),
        };
        let cells = std::array::from_fn(|i| (first >> i & 1) as u8 + 2 * (second >> i & 1) as u8);
        (cells, if b.first_to_move() { 1 } else { 2 })
    }

    /// The board as cells (0 empty, 1 the first player's, 2 the second's), rows from the
    /// first player's side.
    fn start_cells() -> [u8; 64] {
        std::array::from_fn(|i| match i / 8 {
            0 | 1 => 1,
            6 | 7 => 2,
            _ => 0,
        })
    }

    fn slow_perft(cells: &[u8; 64], side: u8, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let other = 3 - side;
        // Over: the other side on its goal row, or this side without pieces.
        let other_goal = if other == 1 { 7 } else { 0 };
        if (0..8).any(|c| cells[other_goal * 8 + c] == other) || !cells.contains(&side) {
            return 1;
        }
        let dr: i32 = if side == 1 { 1 } else { -1 };
        let (mut n, mut moved) = (0, false);
        for from in 0..64 {
            if cells[from] != side {
                continue;
            }
            let (r, c) = ((from / 8) as i32, (from % 8) as i32);
            for dc in [-1, 0, 1] {
                let (r2, c2) = (r + dr, c + dc);
                if !(0..8).contains(&r2) || !(0..8).contains(&c2) {
                    continue;
                }
                let to = (r2 * 8 + c2) as usize;
                let ok = if dc == 0 {
                    cells[to] == 0
                } else {
                    cells[to] != side
                };
                if ok {
                    let mut next = *cells;
                    next[to] = side;
                    next[from] = 0;
                    n += slow_perft(&next, other, depth - 1);
                    moved = true;
                }
            }
        }
        if moved { n } else { 1 }
    }
}
