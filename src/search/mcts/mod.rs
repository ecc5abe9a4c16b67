//! Monte Carlo tree search over the same [`Game`] trait as alpha-beta, for games with no
//! good evaluation: UCT (Kocsis and Szepesvári 2006) with uniform random playouts through
//! the game's own `moves`, `play`, `undo` and `outcome`; score-bounded MCTS (Cazenave and
//! Saffidine 2011), which with win/draw/loss rewards is MCTS-Solver (Winands, Björnsson
//! and Saito 2008): final positions propagate as proofs, and a proven root ends the
//! search. A chance position is a node of its own whose outcomes are drawn by their
//! weights (closed loop, as OpenSpiel's MCTS keeps them), and whose proven bounds are its
//! outcomes' weighted by their probabilities, so that small dice games are solved
//! exactly. Written from those papers' descriptions.
//!
//! Rewards are MAX's, in [0, 1]: by default a win 1, a draw 0.5, a loss 0 (the score's
//! sign); with [`Reward::Scaled`] the score itself, scaled by the game's bounds. The
//! result speaks for the side to move at the root.
//!
//! `mod.rs` holds the options, the result and the persistent search object; `tree.rs`
//! the tree; `iterate.rs` one iteration (selection by UCT, or PUCT with the game's
//! priors; expansion, playout, update); `shared.rs` and `parallel.rs` the search on
//! threads (tree parallelisation with virtual loss, Chaslot, Winands and van den Herik
//! 2008); the playouts draw from `search/rng.rs`, which the other families share.
//!
//! ```
//! use minimax::search::{Game, GameError, Move};
//! use minimax::search::mcts::{Mcts, MctsOptions};
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
//! }
//!
//! let mut game = Sticks { left: 7, max_to_move: true };
//! let mut opts = MctsOptions { playouts: 5_000, ..MctsOptions::default() };
//! let r = Mcts::new().search(&mut game, &mut opts).unwrap();
//! assert_eq!(r.best_move, Some(1));   // leave a multiple of 3
//! assert!(r.proven.is_some());        // the solver proves the win
//! ```

mod iterate;
mod parallel;
mod shared;
mod tree;

use crate::search::clock::Instant;
use std::sync::atomic::AtomicI32;
use std::time::Duration;

use crate::search::game::{Fork, Game, GameError, Move, ScoreView, first_move};
use crate::search::options::FewerThreads;
use crate::search::rng::Rng;
use crate::search::team::resolve_threads;
use crate::search::value::check_score;
use tree::{Nodes, Tree};

/// How a final score (or a cut-off playout's evaluation) becomes MAX's reward.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reward {
    /// The score's sign: a win 1, a draw 0.5, a loss 0. A cut-off playout's evaluation
    /// `e` gives `1 / (1 + exp(-e / scale))`.
    Sign {
        /// The evaluation that counts as a 73% chance of winning.
        scale: f64,
    },
    /// The score scaled into [0, 1] by the game's `bounds` (needed: else
    /// [`GameError::NeedsBounds`]); an evaluation the same way, clamped. Proofs are then
    /// exact scores.
    Scaled,
}

/// How to search.
pub struct MctsOptions<'a> {
    /// Stop after this many playouts in one call of [`Mcts::search`] (0: until the root is
    /// proven, the tree is full, 100,000 playouts in a row add no node, or another limit).
    pub playouts: u64,
    /// The most nodes the tree holds: when full, it stops growing and the search goes on
    /// in the tree it has ([`MctsResult::tree_full`]). Each node takes 72 bytes; a
    /// search on threads copies the tree into a shared one and back, so holds it twice
    /// while it copies. Memory that cannot be had is the same as a full tree: the shared
    /// tree takes the most room up to this that the system gives (halving from it), and
    /// without memory to copy all of it back, the root and its children are kept.
    pub max_nodes: usize,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// Stop when another thread stores a non-zero value here.
    pub stop: Option<&'a AtomicI32>,
    /// The exploration constant of UCT: `mean + c * sqrt(ln(parent visits) / visits)`.
    pub exploration: f64,
    /// How final scores become rewards.
    pub reward: Reward,
    /// End a playout after this many plies and score it by `evaluate` (0: play to the
    /// end).
    pub playout_depth: u32,
    /// Whether MAX moves at the root, for games without `max_to_move`.
    pub max_at_root: bool,
    /// The seed of the playouts' generator, at the start of each search: one thread and
    /// one seed give one result.
    pub seed: u64,
    /// Called every `report_every` playouts (0: never), on the calling thread.
    pub progress: Option<&'a mut dyn FnMut(&MctsProgress)>,
    /// How often `progress` is called, in playouts.
    pub report_every: u64,
    /// Threads for [`Mcts::search_parallel`] (0: one per available core; at most
    /// [`MAX_THREADS`](crate::search::MAX_THREADS)). [`Mcts::search`] runs on one.
    pub threads: usize,
    /// Open loop at chance steps: the outcomes are drawn on the way down and are not
    /// nodes, so that a node below a chance step stands for every position the draws lead
    /// to (it proves nothing, and its value mixes theirs). The default, closed loop,
    /// keeps each outcome as a node and converges to the expected value; open loop can
    /// play better on games with many outcomes and few playouts (2048: docs/mcts.md).
    pub open_loop: bool,
}

