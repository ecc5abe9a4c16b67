//! Pig for 2 to 8 players, with the rules and numbers of OpenSpiel's `pig` (from its
//! documentation and parameters: `players`, `winscore` 100, `horizon` 1000,
//! `diceoutcomes` 6), so that MCTS on it can be compared with OpenSpiel's own: the
//! player to move rolls (0) or stops (1); a roll is a chance step, whose outcome `k`
//! (0 to faces - 1) is the face `k + 1`: a 1 loses the turn's total and passes the turn,
//! another adds to it; stopping banks the total and passes the turn, and is the only
//! move once the bank and the total reach `winscore`. The game ends once
//! a bank reaches `winscore` (its player scores 1, the others -1 / (players - 1), here
//! times `players - 1` to stay whole) or after `horizon` moves and outcomes (all 0).

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

// Each game file stands alone (shared by path), so a program with two has two copies.
#[allow(clippy::duplicate_mod)]
#[path = "../common/splitmix.rs"]
mod splitmix;
use splitmix::{SplitMix, below};

/// A position of Pig.
#[derive(Clone, Debug)]
pub struct Pig {
    players: usize,
    win: i32,
    horizon: u32,
    faces: u32,
    banks: [i32; 8],
    total: i32,
    mover: usize,
    rolling: bool,
    steps: u32,
    /// The winner, once a bank reaches the win.
    won: Option<u8>,
    /// Each step's turn total, mover and whether a roll was under way, for `undo`
    /// (stopping's bank is undone from the total).
    history: Vec<(i32, u8, bool)>,
}

impl Pig {
    /// The start for `players` (2 to 8), OpenSpiel's defaults otherwise.
    pub fn new(players: usize) -> Pig {
        Pig::with(players, 100, 1000, 6)
    }

    /// The start with OpenSpiel's `winscore`, `horizon` and `diceoutcomes`.
    pub fn with(players: usize, win: i32, horizon: u32, faces: u32) -> Pig {
        assert!((2..=8).contains(&players) && faces >= 2);
        Pig {
            players,
            win,
            horizon,
            faces,
            banks: [0; 8],
            total: 0,
            mover: 0,
            rolling: false,
            steps: 0,
            won: None,
            history: Vec::new(),
        }
    }

    fn winner(&self) -> Option<usize> {
        self.won.map(usize::from)
    }
}

impl Game for Pig {
    /// Roll and stop; only stop once the bank and the turn's total reach `winscore`, as
    /// in OpenSpiel.
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.banks[self.mover] + self.total >= self.win {
            out.push(1);
        } else {
            out.extend([0, 1]);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        self.history
            .push((self.total, self.mover as u8, self.rolling));
        let next = (self.mover + 1) % self.players;
        match (self.rolling, mv) {
            (true, 0) => (self.total, self.mover, self.rolling) = (0, next, false),
            (true, k) => (self.total, self.rolling) = (self.total + k as i32 + 1, false),
            (false, 0) => self.rolling = true,
            (false, _) => {
                self.banks[self.mover] += self.total;
                if self.banks[self.mover] >= self.win {
                    self.won = Some(self.mover as u8);
                }
                (self.total, self.mover) = (0, next);
            }
        }
        self.steps += 1;
    }

    fn undo(&mut self, mv: Move) {
        let (total, mover, rolling) = self.history.pop().expect("a move to undo");
        if !rolling && mv == 1 {
            // A stop: its total goes back out of the bank.
            self.banks[mover as usize] -= total;
            self.won = None;
        }
        (self.total, self.mover, self.rolling) = (total, mover as usize, rolling);
        self.steps -= 1;
    }

    fn outcome(&mut self) -> Option<i32> {
        None
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    fn is_chance(&mut self) -> bool {
        self.rolling && self.won.is_none() && self.steps < self.horizon
    }

    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend((0..self.faces as Move).map(|k| (k, 1.0)));
        Ok(())
    }

    fn players(&mut self) -> usize {
        self.players
    }

    fn player_to_move(&mut self) -> usize {
        self.mover
    }

    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        match self.winner() {
            Some(w) => {
                out.fill(-1);
                out[w] = self.players as i32 - 1;
                true
            }
            None if self.steps >= self.horizon => {
                out.fill(0);
                true
            }
            None => false,
        }
    }

    fn player_evaluations(&mut self, out: &mut [i32]) {
        out.fill(0);
    }

    /// A playout on a copy of the banks and the turn, with no history to keep: each move
    /// and face uniform, as the engine's own playout would draw them. One draw serves a
    /// choice to roll (its top bit) and the face that follows (its low half).
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        let mut random = SplitMix(seed);
        let (mut banks, mut total, mut mover) = (self.banks, self.total, self.mover);
        let (mut rolling, mut steps, mut won) = (self.rolling, self.steps, self.won);
        while won.is_none() && steps < self.horizon {
            let r = random.next();
            if !rolling {
                steps += 1;
                if banks[mover] + total >= self.win || r >> 63 == 1 {
                    banks[mover] += total;
                    if banks[mover] >= self.win {
                        won = Some(mover as u8);
                    }
                    (total, mover) = (0, next(mover, self.players));
                    continue;
                }
                if steps >= self.horizon {
                    break;
                }
            }
            match below(r << 32, self.faces) {
                0 => (total, mover) = (0, next(mover, self.players)),
                k => total += k as i32 + 1,
            }
            rolling = false;
            steps += 1;
        }
        let (w, s) = (self.won, self.steps);
        (self.won, self.steps) = (won, steps);
        let over = self.player_scores(out);
        (self.won, self.steps) = (w, s);
        over
    }

    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((-1, 0))
    }
}

/// The player after `mover`, without a division.
fn next(mover: usize, players: usize) -> usize {
    if mover + 1 == players { 0 } else { mover + 1 }
}
