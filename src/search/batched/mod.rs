//! Monte Carlo tree search whose leaves are evaluated in batches by a learned evaluator
//! (a neural network's value and move logits), as AlphaZero searches: many games at once,
//! each with its own tree, every evaluator call filled from all of them, several leaves
//! of one tree in a call spread by virtual loss. The root chooses by PUCT with optional
//! Dirichlet noise, or by Gumbel noise and Sequential Halving; the result gives the
//! policy target for training and the move to play. Final positions are proven (MCTS-Solver,
//! Winands, Björnsson and Saito 2008) and never sent to the evaluator; a proven root ends
//! its game's search. Chance steps are nodes whose outcomes are drawn by their weights.
//!
//! `mod.rs` holds the traits, options and results; `tree.rs` a game's tree;
//! `policies.rs` how a node chooses (PUCT, noise, Gumbel, temperature); `search.rs` the
//! loop that gathers a batch, calls the evaluator, expands and backs up.
//!
//! ```
//! use minimax::search::{Game, GameError, Move};
//! use minimax::search::batched::{BatchedMcts, BatchedOptions, Encode};
//!
//! /// Take 1 or 2 sticks; whoever takes the last stick wins.
//! struct Sticks { left: i64, max_to_move: bool }
//!
//! impl Game for Sticks {
//!     fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
//!         out.extend((1..=2).filter(|&n| n <= self.left));
//!         Ok(())
//!     }
//!     fn play(&mut self, n: Move) { self.left -= n; self.max_to_move = !self.max_to_move; }
//!     fn undo(&mut self, n: Move) { self.left += n; self.max_to_move = !self.max_to_move; }
//!     fn outcome(&mut self) -> Option<i32> {
//!         (self.left == 0).then(|| if self.max_to_move { -1 } else { 1 })
//!     }
//!     fn evaluate(&mut self) -> i32 { 0 }
//!     fn max_to_move(&mut self) -> Option<bool> { Some(self.max_to_move) }
//! }
//!
//! impl Encode for Sticks {
//!     fn observation_size(&self) -> usize { 1 }
//!     fn action_count(&self) -> usize { 2 }
//!     fn observe(&mut self, out: &mut [f32]) { out[0] = self.left as f32; }
//!     fn action_index(&mut self, n: Move) -> usize { n as usize - 1 }
//! }
//!
//! // An evaluator that knows nothing: value 0, equal logits.
//! let mut know_nothing = |_obs: &[f32], values: &mut [f32], logits: &mut [f32]| {
//!     values.fill(0.0);
//!     logits.fill(0.0);
//!     Ok(())
//! };
//! let mut games = vec![Sticks { left: 7, max_to_move: true }, Sticks { left: 5, max_to_move: true }];
//! let opts = BatchedOptions { simulations: 200, ..BatchedOptions::default() };
//! let results = BatchedMcts::new().search(&mut games, &mut know_nothing, &opts).unwrap();
//! assert_eq!(results[0].best_move, Some(1)); // leave 6, a multiple of 3
//! assert_eq!(results[1].best_move, Some(2)); // leave 3
//! assert_eq!(results[0].proven, Some(1.0));  // the solver proves both wins
//! ```

#[cfg(feature = "onnx")]
pub mod onnx;
mod parallel;
mod policies;
mod search;
mod tree;

#[cfg(feature = "onnx")]
pub use onnx::{OnnxError, OnnxEvaluator};
pub use policies::{Gumbel, Puct};

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use crate::search::game::{Game, GameError, Move};
use crate::search::options::FewerThreads;
use crate::search::team::resolve_threads;
use tree::Tree;

/// A game whose positions an evaluator can read: a fixed-size encoding of the position
/// and a fixed action space that every legal move has a place in.
pub trait Encode: Game {
    /// Floats in one position's encoding.
    fn observation_size(&self) -> usize;
    /// Actions in the action space: the evaluator gives a logit for each.
    fn action_count(&self) -> usize;
    /// Writes the position's encoding to `out` (`observation_size` floats, zeros).
    fn observe(&mut self, out: &mut [f32]);
    /// The index in the action space of `mv`, one of the position's legal moves: below
    /// `action_count` and different for each legal move ([`GameError::BadActionIndex`]
    /// else).
    fn action_index(&mut self, mv: Move) -> usize;
    /// The indices of `moves` (the position's legal moves, as `moves` listed them), in
    /// their order, added to `out`: by default [`Encode::action_index`] for each. A game
    /// whose calls cost much (a Python game's) answers in one.
    fn action_indices(&mut self, moves: &[Move], out: &mut Vec<usize>) {
        for &mv in moves {
            out.push(self.action_index(mv));
        }
    }
    /// Whether the side to move has one of `moves` that wins at once, if the game knows
    /// it cheaper than playing each ([`BatchedOptions::decisive`]); `None` (the default):
    /// each is played, its `outcome` asked and taken back.
    fn wins_at_once(&mut self, moves: &[Move]) -> Option<bool> {
        let _ = moves;
        None
    }
}

