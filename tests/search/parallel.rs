//! Parallel search (`search_parallel`): the same proven values on 1, 2 and 8 threads, a
//! best move that is optimal by every move's exact score, the depth-limited guarantee,
//! limits and the stop flag across threads, progress from one thread in order, and the
//! one-thread answer for a game that cannot be copied.

use crate::common;
use crate::shared::connect4 as c4;
use crate::shared::games;

use c4::Position;
use common::Rng;
use games::{NoCopy, TicTacToe};
use minimax::search::{Game, GameError, Method, Move, Options, search, search_parallel};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

fn solve_opts<'a>(threads: usize) -> Options<'a> {
    Options {
        method: Method::Exact,
        iterative_deepening: false,
        refine_distance: false,
        table_bytes: 1 << 22,
        threads,
        ..Options::default()
    }
}

/// Positions by seeded random play with `lo..=hi` stones where the game is not over.
fn positions(count: usize, lo: u64, hi: u64, seed: u64) -> Vec<String> {
    Rng::new(seed).c4_lines(count, lo, hi, |line| Position::setup(line).is_ok())
}

/// Over 1,000 positions, 2 and 8 threads (8 on this 2-core machine: oversubscribed) give
/// every proven value that one thread gives.
#[test]
fn the_same_proven_values_on_1_2_and_8_threads() {
    let mut differ = Vec::new();
    let mut threads_seen = [0; 9];
    for line in positions(1000, 18, 30, 11) {
        let mut p = Position::setup(&line).unwrap();
        let one = search(&mut p, &mut solve_opts(1)).unwrap();
        assert!(one.proven);
        for threads in [2, 8] {
            let r = search_parallel(&mut p, &mut solve_opts(threads)).unwrap();
            threads_seen[r.threads] += 1;
            if (r.value, r.proven) != (one.value, true) {
                differ.push((line.clone(), threads, one.value, r.value));
            }
        }
    }
    assert_eq!(differ, vec![], "positions whose value differs");
    assert_eq!((threads_seen[2], threads_seen[8]), (1000, 1000));
}

/// The exact score of every move by one thread, as a check of the parallel best move.
fn move_scores(p: &mut Position) -> Vec<(Move, i32)> {
    let mut moves = Vec::new();
    p.moves(&mut moves).unwrap();
    moves
        .into_iter()
        .map(|mv| {
            p.play(mv);
            let v = match p.outcome() {
                Some(score) => score,
                None => search(p, &mut solve_opts(1)).unwrap().value,
            };
            p.undo(mv);
            (mv, v)
        })
        .collect()
}

/// On 100 positions the parallel best move is one whose exact score is the best of all
/// moves' scores, and that score is the root's value.
#[test]
fn the_parallel_best_move_is_optimal() {
    let mut checked = 0;
    for line in positions(100, 14, 24, 12) {
        let mut p = Position::setup(&line).unwrap();
        let max = p.max_to_move().unwrap();
        let scores = move_scores(&mut p);
        let best = if max {
            scores.iter().map(|s| s.1).max()
        } else {
            scores.iter().map(|s| s.1).min()
        }
        .unwrap();
        for threads in [2, 8] {
            let mut opts = Options {
                refine_distance: true, // a move of the best score, not only of its sign
                ..solve_opts(threads)
            };
            let r = search_parallel(&mut p, &mut opts).unwrap();
            let mv = r.best_move.unwrap();
            let score = scores.iter().find(|s| s.0 == mv).unwrap().1;
            assert_eq!((r.value, score), (best, best), "{line}: {threads} threads");
        }
        checked += 1;
    }
    assert_eq!(checked, 100);
}