impl Default for MctsOptions<'_> {
    fn default() -> Self {
        MctsOptions {
            playouts: 10_000,
            max_nodes: 1 << 22,
            time_limit: None,
            stop: None,
            exploration: std::f64::consts::SQRT_2,
            reward: Reward::Sign { scale: 1.0 },
            playout_depth: 0,
            max_at_root: true,
            seed: 0x5EED,
            progress: None,
            report_every: 0,
            threads: 1,
            open_loop: false,
        }
    }
}

/// A progress report.
#[derive(Debug, Clone, Copy)]
pub struct MctsProgress {
    /// Playouts so far in this search.
    pub playouts: u64,
    /// Nodes in the tree.
    pub nodes: u64,
    /// The move with the most visits so far.
    pub best_move: Option<Move>,
    /// Its mean reward, for the side to move at the root.
    pub value: f64,
    /// Time since the search was called.
    pub elapsed: Duration,
}

/// What the search knows of one move at the root.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// How often the search chose it.
    pub visits: u64,
    /// Its mean reward, for the side to move at the root (0 when not visited).
    pub mean: f64,
    /// Its proven reward for the side to move at the root, if proven.
    pub proven: Option<f64>,
}

/// A proof of the root's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Proof {
    /// The reward of best play for the side to move at the root: 1 a win, 0.5 a draw
    /// (with sign rewards), 0 a loss.
    pub reward: f64,
    /// The exact score in MAX's view, where the proof gives one: a draw (0) with sign
    /// rewards, any score with scaled rewards.
    pub score: Option<i32>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct MctsResult {
    /// The best move: a proven win if there is one, else the most visited (`None` only if
    /// the root is over).
    pub best_move: Option<Move>,
    /// The best move's mean reward (or proven reward), for the side to move at the root.
    pub value: f64,
    /// Set when the root's value is proven.
    pub proven: Option<Proof>,
    /// Every root move the tree holds, in the game's order.
    pub root: Vec<MoveStats>,
    /// Playouts in this search.
    pub playouts: u64,
    /// Nodes in the tree at the end.
    pub nodes: u64,
    /// The deepest tree node below the root.
    pub depth: u32,
    /// How long the search took.
    pub elapsed: Duration,
    /// Threads that searched.
    pub threads: usize,
    /// Why fewer threads searched than [`MctsOptions::threads`] asked for.
    pub fewer_threads: Option<FewerThreads>,
    /// Set when the tree reached `max_nodes` and stopped growing.
    pub tree_full: bool,
}

/// A search that keeps its tree between moves: [`Mcts::advance`] keeps the subtree of
/// the move played, so that the next search starts from what this one learnt.
#[derive(Default)]
pub struct Mcts {
    tree: Tree,
}

