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

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::game::{Game, GameError, Move, move_first};
use super::limits::Halt;
use super::memory::room;
use super::player_scores::{Scores, Scoring};
use super::pv::Lines;
use super::stack;

pub use super::player_scores::MAX_PLAYERS;

/// How to search with max^n.
pub struct MaxnOptions<'a> {
    /// The depth limit in plies; `u32::MAX` searches until the value is proven.
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
        }
    }
}

/// What a max^n search found.
#[derive(Debug, Clone, PartialEq)]
pub struct MaxnResult {
    /// The move to play, or `None` if the game is already over.
    pub best_move: Option<Move>,
    /// Each player's score (by player index) at the end of the line the players choose,
    /// or at the depth limit by the game's evaluations.
    pub scores: Vec<i32>,
    /// Whether `scores` is the max^n value at `depth` (false: no iteration finished, and
    /// `scores` is empty).
    pub exact: bool,
    /// Whether the value is the game's true max^n value, every line searched reaching a
    /// final position.
    pub proven: bool,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// The line the players choose, `best_move` first.
    pub pv: Vec<Move>,
    /// Positions visited, over every iteration.
    pub nodes: u64,
    /// Positions scored: final, or evaluated at the depth limit.
    pub leaves: u64,
    /// Moves left unsearched by pruning.
    pub cutoffs: u64,
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
    bounds: Option<(i64, i64)>,
    nodes: u64,
    leaves: u64,
    cutoffs: u64,
    /// Whether a line of this iteration stopped at the depth limit.
    horizon: bool,
    /// The move lists, one a ply, kept from node to node.
    lists: Vec<Vec<Move>>,
    /// The best line below each ply of the path (the root's is the principal variation).
    lines: Lines,
}

/// Searches `game` from its current position with max^n. Misbehaving games give `Err`;
/// limits and the stop flag give the last completed iteration's answer (if none
/// completed: no scores, the first legal move).
pub fn search<G: Game>(game: &mut G, opts: &MaxnOptions<'_>) -> Result<MaxnResult, GameError> {
    let scoring = Scoring::of(game, opts.shallow_pruning)?;
    let (players, bounds) = (scoring.players, scoring.bounds);
    let mut s = Searcher {
        game,
        opts,
        start: Instant::now(),
        players,
        scoring,
        bounds,
        nodes: 0,
        leaves: 0,
        cutoffs: 0,
        horizon: false,
        lists: Vec::new(),
        lines: Lines::default(),
    };
    let mut result = MaxnResult {
        best_move: None,
        scores: Vec::new(),
        exact: false,
        proven: false,
        depth: 0,
        pv: Vec::new(),
        nodes: 0,
        leaves: 0,
        cutoffs: 0,
        elapsed: Duration::ZERO,
    };
    let mut depth = if opts.iterative_deepening {
        1.min(opts.max_depth)
    } else {
        opts.max_depth
    };
    loop {
        s.horizon = false;
        let mut out = [0; MAX_PLAYERS];
        let first = result.best_move.unwrap_or(super::game::NO_MOVE);
        match s.node(depth, 0, None, first, &mut out) {
            Ok(()) => {}
            Err(Halt::Limit) => break,
            Err(Halt::Game(e)) => return Err(e),
        }
        result.scores.clear();
        room(&mut result.scores, players)?;
        result.scores.extend_from_slice(&out[..players]);
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
        // No iteration finished: a legal move all the same (none if the game is over).
        let mut out = [0; MAX_PLAYERS];
        if !s.final_scores(0, &mut out)? {
            result.best_move = Some(super::game::first_move(s.game)?);
        }
    }
    result.nodes = s.nodes;
    result.leaves = s.leaves;
    result.cutoffs = s.cutoffs;
    result.elapsed = s.start.elapsed();
    Ok(result)
}

impl<G: Game> Searcher<'_, '_, G> {
    fn mover(&mut self, ply: u32) -> Result<usize, GameError> {
        self.scoring.mover(self.game, ply)
    }

    fn final_scores(&mut self, ply: u32, out: &mut Scores) -> Result<bool, GameError> {
        self.scoring.final_scores(self.game, ply, out)
    }

    fn evaluations(&mut self, ply: u32, out: &mut Scores) -> Result<(), GameError> {
        self.scoring.evaluations(self.game, ply, out)
    }

    /// Whether a limit or the stop flag says to stop.
    fn halted(&self) -> bool {
        if self.opts.node_limit > 0 && self.nodes > self.opts.node_limit {
            return true;
        }
        // The first node looks too: a search stopped before it starts does nothing.
        if self.nodes % 1024 == 1 {
            if self.opts.stop.is_some_and(|s| s.load(Relaxed) != 0) {
                return true;
            }
            if self
                .opts
                .time_limit
                .is_some_and(|t| self.start.elapsed() >= t)
            {
                return true;
            }
        }
        false
    }

