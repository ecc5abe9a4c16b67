//! Connect Four (7 x 6) against the engine's `Game` trait, with the same knowledge as the
//! C example's callbacks (`c_examples/connect4_game.h`): a bitboard, immediate wins, never
//! giving the opponent an immediate win, threat-count move ordering and Pascal Pons'
//! score bounds. Shared by the example and the tests.
#![allow(dead_code)]

use minimax::search::batched::Encode;
use minimax::search::{Game, GameError, Move};

const W: u32 = 7;
const H: u32 = 6;
const ORDER: [u32; 7] = [3, 2, 4, 1, 5, 0, 6];

const fn bottom_mask() -> u64 {
    let mut m = 0;
    let mut c = 0;
    while c < W {
        m |= 1 << (c * (H + 1));
        c += 1;
    }
    m
}
const BOTTOM: u64 = bottom_mask();
const BOARD: u64 = BOTTOM * ((1 << H) - 1);

const fn column_mask(c: u32) -> u64 {
    ((1 << H) - 1) << (c * (H + 1))
}

/// The columns in the order moves are tried (centre first), with their masks.
const ORDERED: [(Move, u64); W as usize] = {
    let mut out = [(0, 0); W as usize];
    let mut i = 0;
    while i < W as usize {
        out[i] = (ORDER[i] as Move, column_mask(ORDER[i]));
        i += 1;
    }
    out
};

/// The empty cells that would complete four for `stones`.
fn winning_cells(stones: u64, mask: u64) -> u64 {
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    for s in [H + 1, H, H + 2] {
        let p = (stones << s) & (stones << (2 * s));
        r |= p & (stones << (3 * s));
        r |= p & (stones >> s);
        let p = (stones >> s) & (stones >> (2 * s));
        r |= p & (stones << s);
        r |= p & (stones >> (3 * s));
    }
    r & (BOARD ^ mask)
}

fn four_in_a_row(stones: u64) -> bool {
    [1, H + 1, H, H + 2].into_iter().any(|s| {
        let m = stones & (stones >> s);
        m & (m >> (2 * s)) != 0
    })
}

#[derive(Clone)]
pub struct Position {
    current: u64, // stones of the player to move
    mask: u64,
    pub moves: u32,
    played: [u64; (W * H) as usize],
    /// Per ply: `analyse`'s answer for the position of that ply, kept while the search
    /// is below it, so that every child's `play` can read its parent's answer.
    analysed: [Analysis; (W * H + 1) as usize],
    /// Per ply: whether the last move made four in a row.
    won: [bool; (W * H + 1) as usize],
    /// Per ply: whether the position was reached by a move that gives no immediate win
    /// (so the side to move has none, and `analyse` need not look for one).
    quiet: [bool; (W * H + 1) as usize],
}

/// What `analyse` found for the position with key `key`.
#[derive(Clone, Copy)]
struct Analysis {
    key: u64,
    /// The moves that do not hand the opponent a win at once.
    allowed: u64,
    /// The winning moves.
    win: u64,
}

impl Position {
    fn new() -> Self {
        Position {
            current: 0,
            mask: 0,
            moves: 0,
            played: [0; (W * H) as usize],
            analysed: [Analysis {
                key: !0,
                allowed: 0,
                win: 0,
            }; (W * H + 1) as usize],
            won: [false; (W * H + 1) as usize],
            quiet: [false; (W * H + 1) as usize],
        }
    }
    fn possible(&self) -> u64 {
        (self.mask + BOTTOM) & BOARD
    }
    fn key(&self) -> u64 {
        self.current + self.mask
    }
    /// The moves that do not hand the opponent a win at once, and the winning moves.
    fn analyse(&mut self) -> (u64, u64) {
        let (key, possible) = (self.key(), self.possible());
        let a = &mut self.analysed[self.moves as usize];
        if a.key != key {
            let threats = winning_cells(self.current ^ self.mask, self.mask);
            let forced = possible & threats;
            a.allowed = if forced & forced.wrapping_sub(1) != 0 {
                0 // two threats: both cannot be blocked
            } else {
                (if forced != 0 { forced } else { possible }) & !(threats >> 1)
            };
            a.win = if self.quiet[self.moves as usize] {
                0
            } else {
                winning_cells(self.current, self.mask) & possible
            };
            a.key = key;
        }
        (a.allowed, a.win)
    }
    /// Plays a line of column digits 1-7 from the empty board.
    pub fn setup(line: &str) -> Result<Self, &'static str> {
        let mut p = Position::new();
        for ch in line.bytes() {
            if !(b'1'..=b'7').contains(&ch) {
                return Err("not a column digit 1-7");
            }
            let c = (ch - b'1') as u32;
            if p.mask & (1 << (H - 1 + c * (H + 1))) != 0 {
                return Err("the column is full");
            }
            if p.over() {
                return Err("the game is already over");
            }
            p.play(c as Move);
        }
        if p.over() {
            return Err("the game is already over");
        }
        Ok(p)
    }
    pub fn over(&self) -> bool {
        self.won[self.moves as usize]
    }
}