impl Mcts {
    /// A search with an empty tree.
    pub fn new() -> Mcts {
        Mcts::default()
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Searches `game` from its current position, which must be the position of the tree's
    /// root: the position of the last search, with the moves given to `advance` since
    /// played (else call [`Mcts::clear`] first). A tree whose root has another side to
    /// move, or another hash where the game has `hash`, is cleared. The game is left as
    /// it was found. One thread and one seed give one result. Options that are not valid
    /// are an error: [`GameError::BadExploration`], [`GameError::BadEvalScale`].
    pub fn search<G: Game>(
        &mut self,
        game: &mut G,
        opts: &mut MctsOptions<'_>,
    ) -> Result<MctsResult, GameError> {
        let start = Instant::now();
        let convert = self.prepare(game, opts)?;
        let (playouts, full) = alone(&mut self.tree, game, opts, convert, start)?;
        let fewer = (resolve_threads(opts.threads) > 1).then_some(FewerThreads::NotParallel);
        self.answer(game, playouts, full, (1, fewer), start, convert)
    }

    /// [`Mcts::search`] on `opts.threads` threads, sharing the tree (tree
    /// parallelisation with virtual loss, Chaslot et al. 2008), each on its own copy of
    /// the game from [`Fork`]. Playouts, limits and the stop flag count for the whole
    /// search; progress is reported on the caller's thread. Runs on threads vary with
    /// their timing. Without a copy, a system thread or memory for the shared tree, the
    /// search runs on fewer threads and the result's `fewer_threads` says why. If a
    /// search on threads fails, the tree is cleared. A panic in a method of the game
    /// reaches the caller once every thread has stopped; where it was raised on the
    /// caller's thread, the caller's game is left in the middle of a line, as in
    /// [`search_parallel`](crate::search::search_parallel).
    pub fn search_parallel<G: Game + Fork + Send + 'static>(
        &mut self,
        game: &mut G,
        opts: &mut MctsOptions<'_>,
    ) -> Result<MctsResult, GameError> {
        let start = Instant::now();
        let convert = self.prepare(game, opts)?;
        let threads = resolve_threads(opts.threads);
        let o = parallel::search(&mut self.tree, game, opts, threads, convert, start)?;
        self.answer(
            game,
            o.playouts,
            o.full,
            (o.threads, o.fewer),
            start,
            convert,
        )
    }

    /// Checks the options and the root, and makes the tree's root this position.
    fn prepare<G: Game>(
        &mut self,
        game: &mut G,
        opts: &MctsOptions<'_>,
    ) -> Result<Convert, GameError> {
        if !(opts.exploration >= 0.0 && opts.exploration.is_finite()) {
            return Err(GameError::BadExploration);
        }
        if let Reward::Sign { scale } = opts.reward {
            if !(scale > 0.0 && scale.is_finite()) {
                return Err(GameError::BadEvalScale);
            }
        }
        if game.is_chance() {
            return Err(GameError::ChanceRoot);
        }
        let convert = Convert::of(game, opts.reward)?;
        let root_max = game.max_to_move().unwrap_or(opts.max_at_root);
        self.find_root(game, root_max)?;
        Ok(convert)
    }

    /// Makes the tree's root this position. A kept tree whose root is a chance node (after
    /// `advance` with a move that leads to a draw) keeps the outcome whose hash is the
    /// position's, where the game has a hash. A root with another side to move, another
    /// hash, or a move the game does not list here (one `moves` call) is cleared rather
    /// than trusted.
    fn find_root<G: Game>(&mut self, game: &mut G, root_max: bool) -> Result<(), GameError> {
        let game_hash = game.hash();
        let hash = game_hash.unwrap_or(0);
        if self.tree.root().is_some_and(|r| r.chance) {
            let nodes = &self.tree.nodes;
            let drawn = game_hash.and_then(|h| {
                let same = |&c: &u32| nodes[c as usize].hash == h;
                self.tree.children(0).find(same)
            });
            if !drawn.is_some_and(|child| self.tree.keep_subtree(child)) {
                self.tree.nodes.clear();
            }
        }
        // (An open root, kept after a draw with open loop, stood for many positions.)
        let mut keep = self
            .tree
            .root()
            .is_some_and(|r| !r.open && r.max_to_move == root_max && r.hash == hash);
        if keep && self.tree.nodes[0].first_child != tree::NONE {
            let mut moves = Vec::new();
            let room = self.tree.nodes[0].children as usize;
            moves
                .try_reserve(room)
                .map_err(|_| GameError::OutOfMemory)?;
            game.moves(&mut moves)?;
            keep = self
                .tree
                .children(0)
                .all(|c| moves.contains(&self.tree.mv(c)));
        }
        if !keep && !self.tree.reset(root_max, hash) {
            return Err(GameError::OutOfMemory);
        }
        Ok(())
    }

