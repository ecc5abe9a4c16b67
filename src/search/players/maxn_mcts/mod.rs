//! Monte Carlo tree search for games of two to eight players with max^n backups
//! (Sturtevant 2008, "An analysis of UCT in multi-player games"; Nijssen and Winands
//! 2011, "Enhancements for multi-player Monte-Carlo Tree Search"): each node keeps a
//! reward for every player, and UCT at a node looks at its own mover's. Chance steps are
//! nodes whose outcomes are drawn by their probabilities. The n-player solver (after
//! Nijssen and Winands' multi-player MCTS-Solver) proves a node once its children allow:
//! its proof is then the max^n value of the rewards, ties to the first move in the
//! game's order, as plain max^n finds it. Threads search trees of their own (root
//! parallelisation, Chaslot, Winands and van den Herik 2008) whose root counts are
//! summed. Written from those papers' descriptions.
//!
//! ```
//! use minimax::search::maxn_mcts::{MaxnMcts, MaxnMctsOptions};
//! use minimax::search::{Game, GameError, Move};
//!
//! /// Three players in turn take 1 or 2 sticks; whoever takes the last one wins.
//! struct Sticks { left: i64, to_move: usize }
//!
//! impl Game for Sticks {
//!     fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
//!         out.extend((1..=2).filter(|&n| n <= self.left));
//!         Ok(())
//!     }
//!     fn play(&mut self, n: Move) { self.left -= n; self.to_move = (self.to_move + 1) % 3; }
//!     fn undo(&mut self, n: Move) { self.left += n; self.to_move = (self.to_move + 2) % 3; }
//!     fn outcome(&mut self) -> Option<i32> { None }
//!     fn evaluate(&mut self) -> i32 { 0 }
//!     fn players(&mut self) -> usize { 3 }
//!     fn player_to_move(&mut self) -> usize { self.to_move }
//!     fn player_scores(&mut self, out: &mut [i32]) -> bool {
//!         if self.left > 0 { return false; }
//!         out[(self.to_move + 2) % 3] = 1; // the player who just moved
//!         true
//!     }
//! }
//!
//! let opts = MaxnMctsOptions { playouts: 2_000, ..MaxnMctsOptions::default() };
//! let r = MaxnMcts::new().search(&mut Sticks { left: 2, to_move: 0 }, &opts).unwrap();
//! assert_eq!(r.best_move, Some(2));                        // take both and win
//! assert_eq!(r.proven, Some(vec![1.0, 0.0, 0.0]));        // proven by the solver
//! ```

mod iterate;
mod tree;

use crate::search::clock::Instant;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32};
use std::time::Duration;

use crate::search::game::{Fork, Game, GameError, Move, first_move};
use crate::search::memory::room;
use crate::search::options::FewerThreads;
use crate::search::player_scores::Convert;
use crate::search::player_scores::Scoring;
use crate::search::pool;
use crate::search::team::{gather, resolve_threads, seats, sit};
use iterate::Run;
use tree::{CHANCE, Tree};

pub use crate::search::player_scores::PlayerReward;

/// How to search.
pub struct MaxnMctsOptions<'a> {
    /// Stop after this many playouts, over every thread (0: until the root is proven,
    /// 100,000 playouts in a row add no node, or another limit).
    pub playouts: u64,
    /// The most nodes a thread's tree holds; when full (or memory is short) the tree
    /// stops growing and the search goes on in it. A node takes 48 bytes and 16 a
    /// player.
    pub max_nodes: usize,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// Stop when another thread stores a non-zero value here.
    pub stop: Option<&'a AtomicI32>,
    /// UCT's exploration constant: `mean + c * sqrt(ln(parent visits) / visits)`.
    pub exploration: f64,
    /// How scores become rewards.
    pub reward: PlayerReward,
    /// End a playout after this many plies and score it by the evaluations (0: play to
    /// the end).
    pub playout_depth: u32,
    /// The seed of the first thread's playouts (each other thread's is derived from it):
    /// one thread and one seed give one result.
    pub seed: u64,
    /// Threads for [`MaxnMcts::search_parallel`] (0: one per available core).
    pub threads: usize,
}

