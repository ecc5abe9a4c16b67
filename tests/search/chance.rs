//! The chance methods against a plain expectimax written here: random trees of mixed
//! node kinds and weights, a dice game solved exactly, and 2048 positions at depths 1-3.
//! Expectimax must give the same double; Star1 and Star2 within 1e-9 relative (they sum
//! each chance node in the same order, so in practice the same double too).

use crate::common;
use crate::shared::game2048;
#[path = "../../examples/star/trees.rs"]
mod trees;

use std::collections::HashMap;

use common::Rng;
use game2048::Game2048;
use minimax::search::{
    ANY_OUTCOME, Game, GameError, Method, Move, Options, Table, search, search_parallel,
};

const CHANCE: [Method; 3] = [Method::Expectimax, Method::Star1, Method::Star2];

/// Plain expectiminimax over any game, `depth` plies deep: MAX and MIN by the game's
/// `max_to_move` (else alternating), chance nodes by their weights over the sum.
fn plain<G: Game>(g: &mut G, depth: u32, max_side: bool) -> f64 {
    let max_side = g.max_to_move().unwrap_or(max_side);
    if let Some(s) = g.outcome() {
        return s as f64;
    }
    if depth == 0 {
        return g.evaluate() as f64;
    }
    let side = |g: &mut G| g.max_to_move().unwrap_or(!max_side);
    if g.is_chance() {
        let mut outs = Vec::new();
        g.outcomes(&mut outs).unwrap();
        let total: f64 = outs.iter().map(|o| o.1).sum();
        let mut sum = 0.0;
        for (mv, w) in outs {
            if w == 0.0 {
                continue;
            }
            g.play(mv);
            let s = side(g);
            let v = plain(g, depth - 1, s);
            g.undo(mv);
            sum += w * v;
        }
        return sum / total;
    }
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let mut best: Option<f64> = None;
    for mv in moves {
        g.play(mv);
        let s = side(g);
        let v = plain(g, depth - 1, s);
        g.undo(mv);
        best = Some(match best {
            None => v,
            Some(b) if max_side => b.max(v),
            Some(b) => b.min(v),
        });
    }
    best.unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn opts<'a>(method: Method, depth: u32, id: bool, table: bool) -> Options<'a> {
    Options {
        method,
        max_depth: depth,
        iterative_deepening: id,
        table_bytes: if table { 1 << 16 } else { 0 },
        ..Options::default()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Max,
    Min,
    Chance,
}

struct Node {
    kind: Kind,
    children: Vec<usize>,
    weights: Vec<f64>,
    /// The final score of a leaf, the heuristic score of an inner node.
    score: i32,
}

/// An explicit tree as a game: moves are child positions.
struct TreeGame {
    nodes: Vec<Node>,
    path: Vec<usize>,
    hashed: bool,
    bounds: Option<(i32, i32)>,
}

impl TreeGame {
    fn random(rng: &mut Rng, height: u32) -> TreeGame {
        let mut g = TreeGame {
            nodes: Vec::new(),
            path: vec![0],
            hashed: rng.range(0, 1) == 1,
            bounds: Some((-50, 50)),
        };
        g.grow(rng, height);
        g
    }

    fn grow(&mut self, rng: &mut Rng, height: u32) -> usize {
        let id = self.nodes.len();
        let kind = [Kind::Max, Kind::Min, Kind::Chance][rng.range(0, 2) as usize];
        let score = rng.range(-50, 50) as i32;
        self.nodes.push(Node {
            kind,
            children: Vec::new(),
            weights: Vec::new(),
            score,
        });
        if height == 0 || (height < 4 && rng.range(0, 5) == 0) {
            return id;
        }
        let n = rng.range(1, 4);
        for _ in 0..n {
            let c = self.grow(rng, height - 1);
            // Weights: small integers (0 included), or any fraction.
            let w = match rng.range(0, 3) {
                0 => rng.range(0, 3) as f64,
                _ => rng.range(1, 1000) as f64 / 7.0,
            };
            self.nodes[id].children.push(c);
            self.nodes[id].weights.push(w);
        }
        if self.nodes[id].weights.iter().all(|&w| w == 0.0) {
            self.nodes[id].weights[0] = 1.0;
        }
        id
    }

    fn here(&self) -> &Node {
        &self.nodes[*self.path.last().unwrap()]
    }
}

impl Game for TreeGame {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(0..self.here().children.len() as Move);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        let c = self.here().children[mv as usize];
        self.path.push(c);
    }
    fn undo(&mut self, _: Move) {
        self.path.pop();
    }
    fn outcome(&mut self) -> Option<i32> {
        let n = self.here();
        n.children.is_empty().then_some(n.score)
    }
    fn evaluate(&mut self) -> i32 {
        self.here().score
    }
    fn hash(&mut self) -> Option<u64> {
        let id = *self.path.last().unwrap() as u64;
        self.hashed
            .then(|| (id + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.here().kind != Kind::Min)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.bounds
    }
    fn is_chance(&mut self) -> bool {
        let n = self.here();
        n.kind == Kind::Chance && !n.children.is_empty()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let n = self.here();
        out.extend((0..n.children.len() as Move).zip(n.weights.iter().copied()));
        Ok(())
    }
}

#[test]
fn random_trees_match_plain_expectimax_at_every_depth() {
    let mut rng = Rng::new(11);
    let mut compared = 0;
    for _ in 0..300 {
        let height = rng.range(1, 6) as u32;
        let mut g = TreeGame::random(&mut rng, height);
        for depth in 1..=height + 1 {
            let want = plain(&mut g, depth, true);
            for method in CHANCE {
                for (id, table) in [(false, false), (true, true), (false, true)] {
                    let r = search(&mut g, &mut opts(method, depth, id, table)).unwrap();
                    let got = r.expected.expect("a chance method gives an expected value");
                    if method == Method::Expectimax {
                        assert_eq!(got.to_bits(), want.to_bits(), "{method:?} depth {depth}");
                    } else {
                        assert!(
                            close(got, want),
                            "{method:?} depth {depth}: {got} vs {want}"
                        );
                    }
                    assert_eq!(g.path, [0], "the game is back at its root");
                    assert!(r.exact);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 3000, "{compared}");
}

#[test]
fn the_best_move_has_the_best_value() {
    let mut rng = Rng::new(12);
    for _ in 0..200 {
        let mut g = TreeGame::random(&mut rng, 5);
        if g.is_chance() || g.outcome().is_some() {
            continue;
        }
        let max_side = g.max_to_move().unwrap();
        let want = plain(&mut g, 6, max_side);
        for method in CHANCE {
            let r = search(&mut g, &mut opts(method, 6, true, true)).unwrap();
            let mv = r.best_move.unwrap();
            g.play(mv);
            let side = g.max_to_move().unwrap();
            let v = plain(&mut g, 5, side);
            g.undo(mv);
            assert!(
                close(v, want),
                "{method:?}: move {mv} is worth {v}, best {want}"
            );
            assert!(
                r.proven,
                "every line of a height-5 tree ends within 6 plies"
            );
        }
    }
}

/// A dice race to 8: at each turn a die (1, 2 or 3, with weights 1, 1, 2) is rolled for
/// the player to move, who then advances by the roll, or by 1 and rolls again (an extra
/// turn: the sides do not alternate). The first to 8 wins by the loser's distance to go.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Race {
    pos: [i32; 2],
    max_turn: bool,
    roll: i32, // 0: the die is to be rolled
}

struct RaceGame {
    now: Race,
    history: Vec<Race>,
}

const GOAL: i32 = 8;

impl Game for RaceGame {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]); // 0: advance by the roll; 1: advance by 1 and roll again
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.history.push(self.now);
        let me = (!self.now.max_turn) as usize;
        if self.now.roll == 0 {
            self.now.roll = mv as i32;
        } else if mv == 0 {
            self.now.pos[me] += self.now.roll;
            self.now.roll = 0;
            self.now.max_turn = !self.now.max_turn;
        } else {
            self.now.pos[me] += 1;
            self.now.roll = 0;
        }
    }
    fn undo(&mut self, _: Move) {
        self.now = self.history.pop().unwrap();
    }
    fn outcome(&mut self) -> Option<i32> {
        let [a, b] = self.now.pos;
        if a >= GOAL {
            Some(GOAL - b)
        } else if b >= GOAL {
            Some(a - GOAL)
        } else {
            None
        }
    }
    fn evaluate(&mut self) -> i32 {
        self.now.pos[0] - self.now.pos[1]
    }
    fn hash(&mut self) -> Option<u64> {
        let r = self.now;
        let k = (r.pos[0] * 16 + r.pos[1]) * 8 + r.roll * 2 + r.max_turn as i32;
        Some((k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.now.max_turn)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-GOAL, GOAL))
    }
    fn is_chance(&mut self) -> bool {
        self.now.roll == 0
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend([(1, 1.0), (2, 1.0), (3, 2.0)]);
        Ok(())
    }
}