    /// The result of a search that made `playouts`.
    fn answer<G: Game>(
        &self,
        game: &mut G,
        playouts: u64,
        tree_full: bool,
        (threads, fewer_threads): (usize, Option<FewerThreads>),
        start: Instant,
        convert: Convert,
    ) -> Result<MctsResult, GameError> {
        let mut result = self.result(playouts, tree_full, start, convert)?;
        (result.threads, result.fewer_threads) = (threads, fewer_threads);
        if result.best_move.is_none() && game.outcome().is_none() {
            // Stopped before a root move had a node: still a legal move.
            result.best_move = Some(first_move(game)?);
        }
        Ok(result)
    }

    /// Keeps the subtree of `mv` (a move from the root, as played in the game) as the new
    /// tree; a move the tree does not hold clears it. After a move that leads to a chance
    /// step, give the outcome drawn too; or let the next search find it by the game's
    /// hash (without a hash, the tree is then cleared).
    pub fn advance(&mut self, mv: Move) {
        let kept = match self.tree.root().and_then(|_| self.tree.child(0, mv)) {
            Some(child) => self.tree.keep_subtree(child),
            None => false,
        };
        if !kept {
            self.tree.nodes.clear();
        }
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.tree.nodes.clear();
    }

    fn result(
        &self,
        playouts: u64,
        tree_full: bool,
        start: Instant,
        convert: Convert,
    ) -> Result<MctsResult, GameError> {
        let root = &self.tree.nodes[0];
        // The side to move's reward from MAX's.
        let side = |r: f64| if root.max_to_move { r } else { 1.0 - r };
        let mut stats = Vec::new();
        let room = root.children as usize;
        stats
            .try_reserve_exact(room)
            .map_err(|_| GameError::OutOfMemory)?;
        for c in self.tree.children(0) {
            let n = &self.tree.nodes[c as usize];
            stats.push(MoveStats {
                mv: n.mv,
                visits: n.visits as u64,
                mean: if n.visits > 0 {
                    side(n.sum / n.visits as f64)
                } else {
                    0.0
                },
                proven: iterate::proven(n.lo, n.hi).then(|| side(n.lo)),
            });
        }
        let proven = iterate::proven(root.lo, root.hi).then(|| Proof {
            reward: side(root.lo),
            score: convert.score_of(root.lo),
        });
        // The first move proving the root's value, else the most visits, then the best
        // mean.
        let proves_root = |s: &&MoveStats| proven.is_some_and(|p| s.proven == Some(p.reward));
        let best = stats
            .iter()
            .find(proves_root)
            .or_else(|| {
                let by_visits = |a: &&MoveStats, b: &&MoveStats| {
                    a.visits.cmp(&b.visits).then(a.mean.total_cmp(&b.mean))
                };
                stats.iter().max_by(by_visits)
            })
            .copied();
        let value = match (proven, best) {
            (Some(p), _) => p.reward,
            (None, Some(b)) => b.proven.unwrap_or(b.mean),
            (None, None) => 0.0,
        };
        Ok(MctsResult {
            best_move: best.map(|b| b.mv),
            value,
            proven,
            root: stats,
            playouts,
            nodes: self.tree.nodes.len() as u64,
            depth: self.depth(),
            elapsed: start.elapsed(),
            threads: 1,
            fewer_threads: None,
            tree_full,
        })
    }

    /// The deepest node below the root: each node's depth is its parent's plus one,
    /// found by walking up to a node whose depth is known (a parent comes before its
    /// children but after a search on threads, so the walk is short where it does not).
    fn depth(&self) -> u32 {
        let nodes = &self.tree.nodes;
        let (mut depth, mut up) = (Vec::new(), Vec::new());
        if depth.try_reserve_exact(nodes.len()).is_err() || up.try_reserve(nodes.len()).is_err() {
            // No memory for the depths and the path up: walk up from every node instead.
            let up = |mut k: usize| {
                let mut d = 0;
                while nodes[k].parent != tree::NONE {
                    (k, d) = (nodes[k].parent as usize, d + 1);
                }
                d
            };
            return (0..nodes.len()).map(up).max().unwrap_or(0);
        }
        depth.resize(nodes.len(), u32::MAX);
        if let Some(root) = depth.first_mut() {
            *root = 0;
        }
        for i in 0..nodes.len() {
            let mut k = i;
            while depth[k] == u32::MAX {
                up.push(k);
                k = nodes[k].parent as usize;
            }
            let mut d = depth[k];
            while let Some(k) = up.pop() {
                d += 1;
                depth[k] = d;
            }
        }
        depth.into_iter().max().unwrap_or(0)
    }
}

