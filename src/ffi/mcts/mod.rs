//! Monte Carlo tree search from C: `mm_mcts`, a search object that keeps its tree between
//! moves, its options (with their size, as the other options) and its result, with the
//! root's moves written to the caller's buffer.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI32, AtomicU8};
use std::time::Duration;

use crate::ffi::args::{non_null, read_sized, write_sized};
use crate::ffi::boundary::status_call;
use crate::ffi::game::{CGame, check_game, mm_game, read_game};
use crate::ffi::lease::{IDLE, Lease, Leased, free};
use crate::ffi::options::MM_MAX_THREADS;
use crate::ffi::result::{fewer_threads_code, mm_fewer_threads};
use crate::ffi::reward::{MM_MCTS_REWARD_SCALED, MM_MCTS_REWARD_SIGN, mm_mcts_reward};
use crate::ffi::status::mm_status::{self, *};
use crate::search::mcts::{Mcts, MctsOptions, MctsProgress, MctsResult, Reward};

/// A progress report of an MCTS search.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_mcts_progress {
    /// Playouts so far in this search.
    pub playouts: u64,
    /// Nodes in the tree.
    pub nodes: u64,
    /// Whether `best_move` holds a move.
    pub has_move: bool,
    /// The most visited root move so far.
    pub best_move: i64,
    /// Its mean reward, for the side to move at the root.
    pub value: f64,
    /// Microseconds since the search was called.
    pub elapsed_us: u64,
}

/// How to search by MCTS. Fill it with `mm_mcts_options_init`, then change what you need.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct mm_mcts_options {
    /// `sizeof(mm_mcts_options)`, set by `mm_mcts_options_init`.
    pub struct_size: usize,
    /// Stop after this many playouts (default 10,000); 0: until the root is proven, the
    /// tree is full, 100,000 playouts in a row add no node, or another limit.
    pub playouts: u64,
    /// The most nodes the tree holds (default 4,194,304, 72 bytes each; on threads twice
    /// that while the tree is copied into the shared one and back): when full,
    /// it stops growing and the search goes on in it (`tree_full` in the result).
    /// Memory that cannot be had is the same as a full tree: on threads the shared tree
    /// takes the most room up to this that the system gives.
    pub max_nodes: u64,
    /// Stop after this many microseconds; 0: no limit.
    pub time_limit_us: u64,
    /// If not NULL, an `int` that another thread sets non-zero (with an atomic store) to
    /// stop the search.
    pub stop: *const c_int,
    /// UCT's exploration constant (default sqrt(2)); finite and not negative, else
    /// `MM_ERR_BAD_EXPLORATION`.
    pub exploration: f64,
    /// An `MM_MCTS_REWARD_*` value (default `MM_MCTS_REWARD_SIGN`).
    pub reward: mm_mcts_reward,
    /// End each playout after this many plies and score it by `evaluate` (default 0: play
    /// to the end).
    pub playout_depth: u32,
    /// With `MM_MCTS_REWARD_SIGN`, the evaluation that counts as a 73% chance of winning
    /// (default 1); positive, else `MM_ERR_BAD_EVAL_SCALE`.
    pub eval_scale: f64,
    /// The playouts' seed, at the start of each search (default 0x5EED): one thread and
    /// one seed give one result.
    pub seed: u64,
    /// Whether MAX moves at the root, for games without `max_to_move` (default true).
    pub max_at_root: bool,
    /// The room given to the `moves` callback per position (default 256).
    pub max_moves: usize,
    /// If not NULL, called every `report_every` playouts, on the calling thread.
    pub progress:
        Option<unsafe extern "C" fn(context: *mut c_void, report: *const mm_mcts_progress)>,
    /// Passed to `progress`.
    pub progress_context: *mut c_void,
    /// How often `progress` is called, in playouts (default 0: never).
    pub report_every: u64,
    /// Threads to search with (default 1: one seed gives one result). 0 is one per
    /// available core; more than `MM_MAX_THREADS` gets `MM_ERR_TOO_MANY_THREADS`. The
    /// threads share the tree, each on its own copy of the game from `copy_context`
    /// (its callbacks are then called on other threads); without it, the search runs on
    /// one thread and the result's `fewer_threads` says why. Playouts and the other
    /// limits count for the whole search.
    pub threads: u32,
    /// Open loop at chance steps (default false): outcomes are drawn on the way down and
    /// are not nodes, so that a node below a chance step stands for every position the
    /// draws lead to (it proves nothing, and its value mixes theirs). The default, closed
    /// loop, keeps each outcome as a node and converges to the expected value; open loop
    /// can play better on games with many outcomes and few playouts (2048).
    pub open_loop: bool,
}