/// What evaluates the positions: given a batch of encodings (`observations`, one after
/// the other), writes for each a value (the side to move's view, in [-1, 1]) to `values`
/// and a logit for each action to `logits` (`action_count` a position; the logits of
/// illegal moves are ignored). `values.len()` is the batch's size. An error stops the
/// search with it (an evaluator's own failure: [`GameError::EvaluatorFailed`]).
pub trait Evaluator {
    /// Evaluates one batch.
    fn evaluate(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> Result<(), GameError>;

    /// Told before a search's first call how many threads the search runs on; their
    /// helpers wait while the evaluator runs, so one that can split a batch may use as
    /// many (the `onnx` feature's `OnnxEvaluator` does). Ignored by default.
    fn share_threads(&mut self, threads: usize) {
        let _ = threads;
    }
}

impl<F> Evaluator for F
where
    F: FnMut(&[f32], &mut [f32], &mut [f32]) -> Result<(), GameError>,
{
    fn evaluate(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> Result<(), GameError> {
        self(observations, values, logits)
    }
}

/// How the root chooses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RootPolicy {
    /// PUCT, as every node; with `noise`, Dirichlet noise on the root's priors.
    Puct {
        /// `(alpha, fraction)`: AlphaZero's chess used (0.3, 0.25); Connect Four's
        /// ten or so moves suit alpha near 1.
        noise: Option<(f64, f64)>,
    },
    /// Gumbel noise on the logits and Sequential Halving among the best `considered`
    /// root moves; the completed-Q policy below the root.
    Gumbel(Gumbel),
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatchedOptions {
    /// Simulations (evaluated or proven leaves below the root) per game and search; a
    /// root not yet evaluated is evaluated first, outside this count (as mctx counts).
    pub simulations: u32,
    /// The most positions in one evaluator call.
    pub batch_size: usize,
    /// The most leaves one game's tree adds to a call (spread by virtual loss): 1 takes
    /// one leaf per game per call, as mctx does; more fill a call from fewer games.
    pub leaves_per_tree: usize,
    /// PUCT's constants (every node under [`RootPolicy::Puct`]).
    pub puct: Puct,
    /// The root's choice.
    pub root: RootPolicy,
    /// The move played: the most visited at 0, else drawn by `visits^(1 / temperature)`
    /// (Gumbel plays the move Sequential Halving leaves, whatever this is).
    pub temperature: f64,
    /// The nodes one tree may hold: at that size its leaves are evaluated and backed up
    /// but not expanded ([`BatchedResult::tree_full`]).
    pub max_nodes: usize,
    /// Whether MAX moves at the root, for games without `max_to_move`.
    pub max_at_root: bool,
    /// Decisive moves (Teytaud and Teytaud 2010, "On the huge benefit of decisive moves
    /// in Monte-Carlo tree search algorithms"): before a leaf below the root goes to the
    /// evaluator, each of its moves is played to see whether it wins at once; if one does,
    /// the leaf is proven won and never sent. It costs a `play`, `outcome` and `undo` a
    /// move at each leaf, and finds the losses that come a move later, which averaged
    /// values see late. On by default: without it PUCT and Gumbel can play a move lost at
    /// once where another holds (docs/batched.md has the counts and the cost).
    pub decisive: bool,
    /// The seed of the noise and the temperature's draws, at the start of each search
    /// (each game draws from its own stream, from this seed and its place).
    pub seed: u64,
    /// Threads for [`BatchedMcts::search_parallel`]: the games are shared among them
    /// (at most one a game), and the evaluator is called on the caller's thread. 0 is one
    /// per core; at most [`MAX_THREADS`](crate::search::MAX_THREADS).
    pub threads: usize,
}

impl Default for BatchedOptions {
    fn default() -> Self {
        BatchedOptions {
            simulations: 800,
            batch_size: 256,
            leaves_per_tree: 8,
            puct: Puct::default(),
            root: RootPolicy::Puct { noise: None },
            temperature: 0.0,
            max_nodes: 1 << 20,
            max_at_root: true,
            decisive: true,
            seed: 0x5EED,
            threads: 1,
        }
    }
}

impl BatchedOptions {
    /// The most leaves one evaluator call can hold for `games` games: `batch_size`, or
    /// fewer where every game's `leaves_per_tree` fit in fewer (a batch is allocated at
    /// this size, not at `batch_size`).
    pub fn batch_room(&self, games: usize) -> usize {
        self.batch_size
            .min(games.saturating_mul(self.leaves_per_tree))
            .max(1)
    }

    /// [`GameError::BadBatchOptions`] if an option is out of its range (as
    /// [`BatchedMcts::search`] checks them).
    pub fn check(&self) -> Result<(), GameError> {
        let positive = |x: f64| x > 0.0 && x.is_finite();
        let ok = self.simulations > 0
            && self.batch_size > 0
            && self.leaves_per_tree > 0
            && self.max_nodes > 0
            && positive(self.puct.init)
            && positive(self.puct.base)
            && self.temperature >= 0.0
            && self.temperature.is_finite()
            && match self.root {
                RootPolicy::Puct { noise: None } => true,
                RootPolicy::Puct {
                    noise: Some((alpha, fraction)),
                } => positive(alpha) && (0.0..=1.0).contains(&fraction),
                RootPolicy::Gumbel(g) => {
                    g.considered >= 2 && positive(g.c_visit) && positive(g.c_scale)
                }
            };
        if ok {
            Ok(())
        } else {
            Err(GameError::BadBatchOptions)
        }
    }
}

/// What the search knows of one root move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its index in the action space.
    pub action: usize,
    /// Its probability under the evaluator's policy.
    pub prior: f64,
    /// Visits.
    pub visits: u32,
    /// Its mean value for the side to move at the root (0 unvisited).
    pub q: f64,
    /// Its proven value for the side to move at the root (1, 0, -1), if proven.
    pub proven: Option<f64>,
    /// Its share of the policy target.
    pub policy: f64,
}

/// One game's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchedResult {
    /// The move to play (`None` only if the game is over): a proven win if there is one,
    /// else Gumbel's choice, else drawn by temperature.
    pub best_move: Option<Move>,
    /// The root's value for its side to move: its proof, else the mean over its visits.
    pub value: f64,
    /// The root's proven value (1, 0, -1), if proven.
    pub proven: Option<f64>,
    /// Every root move, in the game's order.
    pub root: Vec<RootMove>,
    /// The policy target over the action space (`action_count` values summing to 1):
    /// the visit shares under PUCT, the completed-Q policy under Gumbel.
    pub policy: Vec<f32>,
    /// Simulations made for this game in this search.
    pub simulations: u32,
    /// Set when the tree reached `max_nodes`.
    pub tree_full: bool,
    /// The threads the search ran on (the same in every game's result).
    pub threads: usize,
    /// Why it ran on fewer threads than `threads` asked for (other than there being
    /// fewer games), if it did.
    pub fewer_threads: Option<FewerThreads>,
}

