//! The examples' games of more than two players against versions written here apart,
//! plainly (a grid of cells, coordinates walked one step at a time): perft counts, and
//! the same moves and scores along random games.

#[path = "../../examples/players/chinese_checkers.rs"]
mod chinese_checkers;
#[path = "../../examples/players/rolit.rs"]
mod rolit;

use std::collections::BTreeSet;

use chinese_checkers::ChineseCheckers;
use minimax::search::{Game, Move};
use rolit::Rolit;

/// A plain Rolit: `cells[r][c]` holds a colour or nothing.
#[derive(Clone)]
struct PlainRolit {
    size: i32,
    players: usize,
    cells: Vec<Vec<Option<usize>>>,
    to_move: usize,
}

const EIGHT: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl PlainRolit {
    fn new(size: i32, players: usize) -> Self {
        let mut cells = vec![vec![None; size as usize]; size as usize];
        let (a, b) = ((size / 2 - 1) as usize, (size / 2) as usize);
        cells[a][a] = Some(0);
        cells[a][b] = Some(1);
        cells[b][b] = Some(2);
        cells[b][a] = Some(3);
        PlainRolit {
            size,
            players,
            cells,
            to_move: 0,
        }
    }

    fn at(&self, r: i32, c: i32) -> Option<Option<usize>> {
        let inside = (0..self.size).contains(&r) && (0..self.size).contains(&c);
        inside.then(|| self.cells[r as usize][c as usize])
    }

    /// The discs a disc of the mover's on (r, c) turns.
    fn turned(&self, r: i32, c: i32) -> Vec<(i32, i32)> {
        let me = self.to_move;
        let mut out = Vec::new();
        for (dr, dc) in EIGHT {
            let mut line = Vec::new();
            let (mut y, mut x) = (r + dr, c + dc);
            while let Some(Some(o)) = self.at(y, x) {
                if o == me {
                    out.extend(line.iter().copied());
                    break;
                }
                line.push((y, x));
                (y, x) = (y + dr, x + dc);
            }
        }
        out
    }

    fn moves(&self) -> Vec<Move> {
        let n = self.size;
        let empty: Vec<(i32, i32)> = (0..n * n)
            .map(|i| (i / n, i % n))
            .filter(|&(r, c)| self.at(r, c) == Some(None))
            .collect();
        let caps: Vec<_> = empty
            .iter()
            .filter(|&&(r, c)| !self.turned(r, c).is_empty())
            .collect();
        let chosen: Vec<_> = if caps.is_empty() {
            let near = |&&(r, c): &&(i32, i32)| {
                EIGHT
                    .iter()
                    .any(|(dr, dc)| matches!(self.at(r + dr, c + dc), Some(Some(_))))
            };
            empty.iter().filter(near).collect()
        } else {
            caps.into_iter().collect()
        };
        chosen
            .into_iter()
            .map(|&(r, c)| (8 * r + c) as Move)
            .collect()
    }

    fn play(&mut self, mv: Move) {
        let (r, c) = ((mv / 8) as i32, (mv % 8) as i32);
        for (y, x) in self.turned(r, c) {
            self.cells[y as usize][x as usize] = Some(self.to_move);
        }
        self.cells[r as usize][c as usize] = Some(self.to_move);
        self.to_move = (self.to_move + 1) % self.players;
    }

    fn scores(&self) -> Vec<i32> {
        let mut out = vec![0; self.players];
        for o in self.cells.iter().flatten().flatten() {
            if *o < self.players {
                out[*o] += 1;
            }
        }
        out
    }
}

fn perft_plain_rolit(g: &PlainRolit, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    g.moves()
        .into_iter()
        .map(|m| {
            let mut next = g.clone();
            next.play(m);
            perft_plain_rolit(&next, depth - 1)
        })
        .sum()
}

