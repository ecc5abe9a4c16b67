//! Chinese Checkers for three players on the small star board (73 cells: a hexagon of
//! side 4 with a triangle of 6 cells on each side, 6 pieces a player), as Sturtevant and
//! later Nijssen and Winands play it in their experiments. Each player starts in a point
//! of the star and races its pieces to the opposite point; the three players start in
//! every other point. A move takes one piece to a neighbouring empty cell, or jumps it
//! over a neighbouring piece (anyone's) to the empty cell beyond, and on from there by
//! more jumps; it ends anywhere on the way. Written from the rules' published
//! description.
//!
//! The game ends when a player has every piece home, or after `MAX_PLIES` plies. Each
//! player scores its progress (how much nearer its pieces are to the far tip of their
//! target than at the start, 0 to `PROGRESS`), and the player who got home `BONUS`
//! more; the evaluation is the progress. A move is `from * 128 + to`, cells numbered in
//! rows.

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

/// The star's point size: triangles of side 3.
const N: i32 = 3;
/// Pieces a player.
pub const PIECES: usize = 6;
/// A game ends after this many plies at the latest.
pub const MAX_PLIES: usize = 300;
/// The most progress a player can make: its pieces from their start to its target.
pub const PROGRESS: i32 = 56;
/// What getting every piece home adds to a player's progress.
pub const BONUS: i32 = PROGRESS + 1;

/// A pass: not a legal move, but best-reply search passes for the opponents that do not
/// reply (`null_move`); it does not count towards the ply limit.
pub const PASS: Move = -1;

/// The six directions in cube coordinates.
const DIRS: [(i32, i32, i32); 6] = [
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
    (0, -1, 1),
];

/// The board: its cells in cube coordinates and each cell's neighbours.
#[derive(Clone)]
struct Board {
    cells: Vec<(i32, i32, i32)>,
    /// Each cell's neighbour in each direction, or `NONE`.
    next: Vec<[u8; 6]>,
}

const NONE: u8 = u8::MAX;

impl Board {
    fn new() -> Board {
        let mut cells = Vec::new();
        for y in -2 * N..=2 * N {
            for x in -2 * N..=2 * N {
                let z = -x - y;
                let up = x >= -N && y >= -N && z >= -N;
                let down = x <= N && y <= N && z <= N;
                if up || down {
                    cells.push((x, y, z));
                }
            }
        }
        let at = |c: (i32, i32, i32)| cells.iter().position(|&d| d == c);
        let next = (0..cells.len())
            .map(|i| {
                let (x, y, z) = cells[i];
                DIRS.map(|(dx, dy, dz)| at((x + dx, y + dy, z + dz)).map_or(NONE, |j| j as u8))
            })
            .collect();
        Board { cells, next }
    }
}

/// Player `p`'s start (`start`) or target point: the cells whose coordinate `p` is
/// above N, or below -N.
fn in_point(c: (i32, i32, i32), p: usize, start: bool) -> bool {
    let v = [c.0, c.1, c.2][p];
    if start { v > N } else { v < -N }
}

fn distance(a: (i32, i32, i32), b: (i32, i32, i32)) -> i32 {
    (a.0 - b.0)
        .abs()
        .max((a.1 - b.1).abs())
        .max((a.2 - b.2).abs())
}

/// A position of three-player Chinese Checkers.
#[derive(Clone)]
pub struct ChineseCheckers {
    board: Board,
    /// Each cell's occupant: a player, or `NONE`.
    owner: Vec<u8>,
    /// Each player's distance from each cell to the far tip of its target.
    dist: Vec<[i32; 3]>,
    /// Each player's summed distance now.
    total: [i32; 3],
    to_move: usize,
    plies: usize,
}

impl Default for ChineseCheckers {
    fn default() -> Self {
        ChineseCheckers::new()
    }
}

impl ChineseCheckers {
    /// The start: each player's six pieces in its point.
    pub fn new() -> ChineseCheckers {
        let board = Board::new();
        let tips = [0, 1, 2].map(|p| {
            let mut t = [N, N, N];
            t[p] = -2 * N;
            (t[0], t[1], t[2])
        });
        let dist: Vec<[i32; 3]> = board
            .cells
            .iter()
            .map(|&c| [0, 1, 2].map(|p| distance(c, tips[p])))
            .collect();
        let mut owner = vec![NONE; board.cells.len()];
        let mut total = [0; 3];
        for (i, &c) in board.cells.iter().enumerate() {
            for p in 0..3 {
                if in_point(c, p, true) {
                    owner[i] = p as u8;
                    total[p] += dist[i][p];
                }
            }
        }
        ChineseCheckers {
            board,
            owner,
            dist,
            total,
            to_move: 0,
            plies: 0,
        }
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.board.cells.len()
    }

