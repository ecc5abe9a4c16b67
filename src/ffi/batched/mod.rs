//! Batched MCTS from C: `mm_batched`, a search object holding one tree per game, searched
//! over many `mm_game`s at once; `mm_encoding`, the callbacks that turn a game's position
//! into floats and its moves into action indices; `mm_evaluator`, the callback that
//! evaluates a batch; their options (with their size, as the other options) and results.

use std::ffi::{c_int, c_void};
use std::sync::atomic::AtomicU8;

use crate::ffi::args::{non_null, read_sized, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::lease::{IDLE, Lease, Leased, free};
use crate::ffi::options::MM_MAX_THREADS;
use crate::ffi::result::{fewer_threads_code, mm_fewer_threads};
use crate::ffi::status::mm_status::{self, *};
use crate::search::batched::{
    BatchedMcts, BatchedOptions, Encode, Evaluator, Gumbel, Puct, RootPolicy,
};
use crate::search::{Game, GameError, Move, ScoreView};

/// How a game's position is read by an evaluator: a fixed number of floats a position and
/// a fixed action space. Its callbacks receive each game's `context` (the `mm_game`'s).
/// Fill it with `mm_encoding_init`, then set the sizes and both callbacks.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_encoding {
    /// `sizeof(mm_encoding)`, set by `mm_encoding_init`.
    pub struct_size: usize,
    /// Floats in a position's encoding (at least 1).
    pub observation_size: usize,
    /// Actions in the action space (at least 1): the evaluator gives a logit for each.
    pub action_count: usize,
    /// Writes the position's encoding into `out` (`observation_size` floats, zeros).
    pub observe: Option<unsafe extern "C" fn(context: *mut c_void, out: *mut f32)>,
    /// The index in the action space of `mv`, a legal move of the position: in
    /// `[0, action_count)` and different for each legal move (else
    /// `MM_ERR_GAME_BAD_ACTION_INDEX`).
    pub action_index: Option<unsafe extern "C" fn(context: *mut c_void, mv: i64) -> i64>,
}

impl Default for mm_encoding {
    fn default() -> Self {
        mm_encoding {
            struct_size: size_of::<mm_encoding>(),
            observation_size: 0,
            action_count: 0,
            observe: None,
            action_index: None,
        }
    }
}

/// What evaluates the positions: `evaluate` gets `batch` encodings one after the other
/// (`batch * observation_size` floats) and writes for each a value (the side to move's
/// view, in [-1, 1]) to `values[i]` and a logit for each action to
/// `logits[i * action_count + a]` (the logits of illegal moves are ignored); it returns
/// 0, or anything else to stop the search with `MM_ERR_EVALUATOR_FAILED`. Called on the
/// thread that called `mm_batched_search`. Fill it with `mm_evaluator_init`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct mm_evaluator {
    /// `sizeof(mm_evaluator)`, set by `mm_evaluator_init`.
    pub struct_size: usize,
    /// Passed to `evaluate`.
    pub context: *mut c_void,
    /// Evaluates one batch.
    pub evaluate: Option<
        unsafe extern "C" fn(
            context: *mut c_void,
            observations: *const f32,
            batch: usize,
            values: *mut f32,
            logits: *mut f32,
        ) -> c_int,
    >,
}

impl Default for mm_evaluator {
    fn default() -> Self {
        mm_evaluator {
            struct_size: size_of::<mm_evaluator>(),
            context: std::ptr::null_mut(),
            evaluate: None,
        }
    }
}

/// How the root chooses: one of the `MM_BATCHED_ROOT_*` values.
pub type mm_batched_root = u32;
/// PUCT, as every node (with Dirichlet noise when `noise_fraction` is above 0).
pub const MM_BATCHED_ROOT_PUCT: mm_batched_root = 0;
/// Gumbel noise and Sequential Halving among the best `considered` moves; the
/// completed-Q policy below the root (Danihelka et al. 2022).
pub const MM_BATCHED_ROOT_GUMBEL: mm_batched_root = 1;

