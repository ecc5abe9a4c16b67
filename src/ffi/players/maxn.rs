//! Games of more than two players from C: `mm_maxn_search` (max^n, with its options and
//! result), and `mm_paranoid_search` and `mm_best_reply_search` (the root's mover against
//! the others, by the two-player engine with `mm_search`'s options and result).

use std::sync::atomic::AtomicI32;
use std::time::Duration;

use crate::ffi::args::{non_null, read_sized, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::engine::search_with;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::options::mm_search_options;
use crate::ffi::result::mm_search_result;
use crate::ffi::status::mm_status::{self, *};
use crate::search::best_reply::BestReply;
use crate::search::maxn::{self, MAX_PLAYERS, MaxnOptions};
use crate::search::paranoid::Paranoid;

/// The most players a game may have (`players` in `mm_game`).
pub const MM_MAX_PLAYERS: u32 = 8;
// (Numbers, for the header; `mm_maxn_result::scores` has room for every player.)
const _: () = assert!(MM_MAX_PLAYERS as usize == MAX_PLAYERS);

/// How `mm_maxn_search` searches. Fill it with `mm_maxn_options_init`, then change what
/// you need.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_maxn_options {
    /// `sizeof(mm_maxn_options)`, set by `mm_maxn_options_init`.
    pub struct_size: usize,
    /// The depth limit in plies (default `MM_DEPTH_UNLIMITED`: until the value is proven).
    pub max_depth: u32,
    /// Search depth 1, 2, ... up to `max_depth` (default true).
    pub iterative_deepening: bool,
    /// Prune with the game's `player_bounds` (default true).
    pub shallow_pruning: bool,
    /// Stop after this many nodes (0, the default: no limit).
    pub node_limit: u64,
    /// Stop after this many microseconds (0, the default: no limit).
    pub time_limit_us: u64,
    /// Stop when another thread stores a non-zero value here (NULL: no flag).
    pub stop: *const i32,
    /// The most moves a position has: the room the `moves` callback gets (default 256).
    pub max_moves: usize,
    /// The transposition table's size in bytes (mapped lazily); 0 (the default) turns it
    /// off, and so do a game without `hash` and memory that cannot be had. Off by
    /// default: on Rolit and Chinese Checkers, at the depths a clock reaches, it saved
    /// at most 5% of the nodes and no time (docs/performance.md); it pays where
    /// positions meet again well above the leaves and the hash is cheap.
    pub table_bytes: usize,
}

impl Default for mm_maxn_options {
    fn default() -> Self {
        mm_maxn_options {
            struct_size: size_of::<mm_maxn_options>(),
            max_depth: u32::MAX,
            iterative_deepening: true,
            shallow_pruning: true,
            node_limit: 0,
            time_limit_us: 0,
            stop: std::ptr::null(),
            max_moves: 256,
            table_bytes: 0,
        }
    }
}

/// What `mm_maxn_search` found.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_maxn_result {
    /// False when the game is over (or the depth limit is 0).
    pub has_move: bool,
    /// The move to play.
    pub best_move: i64,
    /// Each player's score at the end of the line the players choose (or by the game's
    /// evaluations at the depth limit); the first `players` entries are used. Where
    /// chance steps make it an expectation, rounded to the nearest integer.
    pub scores: [i32; 8],
    /// How many players the game has.
    pub players: u32,
    /// Whether `scores` is the max^n value at `depth` (false: no iteration finished, and
    /// `scores` is zeros).
    pub exact: bool,
    /// Whether it is the game's true max^n value, every line reaching a final position.
    pub proven: bool,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// The length of the principal variation (the moves written are at most `pv_cap`).
    pub pv_len: usize,
    /// Positions visited.
    pub nodes: u64,
    /// Moves left unsearched by pruning.
    pub cutoffs: u64,
    /// Each player's value: `scores` exactly, or their expectation over chance steps.
    pub values: [f64; 8],
    /// Positions whose value the table gave.
    pub table_hits: u64,
}

/// Fills `*options`, a struct of `size` bytes, with that size and the defaults (the
/// header's `mm_maxn_options_init(options)` passes `sizeof`). A smaller size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_maxn_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_maxn_options_init_sized(
    options: *mut mm_maxn_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_maxn_options::default(), size, &[]) }
    })
}

