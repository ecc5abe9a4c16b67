//! The hidden-information searches' memory: memory that cannot be had is
//! `GameError::OutOfMemory` or a tree that stops growing, never an abort, for ISMCTS (on Oh Hell)
//! and PIMC (on one thread and on two). The allocator of `common/capped.rs` stands in
//! for the system's; the games are plain values, so that copying them allocates nothing.

#[path = "common/capped.rs"]
mod capped;
#[path = "../examples/hidden/oh_hell.rs"]
mod oh_hell;

use std::sync::atomic::Ordering::Relaxed;

use capped::{CAP, LIVE};
use minimax::search::ismcts::{self, IsmctsOptions};
use minimax::search::maxn_mcts::PlayerReward;
use minimax::search::pimc::{self, PimcOptions, Valued};
use minimax::search::{Game, GameError, Move};
use oh_hell::OhHell;

/// A coin the mover names, heads up with probability 0.7 as far as it knows: two
/// players, 1 for naming the side up, else -1.
#[derive(Clone, Copy)]
struct Coin {
    heads: bool,
    named: Option<Move>,
}

impl Game for Coin {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.named.is_none() {
            out.try_reserve(2).map_err(|_| GameError::OutOfMemory)?;
            out.extend([0, 1]);
        }
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        self.named = Some(mv);
    }
    fn undo(&mut self, _: Move) {
        self.named = None;
    }
    fn outcome(&mut self) -> Option<i32> {
        self.named
            .map(|m| if (m == 0) == self.heads { 1 } else { -1 })
    }
    fn evaluate(&mut self) -> i32 {
        0
    }
    fn sample(&mut self, seed: u64) -> bool {
        self.heads = seed % 10 < 7;
        true
    }
}

/// Oh Hell for three, dealt from `seed`, at its first bid.
fn dealt(seed: u64) -> OhHell {
    let mut g = OhHell::new(3);
    let mut r = seed;
    let mut outs = Vec::new();
    while g.is_chance() {
        outs.clear();
        g.outcomes(&mut outs).unwrap();
        r = r
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        g.play(outs[(r >> 33) as usize % outs.len()].0);
    }
    g
}

/// Its own main (no test harness): the harness's main thread books each test's timeout
/// as the test starts, which raced the lowered cap (an abort in about half the runs of
/// tests/engine_memory.rs on Rust 1.95, "memory allocation of 608 bytes failed"), or,
/// admitted, took the test's spare memory.
fn main() {
    memory_short_is_never_an_abort();
    println!("test memory_short_is_never_an_abort ... ok");
}

fn memory_short_is_never_an_abort() {
    let spares = [
        0usize,
        64,
        256,
        1 << 10,
        4 << 10,
        16 << 10,
        64 << 10,
        1 << 20,
    ];
    let mut searched = 0;
    for spare in spares {
        let g = dealt(spare as u64);
        let opts = IsmctsOptions {
            iterations: 3_000,
            reward: PlayerReward::Scaled,
            ..IsmctsOptions::default()
        };
        CAP.store(LIVE.load(Relaxed) + spare, Relaxed);
        let r = ismcts::search(&g, &opts);
        CAP.store(usize::MAX, Relaxed);
        match r {
            Ok(r) => {
                assert!(r.best_move.is_some(), "{spare} bytes");
                searched += 1;
            }
            Err(e) => assert_eq!(e, GameError::OutOfMemory, "{spare} bytes"),
        }
        for threads in [1, 2] {
            let coin = Coin {
                heads: true,
                named: None,
            };
            let value = |g: &mut Coin, _: bool| {
                let v = g.outcome().unwrap_or(0) as f64;
                Ok(Valued {
                    value: v,
                    proven: true,
                    nodes: 1,
                })
            };
            let o = PimcOptions {
                samples: 200,
                ..PimcOptions::default()
            };
            CAP.store(LIVE.load(Relaxed) + spare, Relaxed);
            let r = pimc::search_sampled_parallel(&coin, &o, threads, value);
            CAP.store(usize::MAX, Relaxed);
            match r {
                Ok(r) => assert_eq!(r.best_move, Some(0), "{spare} bytes"),
                Err(e) => assert_eq!(e, GameError::OutOfMemory, "{spare} bytes"),
            }
        }
    }
    // From 1 KiB spare up (the tree stopping where memory does), ISMCTS searched.
    assert!(searched >= 5, "{searched} searched");
}
