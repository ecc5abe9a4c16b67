//! Rolit: Othello for three or four players, on 8x8 or a smaller square board (6x6, as
//! the published game's small board). The four centre squares start with one disc of
//! each of four colours, clockwise from the top left; with three players the fourth
//! colour is nobody's, and its disc can be turned like any other. A player places a disc
//! of its colour so as to turn the discs of other colours lying in a line between it
//! and another of its own; where it can turn none, it places the disc on any empty
//! square next to a disc. Turns go round; the game ends with the board full, each
//! player scoring its discs. Written from the rules as Goliath publishes them and as
//! Nijssen and Winands describe them.
//!
//! Bitboards (bit `8 * row + column`, one a colour), with captures found by shifting
//! along the eight directions, as bitboard Othello programs describe it. A move is its
//! square. The evaluation weighs a disc 1, on an edge 2, in a corner 5.

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The eight directions, as shifts that drop what leaves the 8x8 board.
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

/// A pass: not a legal move in Rolit, but best-reply search passes for the opponents
/// that do not reply (`null_move`).
pub const PASS: Move = 64;

/// What `play` changed, for `undo`.
#[derive(Clone, Copy)]
struct Step {
    before: [u64; 4],
    mover: u8,
}

/// A Rolit position.
#[derive(Clone)]
pub struct Rolit {
    /// Each colour's discs (colour 3 is nobody's with three players).
    discs: [u64; 4],
    /// The board's squares.
    board: u64,
    size: usize,
    players: usize,
    to_move: usize,
    steps: Vec<Step>,
}

impl Rolit {
    /// The start on a `size` x `size` board (4, 6 or 8) for 3 or 4 players.
    pub fn new(size: usize, players: usize) -> Rolit {
        assert!(matches!(size, 4 | 6 | 8) && matches!(players, 3 | 4));
        let mut board = 0u64;
        for r in 0..size {
            for c in 0..size {
                board |= 1 << (8 * r + c);
            }
        }
        let (a, b) = (size / 2 - 1, size / 2);
        let sq = |r: usize, c: usize| 1u64 << (8 * r + c);
        Rolit {
            discs: [sq(a, a), sq(a, b), sq(b, b), sq(b, a)],
            board,
            size,
            players,
            to_move: 0,
            steps: Vec::new(),
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    fn occupied(&self) -> u64 {
        self.discs.iter().fold(0, |a, d| a | d)
    }

    /// The squares where `colour` turns a disc.
    fn captures(&self, colour: usize) -> u64 {
        let me = self.discs[colour];
        let other = self.occupied() & !me;
        let empty = self.board & !self.occupied();
        let mut out = 0;
        for shift in SHIFTS {
            let mut x = shift(me) & other;
            for _ in 0..5 {
                x |= shift(x) & other;
            }
            out |= shift(x) & empty;
        }
        out
    }

    /// The squares the player to move may take: its captures, else every empty square
    /// next to a disc.
    pub fn legal(&self) -> u64 {
        let caps = self.captures(self.to_move);
        if caps != 0 {
            return caps;
        }
        let occ = self.occupied();
        let near = SHIFTS.iter().fold(0, |a, s| a | s(occ));
        near & self.board & !occ
    }

    /// The discs a disc of `colour` on `sq` turns.
    fn turned(&self, colour: usize, sq: usize) -> u64 {
        let me = self.discs[colour];
        let other = self.occupied() & !me;
        let from = 1u64 << sq;
        let mut out = 0;
        for shift in SHIFTS {
            let (mut line, mut x) = (0, shift(from));
            while x & other != 0 {
                line |= x;
                x = shift(x);
            }
            if x & me != 0 {
                out |= line;
            }
        }
        out
    }

    /// Each player's discs.
    pub fn counts(&self) -> [i32; 4] {
        self.discs.map(|d| d.count_ones() as i32)
    }

    fn weight(&self, sq: usize) -> i32 {
        let (r, c) = (sq / 8, sq % 8);
        let edge = |i: usize| i == 0 || i == self.size - 1;
        match (edge(r), edge(c)) {
            (true, true) => 5,
            (true, false) | (false, true) => 2,
            _ => 1,
        }
    }

    /// The sum of every square's weight: what the evaluations can sum to at most.
    fn weights(&self) -> i32 {
        (0..64)
            .filter(|&sq| self.board >> sq & 1 == 1)
            .map(|sq| self.weight(sq))
            .sum()
    }
}

impl Game for Rolit {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let mut m = self.legal();
        while m != 0 {
            out.push(m.trailing_zeros() as Move);
            m &= m - 1;
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        let sq = mv as usize;
        let c = self.to_move;
        let flips = if mv == PASS { 0 } else { self.turned(c, sq) };
        self.steps.push(Step {
            before: self.discs,
            mover: c as u8,
        });
        for d in &mut self.discs {
            *d &= !flips;
        }
        if mv != PASS {
            self.discs[c] |= flips | 1 << sq;
        }
        self.to_move = (c + 1) % self.players;
    }

    fn undo(&mut self, _: Move) {
        let s = self.steps.pop().expect("a move to undo");
        self.discs = s.before;
        self.to_move = s.mover as usize;
    }

    fn outcome(&mut self) -> Option<i32> {
        None
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    fn hash(&mut self) -> Option<u64> {
        let mut h = self.to_move as u64;
        for d in self.discs {
            h = (h ^ d).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        Some(h)
    }

    fn players(&mut self) -> usize {
        self.players
    }

    fn player_to_move(&mut self) -> usize {
        self.to_move
    }

    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        if self.occupied() != self.board {
            return false;
        }
        out.copy_from_slice(&self.counts()[..self.players]);
        true
    }

    fn player_evaluations(&mut self, out: &mut [i32]) {
        for (p, o) in out.iter_mut().enumerate() {
            let mut d = self.discs[p];
            let mut sum = 0;
            while d != 0 {
                sum += self.weight(d.trailing_zeros() as usize);
                d &= d - 1;
            }
            *o = sum;
        }
    }

    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, self.weights()))
    }

    fn null_move(&mut self) -> Option<Move> {
        (self.occupied() != self.board).then_some(PASS)
    }
}