impl Default for MaxnMctsOptions<'_> {
    fn default() -> Self {
        MaxnMctsOptions {
            playouts: 10_000,
            max_nodes: 1 << 21,
            time_limit: None,
            stop: None,
            exploration: std::f64::consts::SQRT_2,
            reward: PlayerReward::Win,
            playout_depth: 0,
            seed: 0x5EED,
            threads: 1,
        }
    }
}

/// What the search knows of one move at the root.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerMoveStats {
    /// The move.
    pub mv: Move,
    /// How often the search chose it, over every thread.
    pub visits: u64,
    /// Each player's mean reward after it (zeros when not visited).
    pub means: Vec<f64>,
    /// Each player's proven reward after it, if proven.
    pub proven: Option<Vec<f64>>,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct MaxnMctsResult {
    /// The move to play: the move that proves the root, else the most visited (then the
    /// best mean for the mover); `None` only if the game is over.
    pub best_move: Option<Move>,
    /// Each player's mean (or proven) reward after the best move.
    pub values: Vec<f64>,
    /// Each player's proven reward at the root, if the solver proved it.
    pub proven: Option<Vec<f64>>,
    /// Every root move the trees hold, in the game's order.
    pub root: Vec<PlayerMoveStats>,
    /// Playouts in this search, over every thread.
    pub playouts: u64,
    /// Nodes in the trees at the end.
    pub nodes: u64,
    /// How long the search took.
    pub elapsed: Duration,
    /// Threads that searched.
    pub threads: usize,
    /// Why fewer threads searched than asked for.
    pub fewer_threads: Option<FewerThreads>,
    /// Set when a tree reached `max_nodes` (or the memory ran short) and stopped growing.
    pub tree_full: bool,
}

/// A search that keeps its trees between moves: [`MaxnMcts::advance`] keeps the subtree
/// of the move played.
#[derive(Default)]
pub struct MaxnMcts {
    /// One tree a thread.
    trees: Vec<Tree>,
}

/// One thread's outcome: playouts and whether its tree filled.
type Outcome = Result<(u64, bool), GameError>;

impl MaxnMcts {
    /// A search with no tree.
    pub fn new() -> MaxnMcts {
        MaxnMcts::default()
    }

    /// Nodes in the trees.
    pub fn nodes(&self) -> usize {
        self.trees.iter().map(|t| t.nodes.len()).sum()
    }

    /// Forgets the trees.
    pub fn clear(&mut self) {
        self.trees.iter_mut().for_each(Tree::clear);
    }

    /// Keeps the subtree of `mv` (a move or chance outcome from the root, as played) in
    /// every tree; a tree that does not hold it, or has no memory to copy it, is
    /// cleared. After a move that leads to a chance step, give the outcome drawn too.
    pub fn advance(&mut self, mv: Move) {
        for tree in &mut self.trees {
            let kept = match tree.root().and_then(|_| tree.child(0, mv)) {
                Some(child) => tree.keep_subtree(child),
                None => false,
            };
            if !kept {
                tree.clear();
            }
        }
    }

    /// Searches `game` from its current position on one thread, with the first tree;
    /// the game is left as it was found. The position must be the tree's root: the
    /// position of the last search with the moves given to `advance` since played (a
    /// root with another mover, or moves the game does not list, is cleared). Options
    /// that are not valid are an error ([`GameError::BadExploration`],
    /// [`GameError::NeedsBounds`]), as is a chance position ([`GameError::ChanceRoot`]).
    pub fn search<G: Game>(
        &mut self,
        game: &mut G,
        opts: &MaxnMctsOptions<'_>,
    ) -> Result<MaxnMctsResult, GameError> {
        let start = Instant::now();
        let convert = prepare(game, opts)?;
        if self.trees.is_empty() {
            room(&mut self.trees, 1)?;
            self.trees.push(Tree::default());
        }
        find_root(&mut self.trees[0], game, convert)?;
        let mut run = Run::new(
            game,
            &mut self.trees[0],
            opts,
            convert,
            opts.seed,
            None,
            opts.playouts,
        );
        let outcome = run.search(start);
        let fewer = (resolve_threads(opts.threads) > 1).then_some(FewerThreads::NotParallel);
        let (playouts, full) = outcome.inspect_err(|_| self.trees[0].clear())?;
        self.answer(game, 1, (playouts, full, fewer), start)
    }

