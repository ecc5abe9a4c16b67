//! Calibrating a Multi-ProbCut fit from C: the engine's self-play from the game's
//! position (`mm_probcut_calibrate`) or the program's own positions
//! (`mm_probcut_calibrate_positions`), searched as the caller's search options say.

use std::sync::atomic::AtomicI32;

use crate::ffi::args::{non_null, read_sized, slice, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::options::{
    check_options, engine_options, method_of, mm_search_options, read_options,
};
use crate::ffi::probcut::{give, mm_probcut};
use crate::ffi::status::mm_status::{self, *};
use crate::search::{
    CalibrateOptions, Calibration, Options, calibrate_probcut, calibrate_probcut_positions,
};

/// Two depths to fit: the deep search's value predicted from the shallow one's.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_probcut_depths {
    /// The depth of the nodes to cut (2 to 63).
    pub deep: u32,
    /// The depth of the search that predicts theirs (1 to `deep - 1`).
    pub shallow: u32,
}

/// How a fit is calibrated: fill with `mm_calibrate_options_init`, then change what you
/// need. Everything is seeded and bounded by depths and nodes, never the clock: a
/// calibration gives the same fit on every machine.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_calibrate_options {
    /// `sizeof(mm_calibrate_options)`, set by `mm_calibrate_options_init`.
    pub struct_size: usize,
    /// The depth pairs to fit (`pair_count` of them), or NULL for the default pairs up to
    /// `max_depth`: each depth from 3 with the one about half as deep of the same parity.
    /// A pair that cannot be used (depths outside `1 <= shallow < deep <= 63`) is left
    /// out, and so is, at each stage, a pair with fewer than 20 positions' values.
    pub pairs: *const mm_probcut_depths,
    /// How many pairs `pairs` holds.
    pub pair_count: usize,
    /// The deepest search, for the default pairs (default 10).
    pub max_depth: u32,
    /// Self-play games (default 8), for `mm_probcut_calibrate`.
    pub games: u32,
    /// Random plies at the start of each self-play game (default 6), seeded.
    pub random_plies: u32,
    /// The most plies of a self-play game after its random ones (default 200).
    pub max_plies: u32,
    /// The random plies' seed (default 1).
    pub seed: u64,
    /// The most nodes one position's search may visit (default 0: no limit); a search
    /// stopped by it gives the depths it completed.
    pub node_limit: u64,
    /// The table's size for each position's search, emptied between positions (default
    /// 16 MiB).
    pub table_bytes: usize,
}

impl Default for mm_calibrate_options {
    fn default() -> Self {
        let d = CalibrateOptions::default();
        mm_calibrate_options {
            struct_size: size_of::<mm_calibrate_options>(),
            pairs: std::ptr::null(),
            pair_count: 0,
            max_depth: d.max_depth,
            games: d.games,
            random_plies: d.random_plies,
            max_plies: d.max_plies,
            seed: d.seed,
            node_limit: d.node_limit,
            table_bytes: d.table_bytes,
        }
    }
}

/// What a calibration saw.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_calibration {
    /// Positions searched.
    pub positions: u32,
    /// Of them, those whose values were used (a position whose search proved its value
    /// is left out).
    pub used: u32,
}

/// Fills `*options`, a struct of `size` bytes (`sizeof(mm_calibrate_options)` where the
/// caller was compiled), with that size and the defaults; the header's
/// `mm_calibrate_options_init(options)` macro passes the size. A larger size gets zeros
/// past this version's fields; any other size is `MM_ERR_BAD_STRUCT_SIZE`, and nothing
/// is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_calibrate_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_calibrate_options_init_sized(
    options: *mut mm_calibrate_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_calibrate_options::default(), size, &[]) }
    })
}

/// The caller's calibration options as the engine's (NULL: the defaults).
///
/// # Safety
/// `options`, if not NULL, must point to options from `mm_calibrate_options_init`, whose
/// `pairs` holds `pair_count` readable pairs.
unsafe fn read_calibrate(
    options: *const mm_calibrate_options,
) -> Result<CalibrateOptions, mm_status> {
    let o = if options.is_null() {
        mm_calibrate_options::default()
    } else {
        // SAFETY: as the function's.
        unsafe { read_sized(options, mm_calibrate_options::default(), &[], &[]) }?
    };
    // SAFETY: `pairs` holds `pair_count` pairs (caller's guarantee); a count of 0 is
    // the default pairs.
    let given = unsafe { slice(o.pairs, o.pair_count) }?;
    let mut pairs = Vec::new();
    pairs
        .try_reserve_exact(given.len())
        .map_err(|_| MM_ERR_OUT_OF_MEMORY)?;
    pairs.extend(given.iter().map(|p| (p.deep, p.shallow)));
    Ok(CalibrateOptions {
        pairs,
        max_depth: o.max_depth,
        games: o.games,
        random_plies: o.random_plies,
        max_plies: o.max_plies,
        seed: o.seed,
        node_limit: o.node_limit,
        table_bytes: o.table_bytes,
    })
}

