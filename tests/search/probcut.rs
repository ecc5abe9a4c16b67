//! Multi-ProbCut (issue 53): its calibration against a least-squares fit written here
//! over values of plain fixed-depth minimax searches, its cut-offs (fewer nodes to a
//! depth, and none with a confidence no shallow value can reach), and that an exact solve
//! never uses it. That a cut never changes a proven value is `tests/search/proofs.rs`'s, where
//! half the searches cut with an eager fit.

use std::sync::atomic::{AtomicI32, Ordering};

use minimax::search::{
    CalibrateOptions, Game, GameError, Method, Move, Options, ProbCut, ProbCutPair,
    calibrate_probcut, calibrate_probcut_positions, search,
};

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A game without end of three moves a position: each move adds a drawn amount in
/// [-20, 20] to a running sum (MAX's gain), and the evaluation is the sum with noise in
/// [-6, 6], so that deeper values follow shallower ones, not exactly.
struct PathSum {
    hash: u64,
    sum: i64,
    line: Vec<(u64, i64)>,
    /// The game ends at this many plies (for self-play), or never (`usize::MAX`).
    length: usize,
    /// Whether its stage is its plies over 10 (else 0).
    staged: bool,
}

impl PathSum {
    fn new(seed: u64) -> PathSum {
        PathSum {
            hash: mix(seed),
            sum: 0,
            line: Vec::new(),
            length: usize::MAX,
            staged: false,
        }
    }
}

impl Game for PathSum {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(0..3);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.line.push((self.hash, self.sum));
        self.hash = mix(self.hash ^ (mv as u64 + 1));
        self.sum += (mix(self.hash) % 41) as i64 - 20;
    }
    fn undo(&mut self, _: Move) {
        (self.hash, self.sum) = self.line.pop().expect("a move to undo");
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.line.len() >= self.length).then_some(self.sum.signum() as i32)
    }
    fn evaluate(&mut self) -> i32 {
        (self.sum + (mix(self.hash ^ 0xE7A1) % 13) as i64 - 6) as i32
    }
    fn stage(&mut self) -> u32 {
        if self.staged {
            (self.line.len() / 10) as u32
        } else {
            0
        }
    }
}

/// The value of plain minimax at a fixed depth, MAX's view.
fn minimax(game: &mut PathSum, depth: u32) -> i32 {
    let mut o = Options {
        method: Method::Minimax,
        max_depth: depth,
        iterative_deepening: false,
        table_bytes: 0,
        ..Options::default()
    };
    search(game, &mut o).unwrap().value
}

/// The least-squares line through `(x, y)` and the spread of its residuals, written here
/// from the textbook formulas.
fn least_squares(points: &[(f64, f64)]) -> (f64, f64, f64) {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (sxx, sxy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x * x, b + x * y));
    let a = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    let b = (sy - a * sx) / n;
    let rss: f64 = points.iter().map(|&(x, y)| (y - a * x - b).powi(2)).sum();
    (a, b, (rss / (n - 2.0)).sqrt())
}

#[test]
fn calibration_fits_the_values_of_fixed_depth_searches() {
    let pairs = vec![(4, 2), (5, 1), (6, 2)];
    let mut positions: Vec<PathSum> = (0..40).map(PathSum::new).collect();
    let opts = CalibrateOptions {
        pairs: pairs.clone(),
        ..CalibrateOptions::default()
    };
    let settings = Options {
        method: Method::AlphaBeta,
        ..Options::default()
    };
    let c = calibrate_probcut_positions(&mut positions, &settings, &opts).unwrap();
    assert_eq!((c.positions, c.used), (40, 40));
    assert_eq!(c.fit.pairs().len(), 3);
    for (pair, (deep, shallow)) in c.fit.pairs().iter().zip(pairs) {
        let points: Vec<(f64, f64)> = positions
            .iter_mut()
            .map(|g| (minimax(g, shallow) as f64, minimax(g, deep) as f64))
            .collect();
        let (a, b, sigma) = least_squares(&points);
        // Every position's values were kept (none is an outlier here).
        assert_eq!((pair.deep, pair.shallow, pair.samples), (deep, shallow, 40));
        assert!((pair.a - a).abs() < 1e-9, "{pair:?} against {a}");
        assert!((pair.b - b).abs() < 1e-9, "{pair:?} against {b}");
        assert!(
            (pair.sigma - sigma).abs() < 1e-9,
            "{pair:?} against {sigma}"
        );
        assert!(
            pair.a > 0.3,
            "deeper values follow shallower ones: {pair:?}"
        );
    }
    assert!(
        positions.iter().all(|g| g.line.is_empty()),
        "positions left as they were"
    );
}

