//! Trust on any game (issue 19): deep lines on every thread and method, a caller's panic
//! that waits for its helpers, the stop flag and limits on every thread, preset stops
//! that still hold the game to its contract, exact expected values, and why a search
//! ran on fewer threads than asked.

use minimax::search::{
    FewerThreads, Game, GameError, MAX_PLIES, Method, Move, Options, search, search_parallel,
};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A line of `len` plies with one move a position (MAX wins at its end), every other
/// position a chance node of one outcome if `chance`.
#[derive(Clone)]
struct Line {
    len: u32,
    at: u32,
    chance: bool,
}

impl Game for Line {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.push(self.at as Move);
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.at += 1;
    }
    fn undo(&mut self, _: Move) {
        self.at -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.at == self.len).then_some(1)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.at as u64 + 1)
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        Some((-1, 1))
    }
    fn is_chance(&mut self) -> bool {
        self.chance && self.at % 2 == 1
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.push((self.at as Move, 1.0));
        Ok(())
    }
}

/// The value, whether proven, the PV's length and the plies to the end.
type Deep = (i32, bool, usize, Option<u32>);

fn deep(len: u32, threads: usize, method: Method) -> Result<Deep, GameError> {
    let mut g = Line {
        len,
        at: 0,
        chance: method.is_chance(),
    };
    let mut o = Options {
        method,
        iterative_deepening: false,
        table_bytes: 1 << 20,
        threads,
        ..Options::default()
    };
    let r = search_parallel(&mut g, &mut o)?;
    assert_eq!(g.at, 0, "the game is left where it was");
    Ok((r.value, r.proven, r.pv.len(), r.plies_to_end))
}

/// The documented limit is reached, and one ply past it is `TooDeep`, on one thread and
/// two, and by a chance method: without a crash on the test's stack (2 MiB on a test
/// thread, less than a main thread's 8 MiB).
#[test]
fn deep_lines_to_the_limit_and_one_past() {
    for (threads, method) in [
        (1, Method::AlphaBeta),
        (2, Method::AlphaBeta),
        (1, Method::Expectimax),
    ] {
        let (value, proven, pv_len, plies) = deep(MAX_PLIES, threads, method).unwrap();
        assert_eq!((value, proven), (1, true), "{threads} {method:?}");
        // On two threads the line may end where the other thread's table entry settled
        // the rest (as `SearchResult::pv` says); the value still tells the distance.
        let lines = MAX_PLIES as usize;
        assert!(
            pv_len == lines || threads > 1 && pv_len <= lines,
            "{threads}: {pv_len}"
        );
        let distance = (!method.is_chance()).then_some(MAX_PLIES);
        assert_eq!(plies, distance, "{threads} {method:?}");
        let past = deep(MAX_PLIES + 1, threads, method);
        assert_eq!(past, Err(GameError::TooDeep), "{threads} {method:?}");
    }
}

/// A 4,000-ply line with iterative deepening: the principal variation is whole, and
/// costs linear time per iteration (the textbook copy took 15 s here).
#[test]
fn a_long_line_with_deepening_has_its_whole_pv() {
    let mut g = Line {
        len: 4000,
        at: 0,
        chance: false,
    };
    let mut o = Options {
        table_bytes: 0,
        ..Options::default()
    };
    let r = search(&mut g, &mut o).unwrap();
    assert_eq!(
        (r.value, r.proven, r.depth, r.pv.len()),
        (1, true, 4000, 4000)
    );
    assert!(r.pv.iter().enumerate().all(|(i, &m)| m == i as Move));
}

/// Without iterative deepening, the depth reported is how deep the search went.
#[test]
fn depth_without_deepening_is_the_depth_reached() {
    for method in [Method::AlphaBeta, Method::Expectimax] {
        let mut g = Line {
            len: 37,
            at: 0,
            chance: method.is_chance(),
        };
        let mut o = Options {
            method,
            iterative_deepening: false,
            ..Options::default()
        };
        assert_eq!(search(&mut g, &mut o).unwrap().depth, 37, "{method:?}");
    }
}

