//! Dots and Boxes on a board of `R x C` boxes, as a user would write it for the engine
//! (issue 20), and a brute-force solver to check the engine's value: the value of a
//! position depends only on the edges drawn, so one byte per edge set holds them all.

use minimax::search::{Game, GameError, Move};

/// A board of `rows x cols` boxes: `(rows + 1) * cols` horizontal edges, then
/// `rows * (cols + 1)` vertical ones.
#[derive(Clone)]
pub struct Dots {
    /// The four edges of each box, as a mask.
    boxes: Vec<u32>,
    /// The boxes each edge borders (one or two).
    borders: Vec<Vec<usize>>,
    /// Drawn edges.
    pub edges: u32,
    /// Boxes MAX holds minus boxes MIN holds.
    pub diff: i32,
    pub max_turn: bool,
    /// Boxes taken so far.
    taken: u32,
    /// For undo: the turn, the difference and the boxes taken before each move.
    history: Vec<(bool, i32, u32)>,
}

impl Dots {
    pub fn new(rows: usize, cols: usize) -> Dots {
        let h = |r: usize, c: usize| (r * cols + c) as u32;
        let v = |r: usize, c: usize| ((rows + 1) * cols + r * (cols + 1) + c) as u32;
        let mut boxes = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                boxes.push([h(r, c), h(r + 1, c), v(r, c), v(r, c + 1)]);
            }
        }
        let n = (rows + 1) * cols + rows * (cols + 1);
        assert!(n <= 32, "at most 32 edges");
        let mut borders = vec![Vec::new(); n];
        for (b, edges) in boxes.iter().enumerate() {
            for &e in edges {
                borders[e as usize].push(b);
            }
        }
        Dots {
            boxes: boxes
                .iter()
                .map(|b| b.iter().fold(0, |m, &e| m | 1 << e))
                .collect(),
            borders,
            edges: 0,
            diff: 0,
            max_turn: true,
            taken: 0,
            history: Vec::new(),
        }
    }

    pub fn edge_count(&self) -> usize {
        self.borders.len()
    }

    fn box_edges(&self, b: usize) -> u32 {
        self.boxes[b]
    }

    /// How many boxes drawing `e` on `edges` completes.
    fn completes(&self, edges: u32, e: usize) -> i32 {
        let after = edges | 1 << e;
        self.borders[e]
            .iter()
            .filter(|&&b| after & self.box_edges(b) == self.box_edges(b))
            .count() as i32
    }

    /// Whether drawing `e` gives some box its third side (the opponent then takes it).
    fn gives_away(&self, edges: u32, e: usize) -> bool {
        let after = edges | 1 << e;
        self.borders[e]
            .iter()
            .any(|&b| (after & self.box_edges(b)).count_ones() == 3)
    }

    /// The net boxes the side to move gets from here with best play by both, by brute
    /// force over every set of edges (one byte each in `memo`, `i8::MIN` for unknown).
    pub fn brute_force(&self, edges: u32, memo: &mut [i8]) -> i32 {
        if edges.count_ones() as usize == self.edge_count() {
            return 0;
        }
        let known = memo[edges as usize];
        if known != i8::MIN {
            return known as i32;
        }
        let mut best = i32::MIN;
        for e in 0..self.edge_count() {
            if edges & 1 << e == 0 {
                let k = self.completes(edges, e);
                let rest = self.brute_force(edges | 1 << e, memo);
                // A completed box keeps the turn; otherwise the opponent moves.
                best = best.max(if k > 0 { k + rest } else { -rest });
            }
        }
        memo[edges as usize] = best as i8;
        best
    }
}

impl Game for Dots {
    /// Captures first, then edges that give nothing away, then the rest.
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let free = (0..self.edge_count()).filter(|&e| self.edges & 1 << e == 0);
        let rank = |e: usize| {
            if self.completes(self.edges, e) > 0 {
                0
            } else if !self.gives_away(self.edges, e) {
                1
            } else {
                2
            }
        };
        for r in 0..3 {
            out.extend(free.clone().filter(|&e| rank(e) == r).map(|e| e as Move));
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let e = mv as usize;
        self.history.push((self.max_turn, self.diff, self.taken));
        let k = self.completes(self.edges, e);
        self.edges |= 1 << e;
        if k > 0 {
            self.diff += if self.max_turn { k } else { -k };
            self.taken += k as u32;
        } else {
            self.max_turn = !self.max_turn;
        }
    }
    fn undo(&mut self, mv: Move) {
        self.edges &= !(1 << mv);
        (self.max_turn, self.diff, self.taken) = self.history.pop().expect("a move to undo");
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.edges.count_ones() as usize == self.edge_count()).then_some(self.diff)
    }
    fn evaluate(&mut self) -> i32 {
        self.diff
    }
    fn hash(&mut self) -> Option<u64> {
        let key =
            self.edges as u64 | ((self.diff + 64) as u64) << 32 | (self.max_turn as u64) << 40;
        let mut h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
        Some(h)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.max_turn)
    }
    /// The boxes left may all go either way.
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let left = (self.boxes.len() as u32 - self.taken) as i32;
        Some((self.diff - left, self.diff + left))
    }
}