    /// The max^n value of the position `depth` plies deep, into `out`, its line in
    /// `lines[ply]`. `parent`: the parent's mover and the best score it has so far, for
    /// shallow pruning (`None` at the root and at a parent's first move). `first`: a move
    /// to try first.
    fn node(
        &mut self,
        depth: u32,
        ply: u32,
        parent: Option<(usize, i32)>,
        first: Move,
        out: &mut Scores,
    ) -> Result<(), Halt> {
        self.nodes += 1;
        if self.halted() {
            return Err(Halt::Limit);
        }
        let at = ply as usize;
        self.lines.reach(at)?;
        self.lines.clear(at);
        if self.lists.len() <= at {
            room(&mut self.lists, 1)?;
            self.lists.push(Vec::new());
        }
        if self.game.is_chance() {
            return Err(GameError::ChanceNode.into());
        }
        if self.final_scores(ply, out)? {
            self.leaves += 1;
            return Ok(());
        }
        if depth == 0 {
            self.leaves += 1;
            self.horizon = true;
            self.evaluations(ply, out)?;
            return Ok(());
        }
        if ply >= super::value::MAX_PLY {
            return Err(GameError::TooDeep.into());
        }
        let mover = self.mover(ply)?;
        let mut moves = std::mem::take(&mut self.lists[at]);
        moves.clear();
        room(&mut moves, 64)?;
        let listed = self.game.moves(&mut moves);
        let found = listed.map(|()| moves.is_empty());
        let answer = match found {
            Err(e) => Err(e.into()),
            Ok(true) => Err(GameError::NoMovesNotOver.into()),
            Ok(false) => {
                // Where the move tried first stood in the game's order.
                let moved = moves.iter().position(|&m| m == first);
                move_first(&mut moves, first);
                self.best_of(&moves, moved, depth, ply, mover, parent, out)
            }
        };
        self.lists[at] = moves;
        answer
    }

    /// The mover's best among `moves`, into `out`; `moved`: where `moves[0]` stood in
    /// the game's order, if it was put first (ties go to the first in that order).
    #[allow(clippy::too_many_arguments)]
    fn best_of(
        &mut self,
        moves: &[Move],
        moved: Option<usize>,
        depth: u32,
        ply: u32,
        mover: usize,
        parent: Option<(usize, i32)>,
        out: &mut Scores,
    ) -> Result<(), Halt> {
        let at = ply as usize;
        let order = |i: usize| match moved {
            Some(k) if i == 0 => k,
            Some(k) if i <= k => i - 1,
            _ => i,
        };
        let mut best: Scores = [0; MAX_PLAYERS];
        let mut best_at = None;
        let mut child = [0; MAX_PLAYERS];
        for (i, &mv) in moves.iter().enumerate() {
            // A move before the best in the game's order takes a tie, so it is cut only
            // where it cannot reach the best's score.
            let earlier = best_at.is_some_and(|b| order(i) < order(b));
            let bound = best_at.map(|_| (mover, best[mover].saturating_sub(i32::from(earlier))));
            self.game.play(mv);
            let below = |s: &mut Self, child: &mut Scores| {
                s.node(depth - 1, ply + 1, bound, super::game::NO_MOVE, child)
            };
            // Deep lines go on in a fresh stack segment, as the engine's do.
            let searched = if (ply + 1) % stack::EVERY == 0 {
                stack::with_room(|| below(self, &mut child))
            } else {
                below(self, &mut child)
            };
            self.game.undo(mv);
            searched?;
            let better = child[mover] > best[mover] || (earlier && child[mover] == best[mover]);
            if best_at.is_none() || better {
                best = child;
                best_at = Some(i);
                self.lines.set(at, mv, true);
            }
            if let Some((lo, sum)) = self.bounds {
                let n = self.players as i64;
                let mine = best[mover] as i64;
                // Nothing is better for the mover than all the sum leaves it (nor ties
                // it from before it in the game's order, once the moves left are after).
                let full = mine >= sum - (n - 1) * lo && moved.is_none_or(|k| i >= k);
                // The parent's mover gets at most what the others leave it here.
                let shallow = parent.is_some_and(|(q, have)| {
                    q != mover && sum - mine - (n - 2) * lo <= have as i64
                });
                if full || shallow {
                    self.cutoffs += (moves.len() - i - 1) as u64;
                    break;
                }
            }
        }
        *out = best;
        Ok(())
    }
}