    /// [`MaxnMcts::search`] on `opts.threads` threads, each with a tree of its own and
    /// its own copy of the game from [`Fork`]; the playouts are shared out between them
    /// and their root counts summed; a thread that proves the root stops them all.
    /// Without a copy, a system thread or memory, fewer threads search and the result
    /// says why. A failed search clears the trees; a panic in the game reaches the caller
    /// once every thread has stopped.
    pub fn search_parallel<G: Game + Fork + Send>(
        &mut self,
        game: &mut G,
        opts: &MaxnMctsOptions<'_>,
    ) -> Result<MaxnMctsResult, GameError> {
        let start = Instant::now();
        let convert = prepare(game, opts)?;
        let mut threads = resolve_threads(opts.threads);
        let mut fewer = None;
        if self.trees.len() < threads {
            if self.trees.try_reserve(threads - self.trees.len()).is_err() {
                fewer = Some(FewerThreads::NoMemory);
                room(&mut self.trees, 1)?;
                threads = self.trees.len().max(1);
            }
            while self.trees.len() < threads {
                self.trees.push(Tree::default()); // within the room reserved
            }
        }
        let Some((seats, mut outcomes, shortfall)) = seats::<G, Outcome>(game, threads - 1) else {
            return Err(GameError::OutOfMemory);
        };
        fewer = shortfall.or(fewer);
        let threads = seats.len() + 1;
        for tree in &mut self.trees[..threads] {
            find_root(tree, game, convert)?;
        }
        let share = opts.playouts.div_ceil(threads as u64);
        let seed = |i: usize| {
            opts.seed
                .wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        };
        let team = AtomicBool::new(false);
        let (first, rest) = self.trees.split_at_mut(1);
        let mut cells = Vec::new();
        if cells.try_reserve_exact(threads - 1).is_err() {
            return Err(GameError::OutOfMemory);
        }
        cells.extend(rest[..threads - 1].iter_mut().map(Mutex::new));
        let helper = |i: usize| {
            let work = |copy: &mut G| {
                let mut tree = cells[i - 1].lock().unwrap_or_else(|e| e.into_inner());
                let mut run = Run::new(copy, &mut tree, opts, convert, seed(i), Some(&team), share);
                run.search(start)
            };
            sit(&seats, i, work, |outcome| {
                if !matches!(outcome, Ok(Ok(_))) {
                    team.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            });
        };
        let (here, _, short) = pool::with_helpers(threads - 1, &helper, || {
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let mut run = Run::new(
                    game,
                    &mut first[0],
                    opts,
                    convert,
                    seed(0),
                    Some(&team),
                    share,
                );
                run.search(start)
            }));
            if !matches!(caught, Ok(Ok(_))) {
                team.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            caught
        });
        drop(cells);
        fewer = short.or(fewer);
        if let Err(panic) = gather(here, seats, &mut outcomes) {
            self.clear();
            std::panic::resume_unwind(panic);
        }
        let (mut playouts, mut full) = (0, false);
        for o in &outcomes {
            match o {
                Ok((p, f)) => (playouts, full) = (playouts + p, full || *f),
                Err(e) => {
                    let e = *e;
                    self.clear();
                    return Err(e);
                }
            }
        }
        self.answer(game, outcomes.len(), (playouts, full, fewer), start)
    }

    /// The answer from the first `threads` trees.
    fn answer<G: Game>(
        &self,
        game: &mut G,
        threads: usize,
        (playouts, tree_full, fewer_threads): (u64, bool, Option<FewerThreads>),
        start: Instant,
    ) -> Result<MaxnMctsResult, GameError> {
        let trees = &self.trees[..threads];
        let first = &trees[0];
        let players = first.players;
        let mover = first.root().map_or(0, |r| r.mover as usize);
        let mut root: Vec<PlayerMoveStats> = Vec::new();
        let mut proven = None;
        for t in trees {
            if t.root().is_some_and(|r| r.proven) {
                proven = Some(owned(t.proof(0))?);
            }
            for c in t.children(0) {
                let n = t.node(c);
                let at = match root.iter().position(|s| s.mv == n.mv) {
                    Some(at) => at,
                    None => {
                        room(&mut root, 1)?;
                        let mut zeros = Vec::new();
                        room(&mut zeros, players)?;
                        zeros.resize(players, 0.0);
                        root.push(PlayerMoveStats {
                            mv: n.mv,
                            visits: 0,
                            means: zeros,
                            proven: None,
                        });
                        root.len() - 1
                    }
                };
                let s = &mut root[at];
                // The means weighted by visits, summed over the trees.
                let (was, more) = (s.visits as f64, n.visits as f64);
                if more > 0.0 {
                    for (p, m) in s.means.iter_mut().enumerate() {
                        *m = (*m * was + t.sums(c)[p]) / (was + more);
                    }
                }
                s.visits += n.visits as u64;
                if n.proven && s.proven.is_none() {
                    s.proven = Some(owned(t.proof(c))?);
                }
            }
        }
        for s in &mut root {
            if let Some(p) = &s.proven {
                s.means.clone_from(p);
            }
        }
        let proves = |s: &&PlayerMoveStats| {
            proven
                .as_ref()
                .zip(s.proven.as_ref())
                .is_some_and(|(r, p)| p[mover] == r[mover])
        };
        let by_visits = |a: &&PlayerMoveStats, b: &&PlayerMoveStats| {
            a.visits
                .cmp(&b.visits)
                .then(a.means[mover].total_cmp(&b.means[mover]))
                .then(std::cmp::Ordering::Greater) // the first of equals
        };
        let best = root
            .iter()
            .find(proves)
            .or_else(|| root.iter().rev().max_by(by_visits));
        let mut best_move = best.map(|b| b.mv);
        let values = match best {
            Some(b) => owned(&b.means)?,
            None => Vec::new(),
        };
        let mut scores = [0; crate::search::player_scores::MAX_PLAYERS];
        if best_move.is_none() && !Scoring::of(game, false)?.final_scores(game, 0, &mut scores)? {
            // Stopped before the root had children: still a legal move.
            best_move = Some(first_move(game)?);
        }
        Ok(MaxnMctsResult {
            best_move,
            values,
            proven,
            root,
            playouts,
            nodes: trees.iter().map(|t| t.nodes.len() as u64).sum(),
            elapsed: start.elapsed(),
            threads,
            fewer_threads,
            tree_full,
        })
    }
}

