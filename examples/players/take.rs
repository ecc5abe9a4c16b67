//! Take: an n-player Nim with points, small enough to solve by brute force (the tests
//! check max^n, paranoid, best-reply search and MCTS's proofs on it).

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

/// n-player Nim with points: a move takes 1 to 3 sticks from a pile, each stick a point
/// to its taker, and the player who takes the last stick of all gets 3 more. Emptying a
/// pile (not the last) gives its taker another turn, so turns do not simply go round.
#[derive(Clone)]
pub struct Take {
    pub piles: Vec<u8>,
    pub taken: Vec<i32>,
    pub to_move: usize,
    /// Each move's mover before it, to undo.
    pub movers: Vec<usize>,
    /// Who took the last stick, once the piles are empty.
    pub last: Option<usize>,
}

const BONUS: i32 = 3;

impl Take {
    pub fn new(piles: &[u8], players: usize) -> Take {
        Take {
            piles: piles.to_vec(),
            taken: vec![0; players],
            to_move: 0,
            movers: Vec::new(),
            last: None,
        }
    }

    pub fn total(&self) -> i32 {
        self.piles.iter().map(|&p| p as i32).sum::<i32>() + self.taken.iter().sum::<i32>()
    }
}

impl Game for Take {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        for (i, &p) in self.piles.iter().enumerate() {
            for n in 1..=p.min(3) {
                out.push((i * 4) as Move + n as Move);
            }
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let mover = self.to_move;
        if mv == PASS {
            self.movers.push(mover);
            self.to_move = (mover + 1) % self.taken.len();
            return;
        }
        let (pile, n) = ((mv / 4) as usize, (mv % 4) as u8);
        self.movers.push(mover);
        self.piles[pile] -= n;
        self.taken[mover] += n as i32;
        if self.piles.iter().all(|&p| p == 0) {
            self.last = Some(mover);
        } else if self.piles[pile] != 0 {
            self.to_move = (mover + 1) % self.taken.len();
        }
    }
    fn undo(&mut self, mv: Move) {
        let mover = self.movers.pop().unwrap();
        self.to_move = mover;
        if mv == PASS {
            return;
        }
        let (pile, n) = ((mv / 4) as usize, (mv % 4) as u8);
        self.piles[pile] += n;
        self.taken[mover] -= n as i32;
        self.to_move = mover;
        self.last = None;
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let bytes = self
            .piles
            .iter()
            .copied()
            .chain(self.taken.iter().map(|&t| t as u8));
        for b in bytes.chain([self.to_move as u8]) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        Some(h)
    }
    fn players(&mut self) -> usize {
        self.taken.len()
    }
    fn player_to_move(&mut self) -> usize {
        self.to_move
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        let Some(last) = self.last else { return false };
        out.copy_from_slice(&self.taken);
        out[last] += BONUS;
        true
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        out.copy_from_slice(&self.taken);
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, self.total() + BONUS))
    }
    /// A pass hands the turn to the next player (best-reply search passes for the
    /// opponents that do not reply).
    fn null_move(&mut self) -> Option<Move> {
        self.last.is_none().then_some(PASS)
    }
}

/// Take's pass.
pub const PASS: Move = -1;
