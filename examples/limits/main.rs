//! How far past a limit a search returns (issue 40), measured by the clock: MCTS with a
//! 1 ms time limit, and with a stop flag set before it starts, on a game whose playouts
//! run 100,000 plies, on 1 and 2 threads; and the engine's alpha-beta on 8 threads (on
//! however many cores the machine has) stopped by the flag from another thread. Each
//! figure is the worst of `--runs` runs (default 20). Targets: MCTS at most 2 ms past
//! the limit, the engine's stop at most 5 ms. The last line is a machine-readable SUMMARY.
//!
//! Usage: limits [--runs N]

#[path = "../common/args.rs"]
mod args;

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::time::{Duration, Instant};

use minimax::search::mcts::{Mcts, MctsOptions};
use minimax::search::{Game, GameError, Move, Options, search_parallel};

/// Two moves a ply; over after `end` plies (a draw). The position's hash is its path's,
/// the hashes of the positions before it kept for `undo`.
#[derive(Clone)]
struct Long {
    end: u32,
    hashes: Vec<u64>,
    hash: u64,
}

impl Long {
    fn new(end: u32) -> Long {
        Long {
            end,
            hashes: Vec::new(),
            hash: 1,
        }
    }
}

impl Game for Long {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend([0, 1]);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.hashes.push(self.hash);
        self.hash = self.hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (mv as u64 + 1);
    }
    fn undo(&mut self, _: Move) {
        self.hash = self.hashes.pop().expect("a move to undo");
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.hashes.len() as u32 == self.end).then_some(0)
    }
    fn evaluate(&mut self) -> i32 {
        (self.hash % 7) as i32 - 3
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.hash)
    }
}

/// The worst time past `limit` (zero: the stop flag set beforehand) of `runs` MCTS
/// searches on `threads`.
fn mcts_late(threads: usize, runs: u32, limit: Duration) -> Duration {
    let stop = AtomicI32::new(1);
    (0..runs)
        .map(|_| {
            let mut o = MctsOptions {
                playouts: 0,
                threads,
                ..MctsOptions::default()
            };
            match limit.is_zero() {
                true => o.stop = Some(&stop),
                false => o.time_limit = Some(limit),
            }
            let t = Instant::now();
            Mcts::new()
                .search_parallel(&mut Long::new(100_000), &mut o)
                .expect("a well-behaved game");
            t.elapsed().saturating_sub(limit)
        })
        .max()
        .unwrap()
}

/// The worst time from setting the stop flag to the engine's return, on 8 threads after
/// 20 ms of search.
fn engine_stop(runs: u32) -> Duration {
    (0..runs)
        .map(|_| {
            let stop = AtomicI32::new(0);
            std::thread::scope(|s| {
                let search = s.spawn(|| {
                    let mut o = Options {
                        threads: 8,
                        stop: Some(&stop),
                        ..Options::default()
                    };
                    search_parallel(&mut Long::new(60), &mut o).expect("a well-behaved game");
                    Instant::now()
                });
                std::thread::sleep(Duration::from_millis(20));
                let set = Instant::now();
                stop.store(1, Relaxed);
                search.join().unwrap().saturating_duration_since(set)
            })
        })
        .max()
        .unwrap()
}

fn main() {
    let a = args::Args::parse("usage: limits [--runs N]", &["--runs"], &[]);
    let runs = a.number("--runs", 20u32).max(1);
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("Worst of {runs} runs, {cores} cores; a game of 100,000-ply playouts for MCTS");
    let ms1 = Duration::from_millis(1);
    let (t1, t2) = (mcts_late(1, runs, ms1), mcts_late(2, runs, ms1));
    println!(
        "MCTS, 1 ms time limit: {:.3} ms past it on 1 thread, {:.3} ms on 2",
        ms(t1),
        ms(t2)
    );
    let (s1, s2) = (
        mcts_late(1, runs, Duration::ZERO),
        mcts_late(2, runs, Duration::ZERO),
    );
    println!(
        "MCTS, stop flag set before: returned in {:.3} ms on 1 thread, {:.3} ms on 2",
        ms(s1),
        ms(s2)
    );
    let e = engine_stop(runs);
    println!(
        "Engine alpha-beta on 8 threads: returned {:.3} ms after the stop flag",
        ms(e)
    );
    let mcts_met = [t1, t2, s1, s2]
        .iter()
        .all(|&d| d <= Duration::from_millis(2));
    let engine_met = e <= Duration::from_millis(5);
    println!(
        "SUMMARY limits mcts_time_1={:.3} mcts_time_2={:.3} mcts_stop_1={:.3} mcts_stop_2={:.3} engine_stop_8={:.3} mcts_target={} engine_target={}",
        ms(t1),
        ms(t2),
        ms(s1),
        ms(s2),
        ms(e),
        if mcts_met { "met" } else { "missed" },
        if engine_met { "met" } else { "missed" },
    );
}
