//! How to search, from C: `mm_search_options` with its size and defaults, the methods,
//! the limits' constants, and the progress reports.

use std::ffi::{c_int, c_void};
use std::sync::atomic::AtomicI32;
use std::time::Duration;

use super::args::{non_null, read_sized, write_sized};
use super::boundary::status_call;
use super::probcut::mm_probcut;
use super::result::{kind_of, mm_value_kind};
use super::status::mm_status::{self, *};
use super::table::mm_table;
use crate::search::{self, Method, Options, Progress};

/// A search method for `mm_search`: one of the `MM_SEARCH_*` values.
pub type mm_search_method = u32;
/// Plain minimax: prunes nothing, no table; the teaching reference.
pub const MM_SEARCH_MINIMAX: mm_search_method = 0;
/// Fail-soft alpha-beta.
pub const MM_SEARCH_ALPHABETA: mm_search_method = 1;
/// Principal variation search.
pub const MM_SEARCH_PVS: mm_search_method = 2;
/// The exact game value by null-window searches narrowing the score range (MTD-style).
pub const MM_SEARCH_EXACT: mm_search_method = 3;
/// Expectiminimax, for games with chance nodes: prunes nothing; the reference.
pub const MM_SEARCH_EXPECTIMAX: mm_search_method = 4;
/// Expectiminimax with alpha-beta and Ballard's Star1 pruning at chance nodes; needs the
/// game's `bounds` (else `MM_ERR_NEEDS_BOUNDS`), which must hold every score and
/// evaluation below the root (else `MM_ERR_GAME_BAD_BOUNDS`).
pub const MM_SEARCH_STAR1: mm_search_method = 5;
/// Star1 with Star2's probing: one move of each outcome first, whose bounds often settle
/// a chance node early. Needs bounds as Star1 does.
pub const MM_SEARCH_STAR2: mm_search_method = 6;

/// `max_depth` for "until the value is proven".
pub const MM_DEPTH_UNLIMITED: u32 = u32::MAX;
/// The deepest a search goes, in plies below the root, on every thread and by every
/// method: a line of up to this many plies is searched to its end (the search grows its
/// stack as it goes, on the thread it runs on), and a position this deep that is not
/// over and is not at the depth limit gives `MM_ERR_GAME_TOO_DEEP`.
pub const MM_MAX_PLIES: u32 = 1 << 20;
const _: () = assert!(MM_MAX_PLIES == search::MAX_PLIES);
/// The most `threads` a search takes; more gets `MM_ERR_TOO_MANY_THREADS`.
pub const MM_MAX_THREADS: u32 = 256;
const _: () = assert!(MM_MAX_THREADS as usize == search::MAX_THREADS);

/// A progress report, after each completed iteration.
#[repr(C)]
pub struct mm_progress {
    /// The depth of the iteration just completed.
    pub depth: u32,
    /// MAX's view.
    pub value: i32,
    /// Nodes searched so far, on every thread.
    pub nodes: u64,
    /// Microseconds since the search was called.
    pub elapsed_us: u64,
    /// The principal variation, valid during the call only (ending early as
    /// `mm_search_result.pv_len` says).
    pub pv: *const i64,
    /// The principal variation's length (its moves are at `pv`).
    pub pv_len: usize,
    /// `MM_VALUE_EXPECTED` for a chance method: the value is then `expected`.
    pub value_kind: mm_value_kind,
    /// A chance method's expected value (MAX's view); `value` as a double otherwise.
    pub expected: f64,
}