/// The race's exact value, memoised by position: a plain expectimax that meets each
/// position once.
fn race_value(g: &mut RaceGame, memo: &mut HashMap<Race, f64>) -> f64 {
    if let Some(&v) = memo.get(&g.now) {
        return v;
    }
    let v = if let Some(s) = g.outcome() {
        s as f64
    } else if g.is_chance() {
        let mut outs = Vec::new();
        g.outcomes(&mut outs).unwrap();
        let total: f64 = outs.iter().map(|o| o.1).sum();
        let mut sum = 0.0;
        for (mv, w) in outs {
            g.play(mv);
            sum += w * race_value(g, memo);
            g.undo(mv);
        }
        sum / total
    } else {
        let mut vals = Vec::new();
        for mv in [0, 1] {
            g.play(mv);
            vals.push(race_value(g, memo));
            g.undo(mv);
        }
        if g.now.max_turn {
            vals[0].max(vals[1])
        } else {
            vals[0].min(vals[1])
        }
    };
    memo.insert(g.now, v);
    v
}

#[test]
fn a_dice_race_is_solved_exactly() {
    let start = Race {
        pos: [0, 0],
        max_turn: true,
        roll: 0,
    };
    let mut memo = HashMap::new();
    let mut g = RaceGame {
        now: start,
        history: Vec::new(),
    };
    let want = race_value(&mut g, &mut memo);
    assert!(memo.len() > 300, "{} positions", memo.len());
    // From the start (a chance node: nothing to choose) and after each roll.
    for roll in [0, 1, 2, 3] {
        g.now.roll = roll;
        let want = if roll == 0 {
            want
        } else {
            race_value(&mut g, &mut memo)
        };
        for method in CHANCE {
            let r = search(&mut g, &mut opts(method, u32::MAX, true, true)).unwrap();
            let got = r.expected.unwrap();
            assert!(close(got, want), "{method:?} roll {roll}: {got} vs {want}");
            assert!(r.proven && r.exact, "{method:?}");
            assert_eq!(r.value, want.round() as i32);
            if roll == 0 {
                assert_eq!(r.best_move, None, "a chance root has no move to choose");
                assert_eq!(r.pv.first(), Some(&ANY_OUTCOME));
            } else {
                let mv = r.best_move.unwrap();
                g.play(mv);
                let v = race_value(&mut g, &mut memo);
                g.undo(mv);
                assert!(
                    close(v, want),
                    "{method:?}: move {mv} is worth {v}, not {want}"
                );
                // After "advance by the roll" the other side's die is rolled.
                if mv == 0 && r.pv.len() > 1 {
                    assert_eq!(r.pv[1], ANY_OUTCOME);
                }
            }
        }
        assert_eq!(g.history.len(), 0);
    }
}

