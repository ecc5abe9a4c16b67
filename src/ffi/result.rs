//! What a search answers, to C: `mm_search_result` and its statistics, the value kinds
//! and the reasons for fewer threads, written to the caller's struct at its version's
//! size.

use crate::search::{self, FewerThreads, SearchResult};

/// Why a search ran on fewer threads than `threads` asked for: one of the
/// `MM_FEWER_THREADS_*` values, in `mm_search_result.fewer_threads`.
pub type mm_fewer_threads = u32;
/// As many threads searched as were asked for (or one was asked for).
pub const MM_FEWER_THREADS_NONE: mm_fewer_threads = 0;
/// `MM_SEARCH_MINIMAX` shares nothing between threads: it runs on one.
pub const MM_FEWER_THREADS_MINIMAX: mm_fewer_threads = 1;
/// The chance methods (`MM_SEARCH_EXPECTIMAX`, `STAR1`, `STAR2`) run on one thread.
pub const MM_FEWER_THREADS_CHANCE_METHOD: mm_fewer_threads = 2;
/// The game has no `hash`, and threads share their work through the table.
pub const MM_FEWER_THREADS_NO_HASH: mm_fewer_threads = 3;
/// No table: `table_bytes` is 0 or too small for one, or its memory could not be had.
pub const MM_FEWER_THREADS_NO_TABLE: mm_fewer_threads = 4;
/// The game has no `copy_context`, or it returned NULL for some thread.
pub const MM_FEWER_THREADS_NO_COPY: mm_fewer_threads = 5;
/// The system would not start another thread.
pub const MM_FEWER_THREADS_NO_SYSTEM_THREAD: mm_fewer_threads = 6;
/// Memory for a helper thread's set-up, or for the tree that MCTS's threads share,
/// could not be had.
pub const MM_FEWER_THREADS_NO_MEMORY: mm_fewer_threads = 7;

/// The kind of value in a result: one of the `MM_VALUE_*` values.
pub type mm_value_kind = u8;
/// The value is the integer `value` (the deterministic methods).
pub const MM_VALUE_INTEGER: mm_value_kind = 0;
/// The value is the expected score `expected` (the chance methods); `value` holds it
/// rounded to the nearest integer.
pub const MM_VALUE_EXPECTED: mm_value_kind = 1;

/// A principal variation's entry for a chance step (the outcome is not chosen):
/// `INT64_MIN + 1`.
pub const MM_MOVE_ANY: i64 = i64::MIN + 1;
const _: () = assert!(MM_MOVE_ANY == search::ANY_OUTCOME);

/// What a search did.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_search_stats {
    /// Positions visited.
    pub nodes: u64,
    /// Final positions scored plus positions evaluated at the depth limit.
    pub leaves: u64,
    /// Moves skipped by alpha-beta cutoffs.
    pub cutoffs: u64,
    /// Transposition table lookups.
    pub table_probes: u64,
    /// Lookups that found the position.
    pub table_hits: u64,
    /// The wall time of the whole call in microseconds, set-up included, on any number
    /// of threads.
    pub elapsed_us: u64,
}

/// The answer of `mm_search`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_search_result {
    /// Whether there is a move (false when the game is already over).
    pub has_move: bool,
    /// The move to play.
    pub best_move: i64,
    /// The value, MAX's view.
    pub value: i32,
    /// Whether `value` is exact at `depth` (false: a bound, or no iteration finished).
    pub exact: bool,
    /// Whether the value is the game's true value: no line was cut by the depth limit
    /// (every line reached a final position, or one the game's bounds settle; in a
    /// chance search, every outcome of non-zero weight too).
    pub proven: bool,
    /// `MM_VALUE_INTEGER` (the deterministic methods: read `value`) or
    /// `MM_VALUE_EXPECTED` (the chance methods: read `expected`). Always written.
    pub value_kind: mm_value_kind,
    /// For a proven value, the plies to the end along the principal variation; -1 when
    /// the value is not proven, in a chance search (whose expectation has no single
    /// distance), and when the distance was not sought: an exact solve with
    /// `refine_distance` false whose score is not a distance itself (`proven` is then
    /// still 1: the value is the game's).
    pub plies_to_end: i32,
    /// The depth of the last completed iteration; for a search without iterative
    /// deepening to an unlimited depth, the deepest ply it reached.
    pub depth: u32,
    /// The principal variation's length; the first `min(pv_len, pv_cap)` moves are
    /// written to the caller's buffer. It ends early where the rest was not searched in
    /// the last iteration: at a position the transposition table or the game's equal
    /// bounds settled, and, for an exact solve with `refine_distance` false, after the
    /// first move. With threads, it is the line of the thread that answered.
    pub pv_len: usize,
    /// Nodes and the other counts summed over the threads; `elapsed_us` is wall time.
    pub stats: mm_search_stats,
    /// How many threads searched.
    pub threads_used: u32,
    /// Why fewer threads searched than `threads` asked for: one of the
    /// `MM_FEWER_THREADS_*` reasons, `MM_FEWER_THREADS_NONE` when as many did. (It lies
    /// in what was padding in 0.2.0's layout, so every caller's struct has it.)
    pub fewer_threads: mm_fewer_threads,
    /// When `value_kind` is `MM_VALUE_EXPECTED`: the expected score, MAX's view. Not
    /// written for `MM_VALUE_INTEGER`, so that results of the 0.2.0 layout (which ends
    /// before this field) stay valid for callers compiled against it.
    pub expected: f64,
}