impl Default for mm_mcts_options {
    fn default() -> Self {
        let d = MctsOptions::default();
        mm_mcts_options {
            struct_size: std::mem::size_of::<mm_mcts_options>(),
            playouts: d.playouts,
            max_nodes: d.max_nodes as u64,
            time_limit_us: 0,
            stop: std::ptr::null(),
            exploration: d.exploration,
            reward: MM_MCTS_REWARD_SIGN,
            playout_depth: d.playout_depth,
            eval_scale: 1.0,
            seed: d.seed,
            max_at_root: d.max_at_root,
            max_moves: 256,
            progress: None,
            progress_context: std::ptr::null_mut(),
            report_every: 0,
            threads: d.threads as u32,
            open_loop: d.open_loop,
        }
    }
}

/// Fills `*options`, a struct of `size` bytes (`sizeof(mm_mcts_options)` where the caller
/// was compiled), with that size and the defaults. The header's
/// `mm_mcts_options_init(options)` macro calls this with `sizeof(mm_mcts_options)`. A
/// larger size gets zeros past this version's fields; a smaller one is
/// `MM_ERR_BAD_STRUCT_SIZE`, and nothing is written.
///
/// # Safety
/// `options` must point to `size` writable bytes, aligned for `mm_mcts_options`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_mcts_options_init_sized(
    options: *mut mm_mcts_options,
    size: usize,
) -> mm_status {
    status_call(|| {
        let options = non_null(options)?;
        // SAFETY: non-NULL, `size` writable bytes (caller's guarantee).
        unsafe { write_sized(options, mm_mcts_options::default(), size, &[]) }
    })
}

/// What the search knows of one move at the root.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_mcts_move {
    /// The move.
    pub mv: i64,
    /// How often the search chose it.
    pub visits: u64,
    /// Its mean reward, for the side to move at the root (0 when not visited).
    pub mean: f64,
    /// Whether its value is proven.
    pub is_proven: bool,
    /// Its proven reward for the side to move at the root, when `is_proven`.
    pub proven_reward: f64,
}

/// The answer of an MCTS search.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct mm_mcts_result {
    /// False only when the root is over.
    pub has_move: bool,
    /// The best move: a proven win if there is one, else the most visited.
    pub best_move: i64,
    /// The best move's mean (or proven) reward, for the side to move at the root.
    pub value: f64,
    /// Whether the root's value is proven.
    pub proven: bool,
    /// The proven reward of best play for the side to move: 1 a win, 0.5 a draw, 0 a
    /// loss (any value in [0, 1] with scaled rewards).
    pub proven_reward: f64,
    /// Whether `score` holds the exact score the proof gives (MAX's view): a draw with
    /// sign rewards, any proof with scaled rewards.
    pub has_score: bool,
    /// The exact score, when `has_score`.
    pub score: i32,
    /// How many root moves the tree holds; the first `min(root_len, root_cap)` are
    /// written to `root`.
    pub root_len: usize,
    /// Playouts in this search.
    pub playouts: u64,
    /// Nodes in the tree at the end.
    pub nodes: u64,
    /// The deepest tree node below the root.
    pub depth: u32,
    /// Microseconds the search took.
    pub elapsed_us: u64,
    /// Threads that searched.
    pub threads_used: u32,
    /// Whether the tree reached `max_nodes` and stopped growing.
    pub tree_full: bool,
    /// Why fewer threads searched than `threads` asked for: an `MM_FEWER_THREADS_*`
    /// value.
    pub fewer_threads: mm_fewer_threads,
}

/// An MCTS search that keeps its tree between moves (opaque).
pub struct mm_mcts {
    mcts: Mcts,
    /// Its lease state (see `lease`).
    state: AtomicU8,
}

/// Creates a search object with an empty tree. On `MM_OK` sets `*out`; free it with
/// `mm_mcts_free`.
///
/// # Safety
/// `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_mcts_new(out: *mut *mut mm_mcts) -> mm_status {
    status_call(|| {
        let out = non_null(out)?;
        let m = Box::new(mm_mcts {
            mcts: Mcts::new(),
            state: AtomicU8::new(IDLE),
        });
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(Box::into_raw(m)) };
        Ok(())
    })
}

impl Leased for mm_mcts {
    unsafe fn state<'a>(this: *const Self) -> &'a AtomicU8 {
        // SAFETY: live (caller's guarantee); only the atomic field is borrowed.
        unsafe { &*std::ptr::addr_of!((*this).state) }
    }
}

impl Lease<mm_mcts> {
    fn mcts(&mut self) -> &mut Mcts {
        // SAFETY: this lease is the only holder (the state says so) and the object lives
        // until the lease ends; only the `mcts` field is borrowed.
        unsafe { &mut *std::ptr::addr_of_mut!((*self.ptr()).mcts) }
    }
}

