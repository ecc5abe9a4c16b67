//! `mm_maxn_mcts_search`: MCTS with max^n backups for a C game of 3 to 8 players, one
//! search from a fresh tree (threads each with a tree of their own), with its options
//! and result.

use std::sync::atomic::AtomicI32;
use std::time::Duration;

use crate::ffi::args::{non_null, read_sized, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::result::{fewer_threads_code, mm_fewer_threads};
use crate::ffi::reward::player_reward;
use crate::ffi::reward::{MM_MCTS_REWARD_SIGN, mm_mcts_reward};
use crate::ffi::status::mm_status::{self, *};
use crate::search::MAX_THREADS;
use crate::search::maxn_mcts::{MaxnMcts, MaxnMctsOptions};

/// How `mm_maxn_mcts_search` searches. Fill it with `mm_maxn_mcts_options_init`, then
/// change what you need.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_maxn_mcts_options {
    /// `sizeof(mm_maxn_mcts_options)`, set by `mm_maxn_mcts_options_init`.
    pub struct_size: usize,
    /// Stop after this many playouts over every thread (default 10,000; 0: until the
    /// root is proven, the trees stop growing, or another limit).
    pub playouts: u64,
    /// The most nodes a thread's tree holds (default 2,097,152).
    pub max_nodes: u64,
    /// Stop after this many microseconds (0, the default: no limit).
    pub time_limit_us: u64,
    /// Stop when another thread stores a non-zero value here (NULL: no flag).
    pub stop: *const i32,
    /// UCT's exploration constant (default sqrt(2)).
    pub exploration: f64,
    /// `MM_MCTS_REWARD_SIGN` (the default: the top scorers share a reward of 1) or
    /// `MM_MCTS_REWARD_SCALED` (each score scaled by the game's `player_bounds`).
    pub reward: mm_mcts_reward,
    /// Playouts stop after this many plies and score by `player_evaluations` (0, the
    /// default: to the end).
    pub playout_depth: u32,
    /// The seed of the first thread's playouts (default 0x5EED).
    pub seed: u64,
    /// Threads, each with a tree of its own and a copy of the game from `copy_context`
    /// (default 1; 0: one per core; at most `MM_MAX_THREADS`).
    pub threads: u32,
    /// The most moves a position has: the room the `moves` callback gets (default 256).
    pub max_moves: usize,
}

impl Default for mm_maxn_mcts_options {
    fn default() -> Self {
        let d = MaxnMctsOptions::default();
        mm_maxn_mcts_options {
            struct_size: size_of::<mm_maxn_mcts_options>(),
            playouts: d.playouts,
            max_nodes: d.max_nodes as u64,
            time_limit_us: 0,
            stop: std::ptr::null(),
            exploration: d.exploration,
            reward: MM_MCTS_REWARD_SIGN,
            playout_depth: 0,
            seed: d.seed,
            threads: 1,
            max_moves: 256,
        }
    }
}

/// What `mm_maxn_mcts_search` found. Rewards are in [0, 1], one a player (the first
/// `players` entries used).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_maxn_mcts_result {
    /// False when the game is over.
    pub has_move: bool,
    /// The move to play: the one that proves the root, else the most visited.
    pub best_move: i64,
    /// How many players the game has.
    pub players: u32,
    /// Each player's mean (or proven) reward after the best move.
    pub values: [f64; 8],
    /// Whether the solver proved the root.
    pub proven: bool,
    /// Each player's proven reward at the root, when `proven`.
    pub proven_rewards: [f64; 8],
    /// Playouts over every thread.
    pub playouts: u64,
    /// Nodes in the trees.
    pub nodes: u64,
    /// Threads that searched.
    pub threads_used: u32,
    /// Why fewer threads searched than asked for: an `MM_FEWER_THREADS_*` value.
    pub fewer_threads: mm_fewer_threads,
    /// Whether a tree reached `max_nodes` (or memory ran short) and stopped growing.
    pub tree_full: bool,
}

