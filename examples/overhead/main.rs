//! What a small search costs beyond its nodes (issue 19): the average time of a 5-node
//! search with the default options (a 16 MiB table of its own), over 200 searches, beside
//! the same search without a table, measured in the same run. Target: under 0.05 ms.
//! `make bench` runs it; the last line is a machine-readable SUMMARY.

use std::time::Instant;

#[path = "../common/args.rs"]
mod args;

use minimax::search::{Game, GameError, Move, Options, search};

/// A pile of 4 sticks, take one: 5 positions, a line of 4 moves.
struct Sticks(i64);

impl Game for Sticks {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        out.push(1);
        Ok(())
    }
    fn play(&mut self, _: Move) {
        self.0 -= 1;
    }
    fn undo(&mut self, _: Move) {
        self.0 += 1;
    }
    fn outcome(&mut self) -> Option<i32> {
        (self.0 == 0).then_some(1)
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn hash(&mut self) -> Option<u64> {
        Some(self.0 as u64 + 1)
    }
}

/// The average microseconds of `rounds` searches with `opts()`, and the nodes of one.
fn average(rounds: u32, opts: impl Fn() -> Options<'static>) -> (f64, u64) {
    let mut nodes = 0;
    let t = Instant::now();
    for _ in 0..rounds {
        nodes = search(&mut Sticks(4), &mut opts()).unwrap().stats.nodes;
    }
    (t.elapsed().as_secs_f64() * 1e6 / rounds as f64, nodes)
}

fn main() {
    args::Args::parse("usage: overhead (no arguments)", &[], &[]);
    let rounds = 200;
    let (with, nodes) = average(rounds, Options::default);
    let (without, _) = average(rounds, || Options {
        table_bytes: 0,
        ..Options::default()
    });
    println!("A 4-ply line searched with deepening ({nodes} nodes), average of {rounds}:");
    println!("  default options (16 MiB table): {with:8.2} us");
    println!("  no table:                       {without:8.2} us");
    println!("  ratio:                          {:8.2}x", with / without);
    let met = with < 50.0;
    println!(
        "SUMMARY overhead small_search_us={with:.2} no_table_us={without:.2} target_0.05ms={}",
        if met { "met" } else { "missed" }
    );
}