/// How to search. Fill it with `mm_batched_options_init`, then change what you need;
/// a value out of its range is `MM_ERR_BAD_BATCH_OPTIONS`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_batched_options {
    /// `sizeof(mm_batched_options)`, set by `mm_batched_options_init`.
    pub struct_size: usize,
    /// Simulations per game and search (default 800; at least 1).
    pub simulations: u32,
    /// An `MM_BATCHED_ROOT_*` value (default PUCT).
    pub root: mm_batched_root,
    /// The most positions in one evaluator call (default 256).
    pub batch_size: usize,
    /// The most leaves one game's tree adds to a call, spread by virtual loss (default 8).
    pub leaves_per_tree: usize,
    /// PUCT's `c(N) = c_init + ln((N + c_base + 1) / c_base)` (defaults 1.25, 19,652).
    pub c_init: f64,
    /// See `c_init`.
    pub c_base: f64,
    /// Dirichlet noise at a PUCT root: alpha, and the fraction of the priors it takes
    /// (default 0: no noise).
    pub noise_alpha: f64,
    /// See `noise_alpha`.
    pub noise_fraction: f64,
    /// Gumbel: root moves considered (default 16, at least 2), c_visit (50) and c_scale
    /// (0.1).
    pub considered: u32,
    /// See `considered`.
    pub c_visit: f64,
    /// See `considered`.
    pub c_scale: f64,
    /// The move played: the most visited at 0 (the default), else drawn by
    /// `visits^(1 / temperature)`.
    pub temperature: f64,
    /// Nodes one tree may hold (default 1,048,576).
    pub max_nodes: u64,
    /// The room given to the `moves` callback per position (default 256).
    pub max_moves: usize,
    /// The seed of the noise and of the temperature's draws (default 0x5EED).
    pub seed: u64,
    /// Whether MAX moves at the root, for games without `max_to_move` (default true).
    pub max_at_root: bool,
    /// Check each leaf's moves for one that wins at once before the leaf is sent
    /// (default true: without it PUCT and Gumbel can play a move lost at once; false
    /// saves its cost, docs/batched.md).
    pub decisive: bool,
    /// Threads to search with (default 1). 0 is one per available core; more than
    /// `MM_MAX_THREADS` gets `MM_ERR_TOO_MANY_THREADS`. The games are shared among the
    /// threads (at most one a game): a game's callbacks and its encoding's may then be
    /// called on another thread than the caller's, one thread at a time for each game, so
    /// games that share state must guard it. The evaluator is always called on the
    /// caller's thread, once a step for all the games. With room in every call for every
    /// game's leaves (`batch_size` at least the games times `leaves_per_tree`), the results
    /// are those of one thread.
    pub threads: u32,
}

impl Default for mm_batched_options {
    fn default() -> Self {
        let d = BatchedOptions::default();
        mm_batched_options {
            struct_size: size_of::<mm_batched_options>(),
            simulations: d.simulations,
            root: MM_BATCHED_ROOT_PUCT,
            batch_size: d.batch_size,
            leaves_per_tree: d.leaves_per_tree,
            c_init: d.puct.init,
            c_base: d.puct.base,
            noise_alpha: 0.3,
            noise_fraction: 0.0,
            considered: Gumbel::default().considered,
            c_visit: Gumbel::default().c_visit,
            c_scale: Gumbel::default().c_scale,
            temperature: d.temperature,
            max_nodes: d.max_nodes as u64,
            max_moves: 256,
            seed: d.seed,
            max_at_root: d.max_at_root,
            decisive: d.decisive,
            threads: 1,
        }
    }
}

/// One game's answer.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_batched_result {
    /// False only when the game is over.
    pub has_move: bool,
    /// The move to play.
    pub best_move: i64,
    /// The root's value for its side to move, in [-1, 1].
    pub value: f64,
    /// Whether the root's value is proven (`value` is then 1, 0 or -1).
    pub proven: bool,
    /// Simulations made for this game in this search.
    pub simulations: u32,
    /// Whether the tree reached `max_nodes`.
    pub tree_full: bool,
    /// Threads that searched (the same in every game's result).
    pub threads_used: u32,
    /// Why fewer threads searched than `threads` asked for (other than fewer games): an
    /// `MM_FEWER_THREADS_*` value.
    pub fewer_threads: mm_fewer_threads,
}

/// Fills `*options`, a struct of `size` bytes, with that size and the defaults (the
/// header's `mm_batched_options_init(options)` passes `sizeof`). A smaller size is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_batched_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_batched_options_init_sized(
    options: *mut mm_batched_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_batched_options::default(), size, &[]) }
    })
}