/// How to search. Fill it with `mm_search_options_init`, then change what you need.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_search_options {
    /// `sizeof(mm_search_options)`, set by `mm_search_options_init`: lets later versions
    /// add fields.
    pub struct_size: usize,
    /// An `MM_SEARCH_*` method (default `MM_SEARCH_ALPHABETA`).
    pub method: mm_search_method,
    /// The depth limit in plies (default `MM_DEPTH_UNLIMITED`).
    pub max_depth: u32,
    /// Search depths 1, 2, ... and stop once proven (default true). A chance method
    /// deepens only when a limit can stop it (time, nodes or `stop`); with none it
    /// searches `max_depth` at once.
    pub iterative_deepening: bool,
    /// Transposition table size in bytes; 0 turns it off (default 16 MiB). If that much
    /// memory cannot be had, the search runs without a table (same answer, slower). The
    /// library keeps a search's own table for the next search of the same size (the pages
    /// it wrote stay, at most this size): lend an `mm_table` to keep none.
    pub table_bytes: usize,
    /// Stop after this many nodes; 0: no limit.
    pub node_limit: u64,
    /// Stop after this many microseconds; 0: no limit.
    pub time_limit_us: u64,
    /// If not NULL, an `int` that another thread sets non-zero (with an atomic store) to
    /// stop the search.
    pub stop: *const c_int,
    /// If not NULL, called after each completed iteration, on the calling thread: each
    /// depth once, in order (with threads, also the depths another thread completed
    /// first, reported when the calling thread next can), the last being the answer's.
    /// Like the game's callbacks it must return normally (no `longjmp` out of it).
    pub progress: Option<unsafe extern "C" fn(context: *mut c_void, report: *const mm_progress)>,
    /// Passed to `progress`.
    pub progress_context: *mut c_void,
    /// Whether MAX moves at the root, for games without `max_to_move` (default true).
    pub max_at_root: bool,
    /// `MM_SEARCH_EXACT` only: after the score is found, seek the fastest win or slowest
    /// loss among moves of that score (default true; off for games whose score already
    /// encodes the distance to the end).
    pub refine_distance: bool,
    /// The room given to the `moves` callback per position (default 256); more than can
    /// be allocated gets `MM_ERR_OUT_OF_MEMORY`.
    pub max_moves: usize,
    /// If not NULL, a table from `mm_table_new` to use instead of allocating
    /// `table_bytes` for this search: reuse one across many searches. One search at a
    /// time per table: a search given a table in use gets `MM_ERR_TABLE_BUSY`.
    pub table: *mut mm_table,
    /// Threads to search with (default 1: deterministic). 0 is one per available core;
    /// more than `MM_MAX_THREADS` gets `MM_ERR_TOO_MANY_THREADS`.
    /// More than one needs the game's `copy_context`; without it, for
    /// `MM_SEARCH_MINIMAX` or a chance method, or without a table (`hash` NULL or
    /// `table_bytes` 0), the search runs on one thread, and the result's
    /// `fewer_threads` says why. An exact solve gives the same value on any number of
    /// threads and an optimal move (maybe another of the optimal moves); a completed
    /// depth-limited iteration gives the same value as one thread at that depth.
    pub threads: u32,
    /// Zero, and not read: room that makes this version larger than the one before.
    pub reserved: u32,
    /// Whether a node one ply above the leaves of a depth-limited search reads and writes
    /// the table (default false). There the table's memory costs more than the leaves it
    /// saves when the evaluation is cheap (a few hundred processor cycles or less, as in
    /// most board games); a game whose evaluation costs more searches faster with it on.
    /// The value found is the same either way. Chance methods always use the table there.
    pub table_frontier: bool,
    /// Whether the engine tries, after the table's move, the two moves that last cut off
    /// at the same ply elsewhere (killer moves; default false). Values, and what
    /// `MM_SEARCH_EXACT` proves, are the same either way; the nodes and the move chosen
    /// among equal ones may differ. Worth it for a game that orders its own moves poorly.
    /// (This field and the six after it sit where padding was: the struct keeps its
    /// size.)
    pub killer_moves: bool,
    /// Whether the engine orders the other moves by a history table, a score per move
    /// and side that grows at each cut-off by the depth squared, ties in the game's order
    /// (default false; the same guarantees as `killer_moves`).
    pub history_order: bool,
    /// Whether a depth-limited `MM_SEARCH_ALPHABETA` or `MM_SEARCH_PVS` search reduces
    /// late moves (default false): from a node's fourth move on, at 3 plies or more from
    /// the leaves and below the root, a move is first searched a ply shallower (two from
    /// the ninth, at 6 plies or more) with a null window, and again at full depth when it
    /// beats alpha. Deeper in the same time, at the risk of missing a late move's point.
    /// A proven value is still exact; `MM_SEARCH_EXACT` never reduces.
    pub late_move_reductions: bool,
    /// Whether deepening searches each iteration from 3 plies on in a window around the
    /// last value (aspiration windows; default false), as wide as the last two values
    /// differed, widened and searched again on each side it fails, made whole after a
    /// few failures. Each completed iteration's value is the same as without.
    pub aspiration_windows: bool,
    /// With `time_limit_us`, whether deepening stops before an iteration that would not
    /// finish in the time left, estimated from the last iterations' times (default
    /// false): that iteration's work would be lost at the limit.
    pub time_management: bool,
    /// Whether a depth-limited `MM_SEARCH_ALPHABETA` or `MM_SEARCH_PVS` search goes on
    /// past its depth limit with the game's `noisy_moves` (quiescence search; default
    /// false): at each such position the side to move may stand pat on `evaluate` or play
    /// a noisy move, up to 32 plies past the limit. Never in `MM_SEARCH_EXACT`.
    pub quiescence: bool,
    /// Whether a depth-limited `MM_SEARCH_ALPHABETA` or `MM_SEARCH_PVS` search tries the
    /// game's `null_move` first at a node whose evaluation holds beta (null-move
    /// pruning; default false): if a pass searched 3 plies shallower holds beta, and a
    /// verification search of the node as shallow does too (the guard against
    /// zugzwang), the node is cut off. Never twice in a row, at the root or in
    /// `MM_SEARCH_EXACT`; such a cut-off is never taken as proven.
    pub null_move: bool,
    /// Whether a node 3 plies or more from the leaves of a depth-limited search looks
    /// each child up in the table before searching any (enhanced transposition cut-offs;
    /// default false): a child whose stored bound already refutes the node cuts it off
    /// at the price of a probe. Values are the same either way.
    pub enhanced_transposition_cutoffs: bool,
    /// Whether a node 5 plies or more from the leaves of a depth-limited
    /// `MM_SEARCH_ALPHABETA` or `MM_SEARCH_PVS` search, below the root, that the table
    /// gives no move first searches itself 2 plies shallower and tries first the move that
    /// search found best (internal iterative deepening; default false). Values are the
    /// same either way.
    pub internal_iterative_deepening: bool,
    /// If not NULL, a Multi-ProbCut fit (`mm_probcut_calibrate` or `mm_probcut_parse`)
    /// for a depth-limited `MM_SEARCH_ALPHABETA` or `MM_SEARCH_PVS` search (default
    /// NULL: none). Below the root, a node whose depth the fit has a pair for, at the
    /// game's `stage`, is first searched at the pair's shallow depth with a null window
    /// `t` sigmas past the bound the pair predicts, and cut off when that search holds.
    /// Deeper in the same time, at the risk of a wrong cut; such a cut-off is never
    /// taken as proven, and `MM_SEARCH_EXACT` never cuts. The search copies the fit when
    /// it starts: it must stay valid, and unchanged, during the call.
    pub probcut: *const mm_probcut,
}