#[test]
fn star_pruning_saves_nodes_on_regular_trees() {
    // MAX, chance, MIN, chance, ... with four children each: Ballard's setting.
    let mut nodes = [0u64; 3];
    for seed in 0..10 {
        let mut g = trees::RegularTree::new(seed, 6, 4, false);
        let want = plain(&mut g, 6, true);
        for (i, method) in CHANCE.into_iter().enumerate() {
            let r = search(&mut g, &mut opts(method, 6, false, true)).unwrap();
            assert!(close(r.expected.unwrap(), want));
            nodes[i] += r.stats.nodes;
        }
    }
    assert!(nodes[1] < nodes[0] && nodes[2] < nodes[1], "{nodes:?}");
}

#[test]
fn positions_of_2048_match_plain_expectimax_at_depths_1_to_3() {
    for seed in 0..12 {
        let mut g = Game2048::random(seed, 5 + seed as usize * 7);
        if g.outcome().is_some() {
            continue;
        }
        for depth in 1..=3 {
            let want = plain(&mut g, depth, true);
            for method in CHANCE {
                for table in [false, true] {
                    let r = search(&mut g, &mut opts(method, depth, true, table)).unwrap();
                    let got = r.expected.unwrap();
                    assert!(
                        close(got, want),
                        "seed {seed} {method:?} {depth}: {got} vs {want}"
                    );
                    if method == Method::Expectimax && !table {
                        assert_eq!(got.to_bits(), want.to_bits());
                    }
                    // The move chosen is worth the value.
                    let mv = r.best_move.unwrap();
                    g.play(mv);
                    let v = plain(&mut g, depth - 1, true);
                    g.undo(mv);
                    assert!(close(v, want), "seed {seed} {method:?}: {mv} worth {v}");
                }
            }
        }
    }
}