/// Fills `*encoding`, a struct of `size` bytes, with that size, zero sizes and NULL
/// callbacks (the header's `mm_encoding_init(encoding)` passes `sizeof`).
///
/// # Safety
/// `encoding` must point to `size` writable bytes, aligned for `mm_encoding`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_encoding_init_sized(
    encoding: *mut mm_encoding,
    size: usize,
) -> mm_status {
    status_call(|| {
        let encoding = non_null(encoding)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(encoding, mm_encoding::default(), size, &[]) }
    })
}

/// Fills `*evaluator`, a struct of `size` bytes, with that size and NULLs (the header's
/// `mm_evaluator_init(evaluator)` passes `sizeof`).
///
/// # Safety
/// `evaluator` must point to `size` writable bytes, aligned for `mm_evaluator`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_evaluator_init_sized(
    evaluator: *mut mm_evaluator,
    size: usize,
) -> mm_status {
    status_call(|| {
        let evaluator = non_null(evaluator)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(evaluator, mm_evaluator::default(), size, &[]) }
    })
}

/// A C game with its encoding, as the library's [`Encode`].
struct Encoded {
    game: CGame,
    context: *mut c_void,
    encoding: mm_encoding,
    observe: unsafe extern "C" fn(*mut c_void, *mut f32),
    action_index: unsafe extern "C" fn(*mut c_void, i64) -> i64,
}

impl Game for Encoded {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        self.game.moves(out)
    }
    fn play(&mut self, mv: Move) {
        self.game.play(mv)
    }
    fn undo(&mut self, mv: Move) {
        self.game.undo(mv)
    }
    fn outcome(&mut self) -> Option<i32> {
        self.game.outcome()
    }
    fn evaluate(&mut self) -> i32 {
        self.game.evaluate()
    }
    fn hash(&mut self) -> Option<u64> {
        self.game.hash()
    }
    fn max_to_move(&mut self) -> Option<bool> {
        self.game.max_to_move()
    }
    fn score_view(&mut self) -> ScoreView {
        self.game.score_view()
    }
    fn is_chance(&mut self) -> bool {
        self.game.is_chance()
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        self.game.outcomes(out)
    }
}

impl Encode for Encoded {
    fn observation_size(&self) -> usize {
        self.encoding.observation_size
    }
    fn action_count(&self) -> usize {
        self.encoding.action_count
    }
    fn observe(&mut self, out: &mut [f32]) {
        // SAFETY: the caller's callback with its game's context, and `out` holds
        // `observation_size` floats (the search gives that many).
        unsafe { (self.observe)(self.context, out.as_mut_ptr()) }
    }
    fn action_index(&mut self, mv: Move) -> usize {
        // SAFETY: the caller's callback with its game's context.
        let a = unsafe { (self.action_index)(self.context, mv) };
        // (A negative index is out of range: the search refuses it.)
        usize::try_from(a).unwrap_or(usize::MAX)
    }
}

// SAFETY: the header's contract for `threads` above 1: a game's callbacks and its
// encoding's may be called on a pool thread with the game's context, by one thread at a
// time for each game (the search hands a game to one thread per step and waits for all).
unsafe impl Send for Encoded {}

/// The C evaluator, as the library's.
struct CEvaluator {
    context: *mut c_void,
    evaluate: unsafe extern "C" fn(*mut c_void, *const f32, usize, *mut f32, *mut f32) -> c_int,
}