/// Searches that keep one tree per game between moves: [`BatchedMcts::advance`] keeps
/// the subtree of a move played.
#[derive(Default)]
pub struct BatchedMcts {
    trees: Vec<Tree>,
    /// Evaluator calls and positions sent, over the object's life.
    calls: u64,
    positions: u64,
}

impl BatchedMcts {
    /// An object with no trees yet.
    pub fn new() -> BatchedMcts {
        BatchedMcts::default()
    }

    /// Searches each of `games` from its position, filling each call of `evaluator` from
    /// all of them, and leaves them as they were. The i-th game keeps the i-th tree
    /// where its root is the game's position: the same hash (a game with `hash`), or,
    /// for a game without, `advance` called since the last search; any other tree is
    /// made afresh. Fewer games than the object has trees search the first trees and
    /// leave the others as they are.
    pub fn search<G: Encode, E: Evaluator + ?Sized>(
        &mut self,
        games: &mut [G],
        evaluator: &mut E,
        opts: &BatchedOptions,
    ) -> Result<Vec<BatchedResult>, GameError> {
        let fewer = (resolve_threads(opts.threads) > 1).then_some(FewerThreads::NotParallel);
        evaluator.share_threads(1);
        self.searched(games, opts, |trees, games| {
            let (results, calls, positions) = search::run(trees, games, evaluator, opts)?;
            Ok((results, calls, positions, 1, fewer))
        })
    }

