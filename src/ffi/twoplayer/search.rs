//! `mm_search`: the game, the options and a table from C, searched by the engine, the
//! answer written back (the steps are `ffi/engine.rs`).

use crate::ffi::engine::search_with;
use crate::ffi::game::{CGame, mm_game};
use crate::ffi::options::mm_search_options;
use crate::ffi::result::mm_search_result;
use crate::ffi::status::mm_status;

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
/// NULL) stays valid and is only written atomically, and whose `probcut` (if not NULL)
/// is a live fit that nothing changes during the call; `out` must be writable and `pv` hold
/// `pv_cap` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_search(
    game: *const mm_game,
    options: *const mm_search_options,
    out: *mut mm_search_result,
    pv: *mut i64,
    pv_cap: usize,
) -> mm_status {
    // SAFETY: the caller's guarantees, passed on.
    unsafe { search_with(game, options, out, pv, pv_cap, CGame::new, Ok) }
}
