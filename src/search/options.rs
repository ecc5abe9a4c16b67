//! How to search and what a search answers: the method, the options, the progress
//! reports, the statistics and the result.

use std::sync::atomic::AtomicI32;
use std::time::Duration;

use super::game::Move;
use super::kept::OwnTable;
use super::probcut::ProbCut;
use super::table::Table;

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
    /// Search depth 1, 2, ... up to `max_depth`, stopping once the value is proven. A
    /// chance method deepens only when a limit can stop it (time, nodes or `stop`); with
    /// none it searches `max_depth` at once.
    pub iterative_deepening: bool,
    /// The transposition table's size; 0 turns it off (so does a game without `hash`, and
    /// memory that cannot be had: the search then runs without one). A search's own table
    /// is kept for the next search of the same size, which starts it afresh for almost
    /// nothing (the pages it wrote stay, at most this size): lend `table` to keep none.
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
    /// Threads for [`search_parallel`](super::search_parallel) (0: one per available core; default 1). [`search`](super::search)
    /// always runs on one.
    pub threads: usize,
    /// Whether a node one ply above the leaves (depth 1) reads and writes the table
    /// (default false). There the table's memory costs more than the leaves it saves when
    /// the evaluation is cheap (a few hundred processor cycles or less, as in most board
    /// games: a depth-limited search of Connect Four takes 0.7x the time without it, with
    /// 1.2x the nodes); a game whose evaluation costs more searches faster with it on
    /// (docs/performance.md, "The table one ply above the leaves"). The value is the
    /// same either way. Chance searches always use it.
    pub table_frontier: bool,
    /// Whether a node reads the table before it asks the game anything (its outcome, its
    /// moves, its evaluation), at every depth, the leaves too, which then keep their
    /// values there (default false): for a game whose questions cost far more than its
    /// `hash()` and a probe, as a game written in Python (whose adapter turns it on),
    /// where a position met again is then answered by the table alone, as easyAI's
    /// Negamax does. The value is the same either way; a quiescence search's leaves do
    /// not use it. It implies `table_frontier`. Not in the C interface.
    pub table_first: bool,
    /// Whether the engine tries, after the table's move, the two moves that last cut off
    /// at the same ply elsewhere (killer moves; default false). Move ordering the engine
    /// learns as it searches (`engine/ordering.rs`): values, and what an exact solve
    /// proves, are the same either way; the nodes and the move chosen among equals may
    /// differ. Worth it for a game that orders its own moves poorly; on Connect Four,
    /// whose moves come centre first, it costs more than it saves (the figures are in
    /// docs/performance.md, "Matches at a clock"). The chance searches and MCTS do not
    /// use it.
    pub killer_moves: bool,
    /// Whether the engine orders the other moves by a history table, a score per move and
    /// side that grows at each cut-off by the depth squared, ties in the game's order
    /// (default false; the same guarantees as `killer_moves`).
    pub history_order: bool,
    /// Whether a depth-limited alpha-beta or PVS search reduces late moves (default
    /// false): from the fourth move of a node on, at 3 plies or more from the leaves and
    /// below the root, a move is first searched a ply shallower (two from the ninth, at
    /// 6 plies or more) with a null window, and searched again at full depth when it
    /// beats alpha (late move reductions, as chess programs use them; `engine/node.rs`).
    /// Deeper in the same time, at the risk of missing a late move's point. A proven
    /// value is still exact (a reduction only moves the horizon); `Method::Exact` never
    /// reduces.
    pub late_move_reductions: bool,
    /// Whether deepening searches each iteration from 3 plies on in a window around the
    /// last value (aspiration windows; default false), as wide as the last two values
    /// differed (at least one score unit), widened and searched again on each side it
    /// fails, and made whole after a few failures, so that the re-search cannot loop.
    /// The value of each completed iteration is the same as without; the nodes differ.
    pub aspiration_windows: bool,
    /// With a time limit, whether deepening stops before an iteration that would not
    /// finish in the time left (time management; default false), from the growth of the
    /// last iterations' times: that iteration's work would be lost at the limit. The
    /// search returns sooner, with the same move it would have returned at the limit
    /// whenever the estimate holds.
    pub time_management: bool,
    /// Whether a depth-limited alpha-beta or PVS search goes on past its depth limit
    /// with the game's noisy moves ([`Game::noisy_moves`](super::Game::noisy_moves);
    /// quiescence search; default false): at each such position the side to move may
    /// stand pat on `evaluate` or play a noisy move, up to `QUIESCENCE_PLIES` (32) plies
    /// past the limit. A game whose evaluation misjudges captures or threats then scores
    /// quiet positions only. Never in an exact solve.
    pub quiescence: bool,
    /// Whether a depth-limited alpha-beta or PVS search tries passing first at a node
    /// whose evaluation is already at or above beta (null-move pruning, with the game's
    /// [`Game::null_move`](super::Game::null_move); default false): if even a pass,
    /// searched 3 plies shallower, holds beta, a verification search of the node itself
    /// 3 plies shallower (without passes) must hold it too before the node is cut off,
    /// which guards against zugzwang (a position where any move harms the side to move).
    /// Never twice in a row, at the root, or in an exact solve; a cut-off it makes is
    /// never taken as proven.
    pub null_move: bool,
    /// Multi-ProbCut (default `None`): with a fit calibrated on the game
    /// ([`calibrate_probcut`](super::calibrate_probcut), or read back with
    /// [`ProbCut::from_text`]), a node of a depth-limited alpha-beta or PVS search whose
    /// depth has pairs in the fit first searches itself shallower with a null window
    /// around the bound the fit predicts, and is cut off when that search holds it
    /// (`engine/probcut.rs`). Deeper in the same time, at the risk the fit's `t` sets.
    /// Never at the root or in an exact solve; a cut-off it makes is never taken as
    /// proven.
    pub probcut: Option<ProbCut>,
    /// Whether a node with a table, 3 plies or more from the leaves and below the root,
    /// looks up each move's position in the table before searching any, and is cut off
    /// when one's entry already holds beta for it (enhanced transposition cutoffs;
    /// default false; `engine/etc.rs`). The same values; fewer nodes where positions
    /// transpose, at a play, hash and undo a move at those nodes.
    pub enhanced_transposition_cutoffs: bool,
    /// Whether a node of a depth-limited alpha-beta or PVS search with a table, 5 plies
    /// or more from the leaves and below the root, that the table gives no move first
    /// searches itself 2 plies shallower, to try first the move that search finds best
    /// (internal iterative deepening; default false; `engine/iid.rs`). The same values;
    /// fewer nodes where the first move matters and the table has none.
    pub internal_iterative_deepening: bool,
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
            table_frontier: false,
            table_first: false,
            killer_moves: false,
            history_order: false,
            late_move_reductions: false,
            aspiration_windows: false,
            time_management: false,
            quiescence: false,
            null_move: false,
            probcut: None,
            enhanced_transposition_cutoffs: false,
            internal_iterative_deepening: false,
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
    /// as [`ANY_OUTCOME`](super::ANY_OUTCOME), and the line goes on below its most likely outcome. It ends
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
    /// [`search`](super::search) was called: it runs on one thread; [`search_parallel`](super::search_parallel) runs on more.
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
    /// Memory for a helper thread's set-up, or for the tree that MCTS's threads share,
    /// could not be had.
    NoMemory,
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

/// The table a search uses: none for plain minimax; else the caller's if it lent one
/// (started afresh for this search), else one of `bytes` of our own, held in `own` (the
/// one the last search kept, if it is free: see `kept.rs`).
pub(crate) fn search_table<'t>(
    method: Method,
    lent: &'t mut Option<&mut Table>,
    own: &'t mut Option<OwnTable>,
    bytes: usize,
) -> Option<&'t Table> {
    match (method, lent.as_deref_mut()) {
        (Method::Minimax, _) => None,
        (_, Some(t)) => {
            t.new_search();
            Some(&*t)
        }
        (_, None) => {
            *own = OwnTable::new(bytes);
            own.as_deref()
        }
    }
}