    /// [`BatchedMcts::search`] on `opts.threads` threads: the games are cut into as many
    /// shares, and each step every thread gathers and expands leaves of a share at a time;
    /// the evaluator is called on the caller's thread, one call a step for all. The
    /// results are those of `search` wherever a call has room for every game's leaves
    /// (`batch_size` at least the games times `leaves_per_tree`). Without a system thread
    /// or memory for one, the shares are searched by fewer threads (`fewer_threads` says
    /// why). A panic in a method of a game reaches the caller once every thread has stopped.
    pub fn search_parallel<G: Encode + Send, E: Evaluator + ?Sized>(
        &mut self,
        games: &mut [G],
        evaluator: &mut E,
        opts: &BatchedOptions,
    ) -> Result<Vec<BatchedResult>, GameError> {
        let threads = resolve_threads(opts.threads);
        self.searched(games, opts, |trees, games| {
            parallel::run(trees, games, evaluator, opts, threads)
        })
    }

    /// Checks the options, makes room for a tree a game, runs `search` on the trees of
    /// `games` and counts its calls; on an error or a panic, clears the trees it used.
    fn searched<G: Encode>(
        &mut self,
        games: &mut [G],
        opts: &BatchedOptions,
        search: impl FnOnce(&mut [Tree], &mut [G]) -> Result<parallel::Outcome, GameError>,
    ) -> Result<Vec<BatchedResult>, GameError> {
        opts.check()?;
        if games.len() > self.trees.len() {
            self.trees
                .try_reserve_exact(games.len() - self.trees.len())
                .map_err(|_| GameError::OutOfMemory)?;
            self.trees.resize_with(games.len(), Tree::default);
        }
        let n = games.len();
        let trees = &mut self.trees[..n];
        let outcome = catch_unwind(AssertUnwindSafe(|| search(trees, games)));
        let outcome = outcome.unwrap_or_else(|panic| {
            // A tree left mid-batch is not trusted again.
            self.trees[..n].iter_mut().for_each(|t| t.nodes.clear());
            resume_unwind(panic)
        });
        match outcome {
            Ok((mut results, calls, positions, threads, fewer)) => {
                self.calls += calls;
                self.positions += positions;
                for r in &mut results {
                    (r.threads, r.fewer_threads) = (threads, fewer);
                }
                Ok(results)
            }
            Err(e) => {
                // A tree left mid-batch is not trusted again.
                self.trees[..n].iter_mut().for_each(|t| t.nodes.clear());
                Err(e)
            }
        }
    }

    /// Keeps the subtree of `mv` (a move from the root of game `game`'s tree, as played)
    /// as that tree; a move or game the object does not hold clears it.
    pub fn advance(&mut self, game: usize, mv: Move) {
        if let Some(tree) = self.trees.get_mut(game) {
            tree.advance(mv);
        }
    }

    /// Games the object holds a tree for: those of the last search.
    pub fn games(&self) -> usize {
        self.trees.len()
    }

    /// Whether the root of game `game`'s tree has a child for `mv` (false for a game the
    /// object does not hold, or a root not expanded): what [`BatchedMcts::advance`] keeps.
    pub fn holds(&self, game: usize, mv: Move) -> bool {
        self.trees.get(game).is_some_and(|t| {
            t.nodes
                .first()
                .is_some_and(|r| r.kids().any(|c| t.nodes[c as usize].mv == mv))
        })
    }

    /// Forgets every tree.
    pub fn clear(&mut self) {
        self.trees.clear();
    }

    /// Nodes in game `game`'s tree.
    pub fn nodes(&self, game: usize) -> usize {
        self.trees.get(game).map_or(0, |t| t.nodes.len())
    }

    /// Evaluator calls and positions sent to it, over the object's life.
    pub fn evaluator_calls(&self) -> (u64, u64) {
        (self.calls, self.positions)
    }
}
