//! Games of more than two players for the tests: Take (an n-player Nim with points,
//! the examples' own) and Forest (random n-player trees, with chance steps if asked).
#![allow(dead_code)] // each test binary uses a different part

use minimax::search::{Game, GameError, Move};

#[path = "../../examples/players/take.rs"]
mod take;

#[allow(unused_imports)] // PASS: the best-reply tests only
pub use take::{PASS, Take};

/// A random game tree of n players: a position is the hash of its path; 2 to 4 moves;
/// final at a depth of 3 to 6 or, from ply 2, when a hash is 0 mod 7; scores and
/// evaluations are random splits of 12 points (half of them between two players). The
/// mover goes round, but a hash 0 mod 5 gives the same player another move. With
/// `chance`, a position past the root whose hash is 0 mod 4 is a chance step of 2 or 3
/// outcomes weighted 1 to 3, after which the same player moves.
#[derive(Clone)]
pub struct Forest {
    pub seed: u64,
    players: usize,
    path: Vec<(u64, usize)>,
    at: u64,
    to_move: usize,
    depth: usize,
    pub chance: bool,
}

const POINTS: i32 = 12;

pub fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Forest {
    pub fn new(seed: u64, players: usize) -> Forest {
        let at = mix(seed);
        Forest {
            seed,
            players,
            path: Vec::new(),
            at,
            to_move: 0,
            depth: 3 + (mix(seed ^ 77) % 4) as usize,
            chance: false,
        }
    }

    fn chance_here(&self) -> bool {
        self.chance && !self.path.is_empty() && !self.over() && mix(self.at ^ 9) % 4 == 0
    }

    fn over(&self) -> bool {
        self.path.len() >= self.depth || (self.path.len() >= 2 && mix(self.at ^ 1) % 7 == 0)
    }

    /// A split of `POINTS` among the players, from `h`; half the time among two of
    /// them only, the others at the least a player can have (where pruning's bound is
    /// tight, so that a bound off by one shows).
    fn split(&self, mut h: u64, out: &mut [i32]) {
        out.fill(0);
        let n = self.players as u64;
        let pair = (h % 2 == 0).then(|| (h / 2 % n, h / 2 / n % (n - 1)));
        for _ in 0..POINTS {
            h = mix(h);
            let to = match pair {
                Some((a, b)) => [a, (a + 1 + b) % n][(h % 2) as usize],
                None => h % n,
            };
            out[to as usize] += 1;
        }
    }
}

impl Game for Forest {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(0..2 + (mix(self.at ^ 2) % 3) as Move);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let chance = self.chance_here();
        self.path.push((self.at, self.to_move));
        self.at = mix(self.at ^ mix(mv as u64 + 1000));
        if !chance && mix(self.at ^ 5) % 5 != 0 {
            self.to_move = (self.to_move + 1) % self.players;
        }
    }
    fn undo(&mut self, _: Move) {
        (self.at, self.to_move) = self.path.pop().unwrap();
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.at ^ self.seed)
    }
    fn is_chance(&mut self) -> bool {
        self.chance_here()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        for o in 0..2 + (mix(self.at ^ 10) % 2) as Move {
            out.push((o, (1 + mix(self.at ^ (11 + o as u64)) % 3) as f64));
        }
        Ok(())
    }
    fn players(&mut self) -> usize {
        self.players
    }
    fn player_to_move(&mut self) -> usize {
        self.to_move
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        if !self.over() {
            return false;
        }
        self.split(self.at ^ 3, out);
        true
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        self.split(self.at ^ 4, out);
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, POINTS))
    }
}