#[test]
fn self_play_calibration_leaves_the_game_and_repeats_itself() {
    let mut game = PathSum::new(7);
    (game.length, game.staged) = (30, true);
    let opts = CalibrateOptions {
        max_depth: 6,
        games: 5,
        random_plies: 4,
        ..CalibrateOptions::default()
    };
    let settings = Options::default();
    let once = calibrate_probcut(&mut game, &settings, &opts).unwrap();
    assert!(game.line.is_empty(), "the game is back at its start");
    let again = calibrate_probcut(&mut game, &settings, &opts).unwrap();
    assert_eq!(once, again);
    // Plies 4 to 24 of each game are searched: from 24 the end is within reach, and the
    // proof ends the game's samples. Stage 0 (plies 4 to 9) has 30 samples, stage 1 (10
    // to 19) 50, stage 2 (20 to 23) 20: each is fitted apart.
    assert_eq!((once.positions, once.used), (105, 100), "{once:?}");
    let pairs: Vec<(u32, u32, u32, u32)> = once
        .fit
        .pairs()
        .iter()
        .map(|p| (p.stage, p.deep, p.shallow, p.samples))
        .collect();
    let mut expected = Vec::new();
    for (stage, n) in [(0, 30), (1, 50), (2, 20)] {
        for (deep, shallow) in [(3, 1), (4, 2), (5, 1), (6, 2)] {
            expected.push((stage, deep, shallow, n));
        }
    }
    assert_eq!(pairs, expected);
    let other = calibrate_probcut(&mut game, &settings, &CalibrateOptions { seed: 2, ..opts });
    assert_ne!(once, other.unwrap(), "the seed draws other random plies");
}

/// PathSum that says whose turn it is (MAX at even plies).
struct Turns(PathSum);

impl Game for Turns {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.0.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.0.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.0.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.0.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.0.evaluate()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.0.line.len() % 2 == 0)
    }
}

#[test]
fn self_play_takes_turns_in_a_game_that_does_not_say_whose_they_are() {
    // PathSum's scores are MAX's gain whoever moves: a calibration that searched every
    // position with MAX to move would fit other values than one told whose turn it is.
    let opts = CalibrateOptions {
        max_depth: 6,
        games: 3,
        random_plies: 3,
        ..CalibrateOptions::default()
    };
    let settings = Options::default();
    let mut plain = PathSum::new(9);
    plain.length = 30;
    let mut told = Turns(PathSum::new(9));
    told.0.length = 30;
    let a = calibrate_probcut(&mut plain, &settings, &opts).unwrap();
    let b = calibrate_probcut(&mut told, &settings, &opts).unwrap();
    assert!(a.used > 20);
    assert_eq!(a, b);
}

/// PathSum that sets a stop flag once it has played `after` moves.
struct Stopping<'a> {
    game: PathSum,
    plays: u64,
    after: u64,
    stop: &'a AtomicI32,
}

impl Game for Stopping<'_> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.plays += 1;
        if self.plays >= self.after {
            self.stop.store(1, Ordering::Relaxed);
        }
        self.game.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.game.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.game.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.game.evaluate()
    }
    fn stage(&mut self) -> u32 {
        self.game.stage()
    }
}

