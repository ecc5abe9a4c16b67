//! Quoridor for 3 or 4 players, with the rules and numbers of OpenSpiel's `quoridor`
//! (from its documentation, its parameters `players`, `board_size` 9 and `wall_count`
//! 10 a player, and what its states do, observed from Python), so that MCTS on it can be
//! compared with OpenSpiel's own (two players would need `outcome` and `evaluate`,
//! which this version leaves out). Player 0 starts at the middle of the bottom row and
//! makes for the top, player 1 the reverse, player 2 starts at the middle of the left
//! column and makes for the right, player 3 the reverse; turns go round the board (0, 2,
//! 1, then 3), as OpenSpiel's do. A turn moves the pawn a cell
//! (over an adjacent pawn, or beside it where a wall or the edge is behind it, but not
//! at all where a pawn is) or
//! places a wall two cells long between cells, which may neither overlap nor cross
//! another and must leave every player a way to its goal. The first to reach its goal
//! scores `players - 1`, the others -1 (OpenSpiel's 1 and -1 / (players - 1), times
//! `players - 1`); after `4 * size * size` turns the game is a draw (all 0).
//!
//! Moves are OpenSpiel's actions, on its grid of `2 * size - 1` points a side (cells at
//! even rows and columns, walls between): a pawn move is the point of its direction
//! around (2, 2), so north is `2` and north-east `4`, a straight jump named as the step;
//! a wall is the point where it starts, a vertical one at an even row and odd column
//! running down, a horizontal one at an odd row and even column running right; a pawn
//! with no move and no wall left passes, by its own cell's point.

#![allow(dead_code)] // each program that shares it uses a part

use minimax::search::{Game, GameError, Move};

// Each game file stands alone (shared by path), so a program with two has two copies.
#[allow(clippy::duplicate_mod)]
#[path = "../common/splitmix.rs"]
mod splitmix;
use splitmix::{SplitMix, below};

/// The largest board, cells a side.
const MAX_SIZE: usize = 9;
/// Points of the largest board's extended grid: the wall grid with a ring of boundary
/// points around it.
const EXT: usize = (2 * MAX_SIZE + 1) * (2 * MAX_SIZE + 1);

/// Three points of the wall grid: a wall's (start, middle, end), or the corners it
/// touches (before, middle, after).
type Points = [(i32, i32); 3];

/// The four steps: (row, column) on the cell grid.
const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// A position of Quoridor.
#[derive(Clone, Debug)]
pub struct Quoridor {
    size: usize,
    players: usize,
    /// Each pawn's cell, `size * row + column`.
    pawns: [u8; 4],
    walls_left: [u8; 4],
    /// The extended grid (`2 * size + 1` a side, the wall grid shifted by one): wall
    /// points taken by walls.
    taken: [bool; EXT],
    /// The extended grid's corners (odd wall-grid rows and columns, and the boundary):
    /// how many walls (and the edge) touch each; a wall that touches the rest at one
    /// corner at most cannot shut a region off.
    touched: [u8; EXT],
    /// For each of the four steps, the cells (bit `size * row + column`) from which no
    /// wall or edge stops it: the board for `has_way`'s flood fill.
    open: [u128; 4],
    mover: usize,
    turns: u32,
    winner: Option<u8>,
    /// Each turn's move and the mover's cell before it, for `undo`.
    history: Vec<(Move, u8)>,
}

impl Quoridor {
    /// OpenSpiel's start for `players` (3 or 4): a 9 x 9 board, 10 walls each.
    pub fn new(players: usize) -> Quoridor {
        Quoridor::with(players, 9, 10)
    }

    /// The start with OpenSpiel's `board_size` (3 to 9) and `wall_count`.
    pub fn with(players: usize, size: usize, walls: u8) -> Quoridor {
        assert!((3..=4).contains(&players) && (3..=MAX_SIZE).contains(&size));
        let (mid, last) = (size / 2, size - 1);
        let mut pawns = [0u8; 4];
        let starts = [(last, mid), (0, mid), (mid, 0), (mid, last)];
        for (p, &(r, c)) in starts.iter().enumerate() {
            pawns[p] = (r * size + c) as u8;
        }
        let mut g = Quoridor {
            size,
            players,
            pawns,
            walls_left: [walls; 4],
            taken: [false; EXT],
            touched: [0; EXT],
            open: [0; 4],
            mover: 0,
            turns: 0,
            winner: None,
            history: Vec::new(),
        };
        for cell in 0..size * size {
            let (r, c) = ((cell / size) as i32, (cell % size) as i32);
            for (k, (dr, dc)) in STEPS.into_iter().enumerate() {
                if g.on_board(r + dr, c + dc) {
                    g.open[k] |= 1 << cell;
                }
            }
        }
        let side = g.side() as i32;
        for i in 0..side {
            for (r, c) in [(0, i), (side - 1, i), (i, 0), (i, side - 1)] {
                g.touched[(r * side + c) as usize] = 1;
            }
        }
        g
    }

