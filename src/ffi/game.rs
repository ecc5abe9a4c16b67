//! The game engine from C: a game is a struct of callbacks and options come from init
//! functions; both carry their own size so that later versions can add fields, and
//! misbehaving callbacks get their own status.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicU8, Ordering};
use std::time::Duration;

use super::args::{non_null, read_sized, write_sized};
use super::boundary::status_call;
use super::status::mm_status::{self, *};
use crate::search::{
    self, FewerThreads, Fork, Game, GameError, Method, Move, Options, Progress, ScoreView, Table,
};

/// A game, as callbacks that all receive `context` first. Fill it with `mm_game_init`,
/// then set the callbacks. `moves`, `play`, `undo`, `outcome` and `evaluate` are required;
/// the others may be NULL. Scores are from MAX's point of view and must lie strictly
/// between `INT_MIN` and `INT_MAX`.
///
/// Threads: with `threads` of 1 (the default) every callback is called on the thread
/// that called `mm_search`, with `context`. A parallel search also calls `copy_context`
/// and `free_context` on that thread, and the other callbacks of each copy on one pool
/// thread (a copy is used by one thread at a time; the original stays on the calling
/// thread). Callbacks of different copies run at the same time: they must not share
/// mutable data without synchronising it.
///
/// A callback must return normally: `longjmp` out of it, or a C++ exception through it,
/// skips the library's frames, which is undefined behaviour (do not; catch a C++
/// exception inside the callback and report it through the context, then stop the search
/// with the `stop` flag).
///
/// The transposition table trusts `hash`: two positions with the same 64-bit hash are
/// taken for one, and a search may then take one's value for the other's, also in a
/// `proven` result. With a well-mixed hash (Zobrist's) that is about as likely as a
/// collision of random 64-bit numbers among the positions searched; a game that needs
/// certainty searches without a table (`table_bytes` 0, or no `hash`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_game {
    /// `sizeof(mm_game)`, set by `mm_game_init`: lets later versions add callbacks.
    /// The size before `copy_context` existed (its offset) is accepted too.
    pub struct_size: usize,
    /// The caller's data, passed to every callback.
    pub context: *mut c_void,
    /// Writes the legal moves, best first, into `moves` (room for `capacity`) and returns
    /// how many there are.
    pub moves: Option<
        unsafe extern "C" fn(context: *mut c_void, moves: *mut i64, capacity: usize) -> c_int,
    >,
    /// Plays a move just listed.
    pub play: Option<unsafe extern "C" fn(context: *mut c_void, mv: i64)>,
    /// Takes back the last move played.
    pub undo: Option<unsafe extern "C" fn(context: *mut c_void, mv: i64)>,
    /// Returns true and writes the final score if the game is over. A position without
    /// moves must be over: the engine does not assume a loss.
    pub outcome: Option<unsafe extern "C" fn(context: *mut c_void, score: *mut i32) -> bool>,
    /// A heuristic score for a position at the depth limit.
    pub evaluate: Option<unsafe extern "C" fn(context: *mut c_void) -> i32>,
    /// Optional: a 64-bit hash of the position; enables the transposition table.
    pub hash: Option<unsafe extern "C" fn(context: *mut c_void) -> u64>,
    /// Optional: whether MAX is to move, for games where turns do not strictly alternate.
    pub max_to_move: Option<unsafe extern "C" fn(context: *mut c_void) -> bool>,
    /// Optional: returns true and writes the range of final scores reachable with best
    /// play, if known; it narrows the search. `*lo == *hi` settles the position.
    pub bounds:
        Option<unsafe extern "C" fn(context: *mut c_void, lo: *mut i32, hi: *mut i32) -> bool>,
    /// Optional, needed for `threads` other than 1: returns a new context holding a copy of
    /// the position in `context` (called at the start of a search, in its root position),
    /// or NULL if it cannot (that thread then does not run). Without it a search runs
    /// on one thread, and says so in `threads_used` and `fewer_threads`.
    pub copy_context: Option<unsafe extern "C" fn(context: *mut c_void) -> *mut c_void>,
    /// Frees a context made by `copy_context`, when the search ends. Required with
    /// `copy_context` (else `MM_ERR_COPY_WITHOUT_FREE`).
    pub free_context: Option<unsafe extern "C" fn(copy: *mut c_void)>,
    /// Optional: whether the position is a chance node, whose next step is drawn at
    /// random from `outcomes` rather than chosen. NULL: the game has no chance nodes.
    /// Only the chance methods (`MM_SEARCH_EXPECTIMAX`, `STAR1`, `STAR2`) accept a chance
    /// node; the others get `MM_ERR_GAME_CHANCE_NODE`.
    pub is_chance: Option<unsafe extern "C" fn(context: *mut c_void) -> bool>,
    /// Required with `is_chance` (else `MM_ERR_CHANCE_WITHOUT_OUTCOMES`): at a chance node, writes the outcomes into `outcomes`
    /// and their weights into `weights` (room for `capacity` of each) and returns how
    /// many there are. Weights are finite and non-negative with a positive sum; an
    /// outcome's probability is its weight over the sum, and an outcome of weight 0 is
    /// never played. Outcomes are played and undone with `play` and `undo`, like moves.
    pub outcomes: Option<
        unsafe extern "C" fn(
            context: *mut c_void,
            outcomes: *mut i64,
            weights: *mut f64,
            capacity: usize,
        ) -> c_int,
    >,
    /// Whose point of view `outcome`, `evaluate` and `bounds` take: `MM_SCORES_MAX_VIEW`
    /// (0, the default: MAX's, as in the textbook) or `MM_SCORES_SIDE_TO_MOVE` (the side
    /// to move's, as negamax games score; at MIN's turn the engine negates the score,
    /// so `INT_MIN` is refused there). Results and progress stay in MAX's view. Another
    /// value is `MM_ERR_UNKNOWN_SCORE_VIEW`.
    pub score_view: mm_score_view,
}

