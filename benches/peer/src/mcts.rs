//! MCTS on the same Connect Four type (issue 21): our `mcts`, treant 0.4 and minimax-rs
//! 0.6's `MonteCarloTreeSearch`, each with uniform random playouts to the end of the game
//! over the same legal moves, one thread, the same number of playouts from the same
//! positions. It prints playouts per second as ratios (ours over theirs).
//!
//! What is not alike: minimax-rs draws its playouts from its own generator, treant calls
//! an evaluator (here, one that plays a random game out with this file's generator),
//! ours uses its own seeded generator; treant and ours run their solvers (minimax-rs has
//! none), which also end a playout at a proven node.

use std::time::{Duration, Instant};

use ours::search::mcts::{MctsOptions, mcts};
use treant::tree_policy::UCTPolicy;
use treant::{Evaluator, GameState, MCTS, MCTSManager, ProvenValue, SearchHandle};

use crate::{Board, C4, Report};

/// Playouts a position, for each library.
const PLAYOUTS: u32 = 20_000;

/// A small generator for treant's playouts (xorshift64*, Vigna's description).
struct Xorshift(u64);

impl Xorshift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) * n as u64) >> 32) as usize
    }
}

impl GameState for Board {
    type Move = u8;
    type Player = bool; // whether the first player is to move
    type MoveList = Vec<u8>;

    fn current_player(&self) -> bool {
        self.stones.is_multiple_of(2)
    }
    fn available_moves(&self) -> Vec<u8> {
        if self.won_by_last() || self.full() {
            Vec::new()
        } else {
            self.legal().collect()
        }
    }
    fn make_move(&mut self, mv: &u8) {
        self.play(*mv as u32);
    }
    fn terminal_value(&self) -> Option<ProvenValue> {
        if self.won_by_last() {
            Some(ProvenValue::Loss) // for the side to move
        } else if self.full() {
            Some(ProvenValue::Draw)
        } else {
            None
        }
    }
}

/// treant's evaluation of a new node: a uniformly random game to its end. The result is
/// the winner as "first player won" (`Some(true)`), "second" or a draw (`None`).
struct Playout;

impl Evaluator<Config> for Playout {
    type StateEvaluation = Option<bool>;

    fn evaluate_new_state(
        &self,
        state: &Board,
        moves: &Vec<u8>,
        _: Option<SearchHandle<Config>>,
    ) -> (Vec<()>, Option<bool>) {
        thread_local! {
            static RNG: std::cell::RefCell<Xorshift> = const { std::cell::RefCell::new(Xorshift(0x5EED)) };
        }
        let mut b = *state;
        let mut legal = Vec::with_capacity(7);
        let winner = RNG.with(|r| {
            let mut r = r.borrow_mut();
            loop {
                if b.won_by_last() {
                    return Some(b.stones % 2 == 1); // the side that just moved won
                }
                if b.full() {
                    return None;
                }
                legal.clear();
                legal.extend(b.legal());
                let mv = legal[r.below(legal.len())];
                b.play(mv as u32);
            }
        });
        (vec![(); moves.len()], winner)
    }
    fn interpret_evaluation_for_player(&self, winner: &Option<bool>, first: &bool) -> i64 {
        match winner {
            Some(w) if w == first => 100,
            Some(_) => -100,
            None => 0,
        }
    }
    fn evaluate_existing_state(
        &self,
        _: &Board,
        evaln: &Option<bool>,
        _: SearchHandle<Config>,
    ) -> Option<bool> {
        *evaln
    }
}

#[derive(Default)]
struct Config;

impl MCTS for Config {
    type State = Board;
    type Eval = Playout;
    type NodeData = ();
    type ExtraThreadData = ();
    type TreePolicy = UCTPolicy;
    type TranspositionTable = ();

    fn solver_enabled(&self) -> bool {
        true
    }
}

/// Runs `f` three times and keeps the fastest run (noise only slows a run down).
fn fastest(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

pub fn compare(positions: &[Board], report: &mut Report) {
    let (mut us, mut treant, mut peer) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for b in positions {
        us += fastest(|| {
            let mut opts = MctsOptions {
                playouts: PLAYOUTS as u64,
                ..MctsOptions::default()
            };
            let r = mcts(&mut b.clone(), &mut opts).unwrap();
            assert_eq!(r.playouts, PLAYOUTS as u64, "no early proof in an opening");
        });
        treant += fastest(|| {
            let mut m = MCTSManager::new(*b, Config, Playout, UCTPolicy::new(1.41), ());
            m.playout_n(PLAYOUTS as u64);
            assert!(m.best_move().is_some());
        });
        peer += fastest(|| {
            use peer::Strategy;
            let opts = peer::MCTSOptions::default().with_num_threads(1);
            let mut m = peer::MonteCarloTreeSearch::<C4>::new(opts);
            m.set_max_rollouts(PLAYOUTS);
            assert!(m.choose_move(b).is_some());
        });
    }
    let playouts = (PLAYOUTS as usize * positions.len()) as f64;
    let rate = |t: Duration| playouts / t.as_secs_f64();
    println!(
        "MCTS, {PLAYOUTS} playouts from each of {} positions, one thread: ours {:.0}k/s, \
         treant {:.0}k/s, minimax-rs {:.0}k/s",
        positions.len(),
        rate(us) / 1e3,
        rate(treant) / 1e3,
        rate(peer) / 1e3
    );
    report.target(
        "MCTS playouts/s against treant",
        rate(us) / rate(treant),
        false,
        1.0,
    );
    report.target(
        "MCTS playouts/s against minimax-rs",
        rate(us) / rate(peer),
        false,
        1.0,
    );
}
