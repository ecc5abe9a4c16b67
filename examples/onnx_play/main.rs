//! Connect Four against a trained network, from Rust with no Python (issue 70): the
//! network is an ONNX file (the AlphaZero example's `net.onnx`), loaded by
//! `OnnxEvaluator` and evaluated by the library on the batches of `BatchedMcts`. Needs the
//! `onnx` feature:
//!
//! ```text
//! cargo run --profile onnx --features onnx --example onnx_play -- NET.onnx [--simulations N] [--engine-first]
//! cargo run --profile onnx --features onnx --example onnx_play -- NET.onnx --line 4453
//! ```
//!
//! You type a column, 1-7, and Enter; the program answers with its column, its value for
//! itself (-1 lost, 1 won) and the time it took. `--line` answers one position and ends.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

#[path = "../connect4/game.rs"]
mod game;

use game::Position;
use minimax::search::Game;
use minimax::search::batched::{BatchedMcts, BatchedOptions, OnnxEvaluator};

struct Args {
    net: String,
    simulations: u32,
    engine_first: bool,
    line: Option<String>,
}

fn parse() -> Result<Args, String> {
    let mut it = std::env::args().skip(1);
    let net = it
        .next()
        .filter(|a| !a.starts_with('-'))
        .ok_or("no NET.onnx")?;
    let mut args = Args {
        net,
        simulations: 800,
        engine_first: false,
        line: None,
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--simulations" => {
                let n = it.next().unwrap_or_default();
                args.simulations = n
                    .parse()
                    .ok()
                    .filter(|&s| (1..=1_000_000).contains(&s))
                    .ok_or(format!("--simulations {n}: a number from 1 to 1000000"))?;
            }
            "--line" => args.line = Some(it.next().ok_or("--line needs columns")?),
            "--engine-first" => args.engine_first = true,
            other => return Err(format!("{other}: not an option")),
        }
    }
    Ok(args)
}

/// The board from the columns played (X moved first).
fn show(line: &[u8]) {
    let mut grid = [['.'; 7]; 6];
    let mut height = [0usize; 7];
    for (i, &c) in line.iter().enumerate() {
        grid[height[c as usize]][c as usize] = if i % 2 == 0 { 'X' } else { 'O' };
        height[c as usize] += 1;
    }
    for row in grid.iter().rev() {
        let cells: Vec<String> = row.iter().map(char::to_string).collect();
        println!("  | {} |", cells.join(" "));
    }
    println!("    1 2 3 4 5 6 7");
}

fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "usage: onnx_play NET.onnx [--simulations N] [--engine-first | --line COLUMNS]"
            );
            return ExitCode::from(2);
        }
    };
    let mut net = match OnnxEvaluator::from_path(&args.net) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let opts = BatchedOptions {
        simulations: args.simulations,
        leaves_per_tree: 16, // one game: several leaves a batch, spread by virtual loss
        batch_size: 16,
        ..BatchedOptions::default()
    };
    let mut mcts = BatchedMcts::new();
    let start_line = args.line.clone().unwrap_or_default();
    let mut game = match Position::setup(&start_line) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --line {start_line}: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = net.fits(&game) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let mut think = |game: &Position| {
        let start = Instant::now();
        let mut one = [game.clone()];
        let r = mcts
            .search(&mut one, &mut net, &opts)
            .map(|mut r| r.remove(0));
        (r, start.elapsed().as_secs_f64() * 1e3)
    };
    if args.line.is_some() {
        return match think(&game) {
            (Ok(r), ms) => {
                let column = r.best_move.map_or(0, |m| m + 1);
                println!(
                    "play column {column}: value {:+.3}, {} simulations in {ms:.0} ms",
                    r.value, r.simulations
                );
                ExitCode::SUCCESS
            }
            (Err(e), _) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    println!(
        "You are {}. Type a column, 1-7, and Enter.",
        if args.engine_first { 'O' } else { 'X' }
    );
    let mut line: Vec<u8> = Vec::new();
    let mut engine_turn = args.engine_first;
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    show(&line);
    while game.outcome().is_none() {
        let column = if engine_turn {
            match think(&game) {
                (Ok(r), ms) => {
                    let c = r.best_move.unwrap_or(0);
                    println!(
                        "I play column {} (value {:+.3} for me, {ms:.0} ms)",
                        c + 1,
                        r.value
                    );
                    c
                }
                (Err(e), _) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        } else {
            print!("your column: ");
            let _ = std::io::stdout().flush();
            let Some(Ok(text)) = input.next() else {
                println!();
                return ExitCode::SUCCESS;
            };
            let playable = |c: i64| line.iter().filter(|&&p| p as i64 == c).count() < 6;
            match text.trim().parse::<i64>() {
                Ok(c) if (1..=7).contains(&c) && playable(c - 1) => c - 1,
                Ok(c) if (1..=7).contains(&c) => {
                    println!("column {c} is full");
                    continue;
                }
                _ => {
                    println!("a column is a digit from 1 to 7");
                    continue;
                }
            }
        };
        game.play(column);
        line.push(column as u8);
        show(&line);
        engine_turn = !engine_turn;
    }
    let score = game.outcome().unwrap_or(0);
    let first_won = score > 0;
    println!(
        "{}",
        match score {
            0 => "A draw.",
            _ if first_won != args.engine_first => "You win.",
            _ => "I win.",
        }
    );
    ExitCode::SUCCESS
}
