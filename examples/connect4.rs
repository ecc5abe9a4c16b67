//! Connect Four (7 x 6) written in Rust against the engine's `Game` trait, with the same
//! knowledge as the C example's callbacks (`c_examples/connect4_game.h`): a bitboard,
//! immediate wins, never giving the opponent an immediate win, threat-count move ordering
//! and score bounds. The search is the engine's exact solve.
//!
//!   cargo run --release --example connect4 -- [--threads N] < positions
//!
//! Reads lines of column digits 1-7 ("4453"), optionally followed by a space and the
//! expected score, as in Pascal Pons' test sets; prints "<moves> <score> <nodes>
//! <microseconds>" with the score from the side to move. A line whose expected score
//! differs is reported on stderr, and the exit status is then 1.

use std::io::BufRead;
use std::time::Instant;

use minimax::search::{Game, GameError, Method, Move, Options, Table, search_parallel};

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

fn column_mask(c: u32) -> u64 {
    ((1 << H) - 1) << (c * (H + 1))
}

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
struct Position {
    current: u64, // stones of the player to move
    mask: u64,
    moves: u32,
    played: [u64; (W * H) as usize],
    /// `analyse`'s answer for the position of `cached_key`.
    cached_key: u64,
    cached: (u64, u64),
}

impl Position {
    fn new() -> Self {
        Position {
            current: 0,
            mask: 0,
            moves: 0,
            played: [0; (W * H) as usize],
            cached_key: !0,
            cached: (0, 0),
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
        if self.cached_key != self.key() {
            let possible = self.possible();
            let threats = winning_cells(self.current ^ self.mask, self.mask);
            let forced = possible & threats;
            let allowed = if forced & forced.wrapping_sub(1) != 0 {
                0 // two threats: both cannot be blocked
            } else {
                (if forced != 0 { forced } else { possible }) & !(threats >> 1)
            };
            self.cached = (allowed, winning_cells(self.current, self.mask) & possible);
            self.cached_key = self.key();
        }
        self.cached
    }
    fn setup(line: &str) -> Result<Self, &'static str> {
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
    fn over(&self) -> bool {
        self.moves > 0 && four_in_a_row(self.current ^ self.mask)
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
        let mut scored = [(0u32, 0 as Move); W as usize];
        let mut n = 0;
        for c in ORDER {
            let mv = allowed & column_mask(c);
            if mv == 0 {
                continue;
            }
            let s = winning_cells(self.current | mv, self.mask).count_ones();
            let mut j = n;
            while j > 0 && scored[j - 1].0 < s {
                scored[j] = scored[j - 1]; // stable: ties keep centre-first order
                j -= 1;
            }
            scored[j] = (s, c as Move);
            n += 1;
        }
        out.extend(scored[..n].iter().map(|&(_, c)| c));
        Ok(())
    }
    fn play(&mut self, column: Move) {
        let c = column as u32;
        let mv = (self.mask + (1 << (c * (H + 1)))) & column_mask(c);
        self.played[self.moves as usize] = mv;
        self.current ^= self.mask;
        self.mask |= mv;
        self.moves += 1;
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut threads = 1;
    if let Some(i) = args.iter().position(|a| a == "--threads") {
        match args.get(i + 1).and_then(|n| n.parse().ok()) {
            Some(n) => threads = n,
            None => {
                eprintln!("usage: connect4 [--threads N] < positions");
                std::process::exit(2);
            }
        }
    }
    let mut table = Table::new(64 << 20).expect("memory for the table");
    table.prefault();
    let mut failures = 0;
    for (no, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.expect("readable input");
        let mut fields = line.split_whitespace();
        let Some(digits) = fields.next() else {
            continue;
        };
        let expected: Option<i32> = fields.next().and_then(|s| s.parse().ok());
        let mut p = match Position::setup(digits) {
            Ok(p) => p,
            Err(why) => {
                eprintln!("line {}: \"{digits}\": {why}", no + 1);
                failures += 1;
                continue;
            }
        };
        let mut opts = Options {
            method: Method::Exact,
            iterative_deepening: false,
            table: Some(&mut table),
            refine_distance: false,
            threads,
            ..Options::default()
        };
        let t0 = Instant::now();
        let r = search_parallel(&mut p, &mut opts).expect("the game keeps its contract");
        let us = t0.elapsed().as_secs_f64() * 1e6;
        let score = if p.moves % 2 == 0 { r.value } else { -r.value };
        println!("{digits} {score} {} {us:.0}", r.stats.nodes);
        if expected.is_some_and(|e| e != score) {
            eprintln!(
                "line {}: {digits}: score {score}, expected {expected:?}",
                no + 1
            );
            failures += 1;
        }
    }
    std::process::exit(if failures == 0 { 0 } else { 1 });
}