impl Default for mm_search_options {
    /// What `mm_search_options_init_sized` writes: this version's size and the defaults.
    fn default() -> Self {
        let d = Options::default();
        mm_search_options {
            struct_size: size_of::<mm_search_options>(),
            method: MM_SEARCH_ALPHABETA,
            max_depth: d.max_depth,
            iterative_deepening: d.iterative_deepening,
            table_bytes: d.table_bytes,
            node_limit: 0,
            time_limit_us: 0,
            stop: std::ptr::null(),
            progress: None,
            progress_context: std::ptr::null_mut(),
            max_at_root: d.max_at_root,
            refine_distance: d.refine_distance,
            max_moves: 256,
            table: std::ptr::null_mut(),
            threads: 1,
            reserved: 0,
            table_frontier: d.table_frontier,
            killer_moves: d.killer_moves,
            history_order: d.history_order,
            late_move_reductions: d.late_move_reductions,
            aspiration_windows: d.aspiration_windows,
            time_management: d.time_management,
            quiescence: d.quiescence,
            null_move: d.null_move,
            enhanced_transposition_cutoffs: d.enhanced_transposition_cutoffs,
            internal_iterative_deepening: d.internal_iterative_deepening,
            probcut: std::ptr::null(),
        }
    }
}

/// The size of `mm_search_options` before `threads` (0.1.0's: 96 bytes).
const OPTIONS_SIZE_WITHOUT_THREADS: usize = std::mem::offset_of!(mm_search_options, threads);

/// The size of `mm_search_options` with `threads` and before `table_frontier` (104 bytes
/// on 64-bit systems: `threads` and its padding).
const OPTIONS_SIZE_WITHOUT_TABLE_FRONTIER: usize =
    std::mem::offset_of!(mm_search_options, table_frontier);

/// The size of `mm_search_options` before `enhanced_transposition_cutoffs`,
/// `internal_iterative_deepening` and `probcut` (112 bytes on 64-bit systems; issue 53
/// added them).
const OPTIONS_SIZE_WITHOUT_PROBCUT: usize =
    std::mem::offset_of!(mm_search_options, enhanced_transposition_cutoffs);

/// The sizes of the older versions of `mm_search_options`.
const OLDER_OPTIONS: [usize; 3] = [
    OPTIONS_SIZE_WITHOUT_THREADS,
    OPTIONS_SIZE_WITHOUT_TABLE_FRONTIER,
    OPTIONS_SIZE_WITHOUT_PROBCUT,
];

/// Fills `*options`, a struct of `size` bytes (`sizeof(mm_search_options)` where the
/// caller was compiled), with that size and the defaults. The header's
/// `mm_search_options_init(options)` macro calls this with `sizeof(mm_search_options)`.
/// A size of an older version (96 bytes: before `threads`; 104: before `reserved` and
/// `table_frontier`; 112: before `enhanced_transposition_cutoffs`) gets
/// that version's fields only; a larger size gets zeros past
/// this version's fields. Any other size is `MM_ERR_BAD_STRUCT_SIZE`, and nothing is
/// written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_search_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_search_options_init_sized(
    options: *mut mm_search_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_search_options::default(), size, &OLDER_OPTIONS) }
    })
}