#[test]
fn deterministic_methods_refuse_chance_nodes() {
    let mut g = Game2048::random(3, 4);
    for method in [
        Method::Minimax,
        Method::AlphaBeta,
        Method::Pvs,
        Method::Exact,
    ] {
        let r = search(&mut g, &mut opts(method, 3, true, true));
        assert_eq!(r.unwrap_err(), GameError::ChanceNode, "{method:?}");
    }
    // A deterministic game gets no expected value from them, as before.
    let mut rng = Rng::new(5);
    let mut t = TreeGame::random(&mut rng, 4);
    for n in &mut t.nodes {
        if n.kind == Kind::Chance {
            n.kind = Kind::Max;
        }
    }
    let r = search(&mut t, &mut opts(Method::AlphaBeta, 5, true, true)).unwrap();
    assert_eq!(r.expected, None);
    let e = search(&mut t, &mut opts(Method::Expectimax, 5, true, true)).unwrap();
    assert_eq!(
        e.expected,
        Some(r.value as f64),
        "no chance node: the same value"
    );
}

/// A tree whose root is a chance node with the given weights over two leaves.
fn weighted(weights: &[f64], bounds: Option<(i32, i32)>) -> TreeGame {
    let mut nodes = vec![Node {
        kind: Kind::Chance,
        children: (1..=weights.len()).collect(),
        weights: weights.to_vec(),
        score: 0,
    }];
    for i in 0..weights.len() {
        nodes.push(Node {
            kind: Kind::Max,
            children: Vec::new(),
            weights: Vec::new(),
            score: 10 * i as i32,
        });
    }
    TreeGame {
        nodes,
        path: vec![0],
        hashed: false,
        bounds,
    }
}