/// Whose point of view a game's scores take: one of the `MM_SCORES_*` values.
pub type mm_score_view = u32;
/// Scores are MAX's view, whoever is to move (the default).
pub const MM_SCORES_MAX_VIEW: mm_score_view = 0;
/// Scores are the side to move's view (negamax): high is good for the side to move.
pub const MM_SCORES_SIDE_TO_MOVE: mm_score_view = 1;

impl Default for mm_game {
    /// What `mm_game_init` writes: the size, and NULL everywhere else.
    fn default() -> Self {
        mm_game {
            struct_size: size_of::<mm_game>(),
            context: std::ptr::null_mut(),
            moves: None,
            play: None,
            undo: None,
            outcome: None,
            evaluate: None,
            hash: None,
            max_to_move: None,
            bounds: None,
            copy_context: None,
            free_context: None,
            is_chance: None,
            outcomes: None,
            score_view: MM_SCORES_MAX_VIEW,
        }
    }
}

/// The size of `mm_game` before the copy callbacks (version 0.2.0's first layout).
const GAME_SIZE_WITHOUT_COPY: usize = std::mem::offset_of!(mm_game, copy_context);
/// The size of `mm_game` before the chance callbacks (version 0.2.0's last layout).
const GAME_SIZE_WITHOUT_CHANCE: usize = std::mem::offset_of!(mm_game, is_chance);
/// The size of `mm_game` before `score_view` (version 0.3.0's layout).
const GAME_SIZE_WITHOUT_VIEW: usize = std::mem::offset_of!(mm_game, score_view);
/// The size of `mm_search_options` before `threads`.
const OPTIONS_SIZE_WITHOUT_THREADS: usize = std::mem::offset_of!(mm_search_options, threads);