/// The caller's options, read at their size (NULL: the defaults), and checked.
///
/// # Safety
/// `options`, if not NULL, must point to options of their `struct_size`.
unsafe fn read_mcts_options(options: *const mm_mcts_options) -> Result<mm_mcts_options, mm_status> {
    let defaults = mm_mcts_options::default();
    let o = if options.is_null() {
        defaults
    } else {
        let bools = [
            std::mem::offset_of!(mm_mcts_options, max_at_root),
            std::mem::offset_of!(mm_mcts_options, open_loop),
        ];
        // SAFETY: non-NULL, and options of their `struct_size` (caller's guarantee), their
        // `bool`s listed.
        unsafe { read_sized(options, defaults, &[], &bools) }?
    };
    if !matches!(o.reward, MM_MCTS_REWARD_SIGN | MM_MCTS_REWARD_SCALED) {
        return Err(MM_ERR_UNKNOWN_REWARD);
    }
    if !(o.exploration >= 0.0 && o.exploration.is_finite()) {
        return Err(MM_ERR_BAD_EXPLORATION);
    }
    if !(o.eval_scale > 0.0 && o.eval_scale.is_finite()) {
        return Err(MM_ERR_BAD_EVAL_SCALE);
    }
    if o.max_moves == 0 {
        return Err(MM_ERR_BAD_OPTIONS);
    }
    if o.threads > MM_MAX_THREADS {
        return Err(MM_ERR_TOO_MANY_THREADS);
    }
    Ok(o)
}

/// Searches the game from its current position by MCTS, growing the object's tree, whose
/// root must be this position: the last search's, with the moves given to
/// `mm_mcts_advance` since played (else the tree is cleared when the side to move
/// differs; call `mm_mcts_clear` when in doubt). `options` may be NULL for the defaults.
/// On `MM_OK` fills `*out` and writes the first `min(out->root_len, root_cap)` root moves
/// to `root` (which may be NULL when `root_cap` is 0).
///
/// The game's callbacks are used as `mm_search` uses them, and its misbehaviour gets the
/// same statuses; a root that is a chance node gets `MM_ERR_CHANCE_ROOT`. The game is
/// left in the position it started from. A limit or the stop flag ends the search with
/// `MM_OK` and the best move so far (a legal move even if no playout ran).
///
/// # Safety
/// `mcts` must be a live object from `mm_mcts_new`; `game` a valid `mm_game` whose
/// callbacks may be called with its context; `options` (if not NULL) options from
/// `mm_mcts_options_init`, whose `stop` (if not NULL) stays valid and is only written
/// atomically; `out` writable; `root` must hold `root_cap` writable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_mcts_search(
    mcts: *mut mm_mcts,
    game: *const mm_game,
    options: *const mm_mcts_options,
    out: *mut mm_mcts_result,
    root: *mut mm_mcts_move,
    root_cap: usize,
) -> mm_status {
    status_call(|| {
        let mcts = non_null(mcts)?;
        // SAFETY (both reads): NULL, or a valid struct of its `struct_size` from its init
        // function (caller's guarantee).
        let game = unsafe { read_game(game) }?;
        let out = non_null(out)?;
        if root.is_null() && root_cap > 0 {
            return Err(MM_ERR_NULL_ARGUMENT);
        }
        let c_opts = unsafe { read_mcts_options(options) }?;
        check_game(&game)?;
        let mut cgame = CGame::new(game, c_opts.max_moves)?;
        // SAFETY: a live object from mm_mcts_new (caller's guarantee).
        let mut lease = unsafe { Lease::take(mcts, MM_ERR_MCTS_BUSY) }?;
        let stop = (!c_opts.stop.is_null()).then(|| {
            // SAFETY: the caller guarantees an aligned int that stays valid during the
            // search and that other threads write only atomically.
            unsafe { AtomicI32::from_ptr(c_opts.stop.cast_mut()) }
        });
        let mut progress = |p: &MctsProgress| report(&c_opts, p);
        let mut opts = MctsOptions {
            playouts: c_opts.playouts,
            max_nodes: usize::try_from(c_opts.max_nodes).unwrap_or(usize::MAX),
            time_limit: (c_opts.time_limit_us > 0)
                .then(|| Duration::from_micros(c_opts.time_limit_us)),
            stop,
            exploration: c_opts.exploration,
            reward: match c_opts.reward {
                MM_MCTS_REWARD_SCALED => Reward::Scaled,
                _ => Reward::Sign {
                    scale: c_opts.eval_scale,
                },
            },
            playout_depth: c_opts.playout_depth,
            max_at_root: c_opts.max_at_root,
            seed: c_opts.seed,
            progress: Some(&mut progress),
            report_every: c_opts.report_every,
            threads: c_opts.threads as usize,
            open_loop: c_opts.open_loop,
        };
        let r = lease.mcts().search_parallel(&mut cgame, &mut opts)?;
        drop(lease);
        // SAFETY: `out` is non-NULL and writable, `root` holds `root_cap` entries
        // (caller's guarantee).
        unsafe { write_mcts_result(&r, out, root, root_cap) };
        Ok(())
    })
}

