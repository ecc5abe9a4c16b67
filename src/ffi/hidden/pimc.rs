//! `mm_pimc_search`: perfect-information Monte Carlo for a two-player C game with hidden
//! information: samples from the game's `sample` callback (freed by `free_context`),
//! each root move of each searched by the engine with the caller's search options.

use std::sync::atomic::AtomicI32;

use crate::ffi::args::{non_null, read_sized, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::options::{
    check_options, engine_options, method_of, mm_search_options, read_options,
};
use crate::ffi::probcut::read_fit;
use crate::ffi::status::mm_status::{self, *};
use crate::search::pimc::{self, Combine, Valued};
use crate::search::{self, Method, Options, ProbCut};

/// How PIMC combines the samples' values (`combine` in `mm_pimc_options`).
pub type mm_pimc_combine = u32;
/// The move with the best mean value over the samples.
pub const MM_PIMC_MEAN: mm_pimc_combine = 0;
/// The move the most samples rank first (a tie's vote split), then the best mean.
pub const MM_PIMC_VOTES: mm_pimc_combine = 1;

/// How `mm_pimc_search` searches. Fill it with `mm_pimc_options_init`, then change what
/// you need.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_pimc_options {
    /// `sizeof(mm_pimc_options)`, set by `mm_pimc_options_init`.
    pub struct_size: usize,
    /// Samples drawn (default 20; at least 1).
    pub samples: u32,
    /// Threads the samples are spread over (default 1): the answer is one thread's.
    pub threads: u32,
    /// Sample `i` is drawn with a seed made from this and `i` (default 0): the same
    /// seed, the same samples.
    pub seed: u64,
    /// `MM_PIMC_MEAN` (the default) or `MM_PIMC_VOTES`.
    pub combine: mm_pimc_combine,
    /// Each root move's search in each sample (NULL: `mm_search_options_init`'s
    /// defaults): its method, depth, limits (a search's own), table size and
    /// enhancements; `max_at_root` says whether MAX moves at the root for a game without
    /// `max_to_move`. Its `threads` must be 1 and its `table` NULL (each search has a
    /// table of its own), else `MM_ERR_BAD_OPTIONS`; its `progress` is not called.
    pub search: *const mm_search_options,
}

impl Default for mm_pimc_options {
    fn default() -> Self {
        let d = pimc::PimcOptions::default();
        mm_pimc_options {
            struct_size: size_of::<mm_pimc_options>(),
            samples: d.samples as u32,
            threads: 1,
            seed: d.seed,
            combine: MM_PIMC_MEAN,
            search: std::ptr::null(),
        }
    }
}

/// What `mm_pimc_search` found. Values are in MAX's view.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_pimc_result {
    /// False when the game is over.
    pub has_move: bool,
    /// The move chosen.
    pub best_move: i64,
    /// Its mean value over the samples.
    pub value: f64,
    /// Whether every search was exact (each child's value proven).
    pub proven: bool,
    /// Positions visited, over every search.
    pub nodes: u64,
    /// The root's moves (as many as `moves_cap` are written to `moves`).
    pub move_count: u64,
}

/// A root move's figures over the samples.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_pimc_move {
    /// The move.
    pub mv: i64,
    /// Its mean value over the samples, in MAX's view.
    pub mean: f64,
    /// The samples in which it was best (a tie's vote split).
    pub votes: f64,
}

/// Fills `*options`, a struct of `size` bytes, with that size and the defaults (the
/// header's `mm_pimc_options_init(options)` passes `sizeof`). A smaller size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_pimc_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_pimc_options_init_sized(
    options: *mut mm_pimc_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_pimc_options::default(), size, &[]) }
    })
}