/// Fills `*game`, a struct of `size` bytes (`sizeof(mm_game)` where the caller was
/// compiled), with that size, NULL callbacks and MAX's score view; set the callbacks
/// after. The header's `mm_game_init(game)` macro calls this with `sizeof(mm_game)`; a
/// program that does not use the header (a binding from another language) passes its
/// struct's size itself. A size of an older version (80, 96 or 112 bytes: before the
/// copy callbacks, the chance callbacks, `score_view`) gets that version's fields and
/// nothing past them; a larger
/// size gets zeros past this version's fields. Any other size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `game` must point to `size` writable bytes, aligned for `mm_game`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_game_init_sized(game: *mut mm_game, size: usize) -> mm_status {
    status_call(|| {
        let game = non_null(game)?;
        let sizes = [
            GAME_SIZE_WITHOUT_COPY,
            GAME_SIZE_WITHOUT_CHANCE,
            GAME_SIZE_WITHOUT_VIEW,
        ];
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(game, mm_game::default(), size, &sizes) }
    })
}

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
    /// Search depths 1, 2, ... and stop once proven (default true).
    pub iterative_deepening: bool,
    /// Transposition table size in bytes; 0 turns it off (default 16 MiB). If that much
    /// memory cannot be had, the search runs without a table (same answer, slower).
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
        }
    }
}

/// A transposition table that many searches can reuse (opaque).
pub struct mm_table {
    table: Table,
    /// `IDLE`, `IN_USE` by a search, or `FREE_WHEN_DONE` (freed during its search).
    state: AtomicU8,
}

const IDLE: u8 = 0;
const IN_USE: u8 = 1;
const FREE_WHEN_DONE: u8 = 2;
const FREED: u8 = 3;

/// A search's hold on a caller's table: taken only if no other search holds it, given
/// back when the search ends, and then the table is freed if `mm_table_free` asked for
/// that meanwhile.
struct Lease(*mut mm_table);

impl Lease {
    /// # Safety
    /// `table` must be a live table from `mm_table_new`.
    unsafe fn take(table: *mut mm_table) -> Result<Lease, mm_status> {
        // SAFETY: live (caller's guarantee); only the atomic field is borrowed, so a
        // search that holds the table's other field is not aliased.
        let state = unsafe { &*std::ptr::addr_of!((*table).state) };
        state
            .compare_exchange(IDLE, IN_USE, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| MM_ERR_TABLE_BUSY)?;
        Ok(Lease(table))
    }

    fn table(&mut self) -> &mut Table {
        // SAFETY: this lease is the only holder of the table (the state machine says so)
        // and the table lives until the lease ends; only the `table` field is borrowed.
        unsafe { &mut *std::ptr::addr_of_mut!((*self.0).table) }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // SAFETY: the table lives while leased (mm_table_free defers to us).
        let state = unsafe { &*std::ptr::addr_of!((*self.0).state) };
        if state
            .compare_exchange(IN_USE, IDLE, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            // FREE_WHEN_DONE: mm_table_free was called during the search.
            // SAFETY: made by Box::into_raw in mm_table_new; mm_table_free left the
            // freeing to this lease, and nothing else holds it now.
            drop(unsafe { Box::from_raw(self.0) });
        }
    }
}

/// Makes a transposition table of at most `bytes` bytes for `mm_search_options.table`.
/// Entries take 32 bytes, in buckets of two. Returns `MM_ERR_TABLE_TOO_SMALL` if `bytes` is
/// under 64 (one bucket), and `MM_ERR_OUT_OF_MEMORY` if the memory cannot be had.
///
/// A table serves one `mm_search` at a time (which may run on many threads): two
/// searches at once must each have their own. It keeps its entries from one search to
/// the next, so that a program playing a game finds the previous move's work (the
/// entries of earlier searches are the first to be replaced); `mm_table_clear` forgets
/// them, before a table searches another game.
/// Its memory is all mapped and cleared here, on Linux on 2 MiB pages where the system
/// gives them (a probe lands anywhere in the table: small pages would add a TLB miss).
///
/// # Safety
/// `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_table_new(bytes: usize, out: *mut *mut mm_table) -> mm_status {
    status_call(|| {
        let out = non_null(out)?;
        if bytes < Table::MIN_BYTES {
            return Err(MM_ERR_TABLE_TOO_SMALL);
        }
        let mut table = Table::new(bytes).ok_or(MM_ERR_OUT_OF_MEMORY)?;
        table.prefault();
        let table = mm_table {
            table,
            state: AtomicU8::new(IDLE),
        };
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(Box::into_raw(Box::new(table))) };
        Ok(())
    })
}

