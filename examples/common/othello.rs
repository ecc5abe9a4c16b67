//! Othello 8x8: the type both libraries search in the matches (issue 41, benches/peer),
//! with the same moves in the same order and the same evaluation, and the Python
//! package's native Othello. A pass is a move (`PASS`), legal only
//! when the side to move has no disc to place and the other side has; the game ends when
//! neither side can place a disc, won by the side with more discs.
//!
//! Bitboards (bit `8 * row + column`; the side to move's discs and the other side's),
//! with moves found by shifting along the eight directions, as the bitboard Othello
//! programs' published descriptions do ("dumb7fill"); written here from that description.
//! The evaluation is a disc-square table (the weights Norvig gives in "Paradigms of
//! Artificial Intelligence Programming", chapter 18) plus 10 a move of mobility.

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Leaf, Move, ScoreView};

/// The move that passes.
pub const PASS: u8 = 64;
/// A won game's score (theirs is `BEST_EVAL`); evaluations stay far below it.
const WIN: i32 = 10_000;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The eight directions, as shifts that drop what leaves the board.
const SHIFTS: [fn(u64) -> u64; 8] = [
    |x| (x << 1) & NOT_A,
    |x| (x >> 1) & NOT_H,
    |x| x << 8,
    |x| x >> 8,
    |x| (x << 9) & NOT_A,
    |x| (x << 7) & NOT_H,
    |x| (x >> 7) & NOT_A,
    |x| (x >> 9) & NOT_H,
];

/// Norvig's disc-square weights, one quarter (rows and columns 0 to 3), mirrored.
const QUARTER: [[i32; 4]; 4] = [
    [120, -20, 20, 5],
    [-20, -40, -5, -5],
    [20, -5, 15, 3],
    [5, -5, 3, 3],
];

fn weight(sq: usize) -> i32 {
    let fold = |i: usize| if i < 4 { i } else { 7 - i };
    QUARTER[fold(sq / 8)][fold(sq % 8)]
}

/// Squares in the order both players try them: by weight, highest first (the
/// corners first), ties by square.
fn square_order() -> [u8; 64] {
    let mut order: [u8; 64] = std::array::from_fn(|i| i as u8);
    order.sort_by_key(|&s| (-weight(s as usize), s));
    order
}

/// The squares where the side with `me` may place a disc.
fn placements(me: u64, opp: u64) -> u64 {
    let empty = !(me | opp);
    let mut moves = 0;
    for shift in SHIFTS {
        let mut run = shift(me) & opp;
        for _ in 0..5 {
            run |= shift(run) & opp;
        }
        moves |= shift(run) & empty;
    }
    moves
}

/// The discs a disc placed at `sq` turns.
fn flips(me: u64, opp: u64, sq: u8) -> u64 {
    let mut turned = 0;
    for shift in SHIFTS {
        let (mut run, mut x) = (0, shift(1 << sq));
        while x & opp != 0 {
            run |= x;
            x = shift(x);
        }
        if x & me != 0 {
            turned |= run;
        }
    }
    turned
}

/// A position: the side to move's discs, the other side's, and what came before.
#[derive(Clone, Debug)]
pub struct Othello {
    me: u64,
    opp: u64,
    history: Vec<(u64, u64)>,
    order: [u8; 64],
}

impl Othello {
    /// The start: four discs in the centre, Black (the first player) to move.
    pub fn new() -> Othello {
        Othello {
            me: (1 << 28) | (1 << 35),
            opp: (1 << 27) | (1 << 36),
            history: Vec::with_capacity(128),
            order: square_order(),
        }
    }

    /// The moves in order: placements by weight, or a pass, or none at the end.
    pub fn legal(&self, out: &mut Vec<u8>) {
        let mine = placements(self.me, self.opp);
        if mine != 0 {
            out.extend(self.order.iter().copied().filter(|&s| mine >> s & 1 != 0));
        } else if placements(self.opp, self.me) != 0 {
            out.push(PASS);
        }
    }