/// Depth-limited: a completed iteration at depth d gives one thread's value at depth d,
/// and a best move whose own depth d - 1 value is that value. With deepening, a search
/// stops at the first iteration whose value is proven (every line ended): a team, whose
/// threads share the table's proven entries, may prove it an iteration earlier than one
/// thread, and then reports that iteration, with the same value.
#[test]
fn depth_limited_values_and_moves_match_one_thread() {
    for (k, line) in positions(40, 4, 16, 13).into_iter().enumerate() {
        for depth in 1..=6 {
            for method in [Method::AlphaBeta, Method::Pvs] {
                let opts = |threads| Options {
                    method,
                    max_depth: depth,
                    iterative_deepening: k % 2 == 0,
                    table_bytes: 1 << 20,
                    threads,
                    ..Options::default()
                };
                let mut p = Position::setup(&line).unwrap();
                let one = search(&mut p, &mut opts(1)).unwrap();
                let r = search_parallel(&mut p, &mut opts(2)).unwrap();
                assert_eq!(r.value, one.value, "{line} d{depth}");
                if r.depth != one.depth {
                    // Only a proven value may come from an earlier iteration.
                    let earlier = if r.depth < one.depth { &r } else { &one };
                    assert!(
                        earlier.proven && k % 2 == 0,
                        "{line} d{depth}: depths {} and {}",
                        r.depth,
                        one.depth
                    );
                }
                let mv = r.best_move.unwrap();
                p.play(mv);
                let after = match (p.outcome(), p.bounds()) {
                    (Some(score), _) => score,
                    // Depth 0: a position its bounds settle scores that, else its evaluation.
                    (None, Some((lo, hi))) if depth == 1 && lo == hi => lo,
                    (None, _) if depth == 1 => p.evaluate(),
                    (None, _) => {
                        let mut o = opts(1);
                        o.max_depth = depth - 1;
                        search(&mut p, &mut o).unwrap().value
                    }
                };
                assert_eq!(after, r.value, "{line} d{depth}: move {mv}");
            }
        }
    }
}

/// The stop flag, a time limit and a node limit stop every thread of a long search
/// (the empty board) promptly.
#[test]
fn limits_and_the_stop_flag_stop_every_thread() {
    let stop = AtomicI32::new(0);
    let mut p = Position::setup("").unwrap();
    let (r, late) = std::thread::scope(|s| {
        let stopper = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(1, Ordering::Relaxed);
            Instant::now()
        });
        let mut opts = Options {
            stop: Some(&stop),
            ..solve_opts(4)
        };
        let r = search_parallel(&mut p, &mut opts).unwrap();
        let returned = Instant::now();
        (r, returned.duration_since(stopper.join().unwrap()))
    });
    println!(
        "returned {late:?} after the stop flag, {} threads",
        r.threads
    );
    assert!(late < Duration::from_millis(500), "{late:?}");
    assert!(!r.proven && r.best_move.is_some() && r.threads == 4);

    let t0 = Instant::now();
    let mut opts = Options {
        time_limit: Some(Duration::from_millis(50)),
        ..solve_opts(4)
    };
    let r = search_parallel(&mut p, &mut opts).unwrap();
    assert!(
        t0.elapsed() < Duration::from_millis(550),
        "{:?}",
        t0.elapsed()
    );
    assert!(r.best_move.is_some());

    let mut opts = Options {
        node_limit: 100_000,
        ..solve_opts(4)
    };
    let r = search_parallel(&mut p, &mut opts).unwrap();
    // Each thread adds its count to the total every 256 nodes.
    assert!(r.stats.nodes <= 100_000 + 4 * 512, "{}", r.stats.nodes);
    assert!(r.stats.nodes > 50_000 && r.best_move.is_some());
}

/// Progress comes from the caller's thread, in order, and ends with the iteration that
/// answered (also when a helper thread finished first: under load it can finish the whole
/// search before the caller's thread completes an iteration).
#[test]
fn progress_comes_from_one_thread_in_order() {
    let caller = std::thread::current().id();
    let mut depths = Vec::new();
    let mut report = |pr: &minimax::search::Progress| {
        assert_eq!(std::thread::current().id(), caller);
        depths.push(pr.depth);
    };
    let mut p = Position::setup("4453").unwrap();
    let mut opts = Options {
        method: Method::Pvs,
        max_depth: 9,
        progress: Some(&mut report),
        threads: 2,
        ..Options::default()
    };
    let r = search_parallel(&mut p, &mut opts).unwrap();
    assert_eq!(r.threads, 2);
    assert!(
        !depths.is_empty() && depths.windows(2).all(|w| w[0] < w[1]),
        "{depths:?}"
    );
    assert_eq!(depths.last(), Some(&r.depth), "{depths:?}");
}

