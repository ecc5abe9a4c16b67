//! Othello 8x8 for the matches (issue 41): the game (`examples/common/othello.rs`, which
//! the Python package's native Othello shares) as minimax-rs searches it, and as a match
//! arena.

#[path = "../../../examples/common/othello.rs"]
mod game;

pub use game::{Othello, PASS};
use peer::{Evaluation, Evaluator, Winner};

use super::matches::Arena;

/// Theirs: the same type, played in place.
pub struct OthelloRs;

impl peer::Game for OthelloRs {
    type S = Othello;
    type M = u8;
    fn generate_moves(s: &Othello, moves: &mut Vec<u8>) -> Option<Winner> {
        if let Some(w) = Self::get_winner(s) {
            return Some(w);
        }
        s.legal(moves);
        None
    }
    fn apply(s: &mut Othello, m: u8) -> Option<Othello> {
        s.play(m);
        None
    }
    fn undo(s: &mut Othello, _: u8) {
        s.undo();
    }
    fn get_winner(s: &Othello) -> Option<Winner> {
        // The side to move's margin: a loss for it is a win for the side that just moved.
        s.final_margin().map(|m| match m.signum() {
            -1 => Winner::PlayerJustMoved,
            0 => Winner::Draw,
            _ => Winner::PlayerToMove,
        })
    }
    fn zobrist_hash(s: &Othello) -> u64 {
        s.key()
    }
    /// A pass, for its countermove tables (its null-move pruning is not asked for).
    fn null_move(_: &Othello) -> Option<u8> {
        Some(PASS)
    }
    fn table_index(m: u8) -> u16 {
        m as u16
    }
    fn max_table_index() -> u16 {
        PASS as u16
    }
}

#[derive(Clone, Copy, Default)]
pub struct OthelloEval;

impl Evaluator for OthelloEval {
    type G = OthelloRs;
    fn evaluate(&self, s: &Othello) -> Evaluation {
        s.eval() as Evaluation
    }
}

impl Arena for Othello {
    type Peer = OthelloEval;
    const NAME: &'static str = "Othello 8x8";
    const OPENING_PLIES: u32 = 6;
    fn start() -> Othello {
        Othello::new()
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        self.legal(out);
    }
    fn quiet(&self) -> bool {
        self.final_margin().is_none()
    }
    fn play_move(&mut self, mv: u8) {
        self.play(mv);
    }
    /// The side to move's result at the end: 1, 0.5 or 0.
    fn result(&self) -> Option<f64> {
        self.final_margin().map(|m| match m.signum() {
            -1 => 0.0,
            0 => 0.5,
            _ => 1.0,
        })
    }
    fn stage(&self) -> usize {
        (self.discs() as usize - 4) / 10
    }
    fn plies_left(&self) -> u32 {
        // Every placement fills a square; passes are rare: twice the empty squares bounds it.
        2 * (64 - self.discs()) + 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Perft counts of Othello from the start (published: 4, 12, 56, 244, 1396, 8200,
    /// 55092, 390216 leaves at depths 1 to 8), passes counted as moves.
    #[test]
    fn perft_matches_the_published_counts() {
        fn perft(b: &mut Othello, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let mut moves = Vec::new();
            b.legal(&mut moves);
            if moves.is_empty() {
                return 1;
            }
            let mut n = 0;
            for m in moves {
                b.play(m);
                n += perft(b, depth - 1);
                b.undo();
            }
            n
        }
        let counts: Vec<u64> = (1..=7).map(|d| perft(&mut Othello::new(), d)).collect();
        assert_eq!(counts, [4, 12, 56, 244, 1396, 8200, 55092]);
    }
}