/// A game whose copies count their drops, and whose original panics after some nodes
/// (on the caller's thread: copies never panic).
struct Bomb {
    line: Line,
    nodes: u64,
    original: bool,
    dropped: Arc<AtomicU64>,
    forked: Arc<AtomicU64>,
}

impl Game for Bomb {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1, 2]);
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.nodes += 1;
        if self.original && self.nodes == 5_000 {
            panic!("the caller's game fails");
        }
        self.line.play(0)
    }
    fn undo(&mut self, _: Move) {
        self.line.undo(0)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.line.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.nodes) // every position new: the helpers have much to do
    }
}

impl minimax::search::Fork for Bomb {
    fn fork(&self) -> Option<Self> {
        self.forked.fetch_add(1, Ordering::SeqCst);
        Some(Bomb {
            line: self.line.clone(),
            nodes: 0,
            original: false,
            dropped: Arc::clone(&self.dropped),
            forked: Arc::clone(&self.forked),
        })
    }
}

impl Drop for Bomb {
    fn drop(&mut self) {
        if !self.original {
            self.dropped.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// When the caller's thread panics, the helpers are halted and waited for before the
/// panic goes on: every copy is dropped by then, so no game code of that search runs
/// after it.
#[test]
fn a_panic_on_the_callers_thread_waits_for_the_helpers() {
    let (dropped, forked) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let mut g = Bomb {
        line: Line {
            len: 40,
            at: 0,
            chance: false,
        },
        nodes: 0,
        original: true,
        dropped: Arc::clone(&dropped),
        forked: Arc::clone(&forked),
    };
    let mut o = Options {
        threads: 3,
        ..Options::default()
    };
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = catch_unwind(AssertUnwindSafe(|| search_parallel(&mut g, &mut o)));
    std::panic::set_hook(prev);
    assert!(r.is_err(), "the panic goes on to the caller");
    assert_eq!(forked.load(Ordering::SeqCst), 2);
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        2,
        "every copy is dropped before the return"
    );
}

/// A wide tree of 60 plies, six moves a position, with a heuristic of its own: far
/// more than any test searches to its end.
#[derive(Clone)]
struct Wide {
    /// The hash of each position on the path from the root.
    path: Vec<u64>,
    /// Whether the game gives its hash to the engine.
    hashed: bool,
    /// Whether listing the moves takes 1 ms (a slow game).
    slow: bool,
}

impl Wide {
    fn new() -> Wide {
        Wide {
            path: vec![1],
            hashed: true,
            slow: false,
        }
    }
    fn slow() -> Wide {
        Wide {
            slow: true,
            ..Wide::new()
        }
    }
    fn here(&self) -> u64 {
        *self.path.last().unwrap()
    }
}

impl Game for Wide {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.slow {
            std::thread::sleep(Duration::from_millis(1));
        }
        out.extend(0..6);
        Ok(())
    }
    fn play(&mut self, m: Move) {
        let h = (self.here() ^ (m as u64 + 1)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.path.push(h ^ h >> 29);
    }
    fn undo(&mut self, _: Move) {
        self.path.pop();
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.path.len() > 60).then_some(0)
    }
    fn evaluate(&mut self) -> i32 {
        (self.here() % 7) as i32 - 3
    }
    fn hash(&mut self) -> Option<u64> {
        self.hashed.then(|| self.here())
    }
}

/// A stop flag set before the search stops every thread at once: no iteration completes
/// (helpers used to run on to depth 9).
#[test]
fn a_preset_stop_flag_stops_every_thread() {
    let stop = AtomicI32::new(1);
    for threads in [1, 2, 4] {
        let mut g = Wide::new();
        let mut o = Options {
            threads,
            stop: Some(&stop),
            ..Options::default()
        };
        let r = search_parallel(&mut g, &mut o).unwrap();
        assert_eq!((r.depth, r.best_move), (0, Some(0)), "{threads} threads");
        assert!(
            r.stats.nodes <= threads as u64,
            "{threads} threads: {} nodes",
            r.stats.nodes
        );
    }
}

/// A time limit holds within about a node's time on every thread, for a game whose
/// nodes are slow (1 ms each): checks every 256 nodes let it run on for a quarter of a
/// second.
#[test]
fn a_time_limit_holds_on_slow_games_on_every_thread() {
    for threads in [1, 2] {
        let mut g = Wide::slow();
        let limit = Duration::from_millis(30);
        let mut o = Options {
            threads,
            time_limit: Some(limit),
            ..Options::default()
        };
        let t = Instant::now();
        let r = search_parallel(&mut g, &mut o).unwrap();
        let took = t.elapsed();
        // A few nodes' time past the limit, and a margin for a busy machine.
        assert!(
            took < limit + Duration::from_millis(100),
            "{threads} threads: {took:?}"
        );
        assert!(
            r.stats.elapsed <= took,
            "elapsed is the wall time of the call"
        );
        assert!(r.stats.elapsed >= limit);
    }
}

/// A root that is not over and has no moves breaks the contract, also when the search is
/// stopped before it starts; a chance root with no outcomes too.
#[test]
fn a_preset_stop_still_holds_the_root_to_the_contract() {
    struct Stuck(bool);
    impl Game for Stuck {
        fn moves(&mut self, _: &mut Vec<Move>) -> Result<(), GameError> {
            Ok(())
        }
        fn play(&mut self, _: Move) {}
        fn undo(&mut self, _: Move) {}
        fn outcome(&mut self) -> Option<i32> {
            None
        }
        fn evaluate(&mut self) -> i32 {
            0
        }
        fn is_chance(&mut self) -> bool {
            self.0
        }
    }
    let stop = AtomicI32::new(1);
    let tiny = Duration::from_nanos(1);
    for (chance, method, want) in [
        (false, Method::AlphaBeta, GameError::NoMovesNotOver),
        (false, Method::Expectimax, GameError::NoMovesNotOver),
        (true, Method::Expectimax, GameError::NoOutcomes),
    ] {
        for preset in [true, false] {
            let mut o = Options {
                method,
                ..Options::default()
            };
            if preset {
                o.stop = Some(&stop);
            } else {
                o.time_limit = Some(tiny);
            }
            assert_eq!(
                search(&mut Stuck(chance), &mut o),
                Err(want),
                "{method:?} {preset}"
            );
        }
    }
}

/// A chance game: one chance node at the root with the given outcomes' weights and
/// scores.
struct Dice(Vec<(f64, i32)>, Option<usize>);

impl Game for Dice {
    fn moves(&mut self, _: &mut Vec<Move>) -> Result<(), GameError> {
        Ok(())
    }
    fn play(&mut self, m: Move) {
        self.1 = Some(m as usize);
    }
    fn undo(&mut self, _: Move) {
        self.1 = None;
    }
    fn outcome(&mut self) -> Option<i32> {
        self.1.map(|i| self.0[i].1)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let s = self.0.iter().map(|o| o.1);
        Some((s.clone().min().unwrap(), s.max().unwrap()))
    }
    fn is_chance(&mut self) -> bool {
        self.1.is_none()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        out.extend(self.0.iter().enumerate().map(|(i, o)| (i as Move, o.0)));
        Ok(())
    }
}

/// Equal weights over equal values give that value exactly, a fair game is worth exactly
/// 0, and `value` rounds halves away from zero, every time.
#[test]
fn expected_values_are_exact_and_round_stably() {
    // (weight, score) of each outcome; the expected value; `value`.
    type Case = (Vec<(f64, i32)>, f64, i32);
    let cases: [Case; 5] = [
        (vec![(1.0, 1); 6], 1.0, 1),
        (vec![(1.0, -1), (1.0, 1), (1.0, 0), (3.0, 0)], 0.0, 0),
        (
            vec![(0.1, -3), (0.1, 3), (0.1, -3), (0.1, 3), (0.1, 0)],
            0.0,
            0,
        ),
        (vec![(1.0, -1), (1.0, 0)], -0.5, -1),
        (vec![(1.0, 2), (1.0, 3)], 2.5, 3),
    ];
    for (outcomes, want, rounded) in cases {
        for method in [Method::Expectimax, Method::Star1, Method::Star2] {
            for _ in 0..3 {
                let mut g = Dice(outcomes.clone(), None);
                let r = search(
                    &mut g,
                    &mut Options {
                        method,
                        ..Options::default()
                    },
                )
                .unwrap();
                assert_eq!(
                    r.expected.map(f64::to_bits),
                    Some(want.to_bits()),
                    "{outcomes:?}"
                );
                assert_eq!(r.value, rounded, "{outcomes:?}");
            }
        }
    }
}

/// Extreme scores are scores to a chance search (it never negates them): the same rule
/// as the deterministic tree functions, which take any leaf.
#[test]
fn a_chance_search_takes_any_i32() {
    let mut g = Dice(vec![(1.0, i32::MAX), (1.0, i32::MAX)], None);
    let r = search(
        &mut g,
        &mut Options {
            method: Method::Star2,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!((r.value, r.expected), (i32::MAX, Some(i32::MAX as f64)));
    let leaves = [i32::MIN, 3, i32::MAX, i32::MAX];
    for method in [Method::Expectimax, Method::Star1, Method::Star2] {
        let s = minimax::tree::chance::leaves_expectimax(&leaves, 2, true, method).unwrap();
        // MAX at the root over two chance nodes of equal weights.
        let want = ((i32::MIN as f64 + 3.0) / 2.0).max(i32::MAX as f64);
        assert_eq!(s.value, want, "{method:?}");
    }
}

/// Asked for threads, a search that runs on one says why.
#[test]
fn fewer_threads_say_why() {
    let opts = |method, table_bytes| Options {
        method,
        max_depth: 3,
        table_bytes,
        threads: 2,
        ..Options::default()
    };
    let wide = || Wide::new();
    let why = |r: minimax::search::SearchResult| (r.threads, r.fewer_threads);
    let mut o = opts(Method::AlphaBeta, 1 << 20);
    assert_eq!(
        why(search(&mut wide(), &mut o).unwrap()),
        (1, Some(FewerThreads::NotParallel))
    );
    let cases = [
        (Method::Minimax, 1 << 20, FewerThreads::Minimax),
        (Method::Expectimax, 1 << 20, FewerThreads::ChanceMethod),
        (Method::AlphaBeta, 0, FewerThreads::NoTable),
    ];
    for (method, bytes, want) in cases {
        let r = search_parallel(&mut wide(), &mut opts(method, bytes)).unwrap();
        assert_eq!(why(r), (1, Some(want)), "{method:?}");
    }
    let mut no_hash = Wide {
        hashed: false,
        ..wide()
    };
    let r = search_parallel(&mut no_hash, &mut opts(Method::AlphaBeta, 1 << 20)).unwrap();
    assert_eq!(why(r), (1, Some(FewerThreads::NoHash)));
    let r = search_parallel(&mut wide(), &mut opts(Method::AlphaBeta, 1 << 20)).unwrap();
    assert_eq!(why(r), (2, None));
    let mut one = opts(Method::AlphaBeta, 1 << 20);
    one.threads = 1;
    assert_eq!(
        why(search_parallel(&mut wide(), &mut one).unwrap()),
        (1, None)
    );
}

/// A lent table keeps its entries from one search to the next (the second search of the
/// same position finds the first's work), and `clear` forgets them; a search's own table
/// starts empty every time. The values never change.
#[test]
fn a_lent_table_keeps_its_entries_until_cleared() {
    let mut table = minimax::search::Table::new(1 << 20).unwrap();
    let run = |table: Option<&mut minimax::search::Table>| {
        let mut o = Options {
            max_depth: 5,
            table,
            ..Options::default()
        };
        let r = search(&mut Wide::new(), &mut o).unwrap();
        (r.value, r.stats.nodes)
    };
    let (v_own, own) = run(None);
    assert_eq!(run(None), (v_own, own), "an own table starts empty");
    let first = run(Some(&mut table));
    assert_eq!(first, (v_own, own));
    let (v_again, again) = run(Some(&mut table));
    assert_eq!(v_again, v_own);
    assert!(
        again < own,
        "the second search found the first's work: {again} of {own}"
    );
    table.clear();
    assert_eq!(
        run(Some(&mut table)),
        (v_own, own),
        "cleared: as a new table"
    );
}

/// The pool's threads named "minimax-search" in this process now.
fn pool_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .map(|tasks| {
            tasks
                .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                .filter(|name| name.trim() == "minimax-search")
                .count()
        })
        .unwrap_or(0)
}

/// 32 callers searching on 8 threads each at once start what they need, and afterwards
/// at most 64 idle threads stay (86 did before the bound).
#[cfg(target_os = "linux")]
#[test]
fn idle_pool_threads_are_bounded() {
    let together = std::sync::Barrier::new(32);
    std::thread::scope(|s| {
        for _ in 0..32 {
            s.spawn(|| {
                together.wait(); // every search at once: each needs 7 helpers
                let mut o = Options {
                    max_depth: 3,
                    threads: 8,
                    ..Options::default()
                };
                search_parallel(&mut Wide::slow(), &mut o).unwrap();
            });
        }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while pool_threads() > 64 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(pool_threads() <= 64, "{} pool threads stay", pool_threads());
}

/// A `GameError` says what went wrong, and `?` carries it into a `Box<dyn Error>`.
#[test]
fn game_errors_are_errors() {
    fn run() -> Result<(), Box<dyn std::error::Error>> {
        let mut g = Line {
            len: MAX_PLIES + 1,
            at: 0,
            chance: false,
        };
        search(
            &mut g,
            &mut Options {
                iterative_deepening: false,
                table_bytes: 0,
                ..Options::default()
            },
        )?;
        Ok(())
    }
    let e = run().unwrap_err();
    assert_eq!(
        e.to_string(),
        "the game has a line longer than MAX_PLIES plies"
    );
    assert_eq!(
        GameError::NeedsBounds.to_string(),
        "Star1, Star2 and MCTS with scaled rewards need the game's score bounds"
    );
}

/// A line on which the caller's thread is slow (its copies are not): the helper gets
/// ahead and answers.
struct SlowHere {
    line: Line,
    slow: bool,
}

impl Clone for SlowHere {
    fn clone(&self) -> Self {
        SlowHere {
            line: self.line.clone(),
            slow: false,
        }
    }
}

impl Game for SlowHere {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.line.moves(out)
    }
    fn play(&mut self, mv: Move) {
        if self.slow {
            std::thread::sleep(Duration::from_micros(50));
        }
        self.line.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.line.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.line.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        self.line.hash()
    }
}

/// With threads, progress reports every completed depth once, in order, on the caller's
/// thread, ending with the answer: also the depths only another thread completed.
#[test]
fn progress_with_threads_reports_every_depth_once_in_order() {
    let len = 300;
    let mut g = SlowHere {
        line: Line {
            len,
            at: 0,
            chance: false,
        },
        slow: true,
    };
    let caller = std::thread::current().id();
    let mut depths = Vec::new();
    let mut last_value = None;
    let mut report = |p: &minimax::search::Progress| {
        assert_eq!(
            std::thread::current().id(),
            caller,
            "reports on the caller's thread"
        );
        depths.push(p.depth);
        last_value = Some(p.value);
    };
    let mut o = Options {
        table_bytes: 1 << 20,
        threads: 2,
        progress: Some(&mut report),
        ..Options::default()
    };
    let r = search_parallel(&mut g, &mut o).unwrap();
    assert_eq!((r.value, r.proven, r.threads), (1, true, 2));
    assert_eq!(r.depth, len, "the line is proven at its length");
    let every: Vec<u32> = (1..=len).collect();
    assert_eq!(depths, every, "each depth once, in order");
    assert_eq!(last_value, Some(r.value), "the last report is the answer");
}
