//! `mm_ismcts_search`: information-set MCTS for a C game with hidden information, each
//! iteration on a sample the game's `sample` callback makes (and `free_context` frees),
//! with its options and result.

use std::sync::atomic::AtomicI32;
use std::time::Duration;

use crate::ffi::args::{non_null, read_sized, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::reward::player_reward;
use crate::ffi::reward::{MM_MCTS_REWARD_SIGN, mm_mcts_reward};
use crate::ffi::status::mm_status::{self, *};
use crate::search::ismcts::{self, IsmctsOptions};

/// How `mm_ismcts_search` searches. Fill it with `mm_ismcts_options_init`, then change
/// what you need.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_ismcts_options {
    /// `sizeof(mm_ismcts_options)`, set by `mm_ismcts_options_init`.
    pub struct_size: usize,
    /// Stop after this many iterations (default 10,000; 0: only the time limit, which
    /// must then be given).
    pub iterations: u64,
    /// Stop after this many microseconds (0, the default: no limit).
    pub time_limit_us: u64,
    /// Stop when another thread stores a non-zero value here (NULL: no flag).
    pub stop: *const i32,
    /// UCB's exploration constant, for rewards in [0, 1] (default 0.7).
    pub exploration: f64,
    /// `MM_MCTS_REWARD_SIGN` (the default: the top scorers share a reward of 1) or
    /// `MM_MCTS_REWARD_SCALED` (each score scaled by the game's bounds: `player_bounds`,
    /// or `bounds` for two players).
    pub reward: mm_mcts_reward,
    /// The seed of the samples and playouts: the same seed, the same search (default 0).
    pub seed: u64,
    /// The most nodes the tree holds; past it, iterations add none (default 1,048,576).
    pub max_nodes: u64,
    /// The most moves a position has: the room the `moves` callback gets (default 256).
    pub max_moves: usize,
    /// Multi-observer ISMCTS: a tree a player, moves as the game's `observed_move` shows
    /// them to each (default false: one tree, every move seen by every player).
    pub multi_observer: bool,
}

impl Default for mm_ismcts_options {
    fn default() -> Self {
        let d = IsmctsOptions::default();
        mm_ismcts_options {
            struct_size: size_of::<mm_ismcts_options>(),
            iterations: d.iterations,
            time_limit_us: 0,
            stop: std::ptr::null(),
            exploration: d.exploration,
            reward: MM_MCTS_REWARD_SIGN,
            seed: d.seed,
            max_nodes: d.max_nodes as u64,
            max_moves: 256,
            multi_observer: false,
        }
    }
}

/// What `mm_ismcts_search` found. Rewards are the root mover's, in [0, 1].
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_ismcts_result {
    /// False when the game is over.
    pub has_move: bool,
    /// The most visited move at the root.
    pub best_move: i64,
    /// Its mean reward.
    pub value: f64,
    /// Iterations through it.
    pub visits: u64,
    /// Iterations made.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: u64,
}

/// Fills `*options`, a struct of `size` bytes, with that size and the defaults (the
/// header's `mm_ismcts_options_init(options)` passes `sizeof`). A smaller size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_ismcts_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_ismcts_options_init_sized(
    options: *mut mm_ismcts_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_ismcts_options::default(), size, &[]) }
    })
}

/// Searches a game of 2 to 8 players with hidden information by single-observer
/// information-set MCTS (Cowling, Powley and Whitehouse) from the view of the player to
/// move: each iteration plays on a sample from the game's `sample` callback, which
/// `free_context` frees after. `options` may be NULL for the defaults. On `MM_OK` fills
/// `*out`; limits and the stop flag end it with `MM_OK` and the best move so far. A game
/// without `sample`, or whose `sample` gives NULL, is `MM_ERR_GAME_NO_SAMPLE`; a sample
/// with other legal moves at the root than the position's, or over where it is not,
/// `MM_ERR_GAME_BAD_SAMPLE`; `sample` without `free_context`
/// `MM_ERR_SAMPLE_WITHOUT_FREE`; a chance step at the root
/// `MM_ERR_CHANCE_ROOT`; bad options `MM_ERR_UNKNOWN_REWARD`, `MM_ERR_BAD_EXPLORATION` or
/// `MM_ERR_BAD_OPTIONS` (`max_moves` 0, or neither iterations nor a time limit); other
/// broken contracts `MM_ERR_GAME_*`, and `*out` is untouched. The game's own context is
/// never played on.
///
/// # Safety
/// `game` must point to a valid `mm_game` whose callbacks may be called with its context
/// and with the samples' contexts; `options` (if not NULL) to options from
/// `mm_ismcts_options_init`, whose `stop` (if not NULL) stays valid and is only written
/// atomically; `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_ismcts_search(
    game: *const mm_game,
    options: *const mm_ismcts_options,
    out: *mut mm_ismcts_result,
) -> mm_status {
    status_call(|| {
        // SAFETY: NULL, or a valid game of its `struct_size` (caller's guarantee).
        let game = unsafe { read_game(game) }?;
        let out = non_null(out)?;
        let defaults = mm_ismcts_options::default();
        let o = if options.is_null() {
            defaults
        } else {
            let bools = [std::mem::offset_of!(mm_ismcts_options, multi_observer)];
            // SAFETY: non-NULL, options of their `struct_size` (caller's guarantee); its
            // one `bool` listed.
            unsafe { read_sized(options, defaults, &[], &bools) }?
        };
        let reward = player_reward(o.reward)?;
        if !(o.exploration >= 0.0 && o.exploration.is_finite()) {
            return Err(MM_ERR_BAD_EXPLORATION);
        }
        if o.max_moves == 0 || (o.iterations == 0 && o.time_limit_us == 0) {
            return Err(MM_ERR_BAD_OPTIONS);
        }
        check_game(&game)?;
        if game.sample.is_none() {
            return Err(MM_ERR_GAME_NO_SAMPLE);
        }
        let mut root = if game.players > 2 {
            CGame::new_players(game, o.max_moves)?
        } else {
            CGame::new(game, o.max_moves)?
        };
        let stop = (!o.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(o.stop.cast_mut()) }
        });
        let opts = IsmctsOptions {
            iterations: o.iterations,
            time_limit: (o.time_limit_us > 0).then(|| Duration::from_micros(o.time_limit_us)),
            exploration: o.exploration,
            reward,
            seed: o.seed,
            max_nodes: usize::try_from(o.max_nodes).unwrap_or(usize::MAX).max(1),
            multi_observer: o.multi_observer,
        };
        let r = ismcts::search_with(&mut root, &opts, stop, |g, seed| g.sampled(seed))?;
        let best = r.root.iter().find(|m| Some(m.mv) == r.best_move);
        let result = mm_ismcts_result {
            has_move: r.best_move.is_some(),
            best_move: r.best_move.unwrap_or(0),
            value: best.map_or(0.0, |m| m.mean),
            visits: best.map_or(0, |m| m.visits),
            iterations: r.iterations,
            nodes: r.nodes as u64,
        };
        // SAFETY: `out` is non-NULL and writable (caller's guarantee).
        unsafe { out.write(result) };
        Ok(())
    })
}
