//! The engine's search of a C game with `mm_search`'s checks, in their order (each part's
//! checks live with its type): for `mm_search` and for the n-player views the engine
//! searches (`mm_paranoid_search`, `mm_best_reply_search`).

use std::sync::atomic::AtomicI32;

use crate::ffi::args::non_null;
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::lease::Lease;
use crate::ffi::options::{
    check_options, engine_options, method_of, mm_search_options, read_options, report,
};
use crate::ffi::probcut::read_fit;
use crate::ffi::result::{mm_search_result, write_result};
use crate::ffi::status::mm_status::{self, *};
use crate::search::{self, Fork, Game, Options};

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