impl Evaluator for CEvaluator {
    fn evaluate(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> Result<(), GameError> {
        // SAFETY: the caller's callback with its context; the buffers hold `batch`
        // observations, values and rows of logits, as documented.
        let code = unsafe {
            (self.evaluate)(
                self.context,
                observations.as_ptr(),
                values.len(),
                values.as_mut_ptr(),
                logits.as_mut_ptr(),
            )
        };
        if code == 0 {
            Ok(())
        } else {
            Err(GameError::EvaluatorFailed)
        }
    }
}

/// A batched search object: one tree per game, kept between moves (opaque).
pub struct mm_batched {
    mcts: BatchedMcts,
    /// Its lease state (see `lease`).
    state: AtomicU8,
}

impl Leased for mm_batched {
    unsafe fn state<'a>(this: *const Self) -> &'a AtomicU8 {
        // SAFETY: live (caller's guarantee); only the atomic field is borrowed.
        unsafe { &*std::ptr::addr_of!((*this).state) }
    }
}

impl Lease<mm_batched> {
    fn mcts(&mut self) -> &mut BatchedMcts {
        // SAFETY: this lease is the only holder (the state says so) and the object lives
        // until the lease ends; only the `mcts` field is borrowed.
        unsafe { &mut *std::ptr::addr_of_mut!((*self.ptr()).mcts) }
    }
}

/// Creates a batched search object with no trees. On `MM_OK` sets `*out`; free it with
/// `mm_batched_free`.
///
/// # Safety
/// `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_batched_new(out: *mut *mut mm_batched) -> mm_status {
    status_call(|| {
        let out = non_null(out)?;
        let m = Box::new(mm_batched {
            mcts: BatchedMcts::new(),
            state: AtomicU8::new(IDLE),
        });
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(Box::into_raw(m)) };
        Ok(())
    })
}

/// The caller's options as the library's, checked.
///
/// # Safety
/// `options`, if not NULL, must point to options of their `struct_size`.
unsafe fn read_batched_options(
    options: *const mm_batched_options,
) -> Result<(BatchedOptions, usize), mm_status> {
    let defaults = mm_batched_options::default();
    let o = if options.is_null() {
        defaults
    } else {
        let bools = [
            std::mem::offset_of!(mm_batched_options, max_at_root),
            std::mem::offset_of!(mm_batched_options, decisive),
        ];
        // SAFETY: non-NULL, options of their `struct_size` (caller's guarantee), their
        // `bool`s listed.
        unsafe { read_sized(options, defaults, &[], &bools) }?
    };
    let root = match o.root {
        MM_BATCHED_ROOT_PUCT if o.noise_fraction == 0.0 => RootPolicy::Puct { noise: None },
        MM_BATCHED_ROOT_PUCT => RootPolicy::Puct {
            noise: Some((o.noise_alpha, o.noise_fraction)),
        },
        MM_BATCHED_ROOT_GUMBEL => RootPolicy::Gumbel(Gumbel {
            considered: o.considered,
            c_visit: o.c_visit,
            c_scale: o.c_scale,
        }),
        _ => return Err(MM_ERR_BAD_BATCH_OPTIONS),
    };
    let opts = BatchedOptions {
        simulations: o.simulations,
        batch_size: o.batch_size,
        leaves_per_tree: o.leaves_per_tree,
        puct: Puct {
            init: o.c_init,
            base: o.c_base,
        },
        root,
        temperature: o.temperature,
        max_nodes: usize::try_from(o.max_nodes).unwrap_or(usize::MAX),
        max_at_root: o.max_at_root,
        decisive: o.decisive,
        seed: o.seed,
        threads: o.threads as usize,
    };
    opts.check()?;
    if o.max_moves == 0 {
        return Err(MM_ERR_BAD_OPTIONS);
    }
    if o.threads > MM_MAX_THREADS {
        return Err(MM_ERR_TOO_MANY_THREADS);
    }
    Ok((opts, o.max_moves))
}

