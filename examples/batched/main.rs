//! What batched MCTS costs beside its evaluator (issue 50, point 3: "the search must
//! never be the bottleneck"): self-play of the native Connect Four, many games at once,
//! with an evaluator that returns constants, on one core. Prints the leaves evaluated a
//! second (the positions the evaluator was sent) and the simulations a second, for PUCT
//! and for Gumbel; target at least 1,000,000 leaves a second. Then the same search on two
//! threads against one, beside what this machine gives two searches run at once on two
//! threads of their own (its own two-core factor, the ceiling for the first). Then what
//! `decisive` costs a simulation. The last line is a machine-readable SUMMARY. `make
//! batched-bench` runs it.

use std::time::Instant;

#[path = "../connect4/game.rs"]
mod game;

use game::Position;
use minimax::search::batched::{BatchedMcts, BatchedOptions, Gumbel, RootPolicy};
use minimax::search::{Game, GameError};

/// Value 0 and equal logits: the evaluator costs next to nothing.
fn constant(_: &[f32], values: &mut [f32], logits: &mut [f32]) -> Result<(), GameError> {
    values.fill(0.0);
    logits.fill(0.0);
    Ok(())
}

/// Plays `games` games at once, `simulations` a move, to the end (each move the one the
/// search chose, temperature 1 for the first 8 plies), keeping each tree; returns the
/// leaves sent, the simulations, the evaluator calls and the seconds.
fn self_play(
    games: usize,
    simulations: u32,
    root: RootPolicy,
    seconds: f64,
    threads: usize,
    decisive: bool,
) -> (u64, u64, u64, f64) {
    let mut mcts = BatchedMcts::new();
    let start = Instant::now();
    let (mut sims, mut round) = (0u64, 0u64);
    let mut boards: Vec<Position> = (0..games).map(|_| Position::setup("").unwrap()).collect();
    let mut plies = vec![0u32; games];
    while start.elapsed().as_secs_f64() < seconds {
        let opts = BatchedOptions {
            simulations,
            batch_size: 256,
            leaves_per_tree: 4,
            root,
            temperature: 1.0,
            seed: round,
            threads,
            decisive,
            ..BatchedOptions::default()
        };
        round += 1;
        let results = mcts
            .search_parallel(&mut boards, &mut constant, &opts)
            .unwrap();
        for (i, r) in results.iter().enumerate() {
            sims += u64::from(r.simulations);
            let Some(mv) = r.best_move else { continue };
            boards[i].play(mv);
            plies[i] += 1;
            mcts.advance(i, mv);
            if boards[i].outcome().is_some() {
                boards[i] = Position::setup("").unwrap();
                plies[i] = 0;
            }
        }
    }
    let (calls, leaves) = mcts.evaluator_calls();
    (leaves, sims, calls, start.elapsed().as_secs_f64())
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let configs = [
        (
            "PUCT",
            RootPolicy::Puct {
                noise: Some((1.0, 0.25)),
            },
            64,
        ),
        (
            "PUCT",
            RootPolicy::Puct {
                noise: Some((1.0, 0.25)),
            },
            256,
        ),
        ("Gumbel", RootPolicy::Gumbel(Gumbel::default()), 64),
        ("Gumbel", RootPolicy::Gumbel(Gumbel::default()), 256),
    ];
    // Five rounds, the configurations in turn, so that a slow minute of a shared
    // machine falls on all of them; each line gives the median round.
    let rounds = 5;
    let slice = seconds / (rounds * configs.len()) as f64;
    println!(
        "Batched MCTS on Connect Four, one core, an evaluator of constants, 64 games at once: median of {rounds} rounds of {slice:.1} s"
    );
    let mut runs: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); configs.len()];
    for _ in 0..rounds {
        for (k, &(_, root, simulations)) in configs.iter().enumerate() {
            let (leaves, sims, calls, secs) = self_play(64, simulations, root, slice, 1, false);
            runs[k].push((
                leaves as f64 / secs,
                sims as f64 / secs,
                leaves as f64 / calls as f64,
            ));
        }
    }
    let mut worst = f64::INFINITY;
    for (k, &(name, _, simulations)) in configs.iter().enumerate() {
        runs[k].sort_by(|a, b| a.0.total_cmp(&b.0));
        let (leaves, sims, per_call) = runs[k][rounds / 2];
        worst = worst.min(leaves);
        println!(
            "{name:6} {simulations:3} simulations a move: {:.2}M leaves/s, {:.2}M simulations/s, {per_call:.0} leaves a call",
            leaves / 1e6,
            sims / 1e6
        );
    }
    let verdict = if worst >= 1e6 { "met" } else { "NOT met" };
    println!(
        "TARGET at least 1.00M leaves/s: {:.2}M, {verdict}",
        worst / 1e6
    );
    threads(slice, rounds);
    decisive(slice, rounds);
    println!("SUMMARY batched_leaves_per_s={worst:.0}");
}

/// The cost of `decisive` (each move of a leaf played to find a win at once before the
/// leaf is sent): PUCT at 64 simulations with it and without, in turn over `rounds`;
/// prints the medians of the time a simulation takes and their difference.
fn decisive(slice: f64, rounds: usize) {
    let puct = RootPolicy::Puct {
        noise: Some((1.0, 0.25)),
    };
    let per_sim = |decisive| {
        let (_, sims, _, secs) = self_play(64, 64, puct, slice, 1, decisive);
        secs / sims as f64 * 1e9
    };
    let (mut off, mut on) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        off.push(per_sim(false));
        on.push(per_sim(true));
    }
    off.sort_by(f64::total_cmp);
    on.sort_by(f64::total_cmp);
    let (off, on) = (off[rounds / 2], on[rounds / 2]);
    println!(
        "PUCT     64 simulations a move with decisive: {on:.0} ns a simulation against {off:.0} ns without ({:.0} ns more, {:.2}x)",
        on - off,
        on / off
    );
}

/// PUCT at 256 simulations on two threads against one, and two one-thread searches at
/// once against one alone, in turn over `rounds`; prints the medians.
fn threads(slice: f64, rounds: usize) {
    let puct = RootPolicy::Puct {
        noise: Some((1.0, 0.25)),
    };
    let rate = |threads| {
        let (leaves, _, _, secs) = self_play(64, 256, puct, slice, threads, false);
        leaves as f64 / secs
    };
    let (mut two, mut pair) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let one = rate(1);
        two.push(rate(2) / one);
        let both = std::thread::scope(|s| {
            let other = s.spawn(|| rate(1));
            rate(1) + other.join().unwrap()
        });
        pair.push(both / one);
    }
    two.sort_by(f64::total_cmp);
    pair.sort_by(f64::total_cmp);
    let (two, pair) = (two[rounds / 2], pair[rounds / 2]);
    println!(
        "PUCT    256 simulations a move on 2 threads: {two:.2}x one thread's leaves/s (this machine gives two one-thread searches at once {pair:.2}x one alone)"
    );
}
