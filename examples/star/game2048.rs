//! 2048 against the `Game` trait: the player slides (MAX), then a 2 (weight 9) or a 4
//! (weight 1) appears in an empty cell (a chance node). Shared by the Star1/Star2 figures
//! (`examples/star`) and the chance tests.

use minimax::search::{Game, GameError, Move};

/// A board: each cell is a tile's exponent (0 for empty, 1 for a 2, 11 for 2048).
#[derive(Clone)]
pub struct Game2048 {
    pub cells: [u8; 16],
    /// Whether a tile is to appear next (a chance node).
    pub tile_next: bool,
    history: Vec<[u8; 16]>,
}

/// The evaluation's and every final score's range: the bounds Star1 and Star2 need
/// (16 empty cells, 24 pairs and a 2^17 corner at most).
pub const EVAL_MAX: i32 = 16 * 1000 + 24 * 300 + 17 * 100;

impl Game2048 {
    pub fn new(cells: [u8; 16]) -> Self {
        Game2048 {
            cells,
            tile_next: false,
            history: Vec::new(),
        }
    }

    /// A position after `n` seeded random moves and tiles, the player to move.
    pub fn random(seed: u64, n: usize) -> Self {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (state ^ (state >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z ^ (z >> 29)
        };
        let mut g = Game2048::new([0; 16]);
        g.tile_next = true;
        let mut list = Vec::new();
        for _ in 0..2 * n + 1 {
            list.clear();
            if g.tile_next {
                g.outcomes(&mut list).expect("a tile");
                if list.is_empty() {
                    break;
                }
                let (mv, _) = list[(next() % list.len() as u64) as usize];
                g.play(mv);
            } else {
                let mut moves = Vec::new();
                g.moves(&mut moves).expect("moves");
                if moves.is_empty() {
                    break; // a dead board
                }
                g.play(moves[(next() % moves.len() as u64) as usize]);
            }
        }
        g.history.clear();
        g
    }

    /// The board after sliding toward `dir` (0 left, 1 right, 2 up, 3 down).
    pub fn slid(&self, dir: u8) -> [u8; 16] {
        let mut out = self.cells;
        for line in 0..4 {
            let idx: [usize; 4] = std::array::from_fn(|k| match dir {
                0 => line * 4 + k,
                1 => line * 4 + 3 - k,
                2 => k * 4 + line,
                _ => (3 - k) * 4 + line,
            });
            let tiles: Vec<u8> = idx
                .iter()
                .map(|&i| self.cells[i])
                .filter(|&t| t > 0)
                .collect();
            let mut merged = Vec::with_capacity(4);
            let mut i = 0;
            while i < tiles.len() {
                if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] {
                    merged.push(tiles[i] + 1);
                    i += 2;
                } else {
                    merged.push(tiles[i]);
                    i += 1;
                }
            }
            merged.resize(4, 0);
            for (k, &i) in idx.iter().enumerate() {
                out[i] = merged[k];
            }
        }
        out
    }
}

impl Game for Game2048 {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(
            (0..4)
                .filter(|&d| self.slid(d) != self.cells)
                .map(Move::from),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history.push(self.cells);
        if self.tile_next {
            self.cells[(mv / 2) as usize] = 1 + (mv % 2) as u8;
        } else {
            self.cells = self.slid(mv as u8);
        }
        self.tile_next = !self.tile_next;
    }
    fn undo(&mut self, _: Move) {
        self.cells = self.history.pop().expect("a move to undo");
        self.tile_next = !self.tile_next;
    }
    fn outcome(&mut self) -> Option<i32> {
        let stuck = !self.tile_next && (0..4).all(|d| self.slid(d) == self.cells);
        stuck.then_some(0)
    }
    /// Empty cells, merges within reach, and a large tile in a corner.
    fn evaluate(&mut self) -> i32 {
        let empty = self.cells.iter().filter(|&&c| c == 0).count() as i32;
        let mut pairs = 0;
        for i in 0..16 {
            let c = self.cells[i];
            if c > 0 && i % 4 < 3 && self.cells[i + 1] == c {
                pairs += 1;
            }
            if c > 0 && i < 12 && self.cells[i + 4] == c {
                pairs += 1;
            }
        }
        let corner = [0, 3, 12, 15].map(|i| self.cells[i]).into_iter().max();
        1000 * empty + 300 * pairs + 100 * corner.unwrap_or(0) as i32
    }
    fn hash(&mut self) -> Option<u64> {
        let mut h = self.tile_next as u64;
        for &c in &self.cells {
            h = (h ^ c as u64).wrapping_mul(0x100_0000_01B3);
        }
        Some(h ^ (h >> 29))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(true)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, EVAL_MAX))
    }
    fn is_chance(&mut self) -> bool {
        self.tile_next
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        for (i, &c) in self.cells.iter().enumerate() {
            if c == 0 {
                out.push((2 * i as Move, 9.0));
                out.push((2 * i as Move + 1, 1.0));
            }
        }
        Ok(())
    }
}