/// Searches each of the `n` games (`games[i]`, each in its current position, with the
/// encoding `encoding`), filling each call of `evaluator` from all of them; the i-th game
/// keeps the object's i-th tree where its root is the game's position (the same hash, or
/// `mm_batched_advance` since the last search). On `MM_OK` writes `results[i]` for each
/// game and, if `policies` is not NULL, its policy target to
/// `policies[i * action_count .. (i + 1) * action_count]` (visit shares under PUCT, the
/// completed-Q policy under Gumbel). The games are left as they were. A game's chance
/// steps are drawn by their weights; a root that is a chance node is
/// `MM_ERR_CHANCE_ROOT`.
///
/// # Safety
/// `batched` must be a live object from `mm_batched_new`; `games` must hold `n` valid
/// games whose callbacks may be called with their contexts; `encoding` and `evaluator`
/// valid structs from their init functions; `options` NULL or options from
/// `mm_batched_options_init`; `results` must hold `n` writable entries and `policies`,
/// if not NULL, `n * action_count` writable floats.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_batched_search(
    batched: *mut mm_batched,
    games: *const mm_game,
    n: usize,
    encoding: *const mm_encoding,
    evaluator: *const mm_evaluator,
    options: *const mm_batched_options,
    results: *mut mm_batched_result,
    policies: *mut f32,
) -> mm_status {
    status_call(|| {
        let batched = non_null(batched)?;
        let encoding = non_null(encoding.cast_mut())?;
        let evaluator = non_null(evaluator.cast_mut())?;
        if n > 0 && (games.is_null() || results.is_null()) {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        // SAFETY (the three reads): non-NULL structs of their `struct_size` from their
        // init functions (caller's guarantee).
        let encoding = unsafe { read_sized(encoding, mm_encoding::default(), &[], &[]) }?;
        let evaluator = unsafe { read_sized(evaluator, mm_evaluator::default(), &[], &[]) }?;
        let (opts, max_moves) = unsafe { read_batched_options(options) }?;
        let (Some(observe), Some(action_index), Some(evaluate)) =
            (encoding.observe, encoding.action_index, evaluator.evaluate)
        else {
            return Err(MM_ERR_NULL_ARGUMENT);
        };
        if encoding.observation_size == 0 || encoding.action_count == 0 {
            return Err(MM_ERR_BAD_BATCH_OPTIONS);
        }
        let mut encoded = Vec::new();
        encoded
            .try_reserve_exact(n)
            .map_err(|_| MM_ERR_OUT_OF_MEMORY)?;
        for i in 0..n {
            // SAFETY: `games` holds `n` valid games (caller's guarantee), `i < n`.
            let game = unsafe { read_game(games.add(i)) }?;
            check_game(&game)?;
            encoded.push(Encoded {
                context: game.context,
                game: CGame::new(game, max_moves)?,
                encoding,
                observe,
                action_index,
            });
        }
        let mut evaluator = CEvaluator {
            context: evaluator.context,
            evaluate,
        };
        // SAFETY: a live object from mm_batched_new (caller's guarantee).
        let mut lease = unsafe { Lease::take(batched, MM_ERR_MCTS_BUSY) }?;
        let found = lease
            .mcts()
            .search_parallel(&mut encoded, &mut evaluator, &opts)?;
        drop(lease);
        for (i, r) in found.iter().enumerate() {
            let entry = mm_batched_result {
                has_move: r.best_move.is_some(),
                best_move: r.best_move.unwrap_or(0),
                value: r.value,
                proven: r.proven.is_some(),
                simulations: r.simulations,
                tree_full: r.tree_full,
                threads_used: r.threads as u32,
                fewer_threads: fewer_threads_code(r.fewer_threads),
            };
            // SAFETY: `results` holds `n` entries and `i < n` (caller's guarantee).
            unsafe { results.add(i).write(entry) };
            if !policies.is_null() {
                let row = i * encoding.action_count;
                for (a, &p) in r.policy.iter().enumerate() {
                    // SAFETY: `policies` holds `n * action_count` floats (caller's
                    // guarantee), and `row + a` is below that.
                    unsafe { policies.add(row + a).write(p) };
                }
            }
        }
        Ok(())
    })
}

/// Keeps the subtree of `mv` (just played in game `game`) as that game's tree; a move or
/// game the object does not hold clears it.
///
/// # Safety
/// `batched` must be a live object from `mm_batched_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_batched_advance(
    batched: *mut mm_batched,
    game: usize,
    mv: i64,
) -> mm_status {
    status_call(|| {
        let batched = non_null(batched)?;
        // SAFETY: a live object (caller's guarantee).
        let mut lease = unsafe { Lease::take(batched, MM_ERR_MCTS_BUSY) }?;
        lease.mcts().advance(game, mv);
        Ok(())
    })
}

/// Frees a batched search object. NULL is allowed and does nothing; called from one of
/// its own search's callbacks, the object is freed when that search ends.
///
/// # Safety
/// `batched` must be NULL or a live object from `mm_batched_new`, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_batched_free(batched: *mut mm_batched) {
    let _ = status_call(|| {
        if batched.is_null() {
            return Ok(());
        }
        // SAFETY: from mm_batched_new's Box::into_raw, not yet freed (caller's guarantee).
        unsafe { free(batched) };
        Ok(())
    });
}
