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

mod chance;
mod engine;
mod limits;
mod memory;
mod parallel;
mod pool;
mod pv;
mod stack;
mod table;
mod value;

use std::sync::atomic::AtomicI32;
use std::time::Duration;

pub use chance::ANY_OUTCOME;
pub use parallel::{Fork, MAX_THREADS, search_parallel};
pub use table::Table;

/// The deepest the engine searches, in plies below the root, on every thread and by
/// every method: a line of up to this many plies is searched to its end (deep searches
/// grow their stack as they go), and a position this deep that is not over and is not at
/// the depth limit gives [`GameError::TooDeep`].
pub const MAX_PLIES: u32 = value::MAX_PLY;

/// Searches `game` from its current position and returns the best move and the value,
/// on one thread (`opts.threads` is for [`search_parallel`]: asked for more than one here,
/// the result says why it ran on one, in [`SearchResult::fewer_threads`]). Misbehaving
/// games give `Err`; limits and the stop flag give the last completed iteration's answer
/// (or, if none completed, the first legal move).
pub fn search<G: Game>(game: &mut G, opts: &mut Options<'_>) -> Result<SearchResult, GameError> {
    let mut result = if opts.method.is_chance() {
        chance::search(game, opts)
    } else {
        engine::search(game, opts)
    }?;
    if opts.threads != 1 {
        result.fewer_threads = Some(FewerThreads::NotParallel);
    }
    Ok(result)
}

/// Puts `first` in front of `moves` if it is one of them (a table's or a probe's move;
/// `NO_MOVE` is none), the others keeping their order.
pub(crate) fn move_first(moves: &mut [Move], first: Move) {
    if first != table::NO_MOVE {
        if let Some(i) = moves.iter().position(|&m| m == first) {
            moves[..=i].rotate_right(1);
        }
    }
}

/// The first legal move, the answer of a search stopped before any iteration finished:
/// still a legal move, and the game still held to its contract (no moves and not over is
/// an error).
pub(crate) fn first_move<G: Game>(game: &mut G) -> Result<Move, GameError> {
    let mut moves = Vec::new();
    game.moves(&mut moves)?;
    moves.first().copied().ok_or(GameError::NoMovesNotOver)
}

/// Whose point of view a game's scores take ([`Game::score_view`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreView {
    /// MAX's: a position good for MAX scores high whoever is to move there.
    #[default]
    Max,
    /// The side to move's (negamax): a position good for the side to move there scores
    /// high. At MIN's turn the engine negates the score, so `i32::MIN` is refused there
    /// (`GameError::ScoreOutOfRange`, or `BadBounds` for bounds).
    SideToMove,
}

/// A move: any integer the game chooses.
pub type Move = i64;

/// A game the engine can search. The engine calls `play` and `undo` in pairs and leaves
/// the game as it found it, also when the search stops early or fails.
pub trait Game {
    /// Appends the legal moves of the position to `out` (which is empty), in the order the
    /// engine should try them: good moves first make alpha-beta fast.
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError>;
    /// Plays `mv`, one of the moves just listed.
    fn play(&mut self, mv: Move);
    /// Takes back `mv`, the last move played.
    fn undo(&mut self, mv: Move);
    /// The final score from MAX's point of view if the game is over, else `None`. A game
    /// with no legal moves must say it is over: the engine assumes no outcome. Scores lie
    /// strictly inside `i32` (not `i32::MIN` or `i32::MAX`: the deterministic methods
    /// negate them); the chance methods, which never negate, take any `i32`.
    fn outcome(&mut self) -> Option<i32>;
    /// A heuristic score from MAX's point of view, for positions at the depth limit; in
    /// the same range as `outcome`'s.
    fn evaluate(&mut self) -> i32;
    /// A hash of the position: enables the transposition table.
    fn hash(&mut self) -> Option<u64> {
        None
    }
    /// Whether MAX is to move, for games where turns do not strictly alternate (passes,
    /// extra turns). `None`: the sides alternate.
    fn max_to_move(&mut self) -> Option<bool> {
        None
    }
    /// The range of final scores (MAX's view) reachable from the position with best play
    /// by both sides, if the game knows one: it narrows alpha-beta's window. `lo == hi`
    /// settles the position at that score without searching it, as if it ended a ply later.
    fn bounds(&mut self) -> Option<(i32, i32)> {
        None
    }
    /// Whose point of view `outcome`, `evaluate` and `bounds` take: MAX's (the default,
    /// as in the textbook) or the side to move's (negamax's, as minimax-rs and easyAI
    /// games score). Asked once, at the start of a search. Results and progress stay in
    /// MAX's view either way (MAX is the side to move at the root unless `max_to_move` or
    /// `Options::max_at_root` says otherwise).
    fn score_view(&mut self) -> ScoreView {
        ScoreView::Max
    }
    /// Whether the position is a chance node: its next step is drawn at random from
    /// [`Game::outcomes`] rather than chosen by a player. Only the chance methods
    /// ([`Method::Expectimax`], [`Method::Star1`], [`Method::Star2`]) search such games.
    fn is_chance(&mut self) -> bool {
        false
    }
    /// At a chance node, appends the outcomes to `out` (which is empty) with their
    /// weights: each finite and non-negative, summing to a positive value; an outcome's
    /// probability is its weight over the sum. Outcomes are played and undone like moves.
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let _ = out;
        Ok(())
    }
}