    /// The wall grid's width, `2 * size - 1`.
    fn width(&self) -> i32 {
        2 * self.size as i32 - 1
    }

    /// The extended grid's width.
    fn side(&self) -> usize {
        2 * self.size + 1
    }

    /// The extended-grid index of wall-grid point (r, c).
    fn at(&self, r: i32, c: i32) -> usize {
        ((r + 1) * self.side() as i32 + c + 1) as usize
    }

    /// Whether `player` stands on its goal.
    fn at_goal(&self, player: usize, cell: usize) -> bool {
        let (r, c, last) = (cell / self.size, cell % self.size, self.size - 1);
        match player {
            0 => r == 0,
            1 => r == last,
            2 => c == last,
            _ => c == 0,
        }
    }

    /// Whether a wall stands between cell (r, c) and its neighbour a `step` away.
    fn blocked(&self, r: i32, c: i32, (dr, dc): (i32, i32)) -> bool {
        self.taken[self.at(2 * r + dr, 2 * c + dc)]
    }

    fn on_board(&self, r: i32, c: i32) -> bool {
        let s = self.size as i32;
        (0..s).contains(&r) && (0..s).contains(&c)
    }

    fn pawn_on(&self, r: i32, c: i32) -> bool {
        let cell = (r * self.size as i32 + c) as u8;
        self.pawns[..self.players].contains(&cell)
    }

