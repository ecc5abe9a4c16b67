//! A Connect Four solver in Rust on the engine's exact solve (the game is in `game.rs`,
//! with the same knowledge as the C example's callbacks).
//!
//!   cargo run --release --example connect4 -- [--threads N | --bare] [--best] < positions
//!   cargo run --release --example connect4 -- --mcts PLAYOUTS < positions
//!
//! Reads lines of column digits 1-7 ("4453"), optionally followed by a space and the
//! expected score, as in Pascal Pons' test sets; prints "<moves> <score> <nodes>
//! <microseconds>" with the score from the side to move, and with `--best` the best
//! move's column (1-7) last. A line whose expected score differs is reported on stderr,
//! and the exit status is then 1. `--bare` solves with the benchmark's measuring stick in
//! `bare.rs` instead of the engine. `--mcts` runs MCTS with random playouts instead (seed
//! 0x5EED, the defaults) and prints "<moves> <best column> <playouts> <microseconds>":
//! the npm package's benchmark (benches/web) compares both with the WebAssembly build.

use std::io::BufRead;
use std::time::Instant;

use minimax::search::{Method, Options, Table, search_parallel};

#[path = "../common/args.rs"]
mod args;
mod bare;
mod game;
use bare::Bare;
use game::Position;

/// What solves the positions: the engine with its table, or the measuring stick.
enum Solver {
    Engine(Table),
    Bare(Bare),
}

fn main() {
    let a = args::Args::parse(
        "usage: connect4 [--threads N | --bare] [--best] < positions, or connect4 --mcts PLAYOUTS < positions",
        &["--threads", "--mcts"],
        &["--bare", "--best"],
    );
    if a.flag("--mcts") {
        mcts(a.number("--mcts", 10_000u64));
        return;
    }
    let best = a.flag("--best");
    let bare = a.flag("--bare");
    let threads = a.number("--threads", 1usize);
    if bare && a.flag("--threads") {
        a.fail("--bare searches on one thread: give --threads or --bare"); // (its own search)
    }
    let mut solver = if bare {
        Solver::Bare(Bare::new())
    } else {
        let mut table = Table::new(64 << 20).expect("memory for the table");
        table.prefault();
        Solver::Engine(table)
    };
    let mut failures = 0;
    for (no, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.expect("readable input");
        let mut fields = line.split_whitespace();
        let Some(digits) = fields.next() else {
            continue;
        };
        let expected: Option<i32> = fields.next().and_then(|s| s.parse().ok());
        let mut p = match Position::setup(digits) {
            Ok(p) => p,
            Err(why) => {
                eprintln!("line {}: \"{digits}\": {why}", no + 1);
                failures += 1;
                continue;
            }
        };
        match &mut solver {
            Solver::Bare(bare) => bare.clear(), // outside the timing, as the reference's
            Solver::Engine(table) => table.clear(), // each position afresh, likewise
        }
        let t0 = Instant::now();
        let (score, nodes, column) = match &mut solver {
            Solver::Bare(bare) => (bare.solve(&mut p), bare.nodes, None),
            Solver::Engine(table) => {
                let mut opts = Options {
                    method: Method::Exact,
                    iterative_deepening: false,
                    table: Some(table),
                    refine_distance: false,
                    threads,
                    ..Options::default()
                };
                let r = search_parallel(&mut p, &mut opts).expect("the game keeps its contract");
                let score = if p.moves % 2 == 0 { r.value } else { -r.value };
                (score, r.stats.nodes, r.best_move)
            }
        };
        let us = t0.elapsed().as_secs_f64() * 1e6;
        match (best, column) {
            (true, Some(c)) => println!("{digits} {score} {nodes} {us:.0} {}", c + 1),
            (true, None) => println!("{digits} {score} {nodes} {us:.0} -"),
            _ => println!("{digits} {score} {nodes} {us:.0}"),
        }
        if expected.is_some_and(|e| e != score) {
            eprintln!(
                "line {}: {digits}: score {score}, expected {expected:?}",
                no + 1
            );
            failures += 1;
        }
    }
    std::process::exit(if failures == 0 { 0 } else { 1 });
}

/// MCTS from each position: the best column, the playouts and the time.
fn mcts(playouts: u64) {
    use minimax::search::mcts::{Mcts, MctsOptions};
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("readable input");
        let Some(digits) = line.split_whitespace().next() else {
            continue;
        };
        let mut p = Position::setup(digits).expect("a position of Pons' notation");
        let t0 = Instant::now();
        let mut opts = MctsOptions {
            playouts,
            ..MctsOptions::default()
        };
        let r = Mcts::new()
            .search(&mut p, &mut opts)
            .expect("the game keeps its contract");
        let us = t0.elapsed().as_secs_f64() * 1e6;
        let column = r.best_move.map_or("-".to_string(), |c| (c + 1).to_string());
        println!("{digits} {column} {} {us:.0}", r.playouts);
    }
}