/// Perfect-information Monte Carlo (Levy; Ginsberg's GIB) for a two-player game with
/// hidden information: `samples` positions from the game's `sample` callback (each freed
/// by `free_context` after), every root move of each searched as if nothing were hidden
/// with `options->search`, the move chosen by `combine`. `options` may be NULL for the
/// defaults. On `MM_OK` fills `*out` and the first `moves_cap` root moves into `moves`
/// (NULL when `moves_cap` is 0), in the game's order. A game without `sample`, or whose
/// `sample` gives NULL, is `MM_ERR_GAME_NO_SAMPLE`; a sample with other legal moves at
/// the root than the position's, or over where it is not, `MM_ERR_GAME_BAD_SAMPLE`;
/// `sample` without `free_context`
/// `MM_ERR_SAMPLE_WITHOUT_FREE`; more than two players `MM_ERR_NOT_TWO_PLAYERS`; bad
/// options `MM_ERR_BAD_OPTIONS` (0 samples, an unknown `combine`, a search's threads or
/// table) or `MM_ERR_TOO_MANY_THREADS`; other broken contracts `MM_ERR_GAME_*`, and
/// nothing is written. The game's own context is never played on.
///
/// # Safety
/// `game` must point to a valid `mm_game` whose callbacks may be called with its context
/// and with the samples' contexts (from more than one thread when `threads` is more than
/// 1, one context a thread at a time); `options` (if not NULL) to options from
/// `mm_pimc_options_init`, whose `search` (if not NULL) points to options from
/// `mm_search_options_init` whose `stop` (if not NULL) stays valid and is only written
/// atomically and whose `probcut` (if not NULL) is a live fit that nothing changes during
/// the call; `out` must be writable, and `moves` hold `moves_cap` entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_pimc_search(
    game: *const mm_game,
    options: *const mm_pimc_options,
    out: *mut mm_pimc_result,
    moves: *mut mm_pimc_move,
    moves_cap: usize,
) -> mm_status {
    status_call(|| {
        // SAFETY: NULL, or a valid game of its `struct_size` (caller's guarantee).
        let game = unsafe { read_game(game) }?;
        let out = non_null(out)?;
        if moves.is_null() && moves_cap > 0 {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let o = if options.is_null() {
            mm_pimc_options::default()
        } else {
            // SAFETY: non-NULL, options of their `struct_size` (caller's guarantee); no
            // `bool` among them.
            unsafe { read_sized(options, mm_pimc_options::default(), &[], &[]) }?
        };
        // SAFETY: NULL, or search options of their `struct_size` (caller's guarantee).
        let s = unsafe { read_options(o.search) }?;
        check_options(&s)?;
        let combine = match o.combine {
            MM_PIMC_MEAN => Combine::Mean,
            MM_PIMC_VOTES => Combine::Votes,
            _ => return Err(MM_ERR_BAD_OPTIONS),
        };
        if o.samples == 0 || s.threads > 1 || !s.table.is_null() {
            return Err(MM_ERR_BAD_OPTIONS);
        }
        if o.threads > search::MAX_THREADS as u32 {
            return Err(MM_ERR_TOO_MANY_THREADS);
        }
        let method = method_of(s.method)?;
        check_game(&game)?;
        if game.sample.is_none() {
            return Err(MM_ERR_GAME_NO_SAMPLE);
        }
        let mut root = CGame::new(game, s.max_moves)?;
        let mut samples = Vec::new();
        samples
            .try_reserve_exact(o.samples as usize)
            .map_err(|_| MM_ERR_OUT_OF_MEMORY)?;
        for i in 0..o.samples as usize {
            samples.push((root.sampled(pimc::sample_seed(o.seed, i))?, 1.0));
        }
        // The search holds the other samples to the first's moves.
        pimc::check_sample(&mut root, &mut samples[0].0)?;
        let stop = (!s.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(s.stop.cast_mut()) }
        });
        // SAFETY: NULL or a live fit, unchanged during the call (caller's guarantee).
        let fit = unsafe { read_fit(s.probcut) };
        let shared = Plain(s, fit);
        let value = |g: &mut CGame, max: bool| {
            let mut opts = shared.child(method, stop);
            opts.max_at_root = max;
            search::search(g, &mut opts).map(|r| Valued::from(&r))
        };
        let r = pimc::search_samples_parallel(
            &mut samples,
            combine,
            s.max_at_root,
            o.threads.max(1) as usize,
            value,
        )?;
        let best = r.moves.iter().find(|m| Some(m.mv) == r.best_move);
        let result = mm_pimc_result {
            has_move: r.best_move.is_some(),
            best_move: r.best_move.unwrap_or(0),
            value: best.map_or(0.0, |m| m.mean),
            proven: r.proven,
            nodes: r.nodes,
            move_count: r.moves.len() as u64,
        };
        for (i, m) in r.moves.iter().take(moves_cap).enumerate() {
            // SAFETY: `moves` holds `moves_cap` writable entries (caller's guarantee), and
            // `i < moves_cap`.
            unsafe {
                moves.add(i).write(mm_pimc_move {
                    mv: m.mv,
                    mean: m.mean,
                    votes: m.votes,
                })
            };
        }
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(result) };
        Ok(())
    })
}

/// Search options read on the threads that search the samples: only their plain
/// values are (`engine_options`), never their pointers; and the ProbCut fit, copied on
/// the calling thread.
struct Plain(mm_search_options, Option<ProbCut>);

// SAFETY: `engine_options` reads numbers and flags from it; the pointers it holds (the
// stop flag, read once on the calling thread into an atomic, the table, checked NULL,
// the ProbCut fit, copied on the calling thread, and the progress callback and its
// context, not called) are not followed through it.
unsafe impl Sync for Plain {}

impl Plain {
    /// A child's search (a method so that a closure takes the whole `Plain`).
    fn child<'a>(&self, method: Method, stop: Option<&'a AtomicI32>) -> Options<'a> {
        Options {
            probcut: self.1,
            ..engine_options(&self.0, method, stop)
        }
    }
}
