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

use minimax::search::mcts::{Mcts, MctsOptions};
use minimax::search::{Game, GameError, Method, Move, Options, search};

/// A Hex board of `n` x `n` cells (0 empty, 1 Black, 2 White).
#[derive(Clone)]
struct Hex {
    n: usize,
    cells: Vec<u8>,
    stones: usize,
}

impl Hex {
    fn new(n: usize) -> Hex {
        Hex {
            n,
            cells: vec![0; n * n],
            stones: 0,
        }
    }

    fn to_move(&self) -> u8 {
        if self.stones % 2 == 0 { 1 } else { 2 }
    }

    /// Whether `who` joins its two sides: a flood from its first side.
    fn joined(&self, who: u8) -> bool {
        let n = self.n;
        let mut seen = vec![false; n * n];
        let mut stack: Vec<usize> = (0..n)
            .map(|i| if who == 1 { i } else { i * n })
            .filter(|&c| self.cells[c] == who)
            .collect();
        for &c in &stack {
            seen[c] = true;
        }
        while let Some(c) = stack.pop() {
            let (r, col) = ((c / n) as i64, (c % n) as i64);
            if (who == 1 && r as usize == n - 1) || (who == 2 && col as usize == n - 1) {
                return true;
            }
            for (dr, dc) in [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] {
                let (rr, cc) = (r + dr, col + dc);
                if rr < 0 || cc < 0 || rr >= n as i64 || cc >= n as i64 {
                    continue;
                }
                let d = rr as usize * n + cc as usize;
                if !seen[d] && self.cells[d] == who {
                    seen[d] = true;
                    stack.push(d);
                }
            }
        }
        false
    }
}

impl Game for Hex {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.extend(
            (0..self.cells.len())
                .filter(|&c| self.cells[c] == 0)
                .map(|c| c as Move),
        );
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.cells[mv as usize] = self.to_move();
        self.stones += 1;
    }
    fn undo(&mut self, mv: Move) {
        self.cells[mv as usize] = 0;
        self.stones -= 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        let last = if self.to_move() == 1 { 2 } else { 1 };
        (self.stones > 0 && self.joined(last)).then_some(if last == 1 { 1 } else { -1 })
    }
    fn evaluate(&mut self) -> i32 {
        0 // Hex has no simple evaluation: that is the point
    }
    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.to_move() == 1)
    }
}

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