    /// The mover's pawn moves, as OpenSpiel's actions, into `out` (each once).
    fn pawn_moves(&self, out: &mut Vec<Move>) {
        let cell = self.pawns[self.mover] as i32;
        let (r, c) = (cell / self.size as i32, cell % self.size as i32);
        let w = self.width() as Move;
        let action = |dr: i32, dc: i32| ((2 + 2 * dr) as Move) * w + (2 + 2 * dc) as Move;
        let start = out.len();
        for step @ (dr, dc) in STEPS {
            let (nr, nc) = (r + dr, c + dc);
            if !self.on_board(nr, nc) || self.blocked(r, c, step) {
                continue;
            }
            if !self.pawn_on(nr, nc) {
                out.push(action(dr, dc));
                continue;
            }
            // A pawn next door: jump it; where a wall or the edge is behind it, step
            // beside it; where a pawn is behind it, neither (as OpenSpiel has it).
            let (jr, jc) = (nr + dr, nc + dc);
            if self.on_board(jr, jc) && !self.blocked(nr, nc, step) {
                if !self.pawn_on(jr, jc) {
                    out.push(action(dr, dc));
                }
                continue;
            }
            for side @ (sr, sc) in STEPS {
                if (sr, sc) == (dr, dc) || (sr, sc) == (-dr, -dc) {
                    continue;
                }
                let (tr, tc) = (nr + sr, nc + sc);
                if self.on_board(tr, tc) && !self.blocked(nr, nc, side) && !self.pawn_on(tr, tc) {
                    let a = action(dr + sr, dc + sc);
                    if !out[start..].contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
    }

    /// The wall-grid points a wall at (r, c) covers (start, middle, end), and the
    /// corners it touches (before, middle, after); `None` if (r, c) does not start one.
    fn wall_points(&self, mv: Move) -> Option<(Points, Points)> {
        let w = self.width() as Move;
        let (r, c) = ((mv / w) as i32, (mv % w) as i32);
        let last = self.width() - 1;
        if r % 2 == 0 && c % 2 == 1 && r < last {
            let p = [(r, c), (r + 1, c), (r + 2, c)];
            return Some((p, [(r - 1, c), (r + 1, c), (r + 3, c)]));
        }
        if r % 2 == 1 && c % 2 == 0 && c < last {
            let p = [(r, c), (r, c + 1), (r, c + 2)];
            return Some((p, [(r, c - 1), (r, c + 1), (r, c + 3)]));
        }
        None
    }

    /// Whether the wall `mv` is free to place: none of its points taken, and, where it
    /// touches the rest at two corners or more, every player still has a way.
    fn wall_fits(&mut self, mv: Move) -> bool {
        let Some((points, corners)) = self.wall_points(mv) else {
            return false;
        };
        if points.iter().any(|&(r, c)| self.taken[self.at(r, c)]) {
            return false;
        }
        let contacts = corners
            .iter()
            .filter(|&&(r, c)| self.touched[self.at(r, c)] > 0)
            .count();
        if contacts < 2 {
            return true;
        }
        self.set_wall(points, corners, true);
        let open = (0..self.players).all(|p| self.has_way(p));
        self.set_wall(points, corners, false);
        open
    }

    fn set_wall(&mut self, points: Points, corners: Points, on: bool) {
        for (r, c) in points {
            let i = self.at(r, c);
            self.taken[i] = on;
        }
        // The two steps across each end: from the cells on either side of it.
        let s = self.size as i32;
        for (r, c) in [points[0], points[2]] {
            let (k, a, b) = match r % 2 {
                0 => (3, (r / 2) * s + (c - 1) / 2, (r / 2) * s + (c + 1) / 2), // east, west
                _ => (1, ((r - 1) / 2) * s + c / 2, ((r + 1) / 2) * s + c / 2), // south, north
            };
            let back = if k == 3 { 2 } else { 0 };
            for (k, cell) in [(k, a), (back, b)] {
                match on {
                    true => self.open[k] &= !(1 << cell),
                    false => self.open[k] |= 1 << cell,
                }
            }
        }
        for (r, c) in corners {
            let i = self.at(r, c);
            match on {
                true => self.touched[i] += 1,
                false => self.touched[i] -= 1,
            }
        }
    }

    /// Whether `player`'s pawn can reach its goal past the walls (pawns do not block):
    /// a flood fill over the board's bits.
    fn has_way(&self, player: usize) -> bool {
        let s = self.size;
        let goal = self.goal(player);
        let mut reach = 1u128 << self.pawns[player];
        loop {
            if reach & goal != 0 {
                return true;
            }
            let next = reach
                | ((reach & self.open[0]) >> s)
                | ((reach & self.open[1]) << s)
                | ((reach & self.open[2]) >> 1)
                | ((reach & self.open[3]) << 1);
            if next == reach {
                return false;
            }
            reach = next;
        }
    }

    /// `player`'s goal cells, as bits.
    fn goal(&self, player: usize) -> u128 {
        let s = self.size;
        (0..s)
            .map(|i| match player {
                0 => i,
                1 => (s - 1) * s + i,
                2 => i * s + s - 1,
                _ => i * s,
            })
            .fold(0, |m, cell| m | 1 << cell)
    }

    /// The cell a pawn move `mv` of the mover's leads to.
    fn pawn_target(&self, mv: Move) -> u8 {
        let w = self.width() as Move;
        let (dr, dc) = (((mv / w) - 2) as i32 / 2, ((mv % w) - 2) as i32 / 2);
        let s = self.size as i32;
        let cell = self.pawns[self.mover] as i32;
        let (r, c) = (cell / s + dr, cell % s + dc);
        if dr != 0 && dc != 0 {
            return (r * s + c) as u8;
        }
        // A straight move: one cell, or two over a pawn.
        match self.pawn_on(r, c) {
            true => ((r + dr) * s + c + dc) as u8,
            false => (r * s + c) as u8,
        }
    }

    /// Plays `mv` without keeping it for `undo`.
    fn step(&mut self, mv: Move) {
        let p = self.mover;
        if let Some((points, corners)) = self.wall_points(mv) {
            self.set_wall(points, corners, true);
            self.walls_left[p] -= 1;
        } else if mv != self.pass() || !self.is_pass() {
            self.pawns[p] = self.pawn_target(mv);
            if self.at_goal(p, self.pawns[p] as usize) {
                self.winner = Some(p as u8);
            }
        }
        self.turns += 1;
        self.mover = self.next(p);
    }

    /// A copy of the position without its history.
    fn clone_position(&self) -> Quoridor {
        Quoridor {
            history: Vec::new(),
            ..*self
        }
    }

    /// The pass of a pawn with no move and no wall left: its own cell's point (OpenSpiel's
    /// only move then).
    fn pass(&self) -> Move {
        let cell = self.pawns[self.mover] as Move;
        let (s, w) = (self.size as Move, self.width() as Move);
        2 * (cell / s) * w + 2 * (cell % s)
    }

    /// Whether the mover can only pass (its own point may also name a direction, near
    /// the top left corner).
    fn is_pass(&self) -> bool {
        let mut moves = Vec::new();
        self.pawn_moves(&mut moves);
        moves.is_empty() && self.walls_left[self.mover] == 0
    }

    /// The player after `p`: turns go round the board, 0 (bottom), 2 (left), 1 (top),
    /// 3 (right), as OpenSpiel's do.
    fn next(&self, p: usize) -> usize {
        match (p, self.players) {
            (0, _) => 2,
            (2, _) => 1,
            (1, 4) => 3,
            _ => 0,
        }
    }

    /// The player before `p`.
    fn previous(&self, p: usize) -> usize {
        match (p, self.players) {
            (2, _) => 0,
            (1, _) => 2,
            (3, _) => 1,
            (_, 4) => 3,
            _ => 1,
        }
    }
}

impl Game for Quoridor {
    /// Pawn moves first, then the walls (while the mover has any), each in the grid's
    /// order.
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let start = out.len();
        self.pawn_moves(out);
        if self.walls_left[self.mover] > 0 {
            let w = self.width() as Move;
            for mv in 0..w * w {
                if self.wall_fits(mv) {
                    out.push(mv);
                }
            }
        }
        if out.len() == start {
            out.push(self.pass());
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        self.history.push((mv, self.pawns[self.mover]));
        self.step(mv);
    }

    fn undo(&mut self, mv: Move) {
        let (_, cell) = self.history.pop().expect("a move to undo");
        let p = self.previous(self.mover);
        self.mover = p;
        self.turns -= 1;
        self.winner = None;
        match self.wall_points(mv) {
            Some((points, corners)) => {
                self.set_wall(points, corners, false);
                self.walls_left[p] += 1;
            }
            None => self.pawns[p] = cell,
        }
    }
    fn outcome(&mut self) -> Option<i32> {
        None
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    fn players(&mut self) -> usize {
        self.players
    }

    fn player_to_move(&mut self) -> usize {
        self.mover
    }

    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        match self.winner {
            Some(w) => {
                out.fill(-1);
                out[w as usize] = self.players as i32 - 1;
                true
            }
            None if self.turns >= 4 * (self.size * self.size) as u32 => {
                out.fill(0);
                true
            }
            None => false,
        }
    }

    fn player_evaluations(&mut self, out: &mut [i32]) {
        out.fill(0);
    }

    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        Some((-1, 0))
    }

    /// A playout on a copy, each move uniform among the legal ones as the engine's own
    /// would draw it, without listing the walls: a draw among the pawn moves and every
    /// wall's starting point, drawn again while it is a wall that does not fit (which
    /// leaves each legal move equally likely).
    fn playout(&mut self, seed: u64, out: &mut [i32]) -> bool {
        let mut g = self.clone_position();
        let mut random = SplitMix(seed);
        let w = g.width() as Move;
        let walls: Vec<Move> = (0..w * w)
            .filter(|&mv| g.wall_points(mv).is_some())
            .collect();
        let mut pawn = Vec::with_capacity(8);
        while !g.player_scores(out) {
            pawn.clear();
            g.pawn_moves(&mut pawn);
            let spare = if g.walls_left[g.mover] > 0 {
                walls.len()
            } else {
                0
            };
            let mut tries = 0;
            let mv = loop {
                if pawn.len() + spare == 0 {
                    break g.pass();
                }
                if tries == 64 {
                    // Few walls fit: list the moves and draw among them.
                    pawn.clear();
                    let _ = g.moves(&mut pawn);
                    break pawn[below(random.next(), pawn.len() as u32) as usize];
                }
                let k = below(random.next(), (pawn.len() + spare) as u32) as usize;
                if k < pawn.len() {
                    break pawn[k];
                }
                let mv = walls[k - pawn.len()];
                if g.wall_fits(mv) {
                    break mv;
                }
                tries += 1;
            };
            g.step(mv);
        }
        true
    }
}