/// Forgets every entry of a table from `mm_table_new`, in constant time: the next search
/// starts as with a new table. `MM_ERR_TABLE_BUSY` while a search uses it.
///
/// # Safety
/// `table` must be a live table from `mm_table_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_table_clear(table: *mut mm_table) -> mm_status {
    status_call(|| {
        let table = non_null(table)?;
        // SAFETY: a live table (caller's guarantee).
        let mut lease = unsafe { Lease::take(table) }?;
        lease.table().clear();
        Ok(())
    })
}

/// Frees a table from `mm_table_new`. NULL is allowed and does nothing. A table freed
/// while a search uses it (from one of its callbacks, or another thread) is freed when
/// that search ends; the search itself is not disturbed.
///
/// # Safety
/// `table` must be NULL or a table not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_table_free(table: *mut mm_table) {
    let _ = status_call(|| {
        if table.is_null() {
            return Ok(());
        }
        // SAFETY: a live table (caller's guarantee); only its atomic field is borrowed.
        let state = unsafe { &*std::ptr::addr_of!((*table).state) };
        loop {
            let next = match state.load(Ordering::Acquire) {
                IDLE => FREED,
                IN_USE => FREE_WHEN_DONE,
                _ => return Ok(()), // already freed, or to be: a second free is ignored
            };
            let now = if next == FREED { IDLE } else { IN_USE };
            if state
                .compare_exchange(now, next, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                if next == FREED {
                    // SAFETY: made by Box::into_raw in mm_table_new; no search holds it.
                    drop(unsafe { Box::from_raw(table) });
                }
                return Ok(());
            }
        }
    });
}

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

/// Fills `*options`, a struct of `size` bytes (`sizeof(mm_search_options)` where the
/// caller was compiled), with that size and the defaults. The header's
/// `mm_search_options_init(options)` macro calls this with `sizeof(mm_search_options)`.
/// A size of an older version (96 bytes: before `threads`) gets that version's fields
/// only; a larger size gets zeros past this version's fields. Any other size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
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
        unsafe {
            write_sized(
                options,
                mm_search_options::default(),
                size,
                &[OPTIONS_SIZE_WITHOUT_THREADS],
            )
        }
    })
}

/// The callbacks as a [`Game`], checking what they return. A copy made for another
/// thread owns its context and frees it when dropped.
struct CGame {
    game: mm_game,
    owned: bool,
    moves: unsafe extern "C" fn(*mut c_void, *mut i64, usize) -> c_int,
    play: unsafe extern "C" fn(*mut c_void, i64),
    undo: unsafe extern "C" fn(*mut c_void, i64),
    outcome: unsafe extern "C" fn(*mut c_void, *mut i32) -> bool,
    evaluate: unsafe extern "C" fn(*mut c_void) -> i32,
    buffer: Vec<i64>,
    /// The weights the `outcomes` callback writes (empty when the game has none).
    weights: Vec<f64>,
}