/// Searches a game of `players` 3 to 8 with max^n: each player at its turn picks the
/// move best for itself, ties to the first listed; a chance step's value is its
/// outcomes' mean, weighted by their probabilities. `options` may be NULL for the
/// defaults. On `MM_OK` fills `*out` and writes the principal variation's first
/// `min(out->pv_len, pv_cap)` moves to `pv` (which may be NULL when `pv_cap` is 0).
/// Limits and the stop flag end it with `MM_OK` and the last completed iteration's
/// answer (if none completed: the first legal move, `exact` false). A game that breaks
/// its contract gets `MM_ERR_GAME_*`, and `*out` is untouched; the game is left in the
/// position it started from.
///
/// # Safety
/// `game` must point to a valid `mm_game` whose callbacks may be called with its context;
/// `options` (if not NULL) to options from `mm_maxn_options_init`, whose `stop` (if not
/// NULL) stays valid and is only written atomically; `out` must be writable and `pv` hold
/// `pv_cap` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_maxn_search(
    game: *const mm_game,
    options: *const mm_maxn_options,
    out: *mut mm_maxn_result,
    pv: *mut i64,
    pv_cap: usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: NULL, or a valid game of its `struct_size` (caller's guarantee).
        let game = unsafe { read_game(game) }?;
        let out = non_null(out)?;
        if pv.is_null() && pv_cap > 0 {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let defaults = mm_maxn_options::default();
        let o = if options.is_null() {
            defaults
        } else {
            let bools = [
                std::mem::offset_of!(mm_maxn_options, iterative_deepening),
                std::mem::offset_of!(mm_maxn_options, shallow_pruning),
            ];
            // SAFETY: non-NULL, options of their `struct_size` (caller's guarantee), their
            // `bool`s listed.
            unsafe { read_sized(options, defaults, &[], &bools) }?
        };
        check_game(&game)?;
        let mut cgame = CGame::new_players(game, o.max_moves)?;
        let stop = (!o.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(o.stop.cast_mut()) }
        });
        let opts = MaxnOptions {
            max_depth: o.max_depth,
            iterative_deepening: o.iterative_deepening,
            node_limit: o.node_limit,
            time_limit: (o.time_limit_us > 0).then(|| Duration::from_micros(o.time_limit_us)),
            stop,
            shallow_pruning: o.shallow_pruning,
            table_bytes: o.table_bytes,
        };
        let r = maxn::search(&mut cgame, &opts)?;
        let mut result = mm_maxn_result {
            has_move: r.best_move.is_some(),
            best_move: r.best_move.unwrap_or(0),
            players: r.scores.len().max(game.players as usize) as u32,
            exact: r.exact,
            proven: r.proven,
            depth: r.depth,
            pv_len: r.pv.len(),
            nodes: r.nodes,
            cutoffs: r.cutoffs,
            table_hits: r.table_hits,
            ..mm_maxn_result::default()
        };
        result.scores[..r.scores.len()].copy_from_slice(&r.scores);
        result.values[..r.values.len()].copy_from_slice(&r.values);
        let n = r.pv.len().min(pv_cap);
        // SAFETY: `out` is non-NULL and writable; `pv` holds `pv_cap` >= `n` writable
        // entries (caller's guarantee), and is not NULL when `n` > 0 (checked above).
        unsafe {
            out.write(result);
            if n > 0 {
                std::ptr::copy_nonoverlapping(r.pv.as_ptr(), pv, n);
            }
        }
        Ok(())
    })
}

/// Searches a game of `players` 3 to 8 as its player to move (MAX) against all the
/// others (MIN) together, with `mm_search`'s options (every method, table, threads,
/// enhancements, limits) and result: the value is the score the player to move can be
/// sure of whatever the others do (`proven`: its true value in that sense), in that
/// player's own terms. The table's entries are kept apart by player, so a table lent to
/// searches for different players stays right. Otherwise as `mm_search`.
///
/// # Safety
/// As `mm_search`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_paranoid_search(
    game: *const mm_game,
    options: *const mm_search_options,
    out: *mut mm_search_result,
    pv: *mut i64,
    pv_cap: usize,
) -> mm_status {
    let adapt = |g: CGame| Paranoid::new(g).map_err(mm_status::from);
    // SAFETY: the caller's guarantees, passed on.
    unsafe { search_with(game, options, out, pv, pv_cap, CGame::new_players, adapt) }
}

/// Best-reply search (Schadd and Winands, 2011) of a game of `players` 3 to 8: between
/// two turns of the player to move (MAX), only the one opponent whose move is worst for
/// it moves, the others passing; with `mm_search`'s options and result, the value in
/// that player's terms. The passes are the game's `null_move` (a pass hands the turn to
/// the next player), required where an opponent passes (`MM_ERR_GAME_NO_PASS`). The
/// principal variation's first move is a move of the game; past it, the line holds the
/// search's own numbers for the replies, not moves. Otherwise as `mm_paranoid_search`.
///
/// # Safety
/// As `mm_search`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_best_reply_search(
    game: *const mm_game,
    options: *const mm_search_options,
    out: *mut mm_search_result,
    pv: *mut i64,
    pv_cap: usize,
) -> mm_status {
    let adapt = |g: CGame| BestReply::new(g).map_err(mm_status::from);
    // SAFETY: the caller's guarantees, passed on.
    unsafe { search_with(game, options, out, pv, pv_cap, CGame::new_players, adapt) }
}