    /// Each player's progress: its start's summed distance less its summed distance now.
    pub fn progress(&self) -> [i32; 3] {
        let start = PROGRESS + 8; // the start point's distances: 12 + 2 * 11 + 3 * 10
        self.total.map(|t| start - t)
    }

    /// Whether player `p` has every piece in its target.
    fn home(&self, p: usize) -> bool {
        self.total[p] == 8 // the target's distances: 0 + 2 * 1 + 3 * 2
    }

    fn over(&self) -> bool {
        self.plies >= MAX_PLIES || (0..3).any(|p| self.home(p))
    }

    /// Every cell the piece on `from` can reach by jumps, marked in `seen`.
    fn jumps(&self, from: usize, seen: &mut [bool; 128], out: &mut Vec<Move>) {
        let mut stack = [0u8; 128];
        let mut top = 0;
        stack[top] = from as u8;
        top += 1;
        seen[from] = true;
        while top > 0 {
            top -= 1;
            let at = stack[top] as usize;
            for d in 0..6 {
                let over = self.board.next[at][d];
                if over == NONE || self.owner[over as usize] == NONE {
                    continue;
                }
                let to = self.board.next[over as usize][d];
                if to == NONE || self.owner[to as usize] != NONE || seen[to as usize] {
                    continue;
                }
                seen[to as usize] = true;
                out.push((from * 128 + to as usize) as Move);
                stack[top] = to;
                top += 1;
            }
        }
    }
}

impl Game for ChineseCheckers {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let me = self.to_move as u8;
        for from in 0..self.owner.len() {
            if self.owner[from] != me {
                continue;
            }
            let mut seen = [false; 128];
            for d in 0..6 {
                let to = self.board.next[from][d];
                if to != NONE && self.owner[to as usize] == NONE {
                    seen[to as usize] = true;
                    out.push((from * 128 + to as usize) as Move);
                }
            }
            self.jumps(from, &mut seen, out);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        if mv == PASS {
            self.to_move = (self.to_move + 1) % 3;
            return;
        }
        let (from, to) = ((mv / 128) as usize, (mv % 128) as usize);
        let p = self.owner[from] as usize;
        self.owner[from] = NONE;
        self.owner[to] = p as u8;
        self.total[p] += self.dist[to][p] - self.dist[from][p];
        self.to_move = (self.to_move + 1) % 3;
        self.plies += 1;
    }

    fn undo(&mut self, mv: Move) {
        if mv == PASS {
            self.to_move = (self.to_move + 2) % 3;
            return;
        }
        let (from, to) = ((mv / 128) as usize, (mv % 128) as usize);
        let p = self.owner[to] as usize;
        self.owner[to] = NONE;
        self.owner[from] = p as u8;
        self.total[p] += self.dist[from][p] - self.dist[to][p];
        self.to_move = (self.to_move + 2) % 3;
        self.plies -= 1;
    }

    fn outcome(&mut self) -> Option<i32> {
        None
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    fn hash(&mut self) -> Option<u64> {
        let mut h = (self.to_move as u64) << 60 | self.plies as u64;
        for (i, &o) in self.owner.iter().enumerate() {
            if o != NONE {
                h = (h ^ (i as u64 * 4 + o as u64)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                h ^= h >> 31;
            }
        }
        Some(h)
    }

    fn players(&mut self) -> usize {
        3
    }

    fn player_to_move(&mut self) -> usize {
        self.to_move
    }

    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        if !self.over() {
            return false;
        }
        let progress = self.progress();
        for p in 0..3 {
            out[p] = progress[p].max(0) + if self.home(p) { BONUS } else { 0 };
        }
        true
    }

    fn player_evaluations(&mut self, out: &mut [i32]) {
        let progress = self.progress();
        for p in 0..3 {
            out[p] = progress[p].max(0);
        }
    }

    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((0, 3 * PROGRESS + BONUS))
    }

    fn null_move(&mut self) -> Option<Move> {
        (!self.over()).then_some(PASS)
    }
}