/// Calls the caller's progress callback, if any, with `p`.
fn report(options: &mm_mcts_options, p: &MctsProgress) {
    if let Some(f) = options.progress {
        let r = mm_mcts_progress {
            playouts: p.playouts,
            nodes: p.nodes,
            has_move: p.best_move.is_some(),
            best_move: p.best_move.unwrap_or(0),
            value: p.value,
            elapsed_us: p.elapsed.as_micros() as u64,
        };
        // SAFETY: the caller's progress callback with its context; `r` is live.
        unsafe { f(options.progress_context, &r) };
    }
}

/// Writes `r` to `*out` and the first `min(root moves, root_cap)` root moves to `root`.
///
/// # Safety
/// `out` must be non-NULL and writable; `root` must hold `root_cap` writable entries.
unsafe fn write_mcts_result(
    r: &MctsResult,
    out: *mut mm_mcts_result,
    root: *mut mm_mcts_move,
    root_cap: usize,
) {
    for (i, m) in r.root.iter().take(root_cap).enumerate() {
        let entry = mm_mcts_move {
            mv: m.mv,
            visits: m.visits,
            mean: m.mean,
            is_proven: m.proven.is_some(),
            proven_reward: m.proven.unwrap_or(0.0),
        };
        // SAFETY: `i < root_cap`, and `root` holds `root_cap` entries (caller's
        // guarantee).
        unsafe { root.add(i).write(entry) };
    }
    let result = mm_mcts_result {
        has_move: r.best_move.is_some(),
        best_move: r.best_move.unwrap_or(0),
        value: r.value,
        proven: r.proven.is_some(),
        proven_reward: r.proven.map_or(0.0, |p| p.reward),
        has_score: r.proven.is_some_and(|p| p.score.is_some()),
        score: r.proven.and_then(|p| p.score).unwrap_or(0),
        root_len: r.root.len(),
        playouts: r.playouts,
        nodes: r.nodes,
        depth: r.depth,
        elapsed_us: r.elapsed.as_micros() as u64,
        threads_used: r.threads as u32,
        tree_full: r.tree_full,
        fewer_threads: fewer_threads_code(r.fewer_threads),
    };
    // SAFETY: non-NULL and writable (caller's guarantee).
    unsafe { out.write(result) };
}

/// Keeps the subtree of `move` (a root move, as played in the game) as the tree for the
/// next search; a move the tree does not hold clears the tree. After a move that leads to
/// a chance step, give the outcome drawn too (outcomes are nodes of the tree), or let the
/// next search find it by the game's `hash` (without one, the tree is then cleared).
///
/// # Safety
/// `mcts` must be a live object from `mm_mcts_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_mcts_advance(mcts: *mut mm_mcts, mv: i64) -> mm_status {
    status_call(|| {
        let mcts = non_null(mcts)?;
        // SAFETY: a live object (caller's guarantee).
        let mut lease = unsafe { Lease::take(mcts, MM_ERR_MCTS_BUSY) }?;
        lease.mcts().advance(mv);
        Ok(())
    })
}

/// Forgets the tree.
///
/// # Safety
/// `mcts` must be a live object from `mm_mcts_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_mcts_clear(mcts: *mut mm_mcts) -> mm_status {
    status_call(|| {
        let mcts = non_null(mcts)?;
        // SAFETY: a live object (caller's guarantee).
        let mut lease = unsafe { Lease::take(mcts, MM_ERR_MCTS_BUSY) }?;
        lease.mcts().clear();
        Ok(())
    })
}

/// Frees a search object. NULL is allowed and does nothing. Called during a search of
/// this object (from one of its callbacks), the object is freed when that search ends.
///
/// # Safety
/// `mcts` must be NULL or a live object from `mm_mcts_new`, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_mcts_free(mcts: *mut mm_mcts) {
    let _ = status_call(|| {
        if mcts.is_null() {
            return Ok(());
        }
        // SAFETY: from mm_mcts_new's Box::into_raw, not yet freed (caller's guarantee).
        unsafe { free(mcts) };
        Ok(())
    });
}