fn perft<G: Game>(g: &mut G, depth: u32) -> u64 {
    let mut v = vec![0; g.players()];
    if depth == 0 {
        return 1;
    }
    if g.player_scores(&mut v) {
        return 0;
    }
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut n = 0;
    for m in moves {
        g.play(m);
        n += perft(g, depth - 1);
        g.undo(m);
    }
    n
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

/// SplitMix64, for the random games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

#[test]
fn rolit_perft_equals_a_plain_rolit() {
    for (size, players, depth) in [(8, 3, 4), (8, 4, 4), (6, 3, 5), (6, 4, 4), (4, 3, 12)] {
        let want = perft_plain_rolit(&PlainRolit::new(size, players), depth);
        let got = perft(&mut Rolit::new(size as usize, players), depth);
        assert_eq!(got, want, "{size}x{size}, {players} players, depth {depth}");
    }
}

#[test]
fn rolit_random_games_match_a_plain_rolit_to_the_end() {
    let mut rng = Rng(7);
    for game in 0..200 {
        let (size, players) = [(8, 3), (8, 4), (6, 3), (6, 4)][game % 4];
        let mut plain = PlainRolit::new(size, players);
        let mut g = Rolit::new(size as usize, players);
        let mut line = Vec::new();
        let mut scores = vec![0; players];
        loop {
            let want = plain.moves();
            if want.is_empty() {
                break;
            }
            assert!(!g.player_scores(&mut scores), "over early");
            let mut got = Vec::new();
            g.moves(&mut got).unwrap();
            assert_eq!(sorted(got), sorted(want.clone()), "game {game}");
            let m = want[rng.below(want.len())];
            plain.play(m);
            g.play(m);
            line.push(m);
        }
        assert!(g.player_scores(&mut scores));
        assert_eq!(scores, plain.scores(), "game {game}");
        assert_eq!(line.len() as i32, size * size - 4, "the board fills");
        for m in line.into_iter().rev() {
            g.undo(m);
        }
        assert_eq!(g.hash(), Rolit::new(size as usize, players).hash());
    }
}

/// A plain Chinese Checkers: cells as axial (q, r), pieces in a map.
#[derive(Clone)]
struct PlainCheckers {
    cells: Vec<(i32, i32)>,
    owner: std::collections::BTreeMap<(i32, i32), usize>,
    to_move: usize,
}

impl PlainCheckers {
    fn new() -> Self {
        let mut cells = Vec::new();
        let mut owner = std::collections::BTreeMap::new();
        for r in -6..=6i32 {
            for q in -6..=6i32 {
                let s = -q - r;
                let star = (q >= -3 && r >= -3 && s >= -3) || (q <= 3 && r <= 3 && s <= 3);
                if !star {
                    continue;
                }
                cells.push((q, r));
                for (p, v) in [q, r, s].into_iter().enumerate() {
                    if v > 3 {
                        owner.insert((q, r), p);
                    }
                }
            }
        }
        PlainCheckers {
            cells,
            owner,
            to_move: 0,
        }
    }

    /// Moves as (from, to) cell pairs.
    fn moves(&self) -> BTreeSet<((i32, i32), (i32, i32))> {
        let dirs = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];
        let on = |c: &(i32, i32)| self.cells.contains(c);
        let empty = |c: &(i32, i32)| on(c) && !self.owner.contains_key(c);
        let mut out = BTreeSet::new();
        for (&from, &p) in &self.owner {
            if p != self.to_move {
                continue;
            }
            for (dq, dr) in dirs {
                let to = (from.0 + dq, from.1 + dr);
                if empty(&to) {
                    out.insert((from, to));
                }
            }
            let mut frontier = vec![from];
            let mut reached = BTreeSet::from([from]);
            while let Some(at) = frontier.pop() {
                for (dq, dr) in dirs {
                    let over = (at.0 + dq, at.1 + dr);
                    let to = (at.0 + 2 * dq, at.1 + 2 * dr);
                    if self.owner.contains_key(&over) && empty(&to) && reached.insert(to) {
                        out.insert((from, to));
                        frontier.push(to);
                    }
                }
            }
        }
        out
    }
}

