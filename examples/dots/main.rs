//! Dots and Boxes 3x3 (24 edges, many transpositions) solved exactly from the empty board
//! (issue 20): the nodes with the default 16 MiB table against a 512 MiB one, and the time
//! on 2 threads against 1, each value checked against a brute-force solve.
//! `make bench` runs it; the last line is a machine-readable SUMMARY.
//!
//! Usage: dots [--rows R] [--cols C]

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
    let mut args = std::env::args().skip(1);
    let (mut rows, mut cols) = (3, 3);
    while let Some(a) = args.next() {
        let mut value = || -> usize { args.next().and_then(|v| v.parse().ok()).expect("a number") };
        match a.as_str() {
            "--rows" => rows = value(),
            "--cols" => cols = value(),
            _ => panic!("usage: dots [--rows R] [--cols C]"),
        }
    }
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
    let mut runs = Vec::new();
    for (table, threads) in [(default, 1), (512 << 20, 1), (default, 2)] {
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
        runs.push((r.stats.nodes, time));
    }
    let (nodes, one) = runs[0];
    let big = runs[1].0;
    let two = runs[2].1;
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