/// One thread's search of `tree`: its playouts and whether the tree filled up.
fn alone<G: Game>(
    tree: &mut Tree,
    game: &mut G,
    opts: &mut MctsOptions<'_>,
    convert: Convert,
    start: Instant,
) -> Result<(u64, bool), GameError> {
    let mut rng = Rng::new(opts.seed);
    iterate::Run::new(game, tree, None, &mut rng, opts, convert).search(start)
}

/// Searches `game` once with a fresh tree: [`Mcts::search`] without keeping the tree.
pub fn mcts<G: Game>(game: &mut G, opts: &mut MctsOptions<'_>) -> Result<MctsResult, GameError> {
    Mcts::new().search(game, opts)
}

/// How the game's scores become MAX's rewards, fixed at the root.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Convert {
    side_view: bool,
    reward: Reward,
    /// The game's bounds, for scaled rewards.
    bounds: (f64, f64),
}

impl Convert {
    fn of<G: Game>(game: &mut G, reward: Reward) -> Result<Convert, GameError> {
        let side_view = game.score_view() == ScoreView::SideToMove;
        let bounds = match (reward, game.bounds()) {
            (Reward::Scaled, None) => return Err(GameError::NeedsBounds),
            (Reward::Scaled, Some((lo, hi))) if lo >= hi => return Err(GameError::BadBounds),
            (_, Some((lo, hi))) => (lo as f64, hi as f64),
            (_, None) => (0.0, 0.0),
        };
        Ok(Convert {
            side_view,
            reward,
            bounds,
        })
    }

    /// A score of the game's in MAX's view, checked as the engine checks it.
    fn max_view(&self, score: i32, max_to_move: bool) -> Result<f64, GameError> {
        check_score(score)?;
        let s = score as f64;
        Ok(if self.side_view && !max_to_move {
            -s
        } else {
            s
        })
    }

    /// MAX's reward for a final position of `score`. With scaled rewards the root's
    /// bounds are the reward's scale: a final score outside them is the game's error.
    pub(crate) fn final_reward(&self, score: i32, max_to_move: bool) -> Result<f64, GameError> {
        let s = self.max_view(score, max_to_move)?;
        let (lo, hi) = self.bounds;
        if self.reward == Reward::Scaled && (s < lo || s > hi) {
            return Err(GameError::ScoreOutsideBounds);
        }
        Ok(match self.reward {
            // (Not `f64::signum`, which is 1 for a draw's 0.)
            Reward::Sign { .. } => match s.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Less) => 0.0,
                _ => 0.5,
            },
            Reward::Scaled => self.scaled(s),
        })
    }

    /// MAX's reward for a playout cut off at a position evaluated `e`.
    pub(crate) fn eval_reward(&self, e: i32, max_to_move: bool) -> Result<f64, GameError> {
        let e = self.max_view(e, max_to_move)?;
        Ok(match self.reward {
            Reward::Sign { scale } => 1.0 / (1.0 + (-e / scale).exp()),
            Reward::Scaled => self.scaled(e),
        })
    }

    fn scaled(&self, s: f64) -> f64 {
        let (lo, hi) = self.bounds;
        ((s - lo) / (hi - lo)).clamp(0.0, 1.0)
    }

    /// The exact score (MAX's view) a proven reward stands for, where it stands for one.
    fn score_of(&self, reward: f64) -> Option<i32> {
        match self.reward {
            Reward::Sign { .. } => (reward == 0.5).then_some(0),
            // (Through chance nodes a proof is an expected score, often not a whole one.)
            Reward::Scaled => {
                let (lo, hi) = self.bounds;
                let score = lo + reward * (hi - lo);
                ((score - score.round()).abs() < 1e-6).then(|| score.round() as i32)
            }
        }
    }
}