/// A slice of rewards as a vector, or [`GameError::OutOfMemory`].
fn owned(v: &[f64]) -> Result<Vec<f64>, GameError> {
    let mut out = Vec::new();
    room(&mut out, v.len())?;
    out.extend_from_slice(v);
    Ok(out)
}

/// Checks the options and the root: how the search reads scores.
fn prepare<G: Game>(game: &mut G, opts: &MaxnMctsOptions<'_>) -> Result<Convert, GameError> {
    if !(opts.exploration >= 0.0 && opts.exploration.is_finite()) {
        return Err(GameError::BadExploration);
    }
    if game.is_chance() {
        return Err(GameError::ChanceRoot);
    }
    Convert::of(game, opts.reward)
}

/// Makes `tree`'s root this position: a kept root is trusted where its mover is the
/// game's and its children are the game's moves (one `moves` call); else it is cleared.
fn find_root<G: Game>(tree: &mut Tree, game: &mut G, convert: Convert) -> Result<(), GameError> {
    let mover = convert.scoring.mover(game, 0)? as u8;
    let players = convert.scoring.players;
    let mut keep = tree.players == players
        && tree
            .root()
            .is_some_and(|r| r.mover != CHANCE && (!r.expanded || r.mover == mover));
    if keep && tree.root().is_some_and(|r| r.expanded && !r.proven) {
        let mut moves = Vec::new();
        room(&mut moves, tree.children(0).len())?;
        game.moves(&mut moves)?;
        keep = moves.len() == tree.children(0).len()
            && tree.children(0).all(|c| moves.contains(&tree.node(c).mv));
    }
    if !keep && !tree.reset(players, mover) {
        return Err(GameError::OutOfMemory);
    }
    Ok(())
}
