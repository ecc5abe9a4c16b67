//! Breakthrough 8x8 for the matches (issue 41), one type that both libraries search.
//! The rules as Dan Troyka published them (2000; OpenSpiel's `breakthrough` plays the
//! same): each side starts with two rows of pieces; a piece steps one square forward,
//! straight onto an empty square or diagonally onto an empty square or an opponent's
//! piece, which it captures. Reaching the far row wins, as does capturing every opposing
//! piece; a side without a move loses.
//!
//! Bitboards seen from the side to move, which always moves up (toward bit 63): after a
//! move the board is mirrored (`swap_bytes`) and the sides swap. A move is `3 * from +
//! direction` (0: up and left, 1: straight up, 2: up and right), below 192; `NULL`
//! (255) passes, for null-move pruning only (not a legal move). The evaluation: 100 a
//! piece plus a bonus growing with its row; the noisy moves, for quiescence, are the
//! captures and the moves onto the last two rows.

use ours::search::{Game, GameError, Move, ScoreView};
use peer::{Evaluation, Evaluator, Winner};

use super::matches::Arena;

/// The pass of null-move pruning.
pub const NULL: u8 = 255;
/// A won game's score (theirs is `BEST_EVAL`); evaluations stay far below it.
const WIN: i32 = 10_000;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const ROW_0: u64 = 0xff;
/// The rows nearest the goal (6 and 7, from the side that moves up).
const LAST_TWO: u64 = 0xffff << 48;

/// The bonus of a piece on each row, counted from its own first row.
const ROW_BONUS: [i32; 8] = [0, 2, 4, 8, 14, 24, 40, 0];

/// The targets of each direction (up-left, up, up-right) of `pieces`.
fn targets(pieces: u64) -> [u64; 3] {
    [(pieces << 7) & NOT_H, pieces << 8, (pieces << 9) & NOT_A]
}

/// A position: the side to move's pieces and the other side's (the side to move going
/// up), which side that is, and what came before.
#[derive(Clone, Debug)]
pub struct Breakthrough {
    me: u64,
    opp: u64,
    /// Whether the first player (who started on rows 0 and 1) is to move.
    first: bool,
    history: Vec<(u64, u64)>,
}

impl Breakthrough {
    pub fn new() -> Breakthrough {
        Breakthrough {
            me: 0xffff,
            opp: 0xffff << 48,
            first: true,
            history: Vec::with_capacity(256),
        }
    }

    /// Whether the side to move has lost: the other side reached its first row or took
    /// every piece of it. (No move at all is found by `moves`.)
    fn lost(&self) -> bool {
        self.opp & ROW_0 != 0 || self.me == 0
    }

    /// The moves: captures first, then the others, each by target square, highest first
    /// (the same order for both players).
    fn list<T: From<u8>>(&self, out: &mut Vec<T>, noisy_only: bool) {
        let [left, up, right] = targets(self.me);
        let (empty, opp) = (!(self.me | self.opp), self.opp);
        let shift = [7, 8, 9];
        let mut push = |set: [u64; 3]| {
            for to in (0..64u32).rev() {
                for (d, s) in set.iter().enumerate() {
                    if s >> to & 1 != 0 {
                        out.push(T::from((3 * (to - shift[d]) + d as u32) as u8));
                    }
                }
            }
        };
        push([left & opp, 0, right & opp]);
        let quiet = [left & empty, up & empty, right & empty];
        if noisy_only {
            push(quiet.map(|q| q & LAST_TWO));
        } else {
            push(quiet);
        }
    }

    pub fn legal(&self, out: &mut Vec<u8>) {
        if !self.lost() {
            self.list(out, false);
        }
    }

    pub fn play(&mut self, mv: u8) {
        self.history.push((self.me, self.opp));
        let mut me = self.me;
        let mut opp = self.opp;
        if mv != NULL {
            let (from, d) = (mv as u32 / 3, mv as u32 % 3);
            let to = from + 7 + d;
            me = me & !(1 << from) | 1 << to;
            opp &= !(1 << to);
        }
        (self.me, self.opp) = (opp.swap_bytes(), me.swap_bytes());
        self.first = !self.first;
    }

    pub fn undo(&mut self) {
        (self.me, self.opp) = self.history.pop().expect("a move to take back");
        self.first = !self.first;
    }

    /// The side to move's result at the end (a loss, or none), `None` before it.
    fn over(&self) -> Option<i32> {
        let [left, up, right] = targets(self.me);
        let empty = !(self.me | self.opp);
        let moves = (left & !self.me) | (up & empty) | (right & !self.me);
        (self.lost() || moves == 0).then_some(-1)
    }

    pub fn eval(&self) -> i32 {
        let side = |mut b: u64| {
            let mut sum = 0;
            while b != 0 {
                sum += 100 + ROW_BONUS[b.trailing_zeros() as usize / 8];
                b &= b - 1;
            }
            sum
        };
        // The other side moves down: its rows count from the top.
        side(self.me) - side(self.opp.swap_bytes())
    }

    fn hash(&self) -> u64 {
        let mix = |x: u64, k: u64| {
            let mut z = x.wrapping_mul(k);
            z ^= z >> 29;
            z.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        };
        mix(self.me, 0x9E37_79B9_7F4A_7C15)
            ^ mix(self.opp, 0xD6E8_FEB8_6659_FD93).rotate_left(17)
            ^ u64::from(self.first)
    }
}

/// Ours: scores from the side to move.
impl Game for Breakthrough {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.list(out, false);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        Breakthrough::play(self, mv as u8);
    }
    fn undo(&mut self, _: Move) {
        Breakthrough::undo(self);
    }
    fn outcome(&mut self) -> Option<i32> {
        self.over().map(|r| r * WIN)
    }
    fn evaluate(&mut self) -> i32 {
        self.eval()
    }
    fn hash(&mut self) -> Option<u64> {
        Some(Breakthrough::hash(self))
    }
    fn score_view(&mut self) -> ScoreView {
        ScoreView::SideToMove
    }
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if !self.lost() {
            self.list(out, true);
        }
        Ok(())
    }
    fn null_move(&mut self) -> Option<Move> {
        Some(Move::from(NULL))
    }
}

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
        s.hash()
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
        (32 - (self.me | self.opp).count_ones() as usize) / 4
    }
    fn plies_left(&self) -> u32 {
        // Each move advances a piece a row: at most 6 rows for each of 32 pieces.
        (self.me | self.opp).count_ones() * 6
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
        let (first, second) = match b.first {
            true => (b.me, b.opp),
            false => (b.opp.swap_bytes(), b.me.swap_bytes()),
        };
        let cells = std::array::from_fn(|i| (first >> i & 1) as u8 + 2 * (second >> i & 1) as u8);
        (cells, if b.first { 1 } else { 2 })
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
