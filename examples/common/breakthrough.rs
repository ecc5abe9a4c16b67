//! Breakthrough 8x8: the type both libraries search in the matches (issue 41,
//! benches/peer), and the npm package's native Breakthrough (web/).
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

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move, ScoreView};

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
    pub fn lost(&self) -> bool {
        self.opp & ROW_0 != 0 || self.me == 0
    }

    /// The moves: captures first, then the others, each by target square, highest first
    /// (the same order for both players).
    pub fn list<T: From<u8>>(&self, out: &mut Vec<T>, noisy_only: bool) {
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
    pub fn over(&self) -> Option<i32> {
        let [left, up, right] = targets(self.me);
        let empty = !(self.me | self.opp);
        let moves = (left & !self.me) | (up & empty) | (right & !self.me);
        (self.lost() || moves == 0).then_some(-1)
    }

    /// The side to move's pieces and the other side's, seen from the side to move (which
    /// moves up: the board is mirrored after each move).
    pub fn sides(&self) -> (u64, u64) {
        (self.me, self.opp)
    }

    /// The pieces on the board.
    pub fn pieces(&self) -> u32 {
        (self.me | self.opp).count_ones()
    }

    /// Whether the first player (who started on rows 0 and 1) is to move.
    pub fn first_to_move(&self) -> bool {
        self.first
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

    pub fn key(&self) -> u64 {
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
        Some(self.key())
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
