//! MCTS on the same Connect Four and Hex types (issue 21): our `mcts`, treant 0.4 and
//! minimax-rs 0.6's `MonteCarloTreeSearch`, each with uniform random playouts to the end
//! of the game over the same legal moves, one thread, the same number of playouts from
//! the same positions. It prints playouts per second as ratios (ours over theirs), then
//! ours on 2 threads sharing one tree over ours on 1, beside two independent one-thread
//! searches run at once (what the machine's two cores give at best).
//!
//! What is not alike: minimax-rs draws its playouts from its own generator, treant calls
//! an evaluator (here, one that plays a random game out with this file's generator),
//! ours uses its own seeded generator; treant and ours run their solvers (minimax-rs has
//! none), which also end a playout at a proven node.

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use ours::search::Game;
use ours::search::mcts::{Mcts, MctsOptions, mcts};
use treant::tree_policy::UCTPolicy;
use treant::{Evaluator, GameState, MCTS, MCTSManager, ProvenValue, SearchHandle};

use crate::hex::{Hex, HexGame};
use crate::rng::Xorshift;
use crate::{Board, C4, Report, round_trip};

/// A game all three libraries search: our trait, treant's, minimax-rs's (through a
/// marker type), and a random game to the end for treant's evaluator.
pub trait Contest:
    Game + GameState<Move = u8, Player = bool, MoveList = Vec<u8>> + Copy + Send + Sync + 'static
{
    type Peer: peer::Game<S = Self, M = u8> + Sync;
    /// A uniformly random game from here: `Some(true)` if the first player won,
    /// `Some(false)` the second, `None` a draw.
    fn random_result(self, rng: &mut Xorshift, legal: &mut Vec<u8>) -> Option<bool>;
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

impl Contest for Board {
    type Peer = C4;
    fn random_result(mut self, rng: &mut Xorshift, legal: &mut Vec<u8>) -> Option<bool> {
        loop {
            if self.won_by_last() {
                return Some(self.stones % 2 == 1); // the side that just moved won
            }
            if self.full() {
                return None;
            }
            legal.clear();
            legal.extend(self.legal());
            let mv = legal[rng.below(legal.len())];
            self.play(mv as u32);
        }
    }
}

impl GameState for Hex {
    type Move = u8;
    type Player = bool; // whether Black (first) is to move
    type MoveList = Vec<u8>;

    fn current_player(&self) -> bool {
        self.black_to_move()
    }
    fn available_moves(&self) -> Vec<u8> {
        match self.won_by_last() {
            true => Vec::new(),
            false => self.legal().collect(),
        }
    }
    fn make_move(&mut self, mv: &u8) {
        self.play(*mv as u32);
    }
    fn terminal_value(&self) -> Option<ProvenValue> {
        self.won_by_last().then_some(ProvenValue::Loss)
    }
}

impl Contest for Hex {
    type Peer = HexGame;
    fn random_result(self, rng: &mut Xorshift, legal: &mut Vec<u8>) -> Option<bool> {
        Some(self.random_game(rng, legal))
    }
}

/// treant's evaluation of a new node: a uniformly random game to its end. The result is
/// the winner as "first player won" (`Some(true)`), "second" or a draw (`None`).
struct Playout<S>(PhantomData<S>);

impl<S: Contest> Evaluator<Config<S>> for Playout<S> {
    type StateEvaluation = Option<bool>;

    fn evaluate_new_state(
        &self,
        state: &S,
        moves: &Vec<u8>,
        _: Option<SearchHandle<Config<S>>>,
    ) -> (Vec<()>, Option<bool>) {
        thread_local! {
            static RNG: std::cell::RefCell<Xorshift> = const { std::cell::RefCell::new(Xorshift(0x5EED)) };
        }
        let mut legal = Vec::with_capacity(64);
        let winner = RNG.with(|r| state.random_result(&mut r.borrow_mut(), &mut legal));
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
        _: &S,
        evaln: &Option<bool>,
        _: SearchHandle<Config<S>>,
    ) -> Option<bool> {
        *evaln
    }
}

struct Config<S>(PhantomData<S>);

impl<S: Contest> MCTS for Config<S> {
    type State = S;
    type Eval = Playout<S>;
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

/// Both games: Connect Four from the first 10 of `c4`, Hex from its openings.
pub fn compare_all(c4: &[Board], report: &mut Report) {
    let c4 = &c4[..c4.len().min(10)];
    compare("Connect Four", c4, 20_000, report);
    compare("Hex 7x7", &Hex::openings(), 10_000, report);
    threads("Connect Four", c4, 80_000, report);
    threads("Hex 7x7", &Hex::openings(), 40_000, report);
}

/// One thread each: ours, treant and minimax-rs, `playouts` from each position.
pub fn compare<S: Contest>(name: &str, positions: &[S], playouts: u32, report: &mut Report) {
    let (mut us, mut treant, mut peer) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for b in positions {
        us += fastest(|| {
            let mut opts = MctsOptions {
                playouts: playouts as u64,
                ..MctsOptions::default()
            };
            let r = mcts(&mut b.clone(), &mut opts).unwrap();
            assert_eq!(r.playouts, playouts as u64, "no early proof in an opening");
        });
        treant += fastest(|| {
            let config = Config(PhantomData);
            let eval = Playout(PhantomData);
            let mut m = MCTSManager::new(*b, config, eval, UCTPolicy::new(1.41), ());
            m.playout_n(playouts as u64);
            assert!(m.best_move().is_some());
        });
        peer += fastest(|| {
            use peer::Strategy;
            let opts = peer::MCTSOptions::default().with_num_threads(1);
            let mut m = peer::MonteCarloTreeSearch::<S::Peer>::new(opts);
            m.set_max_rollouts(playouts);
            assert!(m.choose_move(b).is_some());
        });
    }
    let total = (playouts as usize * positions.len()) as f64;
    let rate = |t: Duration| total / t.as_secs_f64();
    println!(
        "MCTS on {name}, {playouts} playouts from each of {} positions, one thread: ours \
         {:.0}k/s, treant {:.0}k/s, minimax-rs {:.0}k/s",
        positions.len(),
        rate(us) / 1e3,
        rate(treant) / 1e3,
        rate(peer) / 1e3
    );
    report.target(
        &format!("MCTS playouts/s on {name} against treant"),
        rate(us) / rate(treant),
        false,
        1.0,
    );
    report.target(
        &format!("MCTS playouts/s on {name} against minimax-rs"),
        rate(us) / rate(peer),
        false,
        1.0,
    );
}

/// Ours on 2 threads (one shared tree) against ours on 1, the same playouts from the same
/// positions, alternating so that the machine's noise falls on both; beside them, two
/// independent one-thread searches of the same size at once: the most two cores give
/// here (counted as one search in half their time).
pub fn threads<S: Contest>(name: &str, positions: &[S], playouts: u64, report: &mut Report) {
    let run = |threads: usize, b: &S| {
        let mut opts = MctsOptions {
            playouts,
            threads,
            ..MctsOptions::default()
        };
        let r = Mcts::new()
            .search_parallel(&mut b.clone(), &mut opts)
            .unwrap();
        assert_eq!(r.threads, threads, "{:?}", r.fewer_threads);
        assert_eq!(r.playouts, playouts, "no early proof in an opening");
    };
    let trip_before = round_trip();
    let (mut one, mut two, mut apart) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for b in positions {
        one += fastest(|| run(1, b));
        two += fastest(|| run(2, b));
        // Two searches of `playouts` each at once, each as big as the one-thread search.
        let alone = |b: &S| {
            let mut opts = MctsOptions {
                playouts,
                ..MctsOptions::default()
            };
            mcts(&mut b.clone(), &mut opts).unwrap();
        };
        apart += fastest(|| {
            std::thread::scope(|s| {
                s.spawn(|| alone(b));
                alone(b);
            })
        }) / 2;
    }
    let total = (playouts as usize * positions.len()) as f64;
    let rate = |t: Duration| total / t.as_secs_f64() / 1e3;
    println!(
        "MCTS on {name}, {playouts} playouts from each of {} positions: 1 thread {:.0}k/s, \
         2 threads sharing a tree {:.0}k/s, 2 independent searches at once {:.0}k/s \
         ({:.2}x: the machine's ceiling)",
        positions.len(),
        rate(one),
        rate(two),
        rate(apart),
        one.as_secs_f64() / apart.as_secs_f64()
    );
    let trip_after = round_trip();
    println!(
        "  a cache line's round trip between two threads: {:.0} ns before, {:.0} ns after \
         (a shared tree pays it wherever both threads write)",
        trip_before.as_secs_f64() * 1e9,
        trip_after.as_secs_f64() * 1e9
    );
    report.target(
        &format!("MCTS playouts/s on {name}, 2 threads over 1"),
        one.as_secs_f64() / two.as_secs_f64(),
        false,
        1.6,
    );
}