#[test]
fn a_game_without_copies_runs_on_one_thread() {
    let mut g = NoCopy(TicTacToe::new());
    let r = search_parallel(&mut g, &mut solve_opts(4)).unwrap();
    let one = search(&mut g, &mut solve_opts(1)).unwrap();
    assert_eq!(
        (r.threads, r.value, r.best_move),
        (1, one.value, one.best_move)
    );
    // Plain minimax shares nothing, and runs on one thread too; 0 asks for every core.
    let mut t = TicTacToe::new();
    let mut o = Options {
        method: Method::Minimax,
        threads: 2,
        ..Options::default()
    };
    assert_eq!(search_parallel(&mut t, &mut o).unwrap().threads, 1);
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!(
        search_parallel(&mut t, &mut solve_opts(0)).unwrap().threads,
        cores
    );
}

/// How a `Faulty` game misbehaves, some plies below the root.
#[derive(Clone, Copy)]
enum Fault {
    /// `outcome` returns `INT_MIN` six plies down (it breaks the contract).
    ScoreOutOfRange,
    /// `play` panics five plies down (a bug in a Rust game).
    Panic,
}

/// Connect Four that misbehaves below the position it started from (`start` stones).
#[derive(Clone)]
struct Faulty {
    p: Position,
    start: u32,
    fault: Fault,
}

impl Game for Faulty {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.p.moves(out)
    }
    fn play(&mut self, mv: Move) {
        if let Fault::Panic = self.fault {
            assert!(self.p.moves < self.start + 5, "a bug in the game");
        }
        self.p.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.p.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        if let (Fault::ScoreOutOfRange, true) = (self.fault, self.p.moves == self.start + 6) {
            return Some(i32::MIN);
        }
        self.p.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.p.evaluate()
    }
    fn hash(&mut self) -> Option<u64> {
        self.p.hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.p.max_to_move()
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.p.bounds()
    }
}

/// A game that breaks its contract on any thread gets its error on every number of
/// threads, and is left where it started.
#[test]
fn a_misbehaving_game_gets_its_error_on_many_threads() {
    // The first of some random positions that takes a real search.
    let start = positions(200, 10, 16, 14)
        .iter()
        .map(|line| Position::setup(line).unwrap())
        .find(|p| {
            search(&mut p.clone(), &mut solve_opts(1))
                .unwrap()
                .stats
                .nodes
                > 5000
        })
        .expect("a position that takes a search");
    for threads in [1, 2, 8] {
        let mut g = Faulty {
            p: start.clone(),
            start: start.moves,
            fault: Fault::ScoreOutOfRange,
        };
        let r = search_parallel(&mut g, &mut solve_opts(threads));
        assert_eq!(
            r.err(),
            Some(GameError::ScoreOutOfRange),
            "{threads} threads"
        );
        assert_eq!((g.p.moves, g.p.hash()), (start.moves, start.clone().hash()));
    }
}

/// A game that panics on any thread: the panic reaches the caller (as with one thread),
/// the lent table comes back, and the pool's threads serve the next search.
#[test]
fn a_panic_on_any_thread_reaches_the_caller_and_the_pool_lives_on() {
    let start = Position::setup("").unwrap();
    let mut table = minimax::search::Table::new(1 << 20).unwrap();
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for _ in 0..3 {
        let mut opts = Options {
            table: Some(&mut table),
            ..solve_opts(2)
        };
        let mut g = Faulty {
            p: start.clone(),
            start: 0,
            fault: Fault::Panic,
        };
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            search_parallel(&mut g, &mut opts)
        }));
        assert!(caught.is_err());
    }
    std::panic::set_hook(prev);
    let mut p = Position::setup("4455").unwrap();
    let mut opts = Options {
        table: Some(&mut table),
        ..solve_opts(2)
    };
    let r = search_parallel(&mut p, &mut opts).unwrap();
    assert!(opts.table.is_some(), "the lent table is handed back");
    assert_eq!(r.threads, 2);
}