/// A game that broke its contract. The search stops and reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameError {
    /// The move list did not fit the capacity it was given.
    TooManyMoves,
    /// The move count was negative.
    NegativeMoveCount,
    /// A score or evaluation was `i32::MIN` or `i32::MAX` (in a deterministic search).
    ScoreOutOfRange,
    /// A position had no legal moves but the game did not say it was over.
    NoMovesNotOver,
    /// `bounds` gave a lower bound above the upper bound (or, in a deterministic search,
    /// `i32::MIN` or `i32::MAX`), or in a chance search a score outside them.
    BadBounds,
    /// The search went deeper than the engine's ply limit.
    TooDeep,
    /// A chance node listed no outcomes.
    NoOutcomes,
    /// An outcome's weight was negative, NaN or infinite.
    BadWeight,
    /// A chance node's weights summed to zero.
    ZeroWeights,
    /// A deterministic method met a chance node: use a chance method.
    ChanceNode,
    /// Star1 and Star2 need the game's score bounds, and the game gave none (C:
    /// `MM_ERR_NEEDS_BOUNDS`).
    NeedsBounds,
    /// A chance node's weights were each finite, but their sum overflows an `f64`.
    WeightSumOverflow,
}

impl GameError {
    /// The name [`GameError::NeedsBounds`] had before 0.4.0, kept so that code written
    /// for it still builds.
    #[deprecated(
        since = "0.4.0",
        note = "renamed NeedsBounds, as C's MM_ERR_NEEDS_BOUNDS"
    )]
    #[allow(non_upper_case_globals)]
    pub const NoBounds: GameError = GameError::NeedsBounds;
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            GameError::TooManyMoves => "the game listed more moves than the room it was given",
            GameError::NegativeMoveCount => "the game gave a negative move count",
            GameError::ScoreOutOfRange => "the game gave a score of i32::MIN or i32::MAX",
            GameError::NoMovesNotOver => "a position has no moves but the game is not over",
            GameError::BadBounds => "the game's score bounds are reversed or do not hold",
            GameError::TooDeep => "the game has a line longer than MAX_PLIES plies",
            GameError::NoOutcomes => "a chance node listed no outcomes",
            GameError::BadWeight => "a chance node gave a negative, NaN or infinite weight",
            GameError::ZeroWeights => "a chance node's weights sum to zero",
            GameError::ChanceNode => "a deterministic method met a chance node",
            GameError::NeedsBounds => "Star1 and Star2 need the game's score bounds",
            GameError::WeightSumOverflow => {
                "a chance node's weights are each finite but their sum overflows"
            }
        })
    }
}

/// A `GameError` is an error like any other: `?` turns it into a `Box<dyn Error>`.
impl std::error::Error for GameError {}

/// Which search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Plain minimax: prunes nothing, uses no table; the teaching reference.
    Minimax,
    /// Fail-soft alpha-beta.
    AlphaBeta,
    /// Principal variation search: null windows after the first move.
    Pvs,
    /// The exact game value, by null-window searches that narrow the score range.
    Exact,
    /// Expectiminimax for games with chance nodes: MAX, MIN and chance nodes, pruning
    /// nothing; the chance methods' reference.
    Expectimax,
    /// Expectiminimax with alpha-beta at MAX and MIN nodes and Ballard's Star1 pruning at
    /// chance nodes, which needs the game's score bounds.
    Star1,
    /// Star1, and before a chance node's outcomes are searched, a probe of each one's
    /// first move (Ballard's Star2): its bounds often settle the chance node early.
    Star2,
}

impl Method {
    /// Whether this method searches games with chance nodes (and returns expected values).
    pub fn is_chance(self) -> bool {
        matches!(self, Method::Expectimax | Method::Star1 | Method::Star2)
    }
}

/// What a progress report says, after each completed iteration.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    /// The depth of the iteration just completed.
    pub depth: u32,
    /// MAX's view (a chance search's expected value, rounded).
    pub value: i32,
    /// A chance search's expected value; `None` for the deterministic methods.
    pub expected: Option<f64>,
    /// Nodes searched so far (on every thread of a parallel search).
    pub nodes: u64,
    /// Time since the search was called.
    pub elapsed: Duration,
    /// The iteration's principal variation.
    pub pv: &'a [Move],
}