    pub fn play(&mut self, mv: u8) {
        self.history.push((self.me, self.opp));
        if mv == PASS {
            (self.me, self.opp) = (self.opp, self.me);
        } else {
            let turned = flips(self.me, self.opp, mv);
            (self.me, self.opp) = (self.opp & !turned, self.me | turned | 1 << mv);
        }
    }

    /// Discs on the board.
    pub fn discs(&self) -> u32 {
        (self.me | self.opp).count_ones()
    }

    /// The side to move's discs and the other side's.
    pub fn sides(&self) -> (u64, u64) {
        (self.me, self.opp)
    }

    pub fn undo(&mut self) {
        (self.me, self.opp) = self.history.pop().expect("a move to take back");
    }

    /// The disc difference for the side to move, at the end; `None` before it.
    pub fn final_margin(&self) -> Option<i32> {
        let over = placements(self.me, self.opp) == 0 && placements(self.opp, self.me) == 0;
        over.then(|| self.me.count_ones() as i32 - self.opp.count_ones() as i32)
    }

    /// The side to move's disc-square sum and mobility, minus the other side's.
    pub fn eval(&self) -> i32 {
        self.eval_with(placements(self.me, self.opp), placements(self.opp, self.me))
    }

    /// `eval`, with the squares where each side may place a disc already found.
    fn eval_with(&self, mine: u64, theirs: u64) -> i32 {
        let squares = |mut b: u64| {
            let mut sum = 0;
            while b != 0 {
                sum += weight(b.trailing_zeros() as usize);
                b &= b - 1;
            }
            sum
        };
        let mobility = mine.count_ones() as i32 - theirs.count_ones() as i32;
        squares(self.me) - squares(self.opp) + 10 * mobility
    }

    /// A hash of the position.
    pub fn key(&self) -> u64 {
        let mix = |x: u64, k: u64| {
            let mut z = x.wrapping_mul(k);
            z ^= z >> 29;
            z.wrapping_mul(0xBF58_476D_1CE4_E5B9)
        };
        mix(self.me, 0x9E37_79B9_7F4A_7C15) ^ mix(self.opp, 0xD6E8_FEB8_6659_FD93).rotate_left(17)
    }
}

/// Ours: scores from the side to move.
impl Game for Othello {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let mine = placements(self.me, self.opp);
        if mine != 0 {
            out.extend(
                self.order
                    .iter()
                    .filter(|&&s| mine >> s & 1 != 0)
                    .map(|&s| Move::from(s)),
            );
        } else if placements(self.opp, self.me) != 0 {
            out.push(Move::from(PASS));
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        Othello::play(self, mv as u8);
    }
    fn undo(&mut self, _: Move) {
        Othello::undo(self);
    }
    fn outcome(&mut self) -> Option<i32> {
        self.final_margin().map(|m| WIN * m.signum())
    }
    fn evaluate(&mut self) -> i32 {
        self.eval()
    }
    /// The discs on the board in tens (0 to 6): a shallow search predicts a deep one far
    /// better in the opening than near the end, so ProbCut fits each stage apart.
    fn stage(&mut self) -> u32 {
        (self.discs() - 4) / 10
    }
    /// Both sides' placements say whether the game is over, and are the evaluation's
    /// mobility: found once for both answers.
    fn leaf(&mut self) -> Leaf {
        let (mine, theirs) = (placements(self.me, self.opp), placements(self.opp, self.me));
        if mine == 0 && theirs == 0 {
            let margin = self.me.count_ones() as i32 - self.opp.count_ones() as i32;
            Leaf::Over(WIN * margin.signum())
        } else {
            Leaf::Heuristic(self.eval_with(mine, theirs))
        }
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.key())
    }
    fn score_view(&mut self) -> ScoreView {
        ScoreView::SideToMove
    }
    /// A pass, for null-move pruning (a move `play` takes whenever it is asked).
    fn null_move(&mut self) -> Option<Move> {
        Some(Move::from(PASS))
    }
}
