//! Max^n (Luckhardt and Irani, 1986): in a game of two to eight players, the player to
//! move picks the move whose vector of scores is best for itself. With the game's bounds
//! on the scores (each at least `lo`, their sum at most `sum`), shallow pruning (Sturtevant
//! and Korf, 2000, from their description) stops a node once its mover is sure of so much
//! that the parent's mover cannot gain by coming here; deep pruning, which can change the
//! value, is not done. Written from the papers' descriptions.
//!
//! Ties go to the first move (in the game's order) whose score for the mover is highest:
//! with that rule, pruning leaves the value and the move as plain max^n finds them.
//!
//! At a chance step the value is the outcomes' mean vector, weighted by their
//! probabilities (expectimax-n); pruning stops at a chance step and starts again below
//! it. A table (where the game has `hash`) keeps each position's vector at a depth and
//! its best move, tried first at the next iteration.
//!
//! ```
//! use minimax::search::maxn::{self, MaxnOptions};
//! use minimax::search::{Game, GameError, Move};
//!
//! /// Three players in turn take 1 or 2 sticks; whoever takes the last one scores 1.
//! struct Sticks { left: i64, to_move: usize }
//!
//! impl Game for Sticks {
//!     fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
//!         out.extend((1..=2).filter(|&n| n <= self.left));
//!         Ok(())
//!     }
//!     fn play(&mut self, n: Move) { self.left -= n; self.to_move = (self.to_move + 1) % 3; }
//!     fn undo(&mut self, n: Move) { self.left += n; self.to_move = (self.to_move + 2) % 3; }
//!     fn outcome(&mut self) -> Option<i32> { None } // two-player methods only
//!     fn evaluate(&mut self) -> i32 { 0 }
//!     fn players(&mut self) -> usize { 3 }
//!     fn player_to_move(&mut self) -> usize { self.to_move }
//!     fn player_scores(&mut self, out: &mut [i32]) -> bool {
//!         if self.left > 0 { return false; }
//!         out[(self.to_move + 2) % 3] = 1; // the player who just moved
//!         true
//!     }
//!     fn player_bounds(&mut self) -> Option<(i32, i32)> { Some((0, 1)) }
//! }
//!
//! // With 2 sticks left, player 0 takes both and wins.
//! let r = maxn::search(&mut Sticks { left: 2, to_move: 0 }, &MaxnOptions::default()).unwrap();
//! assert_eq!((r.best_move, r.scores, r.proven), (Some(2), vec![1, 0, 0], true));
//! // With 3, whatever player 0 takes, a later player can take the rest: player 1 can
//! // after 1 (player 1 prefers its own win); after 2, player 1 must leave the last to 2.
//! let r = maxn::search(&mut Sticks { left: 3, to_move: 0 }, &MaxnOptions::default()).unwrap();
//! assert_eq!(r.scores[0], 0);
//! ```

mod node;
mod table;

use crate::search::clock::Instant;
use std::sync::atomic::AtomicI32;
use std::time::Duration;

use crate::search::game::{Game, GameError, Move};
use crate::search::limits::Halt;
use crate::search::memory::room;
use crate::search::player_scores::Scoring;
use crate::search::pv::Lines;
use table::Table;

pub use crate::search::player_scores::MAX_PLAYERS;

/// A value for each player: scores, or their expectation where chance steps average them.
type Values = [f64; MAX_PLAYERS];

/// How to search with max^n.
pub struct MaxnOptions<'a> {
    /// The depth limit in plies (a chance step is one); `u32::MAX` searches until the
    /// value is proven.
    pub max_depth: u32,
    /// Search depth 1, 2, ... up to `max_depth`, each iteration trying the last one's
    /// best move first, stopping once the value is proven.
    pub iterative_deepening: bool,
    /// Stop after this many nodes (0: no limit).
    pub node_limit: u64,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// Stop when another thread stores a non-zero value here.
    pub stop: Option<&'a AtomicI32>,
    /// Prune with the game's [`Game::player_bounds`] (default true; false searches every
    /// move, as a check).
    pub shallow_pruning: bool,
    /// The transposition table's size in bytes (mapped lazily); 0 (the default) turns it
    /// off, and so do a game without `hash` and memory that cannot be had. Off by
    /// default: on Rolit and Chinese Checkers, at the depths a clock reaches, it saved
    /// at most 5% of the nodes and no time (docs/performance.md); it pays where
    /// positions meet again well above the leaves and the hash is cheap.
    pub table_bytes: usize,
}

impl Default for MaxnOptions<'_> {
    fn default() -> Self {
        MaxnOptions {
            max_depth: u32::MAX,
            iterative_deepening: true,
            node_limit: 0,
            time_limit: None,
            stop: None,
            shallow_pruning: true,
            table_bytes: 0,
        }
    }
}