/// The native game's cell numbers: the plain cells are made in the same row order.
fn checkers_move(plain: &PlainCheckers, (from, to): ((i32, i32), (i32, i32))) -> Move {
    let i = |c: (i32, i32)| plain.cells.iter().position(|&d| d == c).unwrap();
    (i(from) * 128 + i(to)) as Move
}

#[test]
fn chinese_checkers_moves_match_a_plain_version_along_random_games() {
    let mut rng = Rng(11);
    let start = PlainCheckers::new();
    assert_eq!(start.cells.len(), 73);
    assert_eq!(start.owner.len(), 18);
    for game in 0..40 {
        let mut plain = start.clone();
        let mut g = ChineseCheckers::new();
        let mut line = Vec::new();
        let mut scores = [0; 3];
        for _ in 0..chinese_checkers::MAX_PLIES {
            if g.player_scores(&mut scores) {
                break;
            }
            let want: Vec<Move> = plain
                .moves()
                .into_iter()
                .map(|m| checkers_move(&plain, m))
                .collect();
            let mut got = Vec::new();
            g.moves(&mut got).unwrap();
            assert_eq!(got.len(), want.len(), "game {game}: no move twice");
            assert_eq!(sorted(got), sorted(want.clone()), "game {game}");
            let m = want[rng.below(want.len())];
            let (from, to) = (plain.cells[m as usize / 128], plain.cells[m as usize % 128]);
            let p = plain.owner.remove(&from).unwrap();
            plain.owner.insert(to, p);
            plain.to_move = (plain.to_move + 1) % 3;
            g.play(m);
            line.push(m);
        }
        assert!(g.player_scores(&mut scores), "over by the ply limit");
        for m in line.into_iter().rev() {
            g.undo(m);
        }
        assert_eq!(g.hash(), ChineseCheckers::new().hash());
    }
}

#[test]
fn chinese_checkers_perft_equals_the_plain_version() {
    fn plain_perft(g: &PlainCheckers, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        g.moves()
            .into_iter()
            .map(|(from, to)| {
                let mut next = g.clone();
                let p = next.owner.remove(&from).unwrap();
                next.owner.insert(to, p);
                next.to_move = (next.to_move + 1) % 3;
                plain_perft(&next, depth - 1)
            })
            .sum()
    }
    for depth in 1..=3 {
        let want = plain_perft(&PlainCheckers::new(), depth);
        assert_eq!(
            perft(&mut ChineseCheckers::new(), depth),
            want,
            "depth {depth}"
        );
    }
}

#[test]
fn chinese_checkers_scores_progress_and_the_player_home() {
    // Player 0 walks its pieces home along a line the others leave alone: its progress
    // reaches PROGRESS and the bonus.
    let mut g = ChineseCheckers::new();
    let mut scores = [0; 3];
    g.player_evaluations(&mut scores);
    assert_eq!(scores, [0, 0, 0]);
    let mut rng = Rng(3);
    let mut best_progress = 0;
    for _ in 0..200 {
        if g.player_scores(&mut scores) {
            break;
        }
        let mut moves = Vec::new();
        g.moves(&mut moves).unwrap();
        // Greedy for every player: the move that gains most progress, ties at random.
        let p = g.player_to_move();
        let mut gains: Vec<(i32, Move)> = moves
            .iter()
            .map(|&m| {
                g.play(m);
                let mut e = [0; 3];
                g.player_evaluations(&mut e);
                g.undo(m);
                (e[p], m)
            })
            .collect();
        let top = gains.iter().map(|x| x.0).max().unwrap();
        gains.retain(|x| x.0 == top);
        g.play(gains[rng.below(gains.len())].1);
        best_progress = best_progress.max(top);
    }
    assert!(g.player_scores(&mut scores));
    let (lo, sum) = g.player_bounds().unwrap();
    assert!(scores.iter().all(|&s| s >= lo) && scores.iter().sum::<i32>() <= sum);
    assert!(
        scores.contains(&(chinese_checkers::PROGRESS + chinese_checkers::BONUS)),
        "a greedy player gets home: {scores:?}"
    );
}
