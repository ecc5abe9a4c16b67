//! Ballard's setting for *-minimax: a regular tree of MAX, chance, MIN, chance, ...
//! layers with `b` children everywhere, random integer weights and random leaf scores
//! (also the heuristic scores of inner nodes, for depth-limited searches). Shared by the
//! Star1/Star2 figures (`examples/star`) and the chance tests.

use minimax::search::{Game, GameError, Move};

/// Every score lies in `[-SCORE, SCORE]`: the bounds Star1 and Star2 use.
pub const SCORE: i32 = 100;

pub struct RegularTree {
    b: usize,
    height: usize,
    /// Per level, per node in level order: its score and the weight of its edge.
    scores: Vec<Vec<i32>>,
    weights: Vec<Vec<f64>>,
    /// The node's index in its level, per level down to the current one.
    path: Vec<usize>,
}

impl RegularTree {
    /// A tree of `height` levels below the root, from `seed`. With `win_loss`, every
    /// final score is `-SCORE` or `SCORE` (a game won or lost), else uniform between.
    pub fn new(seed: u64, height: usize, b: usize, win_loss: bool) -> Self {
        let mut state = seed;
        let mut next = move |n: u64| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (state ^ (state >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) % n
        };
        let (mut scores, mut weights) = (Vec::new(), Vec::new());
        for level in 0..=height as u32 {
            let n = b.pow(level);
            let score = |r: u64| match win_loss && level as usize == height {
                true => [-SCORE, SCORE][(r % 2) as usize],
                false => (r % (2 * SCORE as u64 + 1)) as i32 - SCORE,
            };
            scores.push((0..n).map(|_| score(next(1 << 32))).collect());
            weights.push((0..n).map(|_| 1.0 + next(9) as f64).collect());
        }
        RegularTree {
            b,
            height,
            scores,
            weights,
            path: vec![0],
        }
    }

    fn level(&self) -> usize {
        self.path.len() - 1
    }

    fn index(&self) -> usize {
        *self.path.last().expect("the root at least")
    }
}

impl Game for RegularTree {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(0..self.b as Move);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.path.push(self.index() * self.b + mv as usize);
    }
    fn undo(&mut self, _: Move) {
        self.path.pop();
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.level() == self.height).then(|| self.scores[self.height][self.index()])
    }
    fn evaluate(&mut self) -> i32 {
        self.scores[self.level()][self.index()]
    }
    fn hash(&mut self) -> Option<u64> {
        let key = (self.level() as u64) << 40 | self.index() as u64;
        Some((key + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.level() % 4 != 2)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-SCORE, SCORE))
    }
    fn is_chance(&mut self) -> bool {
        self.level() % 2 == 1 && self.level() < self.height
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let first = self.index() * self.b;
        let w = &self.weights[self.level() + 1][first..first + self.b];
        out.extend((0..self.b as Move).zip(w.iter().copied()));
        Ok(())
    }
}
