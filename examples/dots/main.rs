//! Dots and Boxes 3x3 (24 edges, many transpositions) solved exactly from the empty board
//! (issue 20): the nodes with the default 16 MiB table against a 512 MiB one, and the time
//! on 2 threads against 1, each value checked against a brute-force solve. The times are
//! the fastest of `--repeats` rounds (3 by default), each round running one thread, then
//! two: this machine's noise only ever slows a run down, by up to 2x for minutes at a
//! time, so that one round's ratio says as much about the minute as about the search.
//! `make bench` runs it; the last line is a machine-readable SUMMARY.
//!
//! Usage: dots [--rows R] [--cols C] [--repeats N]

#[path = "../common/args.rs"]
mod args;
mod game;

use std::time::{Duration, Instant};

use game::Dots;
use minimax::search::{Method, Options, SearchResult, search_parallel};

/// The nodes issue 20 measured with the default table, from the empty 3x3 board.
const ISSUE_NODES: u64 = 86_000_000;

fn solve(board: &Dots, table_bytes: usize, threads: usize) -> (SearchResult, Duration) {
    let mut g = board.clone();
    let mut o = Options {
        method: Method::Exact,
        iterative_deepening: false,
        table_bytes,
        threads,
        ..Options::default()
    };
    let t = Instant::now();
    let r = search_parallel(&mut g, &mut o).expect("a well-behaved game");
    (r, t.elapsed())
}

fn main() {
    let a = args::Args::parse(
        "usage: dots [--rows R] [--cols C] [--repeats N]",
        &["--rows", "--cols", "--repeats"],
        &[],
    );
    let (rows, cols) = (a.number("--rows", 3usize), a.number("--cols", 3usize));
    let repeats = a.number("--repeats", 3usize).max(1);
    let board = Dots::new(rows, cols);
    let t = Instant::now();
    let mut memo = vec![i8::MIN; 1 << board.edge_count()];
    let truth = board.brute_force(0, &mut memo);
    drop(memo);
    println!(
        "Dots and Boxes {rows}x{cols} ({} edges): value {truth} for the first player by brute force ({:.1} s)",
        board.edge_count(),
        t.elapsed().as_secs_f64()
    );
    let default = Options::default().table_bytes;
    let checked = |table: usize, threads: usize| {
        let (r, time) = solve(&board, table, threads);
        assert_eq!(r.value, truth, "the engine's value against brute force");
        assert!(r.proven);
        println!(
            "exact solve, {} MiB table, {threads} thread(s): value {}, {} nodes, {:.2} s",
            table >> 20,
            r.value,
            r.stats.nodes,
            time.as_secs_f64()
        );
        (r.stats.nodes, time)
    };
    let big = checked(512 << 20, 1).0;
    let (mut nodes, mut one, mut two) = (0, Duration::MAX, Duration::MAX);
    for round in 1..=repeats {
        let (n, t1) = checked(default, 1);
        let t2 = checked(default, 2).1;
        println!(
            "round {round}: 2 threads {:.2}x faster",
            t1.as_secs_f64() / t2.as_secs_f64()
        );
        (nodes, one, two) = (n, one.min(t1), two.min(t2));
    }
    println!(
        "fastest of {repeats} rounds: 1 thread {:.2} s, 2 threads {:.2} s",
        one.as_secs_f64(),
        two.as_secs_f64()
    );
    let speedup = one.as_secs_f64() / two.as_secs_f64();
    let share = nodes as f64 / ISSUE_NODES as f64;
    println!(
        "TARGET default table: {nodes} nodes, {share:.2}x the issue's 86M (at most 0.50x) {}; \
         a 512 MiB table needs {big}",
        if share <= 0.5 { "met" } else { "NOT MET" }
    );
    println!(
        "TARGET 2 threads: {speedup:.2}x faster (at least 1.60x) {}",
        if speedup >= 1.6 { "met" } else { "NOT MET" }
    );
    println!(
        "SUMMARY dots_{rows}x{cols}_nodes_default_table={nodes} dots_nodes_512mib={big} \
         dots_2_threads_speedup={speedup:.2}"
    );
}
