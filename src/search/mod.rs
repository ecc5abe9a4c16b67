//! The generic game-search engine: any game that can list, play and undo its moves and
//! score its final positions is searched by plain minimax, alpha-beta, principal
//! variation search, or an exact solve with null windows (MTD-style), with iterative
//! deepening, a transposition table, limits, progress reports and statistics.
//!
//! Scores are from MAX's point of view, as in the documents: MAX maximises. Among equal
//! scores the engine prefers the fastest win and the slowest loss. Nothing is random: the
//! same inputs give the same result.
//!
//! ```
//! use minimax::search::{Game, GameError, Move, Options, search};
//!
//! /// Take 1 or 2 sticks from a pile; whoever takes the last stick wins (MAX moves first).
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
//!         // The player who just moved took the last stick and won.
//!         (self.left == 0).then(|| if self.max_to_move { -1 } else { 1 })
//!     }
//!     fn evaluate(&mut self) -> i32 { 0 }
//! }
//!
//! let mut game = Sticks { left: 7, max_to_move: true };
//! let result = search(&mut game, &mut Options::default()).unwrap();
//! assert_eq!(result.value, 1);              // 7 is not a multiple of 3: MAX wins
//! assert_eq!(result.best_move, Some(1));    // by leaving a multiple of 3
//! assert!(result.proven);
//! ```

// The families, one folder each (the same names in `src/ffi/` and `python/src/`).
pub mod batched;
mod chance;
mod hidden;
pub mod mcts;
mod players;
mod twoplayer;

// What the families share.
mod clock;
mod game;
mod kept;
mod limits;
mod memory;
mod options;
mod player_scores;
mod pool;
mod probcut;
mod pv;
mod rng;
mod stack;
mod table;
mod team;
mod value;

pub use hidden::{ismcts, pimc};
pub use players::{best_reply, maxn, maxn_mcts, paranoid};

pub use chance::ANY_OUTCOME;
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
pub use clock::set_clock;
pub use game::{Fork, Game, GameError, Leaf, Move, ScoreView};
pub use options::{FewerThreads, Method, Options, Progress, SearchResult, SearchStats};
pub use pool::{idle_threads, lend_thread};
pub use probcut::{DEFAULT_T, MAX_DEEP, MAX_PAIRS, ProbCut, ProbCutError, ProbCutPair};
pub use table::Table;
pub use team::MAX_THREADS;
pub use twoplayer::calibrate::{
    CalibrateOptions, Calibration, MIN_SAMPLES, calibrate_probcut, calibrate_probcut_positions,
    default_pairs,
};

use limits::Plan;

/// The deepest the engine searches, in plies below the root, on every thread and by
/// every method: a line of up to this many plies is searched to its end (deep searches
/// grow their stack as they go), and a position this deep that is not over and is not at
/// the depth limit gives [`GameError::TooDeep`].
pub const MAX_PLIES: u32 = value::MAX_PLY;

// The methods are chosen here, and only here: no search module calls another that calls
// it back (tests/project/layout.rs).

/// Searches `game` from its current position and returns the best move and the value,
/// on one thread (`opts.threads` is for [`search_parallel`]: asked for more than one here,
/// the result says why it ran on one, in [`SearchResult::fewer_threads`]). Misbehaving
/// games give `Err`; limits and the stop flag give the last completed iteration's answer
/// (or, if none completed, the first legal move).
pub fn search<G: Game>(game: &mut G, opts: &mut Options<'_>) -> Result<SearchResult, GameError> {
    let result = if opts.method.is_chance() {
        chance::search(game, opts)
    } else {
        twoplayer::engine::search(game, opts)
    };
    let mut result = result.map_err(|e| named(game, e))?;
    if opts.threads != 1 {
        result.fewer_threads = Some(FewerThreads::NotParallel);
    }
    Ok(result)
}

/// Searches `game` on `opts.threads` threads (0: one per core; at most [`MAX_THREADS`]),
/// each with its own copy of the game. Runs on one thread, as [`search`] does, when one
/// is asked for, for plain minimax (which shares nothing), for the chance methods (not
/// parallel yet), without a table (no `hash`, or `table_bytes` 0), or when the game gives
/// no copy; `SearchResult::threads` says how many ran.
///
/// An exact solve gives the same proven value as on one thread, and a best move that is
/// optimal. A completed depth-limited iteration gives the same value as one thread at
/// that depth, and a move of that value; which iteration a limit stops at may differ.
/// Statistics are summed over the threads. Progress is reported on the caller's thread, in
/// order of depth, and its last report is the iteration that gave the answer.
///
/// A panic in a method of the game reaches the caller (one on a helper thread once every
/// thread has stopped). Where it was raised on the caller's thread, the caller's game is
/// left where the panic found it, in the middle of a line (the moves after it are not
/// undone: a game that has just panicked may not take an undo); a copy that panicked on
/// a helper thread is dropped there.
pub fn search_parallel<G: Game + Fork + Send + 'static>(
    game: &mut G,
    opts: &mut Options<'_>,
) -> Result<SearchResult, GameError> {
    let plan = Plan::of(game, opts); // the clock starts before the table is set up
    let threads = team::resolve_threads(opts.threads);
    let alone = |game: &mut G, opts: &mut Options<'_>, why| {
        let mut result = search(game, opts)?;
        result.fewer_threads = (threads > 1).then_some(why);
        Ok(result)
    };
    if opts.method == Method::Minimax {
        return alone(game, opts, FewerThreads::Minimax);
    }
    if opts.method.is_chance() {
        return alone(game, opts, FewerThreads::ChanceMethod);
    }
    if threads <= 1 || game.hash().is_none() {
        return alone(game, opts, FewerThreads::NoHash);
    }
    match twoplayer::parallel::team_search(game, opts, plan, threads) {
        Some(result) => result.map_err(|e| named(game, e)),
        None => alone(game, opts, FewerThreads::NoTable),
    }
}

/// A score refused as out of range, named by the game where it gave one on purpose to
/// stop the search ([`Game::broken`]).
fn named<G: Game>(game: &mut G, e: GameError) -> GameError {
    match e {
        GameError::ScoreOutOfRange => game.broken().unwrap_or(e),
        e => e,
    }
}