// SAFETY (for every call below): the callbacks come from the caller's `mm_game`, whose
// contract is that they may be called with its `context` and valid pointers for the
// duration of `mm_search`; the buffers passed are ours and as large as stated.
impl Game for CGame {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        let cap = self.buffer.len();
        // SAFETY: see above; `buffer` has `cap` writable entries.
        let n = unsafe { (self.moves)(self.game.context, self.buffer.as_mut_ptr(), cap) };
        if n < 0 {
            return Err(GameError::NegativeMoveCount);
        }
        let n = n as usize;
        if n > cap {
            return Err(GameError::TooManyMoves);
        }
        out.extend_from_slice(&self.buffer[..n]);
        Ok(())
    }
    fn play(&mut self, mv: Move) {
        // SAFETY: see above.
        unsafe { (self.play)(self.game.context, mv) }
    }
    fn undo(&mut self, mv: Move) {
        // SAFETY: see above.
        unsafe { (self.undo)(self.game.context, mv) }
    }
    fn outcome(&mut self) -> Option<i32> {
        let mut score = 0;
        // SAFETY: see above; `score` is a live local.
        unsafe { (self.outcome)(self.game.context, &mut score) }.then_some(score)
    }
    fn evaluate(&mut self) -> i32 {
        // SAFETY: see above.
        unsafe { (self.evaluate)(self.game.context) }
    }
    fn hash(&mut self) -> Option<u64> {
        // SAFETY: see above.
        self.game.hash.map(|h| unsafe { h(self.game.context) })
    }
    fn score_view(&mut self) -> ScoreView {
        match self.game.score_view {
            MM_SCORES_SIDE_TO_MOVE => ScoreView::SideToMove,
            _ => ScoreView::Max, // mm_search refused any other value
        }
    }
    fn max_to_move(&mut self) -> Option<bool> {
        // SAFETY: see above.
        self.game
            .max_to_move
            .map(|f| unsafe { f(self.game.context) })
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let f = self.game.bounds?;
        let (mut lo, mut hi) = (0, 0);
        // SAFETY: see above; `lo` and `hi` are live locals.
        unsafe { f(self.game.context, &mut lo, &mut hi) }.then_some((lo, hi))
    }
    fn is_chance(&mut self) -> bool {
        // SAFETY: see above.
        self.game
            .is_chance
            .is_some_and(|f| unsafe { f(self.game.context) })
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        let f = self.game.outcomes.ok_or(GameError::NoOutcomes)?;
        let cap = self.buffer.len().min(self.weights.len());
        let (moves, weights) = (self.buffer.as_mut_ptr(), self.weights.as_mut_ptr());
        // SAFETY: see above; both buffers have at least `cap` writable entries.
        let n = unsafe { f(self.game.context, moves, weights, cap) };
        if n < 0 {
            return Err(GameError::NegativeMoveCount);
        }
        let n = n as usize;
        if n > cap {
            return Err(GameError::TooManyMoves);
        }
        out.extend(
            self.buffer[..n]
                .iter()
                .copied()
                .zip(self.weights[..n].iter().copied()),
        );
        Ok(())
    }
}

impl Fork for CGame {
    fn fork(&self) -> Option<Self> {
        let (copy, _) = (self.game.copy_context?, self.game.free_context?);
        let buffer = move_buffer(self.buffer.len()).ok()?;
        let weights = self.weights.clone();
        // SAFETY: the caller's copy callback with its context, on the calling thread.
        let context = unsafe { copy(self.game.context) };
        (!context.is_null()).then(|| CGame {
            game: mm_game {
                context,
                ..self.game
            },
            owned: true,
            buffer,
            weights,
            ..*self
        })
    }
}

impl Drop for CGame {
    fn drop(&mut self) {
        if let (true, Some(free)) = (self.owned, self.game.free_context) {
            // SAFETY: a context from `copy_context`, freed once, by the callback that the
            // caller gave for it; the search that used it has ended.
            unsafe { free(self.game.context) }
        }
    }
}

// SAFETY: the header's contract: a game's callbacks may be called from a pool thread
// with a context of its own (a copy), used by one thread at a time.
unsafe impl Send for CGame {}