/// How to search.
pub struct Options<'a> {
    /// The search method.
    pub method: Method,
    /// The depth limit in plies; `u32::MAX` searches until the value is proven.
    pub max_depth: u32,
    /// Search depth 1, 2, ... up to `max_depth`, stopping once the value is proven.
    pub iterative_deepening: bool,
    /// The transposition table's size; 0 turns it off (so does a game without `hash`, and
    /// memory that cannot be had: the search then runs without one).
    pub table_bytes: usize,
    /// A table to use instead of allocating one of `table_bytes`: reuse one across many
    /// searches. It keeps its entries from one search to the next (a program playing a
    /// game finds the previous move's work); [`Table::clear`] forgets them.
    pub table: Option<&'a mut Table>,
    /// Stop after this many nodes (0: no limit).
    pub node_limit: u64,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// Stop when another thread stores a non-zero value here.
    pub stop: Option<&'a AtomicI32>,
    /// Called after each completed iteration, on the calling thread: each depth once, in
    /// order (with threads, also the depths another thread completed first), the last
    /// being the answer's.
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
    /// Whether MAX moves at the root, for games without `max_to_move`.
    pub max_at_root: bool,
    /// In `Exact` mode, after the score is found, search once more among the moves of
    /// that score for the fastest win (or slowest loss). Games whose scores already
    /// encode the distance to the end (Connect Four's) can turn this off.
    pub refine_distance: bool,
    /// Threads for [`search_parallel`] (0: one per available core; default 1). [`search`]
    /// always runs on one.
    pub threads: usize,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            method: Method::AlphaBeta,
            max_depth: u32::MAX,
            iterative_deepening: true,
            table_bytes: 16 << 20,
            table: None,
            node_limit: 0,
            time_limit: None,
            stop: None,
            progress: None,
            max_at_root: true,
            refine_distance: true,
            threads: 1,
        }
    }
}

/// What a search did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Final positions scored and positions evaluated at the depth limit.
    pub leaves: u64,
    /// Moves skipped by alpha-beta cutoffs.
    pub cutoffs: u64,
    /// Transposition table lookups.
    pub table_probes: u64,
    /// Lookups that found the position.
    pub table_hits: u64,
    /// The wall time of the whole call, set-up included, on any number of threads.
    pub elapsed: Duration,
}

/// The answer.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// The move to play, or `None` if the game is already over (or, in a chance search,
    /// if the root is a chance node: there is nothing to choose).
    pub best_move: Option<Move>,
    /// The value from MAX's point of view (a chance search's expected value, rounded to
    /// the nearest integer, halves away from zero: -0.5 is -1).
    pub value: i32,
    /// Which kind of value the search found: `None` for the deterministic methods, whose
    /// value is the integer `value`; for the chance methods, the expected score in MAX's
    /// view.
    pub expected: Option<f64>,
    /// Whether `value` is exact at `depth` (false: a bound, or no iteration finished).
    pub exact: bool,
    /// Whether the value is the game's true value, every line reaching a final position
    /// (in a chance search: every outcome of non-zero weight too).
    pub proven: bool,
    /// For a proven value, the plies to the end along the principal variation. `None`
    /// when not proven, in a chance search (an expectation over many lines has no single
    /// distance), and when the distance was not sought (an exact solve with
    /// `refine_distance` false whose score is not a distance itself; `proven` is then
    /// still true).
    pub plies_to_end: Option<u32>,
    /// The depth of the last completed iteration; for a search without iterative
    /// deepening to an unlimited depth, the deepest ply it reached.
    pub depth: u32,
    /// The principal variation, `best_move` first. In a chance search a chance step shows
    /// as [`ANY_OUTCOME`], and the line goes on below its most likely outcome. It ends
    /// early where the rest was not searched in the last iteration: at a position the
    /// table or the game's equal bounds settled, and, for an exact solve with
    /// `refine_distance` false, after the first move.
    pub pv: Vec<Move>,
    /// Counts summed over the threads; `elapsed` is the call's wall time.
    pub stats: SearchStats,
    /// How many threads searched.
    pub threads: usize,
    /// Why fewer threads searched than `Options::threads` asked for; `None` when as many
    /// did (or one was asked for).
    pub fewer_threads: Option<FewerThreads>,
}

/// Why a search ran on fewer threads than it was asked to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FewerThreads {
    /// [`search`] was called: it runs on one thread; [`search_parallel`] runs on more.
    NotParallel,
    /// Plain minimax shares nothing between threads: it runs on one.
    Minimax,
    /// The chance methods run on one thread.
    ChanceMethod,
    /// The game gives no hash, and threads share their work through the table.
    NoHash,
    /// No table: `table_bytes` is too small for one, or its memory could not be had.
    NoTable,
    /// The game gave no copy of itself for another thread (a C game without
    /// `copy_context`, or whose `copy_context` returned NULL).
    NoCopy,
    /// The system would not start another thread.
    NoSystemThread,
}

impl SearchResult {
    /// A search's answer before any iteration: no move, value 0, nothing exact, one
    /// thread; `expected` is `Some` for the chance methods.
    pub(crate) fn unfinished(expected: Option<f64>) -> SearchResult {
        SearchResult {
            best_move: None,
            value: 0,
            expected,
            exact: false,
            proven: false,
            plies_to_end: None,
            depth: 0,
            pv: Vec::new(),
            stats: SearchStats::default(),
            threads: 1,
            fewer_threads: None,
        }
    }
}