impl Game for Position {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let (mut allowed, win) = self.analyse();
        if allowed == 0 {
            allowed = self.possible(); // every move loses: any will do
        }
        if win != 0 {
            allowed = win; // a winning move first and alone
        }
        if allowed & allowed.wrapping_sub(1) == 0 {
            // One move: nothing to order.
            let c = ORDERED.iter().find(|&&(_, column)| allowed & column != 0);
            out.extend(c.map(|&(c, _)| c));
            return Ok(());
        }
        let mut columns = [0 as Move; W as usize];
        let mut scores = [0u32; W as usize];
        let mut n = 0;
        for (c, column) in ORDERED {
            let mv = allowed & column;
            if mv == 0 {
                continue;
            }
            let s = winning_cells(self.current | mv, self.mask).count_ones();
            let mut j = n;
            while j > 0 && scores[j - 1] < s {
                scores[j] = scores[j - 1]; // stable: ties keep centre-first order
                columns[j] = columns[j - 1];
                j -= 1;
            }
            scores[j] = s;
            columns[j] = c;
            n += 1;
        }
        out.extend_from_slice(&columns[..n]);
        Ok(())
    }
    fn play(&mut self, column: Move) {
        let c = column as u32;
        let mv = (self.mask + (1 << (c * (H + 1)))) & column_mask(c);
        // The parent's analysis, when it has one, says at once whether the move wins and
        // whether it leaves the opponent an immediate win.
        let a = self.analysed[self.moves as usize];
        let known = a.key == self.key();
        self.played[self.moves as usize] = mv;
        self.current ^= self.mask;
        self.mask |= mv;
        self.moves += 1;
        let ply = self.moves as usize;
        self.won[ply] = if known {
            mv & a.win != 0
        } else {
            four_in_a_row(self.current ^ self.mask)
        };
        self.quiet[ply] = known && mv & a.allowed != 0;
    }
    fn undo(&mut self, _: Move) {
        self.moves -= 1;
        self.mask ^= self.played[self.moves as usize];
        self.current ^= self.mask;
    }
    /// MAX is the first player; a win scores (44 - n) / 2 for the winner.
    fn outcome(&mut self) -> Option<i32> {
        if self.over() {
            let s = (W * H + 2 - self.moves) as i32 / 2;
            return Some(if self.moves % 2 == 1 { s } else { -s });
        }
        (self.moves == W * H).then_some(0)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.key())
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.moves % 2 == 0)
    }
    /// Pons' bounds for the side to move, in MAX's view.
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let n = self.moves as i32;
        let (allowed, win) = self.analyse();
        let (lo, hi) = if win != 0 {
            let s = (43 - n) / 2;
            (s, s)
        } else if allowed == 0 {
            let s = -(42 - n) / 2;
            (s, s)
        } else if n >= 40 {
            (0, 0)
        } else {
            (-(40 - n) / 2, (41 - n) / 2)
        };
        Some(if n % 2 == 0 { (lo, hi) } else { (-hi, -lo) })
    }
}

/// For batched MCTS: two planes of 42 cells (the side to move's stones, then the
/// opponent's; cell `6 * column + row`, row 0 at the bottom) and one action a column.
impl Encode for Position {
    fn observation_size(&self) -> usize {
        2 * (W * H) as usize
    }
    fn action_count(&self) -> usize {
        W as usize
    }
    fn observe(&mut self, out: &mut [f32]) {
        // Bit 7 * column + row of each stone: only the set bits are visited.
        let theirs = self.current ^ self.mask;
        for (plane, mut stones) in [(0, self.current), ((W * H) as usize, theirs)] {
            while stones != 0 {
                let bit = stones.trailing_zeros();
                let (c, r) = (bit / (H + 1), bit % (H + 1));
                out[plane + (c * H + r) as usize] = 1.0;
                stones &= stones - 1;
            }
        }
    }
    fn action_index(&mut self, column: Move) -> usize {
        column as usize
    }
}
