//! MCTS across chance steps against exact values: on Pig with a turn limit (from three
//! positions) and a one-player race (with and without `max_to_move`), MCTS's root value
//! after N playouts (default 1,000,000) for seeds 1 to 10, against a plain expectimax
//! written apart (`games::exact`) and the library's expectimax; and whether its best move
//! is one of the exactly best wherever the moves' exact values differ by more than 0.05.
//! The last line is a machine-readable SUMMARY; the target (issue 40) is a root value
//! within 0.02 of the exact one and the right move on every seed.
//!
//! With `--open-loop`, MCTS draws the outcomes on the way down instead (the option
//! `open_loop`), for comparison.
//!
//! Usage: dice [--playouts N] [--seeds N] [--open-loop]

#[path = "../common/args.rs"]
mod args;
mod games;

use games::{Keyed, Pig, Race, exact};
use minimax::search::mcts::{Mcts, MctsOptions, Reward};
use minimax::search::{Method, Options, search};

/// One position's row: the worst deviation over the seeds and whether every seed's move
/// was right.
fn row<G: Keyed + Clone>(name: &str, game: &G, run: Run) -> (f64, bool) {
    let Run {
        playouts,
        seeds,
        open_loop,
    } = run;
    let mut g = game.clone();
    let value = exact(&mut g, true);
    let mut opts = Options {
        method: Method::Expectimax,
        ..Options::default()
    };
    let library = search(&mut g, &mut opts).expect("a well-behaved game");
    // Each move's exact value, for the move check.
    let mut moves = Vec::new();
    g.moves(&mut moves).unwrap();
    let values: Vec<f64> = moves
        .iter()
        .map(|&mv| {
            g.play(mv);
            let v = exact(&mut g, false);
            g.undo(mv);
            v
        })
        .collect();
    // MAX's view throughout; the mover's best is MAX's highest or MIN's lowest.
    let max_root = g.max_to_move().unwrap_or(true);
    let mover = |v: f64| if max_root { v } else { -v };
    let best = values.iter().map(|&v| mover(v)).fold(f64::MIN, f64::max);
    let (mut worst, mut right, mut sum) = (0.0f64, true, 0.0);
    for seed in 1..=seeds {
        let mut o = MctsOptions {
            playouts,
            reward: Reward::Scaled,
            max_nodes: 1 << 24,
            seed,
            open_loop,
            ..MctsOptions::default()
        };
        let r = Mcts::new()
            .search(&mut g, &mut o)
            .expect("a well-behaved game");
        // The side to move's reward, as MAX's score in [-1, 1].
        let v = mover(2.0 * r.value - 1.0);
        worst = worst.max((v - value).abs());
        sum += v;
        let k = moves.iter().position(|&m| Some(m) == r.best_move).unwrap();
        right &= best - mover(values[k]) <= 0.05;
    }
    println!(
        "{name:<28} {value:>9.4} {:>9.4} {:>9.4} {worst:>9.4} {:>6}",
        library.expected.unwrap(),
        sum / seeds as f64,
        if right { "yes" } else { "NO" }
    );
    (worst, right)
}

/// How MCTS searches each position.
#[derive(Clone, Copy)]
struct Run {
    playouts: u64,
    seeds: u64,
    open_loop: bool,
}

const USAGE: &str = "usage: dice [--playouts N] [--seeds N] [--open-loop]";

fn main() {
    let a = args::Args::parse(USAGE, &["--playouts", "--seeds"], &["--open-loop"]);
    let (playouts, seeds) = (
        a.number("--playouts", 1_000_000u64),
        a.number("--seeds", 10u64),
    );
    let open_loop = a.flag("--open-loop");
    let run = Run {
        playouts,
        seeds,
        open_loop,
    };
    let kind = if open_loop {
        "open loop"
    } else {
        "closed loop"
    };
    println!(
        "MCTS ({kind}, {playouts} playouts, seeds 1-{seeds}) against exact expectimax; values are MAX's expected scores"
    );
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>9} {:>6}",
        "position", "exact", "library", "mcts mean", "worst dev", "move"
    );
    let rows = [
        row("pig 10/6 start", &Pig::new(10, 6), run),
        row(
            "pig 10/6 banks 4-6 turn 2",
            &Pig::at(10, 6, [4, 6], 0, 2),
            run,
        ),
        row(
            "pig 10/6 banks 7-3 total 2",
            &Pig::at(10, 6, [7, 3], 2, 3),
            run,
        ),
        row("race 12/5 max_to_move", &Race::new(12, 5, true), run),
        row("race 12/5 alternating", &Race::new(12, 5, false), run),
    ];
    let worst = rows.iter().map(|r| r.0).fold(0.0, f64::max);
    let right = rows.iter().all(|r| r.1);
    println!(
        "SUMMARY dice open_loop={} playouts={playouts} seeds={seeds} worst_deviation={worst:.4} moves_right={} target_met={}",
        open_loop as u8,
        right as u8,
        (worst <= 0.02 && right) as u8
    );
}