/// Fills `*options`, a struct of `size` bytes, with that size and the defaults (the
/// header's `mm_maxn_mcts_options_init(options)` passes `sizeof`). A smaller size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_maxn_mcts_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_maxn_mcts_options_init_sized(
    options: *mut mm_maxn_mcts_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_maxn_mcts_options::default(), size, &[]) }
    })
}

/// Searches a game of `players` 3 to 8 by MCTS with max^n backups (each node's mover
/// picks by its own reward) and the n-player solver, from a fresh tree; chance steps are
/// drawn by their weights. `options` may be NULL for the defaults. On `MM_OK` fills
/// `*out`. Limits and the stop flag end it with `MM_OK` and the best move so far. A game
/// that breaks its contract gets `MM_ERR_GAME_*` and `*out` is untouched; bad options
/// `MM_ERR_UNKNOWN_REWARD`, `MM_ERR_BAD_EXPLORATION`, `MM_ERR_BAD_OPTIONS` (`max_moves`
/// 0) or `MM_ERR_TOO_MANY_THREADS`; scaled rewards without `player_bounds`
/// `MM_ERR_NEEDS_BOUNDS`. The game is left in the position it started from.
///
/// # Safety
/// `game` must point to a valid `mm_game` whose callbacks may be called with its context
/// (on other threads too, with copies from `copy_context`, when `threads` is not 1);
/// `options` (if not NULL) to options from `mm_maxn_mcts_options_init`, whose `stop` (if
/// not NULL) stays valid and is only written atomically; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_maxn_mcts_search(
    game: *const mm_game,
    options: *const mm_maxn_mcts_options,
    out: *mut mm_maxn_mcts_result,
) -> mm_status {
    status_call(|| {
        // SAFETY: NULL, or a valid game of its `struct_size` (caller's guarantee).
        let game = unsafe { read_game(game) }?;
        let out = non_null(out)?;
        let defaults = mm_maxn_mcts_options::default();
        let o = if options.is_null() {
            defaults
        } else {
            // SAFETY: non-NULL, options of their `struct_size` (caller's guarantee); no
            // `bool`s.
            unsafe { read_sized(options, defaults, &[], &[]) }?
        };
        let reward = player_reward(o.reward)?;
        if !(o.exploration >= 0.0 && o.exploration.is_finite()) {
            return Err(MM_ERR_BAD_EXPLORATION);
        }
        if o.max_moves == 0 {
            return Err(MM_ERR_BAD_OPTIONS);
        }
        if o.threads as usize > MAX_THREADS {
            return Err(MM_ERR_TOO_MANY_THREADS);
        }
        check_game(&game)?;
        let mut cgame = CGame::new_players(game, o.max_moves)?;
        let stop = (!o.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(o.stop.cast_mut()) }
        });
        let opts = MaxnMctsOptions {
            playouts: o.playouts,
            max_nodes: usize::try_from(o.max_nodes).unwrap_or(usize::MAX),
            time_limit: (o.time_limit_us > 0).then(|| Duration::from_micros(o.time_limit_us)),
            stop,
            exploration: o.exploration,
            reward,
            playout_depth: o.playout_depth,
            seed: o.seed,
            threads: o.threads as usize,
        };
        let r = MaxnMcts::new().search_parallel(&mut cgame, &opts)?;
        let mut result = mm_maxn_mcts_result {
            has_move: r.best_move.is_some(),
            best_move: r.best_move.unwrap_or(0),
            players: game.players,
            proven: r.proven.is_some(),
            playouts: r.playouts,
            nodes: r.nodes,
            threads_used: r.threads as u32,
            fewer_threads: fewer_threads_code(r.fewer_threads),
            tree_full: r.tree_full,
            ..mm_maxn_mcts_result::default()
        };
        result.values[..r.values.len()].copy_from_slice(&r.values);
        if let Some(p) = &r.proven {
            result.proven_rewards[..p.len()].copy_from_slice(p);
        }
        // SAFETY: `out` is non-NULL and writable (caller's guarantee).
        unsafe { out.write(result) };
        Ok(())
    })
}