/// Searches the game from its current position. `options` may be NULL for the defaults.
/// On `MM_OK` fills `*out` and writes the principal variation's first
/// `min(out->pv_len, pv_cap)` moves to `pv` (which may be NULL when `pv_cap` is 0).
///
/// Every score, the result's value included, is from MAX's point of view, whoever is to
/// move; MAX is whoever `max_to_move` says (or `max_at_root` at the root, turns then
/// alternating). A pass is a move like any other: the game lists one move of its
/// choosing (say -1) when the side to move must pass, and `play` of it changes only the
/// turn; a position with no move at all must be over (`outcome`).
///
/// A limit or the stop flag ends the search with `MM_OK` and the best move of the last
/// completed iteration (or, if none completed, the first legal move). With a depth limit,
/// `proven` is true only if no line was cut by it (every line reached a final position,
/// or a position the game's bounds settle): the value is then the game's true value, not
/// a heuristic one. A misbehaving game gets `MM_ERR_GAME_*` and `*out` is untouched.
///
/// The game is left in the position it started from after every return, errors included:
/// each move played is taken back (the one exception is `MM_ERR_PANIC`, an internal
/// error, after which the position is unknown). A search may be started from inside a
/// callback of another search, with a table of its own (or none).
///
/// # Safety
/// `game` must point to a valid `mm_game` whose callbacks may be called with its context;
/// `options` (if not NULL) to options from `mm_search_options_init`, whose `stop` (if not
/// NULL) stays valid and is only written atomically; `out` must be writable and `pv` hold
/// `pv_cap` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_search(
    game: *const mm_game,
    options: *const mm_search_options,
    out: *mut mm_search_result,
    pv: *mut i64,
    pv_cap: usize,
) -> mm_status {
    status_call(|| {
        if game.is_null() {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        // SAFETY: non-NULL, and a valid game of its `struct_size` (caller's guarantee).
        let sizes = [
            GAME_SIZE_WITHOUT_COPY,
            GAME_SIZE_WITHOUT_CHANCE,
            GAME_SIZE_WITHOUT_VIEW,
        ];
        let game = unsafe { read_sized(game, mm_game::default(), &sizes) }?;
        let out = non_null(out)?;
        if pv.is_null() && pv_cap > 0 {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let defaults = mm_search_options::default();
        let c_opts = if options.is_null() {
            defaults
        } else {
            // SAFETY: non-NULL, and options of their `struct_size` from
            // `mm_search_options_init` (caller's guarantee).
            unsafe { read_sized(options, defaults, &[OPTIONS_SIZE_WITHOUT_THREADS]) }?
        };
        if game.copy_context.is_some() && game.free_context.is_none() {
            return Err(MM_ERR_COPY_WITHOUT_FREE);
        }
        if game.is_chance.is_some() && game.outcomes.is_none() {
            return Err(MM_ERR_CHANCE_WITHOUT_OUTCOMES);
        }
        if !matches!(game.score_view, MM_SCORES_MAX_VIEW | MM_SCORES_SIDE_TO_MOVE) {
            return Err(MM_ERR_UNKNOWN_SCORE_VIEW);
        }
        if c_opts.max_moves == 0 {
            return Err(MM_ERR_BAD_OPTIONS);
        }
        if c_opts.threads > MM_MAX_THREADS {
            return Err(MM_ERR_TOO_MANY_THREADS);
        }
        let method = match c_opts.method {
            MM_SEARCH_MINIMAX => Method::Minimax,
            MM_SEARCH_ALPHABETA => Method::AlphaBeta,
            MM_SEARCH_PVS => Method::Pvs,
            MM_SEARCH_EXACT => Method::Exact,
            MM_SEARCH_EXPECTIMAX => Method::Expectimax,
            MM_SEARCH_STAR1 => Method::Star1,
            MM_SEARCH_STAR2 => Method::Star2,
            _ => return Err(MM_ERR_UNKNOWN_ALGORITHM),
        };
        let required = (
            game.moves,
            game.play,
            game.undo,
            game.outcome,
            game.evaluate,
        );
        let (Some(moves), Some(play), Some(undo), Some(outcome), Some(evaluate)) = required else {
            return Err(MM_ERR_NULL_ARGUMENT);
        };
        let stop = (!c_opts.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(c_opts.stop.cast_mut()) }
        });
        let mut report = |p: &Progress| {
            if let Some(f) = c_opts.progress {
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
                unsafe { f(c_opts.progress_context, &r) };
            }
        };
        let mut lease = if c_opts.table.is_null() {
            None
        } else {
            // SAFETY: a live table from mm_table_new (caller's guarantee).
            Some(unsafe { Lease::take(c_opts.table) }?)
        };
        let mut opts = Options {
            method,
            max_depth: c_opts.max_depth,
            iterative_deepening: c_opts.iterative_deepening,
            table_bytes: c_opts.table_bytes,
            table: lease.as_mut().map(Lease::table),
            node_limit: c_opts.node_limit,
            time_limit: (c_opts.time_limit_us > 0)
                .then(|| Duration::from_micros(c_opts.time_limit_us)),
            stop,
            progress: Some(&mut report),
            max_at_root: c_opts.max_at_root,
            refine_distance: c_opts.refine_distance,
            threads: c_opts.threads as usize,
        };
        let mut cgame = CGame {
            game,
            owned: false,
            moves,
            play,
            undo,
            outcome,
            evaluate,
            buffer: move_buffer(c_opts.max_moves)?,
            weights: Vec::new(),
        };
        if game.is_chance.is_some() {
            cgame.weights = move_buffer(c_opts.max_moves)?;
        }
        let r = search::search_parallel(&mut cgame, &mut opts)?;
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
            // SAFETY: non-NULL and writable (caller's guarantee); a caller that asked for
            // a chance method has this version's header, so the whole struct.
            Some(e) => unsafe {
                result.expected = e;
                out.write(result)
            },
            // SAFETY: as above, but only the 0.2.0 layout's bytes, which every caller's
            // struct has: a prefix of the struct, from a live local of its type.
            None => unsafe {
                std::ptr::copy_nonoverlapping(
                    (&result as *const mm_search_result).cast::<u8>(),
                    out.cast::<u8>(),
                    RESULT_SIZE_WITHOUT_EXPECTED,
                )
            },
        }
        Ok(())
    })
}

