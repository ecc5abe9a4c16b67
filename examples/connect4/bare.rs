//! A bare null-window negamax over the same `Position`, without the engine: no limits,
//! statistics, error checks, proven heights, best moves or fastest-win values, and a table
//! of 8-byte entries (a key and a value) like Pascal Pons' solver. Written from his
//! published description of that solver ("Solving Connect 4", blog.gamesolver.org), not
//! from his code or from the benchmark's translation of it. It visits the nodes of the
//! benchmark's reference (the same search over the same game; only positions settled at
//! the root can differ), so its time shows how fast any search over this game can be:
//! `make bench` runs it (`connect4 --bare`) to show how much of the Rust time target is
//! left for an engine (docs/performance.md). A measuring stick for the benchmark, not part
//! of the library.

use minimax::search::{Game, Move};

use super::game::Position;

/// A prime number of 8-byte entries: 64 MiB, the engine's table size in the benchmark.
const SIZE: u64 = 8_388_617;
/// An entry is the position's key (below 2^49) with a score byte on top: the score plus
/// `OFFSET` (never 0, which marks an empty entry), and `LOWER` for a lower bound (else an
/// upper bound).
const OFFSET: i32 = 64;
const LOWER: u64 = 128;
const KEY_BITS: u64 = (1 << 56) - 1;

pub struct Bare {
    table: Vec<u64>,
    /// A move buffer per ply, reused.
    moves: Vec<Vec<Move>>,
    pub nodes: u64,
}

impl Bare {
    pub fn new() -> Bare {
        Bare {
            table: vec![0; SIZE as usize],
            moves: Vec::new(),
            nodes: 0,
        }
    }

    /// Empties the table and the node count: the benchmark does this outside the timing,
    /// as for the reference.
    pub fn clear(&mut self) {
        self.table.fill(0);
        self.nodes = 0;
    }

    /// The exact score of `p` for the side to move: null-window tests that bisect the score
    /// range, toward 0 first.
    pub fn solve(&mut self, p: &mut Position) -> i32 {
        let (lo, hi) = self.side_bounds(p);
        if lo == hi {
            return lo;
        }
        let (mut lo, mut hi) = (lo - 1, hi + 1);
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let r = self.negamax(p, 0, med, med + 1);
            if r <= med {
                hi = r;
            } else {
                lo = r;
            }
        }
        lo
    }

    /// The game's score bounds for the side to move.
    fn side_bounds(&self, p: &mut Position) -> (i32, i32) {
        let (lo, hi) = p.bounds().expect("Connect Four has bounds");
        if p.moves % 2 == 0 {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// The score for the side to move within `(alpha, beta)`.
    fn negamax(&mut self, p: &mut Position, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let key = p.hash().expect("Connect Four has a hash");
        debug_assert!(key <= KEY_BITS);
        let slot = (key % SIZE) as usize;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is only a hint: it never faults and changes nothing the
        // program can observe, and the address is an element of the table anyway.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>(self.table.as_ptr().add(slot).cast());
        }
        if let Some(score) = p.outcome() {
            return if p.moves % 2 == 0 { score } else { -score };
        }
        let (lo, hi) = self.side_bounds(p);
        if lo == hi || lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        // As in the engine, the moves are listed while the table's slot arrives.
        if self.moves.len() <= ply {
            self.moves.resize_with(ply + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        p.moves(&mut moves).expect("Connect Four lists its moves");
        let entry = self.table[slot];
        if entry & KEY_BITS == key {
            let byte = entry >> 56;
            let v = (byte & !LOWER) as i32 - OFFSET;
            if byte & LOWER != 0 {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.moves[ply] = moves;
                return v; // the bound just met the other side of the window
            }
        }
        for &mv in &moves {
            p.play(mv);
            let v = -self.negamax(p, ply + 1, -beta, -alpha);
            p.undo(mv);
            if v >= beta {
                self.store(slot, key, v, LOWER);
                self.moves[ply] = moves;
                return v;
            }
            alpha = alpha.max(v);
        }
        self.store(slot, key, alpha, 0);
        self.moves[ply] = moves;
        alpha
    }

    fn store(&mut self, slot: usize, key: u64, score: i32, bound: u64) {
        self.table[slot] = key | ((score + OFFSET) as u64 | bound) << 56;
    }
}