#[test]
fn the_stop_flag_ends_a_calibration_with_what_it_has() {
    let opts = CalibrateOptions {
        max_depth: 6,
        games: 5,
        random_plies: 4,
        ..CalibrateOptions::default()
    };
    let stop = AtomicI32::new(0);
    let settings = Options {
        stop: Some(&stop),
        ..Options::default()
    };
    // Set before: nothing searched, an empty fit, the game as it was.
    stop.store(1, Ordering::Relaxed);
    let mut game = PathSum::new(7);
    game.length = 30;
    let c = calibrate_probcut(&mut game, &settings, &opts).unwrap();
    assert_eq!((c.positions, c.used, c.fit.pairs().len()), (0, 0, 0));
    assert!(game.line.is_empty());
    let mut positions: Vec<PathSum> = (0..10).map(PathSum::new).collect();
    let c = calibrate_probcut_positions(&mut positions, &settings, &opts).unwrap();
    assert_eq!((c.positions, c.used), (0, 0));
    // Set by the game halfway through the moves a whole calibration plays: fewer
    // positions than the 105 of a whole one, each pair fitted from those alone.
    stop.store(0, Ordering::Relaxed);
    let mut game = Stopping {
        game: PathSum::new(7),
        plays: 0,
        after: u64::MAX,
        stop: &stop,
    };
    game.game.length = 30;
    let whole = calibrate_probcut(&mut game, &settings, &opts).unwrap();
    assert_eq!(whole.positions, 105);
    (game.after, game.plays) = (game.plays / 2, 0);
    let c = calibrate_probcut(&mut game, &settings, &opts).unwrap();
    let seen = (c.positions, c.used);
    assert!(c.positions > 20 && c.positions < 90, "{seen:?}");
    assert!(
        c.fit.pairs().iter().all(|p| p.samples <= c.used),
        "{seen:?}"
    );
    assert!(game.game.line.is_empty(), "the game is back at its start");
}

/// A fit for depths 3 to 8 from the shallow depth 2 below, line `v_deep = v_shallow`.
fn fit_with(t: f64, sigma: f64) -> ProbCut {
    let mut fit = ProbCut::default();
    fit.set_t(t).unwrap();
    for deep in 3..=8 {
        fit.add(ProbCutPair {
            stage: 0,
            deep,
            shallow: deep - 2,
            a: 1.0,
            b: 0.0,
            sigma,
            samples: 0,
        })
        .unwrap();
    }
    fit
}

fn nodes_and_value(method: Method, probcut: Option<ProbCut>, seed: u64) -> (u64, i32) {
    let mut game = PathSum::new(seed);
    let mut o = Options {
        method,
        max_depth: 8,
        probcut,
        ..Options::default()
    };
    let r = search(&mut game, &mut o).unwrap();
    (r.stats.nodes, r.value)
}

#[test]
fn cuts_save_nodes_and_a_confidence_out_of_reach_cuts_nothing() {
    let (mut plain, mut cut, mut eager, mut never) = (0, 0, 0, 0);
    for seed in 0..10 {
        let (n, v) = nodes_and_value(Method::Pvs, None, seed);
        let (n_cut, _) = nodes_and_value(Method::Pvs, Some(fit_with(1.0, 8.0)), seed);
        let (n_eager, _) = nodes_and_value(Method::Pvs, Some(fit_with(0.0, 0.0)), seed);
        // No shallow value reaches a bound 1e12 sigmas out: the shallow searches cost
        // nodes, and the value is the plain search's.
        let (n_never, v_never) = nodes_and_value(Method::Pvs, Some(fit_with(1e12, 8.0)), seed);
        assert_eq!(v_never, v, "seed {seed}");
        (plain, cut, never) = (plain + n, cut + n_cut, never + n_never);
        eager += n_eager;
    }
    assert!(cut < plain, "cuts: {cut} nodes against {plain}");
    assert!(
        eager * 3 < plain * 2,
        "eager cuts: {eager} nodes against {plain}"
    );
    assert!(
        never > plain,
        "shallow searches that never cut: {never} against {plain}"
    );
}

#[test]
fn an_exact_solve_never_cuts() {
    for seed in 0..5 {
        let plain = nodes_and_value(Method::Exact, None, seed);
        let with = nodes_and_value(Method::Exact, Some(fit_with(0.0, 0.0)), seed);
        assert_eq!(plain, with, "seed {seed}");
    }
}

#[test]
fn pairs_that_cannot_be_used_are_left_out() {
    let mut positions: Vec<PathSum> = (0..30).map(PathSum::new).collect();
    let opts = CalibrateOptions {
        pairs: vec![(4, 4), (70, 2), (4, 0), (4, 2)],
        ..CalibrateOptions::default()
    };
    let c = calibrate_probcut_positions(&mut positions, &Options::default(), &opts).unwrap();
    let kept: Vec<(u32, u32)> = c.fit.pairs().iter().map(|p| (p.deep, p.shallow)).collect();
    assert_eq!(kept, [(4, 2)]);
    // The default pairs stop at the deepest depth a pair may cut at.
    let pairs = minimax::search::default_pairs(u32::MAX);
    assert_eq!(pairs.last(), Some(&(minimax::search::MAX_DEEP, 31)));
    assert_eq!(pairs.len() as u32, minimax::search::MAX_DEEP - 2);
}