/// The size of `mm_search_result` in version 0.2.0: it ended at `threads_used` (and its
/// padding), before `expected`.
const RESULT_SIZE_WITHOUT_EXPECTED: usize = std::mem::offset_of!(mm_search_result, expected);

fn fewer_threads_code(reason: Option<FewerThreads>) -> mm_fewer_threads {
    match reason {
        // mm_search calls search_parallel, which never gives NotParallel.
        None | Some(FewerThreads::NotParallel) => MM_FEWER_THREADS_NONE,
        Some(FewerThreads::Minimax) => MM_FEWER_THREADS_MINIMAX,
        Some(FewerThreads::ChanceMethod) => MM_FEWER_THREADS_CHANCE_METHOD,
        Some(FewerThreads::NoHash) => MM_FEWER_THREADS_NO_HASH,
        Some(FewerThreads::NoTable) => MM_FEWER_THREADS_NO_TABLE,
        Some(FewerThreads::NoCopy) => MM_FEWER_THREADS_NO_COPY,
        Some(FewerThreads::NoSystemThread) => MM_FEWER_THREADS_NO_SYSTEM_THREAD,
    }
}

fn kind_of(expected: Option<f64>) -> mm_value_kind {
    match expected {
        Some(_) => MM_VALUE_EXPECTED,
        None => MM_VALUE_INTEGER,
    }
}

/// A buffer the `moves` or `outcomes` callback writes into: `max_moves` may be anything
/// a caller sets, so a failed allocation is a status rather than an abort.
fn move_buffer<T: Clone + Default>(max_moves: usize) -> Result<Vec<T>, mm_status> {
    let mut buffer = Vec::new();
    buffer
        .try_reserve_exact(max_moves)
        .map_err(|_| MM_ERR_OUT_OF_MEMORY)?;
    buffer.resize(max_moves, T::default());
    Ok(buffer)
}
