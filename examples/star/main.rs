//! How much Star1 and Star2 prune: nodes visited against plain expectimax, on random
//! regular trees (Ballard's setting: MAX, chance, MIN, chance, ... with `b` children each;
//! final scores uniform, or all a win or a loss) and on 2048 positions, at several depths.
//! Every method gets the same table, searches the full depth at once, and must find the
//! same value. `make bench` runs it; the last line is a machine-readable SUMMARY.
//!
//! Usage: star [--trees N] [--positions N]

#[path = "../common/args.rs"]
mod args;
mod game2048;
mod trees;

use minimax::search::{Game, Method, Options, search};

const METHODS: [Method; 3] = [Method::Expectimax, Method::Star1, Method::Star2];

/// The nodes each method visits on `games` at `depth`, summed; checks that they agree.
fn nodes<G: Game>(games: &mut [G], depth: u32) -> [u64; 3] {
    let mut total = [0; 3];
    for g in games.iter_mut() {
        let mut values = Vec::new();
        for (i, method) in METHODS.into_iter().enumerate() {
            let mut opts = Options {
                method,
                max_depth: depth,
                iterative_deepening: false,
                table_bytes: 16 << 20,
                ..Options::default()
            };
            let r = search(g, &mut opts).expect("a well-behaved game");
            values.push(r.expected.expect("an expected value"));
            total[i] += r.stats.nodes;
        }
        let scale = values[0].abs().max(1.0);
        assert!(
            values.iter().all(|v| (v - values[0]).abs() <= 1e-9 * scale),
            "the methods disagree: {values:?}"
        );
    }
    total
}

fn row(what: &str, depth: u32, n: [u64; 3]) -> (f64, f64) {
    let (r1, r2) = (n[1] as f64 / n[0] as f64, n[2] as f64 / n[0] as f64);
    println!(
        "{what:<9} {depth:>5} {:>12} {:>12} {:>12} {r1:>11.3} {r2:>11.3}",
        n[0], n[1], n[2]
    );
    (r1, r2)
}

fn main() {
    let a = args::Args::parse(
        "usage: star [--trees N] [--positions N]",
        &["--trees", "--positions"],
        &[],
    );
    let (tree_count, positions) = (
        a.number("--trees", 5usize),
        a.number("--positions", 20usize),
    );
    println!("Nodes visited: plain expectimax, Star1, Star2 (each with a 16 MiB table)");
    println!(
        "{:<9} {:>5} {:>12} {:>12} {:>12} {:>11} {:>11}",
        "input", "depth", "expectimax", "star1", "star2", "star1/plain", "star2/plain"
    );
    let mut summary = Vec::new();
    for win_loss in [false, true] {
        for (depth, b) in [(4, 6), (6, 5), (8, 4), (8, 8)] {
            let mut games: Vec<_> = (0..tree_count as u64)
                .map(|s| trees::RegularTree::new(s, depth, b, win_loss))
                .collect();
            let name = if win_loss { "winloss" } else { "uniform" };
            let what = format!("{name}{b}");
            let (r1, r2) = row(&what, depth as u32, nodes(&mut games, depth as u32));
            summary.push(format!(
                "{name}_b{b}_d{depth}_star1={r1:.3} {name}_b{b}_d{depth}_star2={r2:.3}"
            ));
        }
    }
    let mut boards: Vec<_> = (0..positions as u64)
        .map(|s| game2048::Game2048::random(s, 20 + 10 * s as usize))
        .filter_map(|mut g| g.outcome().is_none().then_some(g))
        .collect();
    for depth in [2, 4, 6] {
        let (r1, r2) = row("2048", depth, nodes(&mut boards, depth));
        summary.push(format!(
            "2048_d{depth}_star1={r1:.3} 2048_d{depth}_star2={r2:.3}"
        ));
    }
    println!("SUMMARY star {}", summary.join(" "));
}
