//! Hex in Rust (issue 21): the game `c_examples/hex.c` plays through C, here through the
//! `Game` trait, so that MCTS and alpha-beta search the same type. It plays a seeded match
//! of MCTS (keeping its tree between moves) against alpha-beta with a zero evaluation,
//! colours alternating, and prints the score.
//!
//! Usage: hex [--size N] [--games N] [--seed S] [--playouts P] [--depth D] [--threads T]
//! (defaults: 7, 4, 1, 20000, 3, 1). `--curve` plays matches at 30 to 30,000 playouts a
//! move, against alpha-beta and against MCTS at `--playouts` a move, and prints the wins
//! as CSV, for `scripts/mcts_plot.py`. Black (MAX, first) joins the top and bottom rows,
//! White the left and right columns.

#[path = "../common/args.rs"]
mod args;
mod game;

use game::Hex;
use minimax::search::mcts::{Mcts, MctsOptions};
use minimax::search::{Game, Method, Options, search};

/// MCTS's opponent.
#[derive(Clone, Copy)]
enum Rival {
    /// Alpha-beta at this depth with a zero evaluation.
    AlphaBeta(u32),
    /// MCTS with this many playouts a move, keeping its tree too.
    Mcts(u64),
}

/// A seeded match of `games` games on `n` x `n`: MCTS (`playouts` a move, keeping its
/// tree, on `threads` threads) against `rival`, colours alternating. The games MCTS won;
/// each game's line is printed if `verbose`.
fn duel(
    n: usize,
    games: u64,
    seed: u64,
    playouts: u64,
    rival: Rival,
    threads: usize,
    verbose: bool,
) -> u64 {
    let mut mcts_wins = 0;
    for k in 0..games {
        let mut h = Hex::new(n);
        let (mut tree, mut rival_tree) = (Mcts::new(), Mcts::new());
        let mcts_black = k % 2 == 0;
        let winner = loop {
            if let Some(score) = h.outcome() {
                break if score > 0 { 1 } else { 2 };
            }
            let mv = if (h.to_move() == 1) == mcts_black {
                let mut opts = MctsOptions {
                    playouts,
                    seed: seed * 1000 + k * 100 + h.stones as u64,
                    threads,
                    ..MctsOptions::default()
                };
                let r = tree.search_parallel(&mut h, &mut opts).unwrap();
                r.best_move.unwrap()
            } else {
                match rival {
                    Rival::AlphaBeta(depth) => {
                        let mut opts = Options {
                            method: Method::AlphaBeta,
                            max_depth: depth,
                            iterative_deepening: false,
                            table_bytes: 0,
                            ..Options::default()
                        };
                        search(&mut h, &mut opts).unwrap().best_move.unwrap()
                    }
                    Rival::Mcts(playouts) => {
                        let mut opts = MctsOptions {
                            playouts,
                            seed: seed * 7919 + k * 100 + h.stones as u64,
                            ..MctsOptions::default()
                        };
                        let r = rival_tree.search(&mut h, &mut opts).unwrap();
                        r.best_move.unwrap()
                    }
                }
            };
            h.play(mv);
            tree.advance(mv);
            rival_tree.advance(mv);
        };
        let won = (winner == 1) == mcts_black;
        mcts_wins += won as u64;
        if verbose {
            println!(
                "game {}: MCTS ({}) {} in {} stones",
                k + 1,
                if mcts_black { "Black" } else { "White" },
                if won { "won" } else { "lost" },
                h.stones
            );
        }
    }
    mcts_wins
}

fn main() {
    let a = args::Args::parse(
        "usage: hex [--size N] [--games N] [--seed S] [--playouts P] [--depth D] [--threads T] [--curve]",
        &[
            "--size",
            "--games",
            "--seed",
            "--playouts",
            "--depth",
            "--threads",
        ],
        &["--curve"],
    );
    let n = a.number("--size", 7usize).clamp(2, 11);
    let (games, seed) = (a.number("--games", 4u64), a.number("--seed", 1u64));
    let (playouts, depth) = (a.number("--playouts", 20_000u64), a.number("--depth", 3u32));
    let threads = a.number("--threads", 1usize).clamp(1, 256);
    let curve = a.flag("--curve");
    if curve {
        // Win rate against playouts a move (scripts/mcts_plot.py draws it), as CSV:
        // against alpha-beta, and against MCTS at `--playouts` a move.
        println!("playouts,won,games,rival");
        let rivals = [
            (Rival::AlphaBeta(depth), format!("alpha-beta depth {depth}")),
            (Rival::Mcts(playouts), format!("MCTS {playouts}")),
        ];
        for (rival, name) in rivals {
            for p in [30, 100, 300, 1_000, 3_000, 10_000, 30_000] {
                let won = duel(n, games, seed, p, rival, threads, false);
                println!("{p},{won},{games},{name}");
            }
        }
        return;
    }
    let mcts_wins = duel(
        n,
        games,
        seed,
        playouts,
        Rival::AlphaBeta(depth),
        threads,
        true,
    );
    println!(
        "MCTS ({playouts} playouts a move) won {mcts_wins} of {games} games against alpha-beta \
         (depth {depth}, zero evaluation) on {n}x{n}"
    );
}