/// The search settings a calibration searches with: the method (alpha-beta, or PVS for
/// any other), the enhancements and the stop flag of the caller's search options; and
/// the room for moves.
///
/// # Safety
/// `search`, if not NULL, must point to options from `mm_search_options_init` whose
/// `stop` (if not NULL) stays valid during the calibration and is only written
/// atomically.
unsafe fn read_settings(
    search: *const mm_search_options,
) -> Result<(Options<'static>, usize), mm_status> {
    // SAFETY: as the function's.
    let o = unsafe { read_options(search) }?;
    check_options(&o)?;
    let method = method_of(o.method)?;
    let stop = (!o.stop.is_null()).then(|| {
        // SAFETY: an aligned int that stays valid during the calibration and that other
        // threads write only atomically (caller's guarantee); the options do not outlive
        // the calling function.
        unsafe { AtomicI32::from_ptr(o.stop.cast_mut()) }
    });
    Ok((engine_options(&o, method, stop), o.max_moves))
}

/// Writes a calibration's fit to `*out` and what it saw to `*report` (if not NULL).
///
/// # Safety
/// `out` must be writable; `report` NULL or writable.
unsafe fn hand_over(
    c: Calibration,
    out: *mut *mut mm_probcut,
    report: *mut mm_calibration,
) -> Result<(), mm_status> {
    let seen = mm_calibration {
        positions: c.positions,
        used: c.used,
    };
    // SAFETY: `out` is writable (caller's guarantee).
    unsafe { give(c.fit, out) }?;
    if !report.is_null() {
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { report.write(seen) };
    }
    Ok(())
}

/// Calibrates a fit by the engine's self-play from the game's current position, which
/// is left as it was: `games` games, each `random_plies` seeded random plies then the
/// moves the calibration's searches choose, until the game ends or a search proves its
/// result. Each position is searched with deepening to the deepest depth the pairs need,
/// each completed iteration's value a sample of that depth, as `search` says (NULL: the
/// defaults): its method (alpha-beta, or PVS for any other), its enhancements,
/// `max_moves`, and `max_at_root` for a game without `max_to_move` (who moves first;
/// turns then alternate) (its limits, table, threads and callbacks are not used). Its `stop` flag
/// ends the calibration early, with `MM_OK` and the fit of the positions searched
/// before it was set. The fit is a
/// least-squares line per stage (the game's `stage`) and pair, after values far from
/// the others are dropped, with `t` 1.5; set another with `mm_probcut_set_confidence`.
/// On `MM_OK` writes the new fit to `*out` and, if `report` is not NULL, what the
/// calibration saw. A game of more than two players is `MM_ERR_NOT_TWO_PLAYERS`; a
/// misbehaving game gets `MM_ERR_GAME_*`, as in `mm_search`.
///
/// # Safety
/// `game` must point to a valid `mm_game` whose callbacks may be called with its context;
/// `search` and `options` NULL or from their init macros (`options->pairs` holding
/// `pair_count` pairs, `search->stop` NULL or valid during the call and only written
/// atomically); `out` writable; `report` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_calibrate(
    game: *const mm_game,
    search: *const mm_search_options,
    options: *const mm_calibrate_options,
    out: *mut *mut mm_probcut,
    report: *mut mm_calibration,
) -> mm_status {
    status_call(|| {
        // SAFETY (the three reads): the caller's guarantees.
        let game = unsafe { read_game(game) }?;
        non_null(out)?;
        check_game(&game)?;
        let (settings, max_moves) = unsafe { read_settings(search) }?;
        let opts = unsafe { read_calibrate(options) }?;
        let mut cgame = CGame::new(game, max_moves)?;
        let c = calibrate_probcut(&mut cgame, &settings, &opts)?;
        // SAFETY: `out` and `report` as the caller guarantees.
        unsafe { hand_over(c, out, report) }
    })
}

/// Calibrates a fit from the program's own positions: `games[0 .. count]`, each a game
/// in the position to sample (a position already over is skipped), left as it was.
/// Searched and fitted as in `mm_probcut_calibrate` (`options`' self-play fields are not
/// used).
///
/// # Safety
/// `games` must hold `count` pointers to valid `mm_game`s, as for
/// `mm_probcut_calibrate`; the rest as there.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_probcut_calibrate_positions(
    games: *const *const mm_game,
    count: usize,
    search: *const mm_search_options,
    options: *const mm_calibrate_options,
    out: *mut *mut mm_probcut,
    report: *mut mm_calibration,
) -> mm_status {
    status_call(|| {
        // SAFETY (each read): the caller's guarantees.
        let given = unsafe { slice(games, count) }?;
        non_null(out)?;
        let (settings, max_moves) = unsafe { read_settings(search) }?;
        let opts = unsafe { read_calibrate(options) }?;
        let mut positions = Vec::new();
        positions
            .try_reserve_exact(given.len())
            .map_err(|_| MM_ERR_OUT_OF_MEMORY)?;
        for &g in given {
            let game = unsafe { read_game(g) }?;
            check_game(&game)?;
            positions.push(CGame::new(game, max_moves)?);
        }
        let c = calibrate_probcut_positions(&mut positions, &settings, &opts)?;
        // SAFETY: `out` and `report` as the caller guarantees.
        unsafe { hand_over(c, out, report) }
    })
}