/// The size of `mm_search_result` in version 0.2.0: it ended at `threads_used` (and its
/// padding), before `expected`.
const RESULT_SIZE_WITHOUT_EXPECTED: usize = std::mem::offset_of!(mm_search_result, expected);

/// Writes `r` to `*out`, and the principal variation's first `min(pv_len, pv_cap)` moves
/// to `pv`.
///
/// # Safety
/// `out` must be non-NULL and writable (the whole struct when `r` has an expected value:
/// a caller that asked for a chance method has this version's header); `pv` must hold
/// `pv_cap` writable entries.
pub(crate) unsafe fn write_result(
    r: &SearchResult,
    out: *mut mm_search_result,
    pv: *mut i64,
    pv_cap: usize,
) {
    let n = r.pv.len().min(pv_cap);
    if n > 0 {
        // SAFETY: `pv` has `pv_cap >= n` writable entries (caller's guarantee).
        unsafe { std::ptr::copy_nonoverlapping(r.pv.as_ptr(), pv, n) };
    }
    let s = r.stats;
    let mut result = mm_search_result {
        has_move: r.best_move.is_some(),
        best_move: r.best_move.unwrap_or(0),
        value: r.value,
        exact: r.exact,
        proven: r.proven,
        value_kind: kind_of(r.expected),
        plies_to_end: r.plies_to_end.map_or(-1, |p| p as i32),
        depth: r.depth,
        pv_len: r.pv.len(),
        stats: mm_search_stats {
            nodes: s.nodes,
            leaves: s.leaves,
            cutoffs: s.cutoffs,
            table_probes: s.table_probes,
            table_hits: s.table_hits,
            elapsed_us: s.elapsed.as_micros() as u64,
        },
        threads_used: r.threads as u32,
        fewer_threads: fewer_threads_code(r.fewer_threads),
        expected: 0.0,
    };
    match r.expected {
        // SAFETY: non-NULL and writable (caller's guarantee); a caller that asked for a
        // chance method has this version's header, so the whole struct.
        Some(e) => unsafe {
            result.expected = e;
            out.write(result)
        },
        // SAFETY: as above, but only the 0.2.0 layout's bytes, which every caller's struct
        // has: a prefix of the struct, from a live local of its type.
        None => unsafe {
            std::ptr::copy_nonoverlapping(
                (&result as *const mm_search_result).cast::<u8>(),
                out.cast::<u8>(),
                RESULT_SIZE_WITHOUT_EXPECTED,
            )
        },
    }
}

pub(crate) fn fewer_threads_code(reason: Option<FewerThreads>) -> mm_fewer_threads {
    match reason {
        // The C searches call search_parallel, which never gives NotParallel.
        None | Some(FewerThreads::NotParallel) => MM_FEWER_THREADS_NONE,
        Some(FewerThreads::Minimax) => MM_FEWER_THREADS_MINIMAX,
        Some(FewerThreads::ChanceMethod) => MM_FEWER_THREADS_CHANCE_METHOD,
        Some(FewerThreads::NoHash) => MM_FEWER_THREADS_NO_HASH,
        Some(FewerThreads::NoTable) => MM_FEWER_THREADS_NO_TABLE,
        Some(FewerThreads::NoCopy) => MM_FEWER_THREADS_NO_COPY,
        Some(FewerThreads::NoSystemThread) => MM_FEWER_THREADS_NO_SYSTEM_THREAD,
        Some(FewerThreads::NoMemory) => MM_FEWER_THREADS_NO_MEMORY,
    }
}

pub(crate) fn kind_of(expected: Option<f64>) -> mm_value_kind {
    match expected {
        Some(_) => MM_VALUE_EXPECTED,
        None => MM_VALUE_INTEGER,
    }
}
