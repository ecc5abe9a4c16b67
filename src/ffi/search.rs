//! `mm_search`: the game, the options and a table from C, searched by the engine, the
//! answer written back. Each part's checks live with its type; this is the order.

use std::sync::atomic::AtomicI32;

use super::args::non_null;
use super::boundary::status_call;
use super::game::{CGame, check_game, mm_game, read_game};
use super::lease::Lease;
use super::options::{
    check_options, engine_options, method_of, mm_search_options, read_options, report,
};
use super::probcut::read_fit;
use super::result::{mm_search_result, write_result};
use super::status::mm_status::{self, *};
use crate::search::{self, Fork, Game, Options};

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

/// `mm_search`'s steps, for a game made from the caller's by `adapt` (a two-player
/// `CGame`, or the paranoid view of an n-player one) with `make` (which checks the game
/// has what it needs).
///
/// # Safety
/// As `mm_search`.
pub(crate) unsafe fn search_with<G: Game + Fork + Send + 'static>(
    game: *const mm_game,
    options: *const mm_search_options,
    out: *mut mm_search_result,
    pv: *mut i64,
    pv_cap: usize,
    make: fn(mm_game, usize) -> Result<CGame, mm_status>,
    adapt: fn(CGame) -> Result<G, mm_status>,
) -> mm_status {
    status_call(|| {
        // SAFETY (both reads): NULL, or a valid struct of its `struct_size` from its init
        // function (caller's guarantee).
        let game = unsafe { read_game(game) }?;
        let out = non_null(out)?;
        if pv.is_null() && pv_cap > 0 {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let c_opts = unsafe { read_options(options) }?;
        check_game(&game)?;
        check_options(&c_opts)?;
        let method = method_of(c_opts.method)?;
        let mut cgame = adapt(make(game, c_opts.max_moves)?)?;
        let stop = (!c_opts.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(c_opts.stop.cast_mut()) }
        });
        let mut progress = |p: &search::Progress| report(&c_opts, p);
        let mut lease = if c_opts.table.is_null() {
            None
        } else {
            // SAFETY: a live table from mm_table_new (caller's guarantee).
            Some(unsafe { Lease::take(c_opts.table, MM_ERR_TABLE_BUSY) }?)
        };
        let mut opts = Options {
            table: lease.as_mut().map(Lease::table),
            progress: Some(&mut progress),
            // SAFETY: NULL or a live fit, unchanged during the call (caller's guarantee).
            probcut: unsafe { read_fit(c_opts.probcut) },
            ..engine_options(&c_opts, method, stop)
        };
        let r = search::search_parallel(&mut cgame, &mut opts)?;
        // SAFETY: `out` is non-NULL and writable, `pv` holds `pv_cap` entries (caller's
        // guarantee).
        unsafe { write_result(&r, out, pv, pv_cap) };
        Ok(())
    })
}
