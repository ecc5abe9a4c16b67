//! Matches on Tiny Whist at a clock between the hidden-information searches: ISMCTS,
//! PIMC (the samples solved exactly by the engine, as many as the clock allows, the
//! move by the mean) and a random player. Each deal is played twice, the searches in
//! each seat; a game scores the first search's tricks minus the other's. Prints each
//! pairing's mean score a game with a 95% interval (0: level).
//!
//! `cargo run --release --example hidden -- --ms 20 --games 200`

#[path = "../common/args.rs"]
mod args;
mod whist;

use std::time::{Duration, Instant};

use minimax::search::ismcts::{self, IsmctsOptions};
use minimax::search::pimc::{self, Combine, PimcOptions, Valued};
use minimax::search::{Game, Method, Move, Options, search};
use whist::Whist;

const USAGE: &str =
    "usage: hidden [--ms N] [--games N] [--suits N] [--ranks N] [--hand N] [--seed N]
  --ms     milliseconds a move                              [20]
  --games  games a pairing (rounded up to even: each deal twice)  [200]
  --suits, --ranks, --hand  the deck and the cards dealt each    [4, 8, 8]
  --seed   the deals' seed                                  [1]";

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Ismcts,
    Pimc,
    Random,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Ismcts => "ISMCTS",
            Kind::Pimc => "PIMC",
            Kind::Random => "random",
        }
    }
}

/// The engine's exact solve of a sample's child.
fn exact(g: &mut Whist, max: bool) -> Result<Valued, minimax::search::GameError> {
    let mut opts = Options {
        method: Method::Exact,
        max_at_root: max,
        table_bytes: 1 << 20,
        ..Options::default()
    };
    search(g, &mut opts).map(|r| Valued::from(&r))
}

/// `kind`'s move in `g` within `ms`; `seed` varies its draws; the samples PIMC made
/// are added to `samples`.
fn choose(kind: Kind, g: &Whist, ms: u64, seed: u64, samples: &mut u64) -> Move {
    let mut moves = Vec::new();
    g.clone().moves(&mut moves).expect("moves");
    match kind {
        Kind::Random => moves[(whist::mix(seed) % moves.len() as u64) as usize],
        Kind::Ismcts => {
            let opts = IsmctsOptions {
                iterations: 0,
                time_limit: Some(Duration::from_millis(ms)),
                seed,
                ..IsmctsOptions::default()
            };
            ismcts::search(g, &opts)
                .expect("ISMCTS")
                .best_move
                .expect("a move")
        }
        Kind::Pimc => {
            // One sample at a time until the clock runs out, the means summed.
            let start = Instant::now();
            let mut sums = vec![0.0; moves.len()];
            let mut n = 0u64;
            while n == 0 || start.elapsed() < Duration::from_millis(ms) {
                let opts = PimcOptions {
                    samples: 1,
                    seed: seed.wrapping_add(n),
                    combine: Combine::Mean,
                };
                let r = pimc::search_sampled(g, &opts, exact).expect("PIMC");
                for (s, m) in sums.iter_mut().zip(&r.moves) {
                    *s += m.mean;
                }
                n += 1;
            }
            *samples += n;
            let max = g.to_move == 0;
            let best = (0..moves.len()).fold(0, |b, i| {
                let better = if max {
                    sums[i] > sums[b]
                } else {
                    sums[i] < sums[b]
                };
                if better { i } else { b }
            });
            moves[best]
        }
    }
}

fn main() {
    let args = args::Args::parse(
        USAGE,
        &["--ms", "--games", "--suits", "--ranks", "--hand", "--seed"],
        &[],
    );
    let ms: u64 = args.number("--ms", 20);
    let games: u64 = args.number("--games", 200);
    let (suits, ranks, hand) = (
        args.number("--suits", 4),
        args.number("--ranks", 8),
        args.number("--hand", 8),
    );
    let seed: u64 = args.number("--seed", 1);
    println!("Tiny Whist, {suits} suits of {ranks}, {hand} cards each, {ms} ms a move");
    let pairs = [
        (Kind::Ismcts, Kind::Random),
        (Kind::Pimc, Kind::Random),
        (Kind::Ismcts, Kind::Pimc),
    ];
    for (a, b) in pairs {
        let t = Instant::now();
        let mut scores = Vec::new();
        let mut samples = 0;
        for game in 0..games.div_ceil(2) * 2 {
            let deal = seed.wrapping_mul(1_000_003).wrapping_add(game / 2);
            let mut g = Whist::deal(suits, ranks, hand, deal);
            // Even games seat `a` as player 0, odd ones as player 1.
            let a_seat = (game % 2) as usize;
            let mut ply = 0;
            while !g.over() {
                let kind = if g.to_move == a_seat { a } else { b };
                let mv = choose(kind, &g, ms, whist::mix(deal ^ ply), &mut samples);
                g.play(mv);
                ply += 1;
            }
            let diff = g.tricks[a_seat] - g.tricks[1 - a_seat];
            scores.push(diff as f64);
        }
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let pimc_moves = if samples > 0 {
            format!(
                "; PIMC {:.1} samples a move",
                samples as f64 / (n * hand as f64)
            )
        } else {
            String::new()
        };
        println!(
            "{:>7} vs {:<7} {:+.3} ± {:.3} tricks a game  ({} games, {:.0} s{pimc_moves})",
            a.name(),
            b.name(),
            mean,
            1.96 * (var / n).sqrt(),
            scores.len(),
            t.elapsed().as_secs_f64(),
        );
    }
}