/// The caller's options, read at the size they were compiled with; NULL gives the
/// defaults. Checked: `max_moves` 0 is `MM_ERR_BAD_OPTIONS`, more than `MM_MAX_THREADS`
/// threads `MM_ERR_TOO_MANY_THREADS`.
///
/// # Safety
/// `options`, if not NULL, must point to options of their `struct_size` from
/// `mm_search_options_init`.
pub(crate) unsafe fn read_options(
    options: *const mm_search_options,
) -> Result<mm_search_options, mm_status> {
    let defaults = mm_search_options::default();
    if options.is_null() {
        return Ok(defaults);
    }
    let bools = [
        std::mem::offset_of!(mm_search_options, iterative_deepening),
        std::mem::offset_of!(mm_search_options, max_at_root),
        std::mem::offset_of!(mm_search_options, refine_distance),
        std::mem::offset_of!(mm_search_options, table_frontier),
        std::mem::offset_of!(mm_search_options, killer_moves),
        std::mem::offset_of!(mm_search_options, history_order),
        std::mem::offset_of!(mm_search_options, late_move_reductions),
        std::mem::offset_of!(mm_search_options, aspiration_windows),
        std::mem::offset_of!(mm_search_options, time_management),
        std::mem::offset_of!(mm_search_options, quiescence),
        std::mem::offset_of!(mm_search_options, null_move),
        std::mem::offset_of!(mm_search_options, enhanced_transposition_cutoffs),
        std::mem::offset_of!(mm_search_options, internal_iterative_deepening),
    ];
    // SAFETY: non-NULL, and options of their `struct_size` (caller's guarantee), their
    // `bool`s listed.
    unsafe { read_sized(options, defaults, &OLDER_OPTIONS, &bools) }
}

/// The checks on the options' values, after the game's.
pub(crate) fn check_options(options: &mm_search_options) -> Result<(), mm_status> {
    if options.max_moves == 0 {
        return Err(MM_ERR_BAD_OPTIONS);
    }
    if options.threads > MM_MAX_THREADS {
        return Err(MM_ERR_TOO_MANY_THREADS);
    }
    Ok(())
}

/// The engine's options for `o`'s plain values: the method, the stop flag, and no lent
/// table, progress callback or ProbCut fit (which the caller adds where it takes them:
/// `probcut::read_fit` copies the fit).
pub(crate) fn engine_options<'a>(
    o: &mm_search_options,
    method: Method,
    stop: Option<&'a AtomicI32>,
) -> Options<'a> {
    Options {
        method,
        max_depth: o.max_depth,
        iterative_deepening: o.iterative_deepening,
        table_bytes: o.table_bytes,
        table: None,
        node_limit: o.node_limit,
        time_limit: (o.time_limit_us > 0).then(|| Duration::from_micros(o.time_limit_us)),
        stop,
        progress: None,
        max_at_root: o.max_at_root,
        refine_distance: o.refine_distance,
        threads: o.threads as usize,
        table_frontier: o.table_frontier,
        table_first: false,
        killer_moves: o.killer_moves,
        history_order: o.history_order,
        late_move_reductions: o.late_move_reductions,
        aspiration_windows: o.aspiration_windows,
        time_management: o.time_management,
        quiescence: o.quiescence,
        null_move: o.null_move,
        probcut: None,
        enhanced_transposition_cutoffs: o.enhanced_transposition_cutoffs,
        internal_iterative_deepening: o.internal_iterative_deepening,
    }
}

/// The method an `MM_SEARCH_*` value names.
pub(crate) fn method_of(code: mm_search_method) -> Result<Method, mm_status> {
    Ok(match code {
        MM_SEARCH_MINIMAX => Method::Minimax,
        MM_SEARCH_ALPHABETA => Method::AlphaBeta,
        MM_SEARCH_PVS => Method::Pvs,
        MM_SEARCH_EXACT => Method::Exact,
        MM_SEARCH_EXPECTIMAX => Method::Expectimax,
        MM_SEARCH_STAR1 => Method::Star1,
        MM_SEARCH_STAR2 => Method::Star2,
        _ => return Err(MM_ERR_UNKNOWN_ALGORITHM),
    })
}

/// Calls the caller's progress callback, if any, with `p`.
pub(crate) fn report(options: &mm_search_options, p: &Progress) {
    if let Some(f) = options.progress {
        let r = mm_progress {
            depth: p.depth,
            value: p.value,
            nodes: p.nodes,
            elapsed_us: p.elapsed.as_micros() as u64,
            pv: p.pv.as_ptr(),
            pv_len: p.pv.len(),
            value_kind: kind_of(p.expected),
            expected: p.expected.unwrap_or(p.value as f64),
        };
        // SAFETY: the caller's progress callback with its context; `r` is live.
        unsafe { f(options.progress_context, &r) };
    }
}