#[test]
fn bad_chance_nodes_get_their_errors() {
    let b = Some((-50, 50));
    let cases: [(&[f64], GameError); 6] = [
        (&[], GameError::NoOutcomes),
        (&[1.0, -1.0], GameError::BadWeight),
        (&[f64::NAN, 1.0], GameError::BadWeight),
        (&[f64::INFINITY, 1.0], GameError::BadWeight),
        (&[f64::MAX, f64::MAX], GameError::WeightSumOverflow),
        (&[0.0, 0.0], GameError::ZeroWeights),
    ];
    for (weights, want) in cases {
        for method in CHANCE {
            let mut g = weighted(weights, b);
            if weights.is_empty() {
                g.nodes[0].children = vec![1]; // a chance node listing nothing
                g.nodes.push(Node {
                    kind: Kind::Max,
                    children: Vec::new(),
                    weights: Vec::new(),
                    score: 0,
                });
            }
            let r = search(&mut g, &mut opts(method, 3, true, false));
            assert_eq!(r.unwrap_err(), want, "{weights:?} {method:?}");
        }
    }
    // Weights 1 and 3: an expectation of 7.5.
    let r = search(
        &mut weighted(&[1.0, 3.0], b),
        &mut opts(Method::Star2, 3, true, false),
    );
    assert_eq!(r.unwrap().expected, Some(7.5));
    // Star1 and Star2 need bounds that hold every score.
    for method in [Method::Star1, Method::Star2] {
        let r = search(
            &mut weighted(&[1.0, 3.0], None),
            &mut opts(method, 3, true, false),
        );
        assert_eq!(r.unwrap_err(), GameError::NeedsBounds);
        let r = search(
            &mut weighted(&[1.0, 3.0], Some((0, 5))),
            &mut opts(method, 3, true, false),
        );
        assert_eq!(
            r.unwrap_err(),
            GameError::ScoreOutsideBounds,
            "a leaf of 10 above 5"
        );
    }
    let r = search(
        &mut weighted(&[1.0, 3.0], None),
        &mut opts(Method::Expectimax, 3, true, false),
    );
    assert_eq!(
        r.unwrap().expected,
        Some(7.5),
        "plain expectimax needs no bounds"
    );
}

#[test]
fn limits_and_progress_work_in_chance_searches() {
    let mut g = Game2048::random(7, 10);
    let mut depths = Vec::new();
    let mut report = |p: &minimax::search::Progress| depths.push((p.depth, p.expected));
    let mut o = Options {
        method: Method::Star2,
        max_depth: 40,
        node_limit: 20_000,
        progress: Some(&mut report),
        ..Options::default()
    };
    let r = search(&mut g, &mut o).unwrap();
    assert!(
        r.depth >= 1 && r.depth < 40 && !r.proven,
        "stopped by the node limit"
    );
    assert!(r.stats.nodes <= 20_001);
    assert!(r.best_move.is_some());
    let last = *depths.last().unwrap();
    assert_eq!(last, (r.depth, r.expected), "the last report is the answer");
    assert!(depths.windows(2).all(|w| w[0].0 < w[1].0));

    // The stop flag, set before the search: no iteration completes, yet a legal move.
    let stop = std::sync::atomic::AtomicI32::new(1);
    let mut o = Options {
        method: Method::Expectimax,
        stop: Some(&stop),
        ..Options::default()
    };
    let r = search(&mut g, &mut o).unwrap();
    let mut legal = Vec::new();
    g.moves(&mut legal).unwrap();
    assert!(r.depth == 0 && !r.exact && legal.contains(&r.best_move.unwrap()));
    // A time limit ends an unlimited search promptly, with a legal move (from the deepest
    // iteration done, if the machine let one finish in time).
    let started = std::time::Instant::now();
    let mut o = Options {
        method: Method::Star1,
        time_limit: Some(std::time::Duration::from_millis(20)),
        ..Options::default()
    };
    let r = search(&mut g, &mut o).unwrap();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "generous: a noisy machine"
    );
    assert!(!r.proven && legal.contains(&r.best_move.unwrap()), "{r:?}");

    // A lent table serves a chance search as it does a deterministic one.
    let mut table = Table::new(1 << 16).unwrap();
    let mut o = opts(Method::Star1, 3, true, false);
    o.table = Some(&mut table);
    let a = search(&mut g, &mut o).unwrap();
    let b = search(&mut g, &mut opts(Method::Expectimax, 3, true, false)).unwrap();
    assert!(close(a.expected.unwrap(), b.expected.unwrap()));
}

#[test]
fn chance_searches_run_on_one_thread_whatever_is_asked() {
    let mut g = Game2048::random(9, 12);
    let one = search(&mut g, &mut opts(Method::Star2, 4, true, true)).unwrap();
    let mut o = opts(Method::Star2, 4, true, true);
    o.threads = 4;
    let four = search_parallel(&mut g, &mut o).unwrap();
    assert_eq!(four.threads, 1, "not parallel yet, and the result says so");
    assert_eq!(
        (four.expected, four.best_move),
        (one.expected, one.best_move)
    );
}