/// What a max^n search found.
#[derive(Debug, Clone, PartialEq)]
pub struct MaxnResult {
    /// The move to play, or `None` if the game is already over (or a chance step is
    /// next).
    pub best_move: Option<Move>,
    /// Each player's score (by player index) at the end of the line the players choose,
    /// or at the depth limit by the game's evaluations; where chance steps make it an
    /// expectation, rounded to the nearest integer (`values` holds it exactly).
    pub scores: Vec<i32>,
    /// Each player's value: `scores` as they are, or their expectation over the chance
    /// steps.
    pub values: Vec<f64>,
    /// Whether `scores` is the max^n value at `depth` (false: no iteration finished, and
    /// `scores` is empty).
    pub exact: bool,
    /// Whether the value is the game's true max^n value, every line searched reaching a
    /// final position.
    pub proven: bool,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// The line the players choose, `best_move` first (up to a chance step).
    pub pv: Vec<Move>,
    /// Positions visited, over every iteration.
    pub nodes: u64,
    /// Positions scored: final, or evaluated at the depth limit.
    pub leaves: u64,
    /// Moves left unsearched by pruning.
    pub cutoffs: u64,
    /// Positions whose value the table gave.
    pub table_hits: u64,
    /// The wall time of the call.
    pub elapsed: Duration,
}

/// One search's state.
struct Searcher<'g, 'o, G: Game> {
    game: &'g mut G,
    opts: &'g MaxnOptions<'o>,
    start: Instant,
    players: usize,
    /// How the game's scores are read; its bounds, where pruning is on.
    scoring: Scoring,
    /// Each score's least and the sum's most, when the game gives them and pruning is on.
    bounds: Option<(f64, f64)>,
    table: Option<Table>,
    nodes: u64,
    leaves: u64,
    cutoffs: u64,
    table_hits: u64,
    /// Whether a line below the node being searched stopped at the depth limit.
    horizon: bool,
    /// Chance steps on the path from the root (a player's turn counts moves, not them).
    chance_steps: u32,
    /// The move lists and chance outcomes, one a ply, kept from node to node.
    lists: Vec<Vec<Move>>,
    draws: Vec<Vec<(Move, f64)>>,
    /// The best line below each ply of the path (the root's is the principal variation).
    lines: Lines,
}

/// Searches `game` from its current position with max^n. Misbehaving games give `Err`;
/// limits and the stop flag give the last completed iteration's answer (if none
/// completed: no scores, the first legal move).
pub fn search<G: Game>(game: &mut G, opts: &MaxnOptions<'_>) -> Result<MaxnResult, GameError> {
    let scoring = Scoring::of(game, opts.shallow_pruning)?;
    let players = scoring.players;
    let bounds = scoring.bounds.map(|(lo, sum)| (lo as f64, sum as f64));
    let table = match opts.table_bytes > 0 && game.hash().is_some() {
        true => Table::new(opts.table_bytes),
        false => None,
    };
    let mut s = Searcher {
        game,
        opts,
        start: Instant::now(),
        players,
        scoring,
        bounds,
        table,
        nodes: 0,
        leaves: 0,
        cutoffs: 0,
        table_hits: 0,
        horizon: false,
        chance_steps: 0,
        lists: Vec::new(),
        draws: Vec::new(),
        lines: Lines::default(),
    };
    let mut result = MaxnResult {
        best_move: None,
        scores: Vec::new(),
        values: Vec::new(),
        exact: false,
        proven: false,
        depth: 0,
        pv: Vec::new(),
        nodes: 0,
        leaves: 0,
        cutoffs: 0,
        table_hits: 0,
        elapsed: Duration::ZERO,
    };
    let mut depth = if opts.iterative_deepening {
        1.min(opts.max_depth)
    } else {
        opts.max_depth
    };
    loop {
        s.horizon = false;
        let mut out = [0.0; MAX_PLAYERS];
        let first = result.best_move.unwrap_or(crate::search::game::NO_MOVE);
        match s.node(depth, 0, None, first, &mut out) {
            Ok(()) => {}
            Err(Halt::Limit) => break,
            Err(Halt::Game(e)) => return Err(e),
        }
        result.scores.clear();
        result.values.clear();
        room(&mut result.scores, players)?;
        room(&mut result.values, players)?;
        result.values.extend_from_slice(&out[..players]);
        // Values within i32 (the scores' range, and their means): the cast cannot saturate.
        result
            .scores
            .extend(out[..players].iter().map(|v| v.round() as i32));
        result.exact = true;
        result.proven = !s.horizon;
        result.depth = depth;
        result.pv = s.lines.to_vec(0)?;
        result.best_move = result.pv.first().copied();
        if result.proven || depth >= opts.max_depth {
            break;
        }
        depth += 1;
    }
    if result.best_move.is_none() && !result.exact {
        // No iteration finished: a legal move all the same (none if the game is over or
        // a chance step is next).
        let mut out = [0; MAX_PLAYERS];
        let chance = s.game.is_chance();
        if !chance && !s.scoring.final_scores(s.game, 0, &mut out)? {
            result.best_move = Some(crate::search::game::first_move(s.game)?);
        }
    }
    result.nodes = s.nodes;
    result.leaves = s.leaves;
    result.cutoffs = s.cutoffs;
    result.table_hits = s.table_hits;
    result.elapsed = s.start.elapsed();
    Ok(result)
}
