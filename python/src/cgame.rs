//! A game written in C: an `mm_game` in a shared library, passed by its address (from
//! ctypes or cffi), searched through the library's own C entry point `mm_search`, as a
//! C program would, with the GIL released.

use std::ffi::{CStr, c_int};
use std::sync::atomic::AtomicI32;
use std::time::Duration;

use minimax::ffi::game::mm_game;
use minimax::ffi::mcts::*;
use minimax::ffi::options::*;
use minimax::ffi::probcut::{mm_probcut, mm_probcut_free};
use minimax::ffi::result::*;
use minimax::ffi::reward::{MM_MCTS_REWARD_SCALED, MM_MCTS_REWARD_SIGN};
use minimax::ffi::status::{mm_error_message, mm_status};
use minimax::ffi::twoplayer::calibrate::{
    mm_calibrate_options, mm_calibration, mm_probcut_calibrate, mm_probcut_depths,
};
use minimax::ffi::twoplayer::search::mm_search;
use minimax::search::mcts::{MctsResult as RustMcts, MoveStats, Proof, Reward};
use minimax::search::{
    CalibrateOptions, Calibration, FewerThreads, Method, SearchResult as RustResult, SearchStats,
};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::{self, GameError, from_status};
use crate::options::{MctsArgs, SearchArgs};
use crate::probcut::PyProbCut;
use crate::watch::detached;

/// The most moves of the principal variation kept.
const PV_ROOM: usize = 1024;

/// An `mm_game` at `address` (``ctypes.addressof(game)``, or ``int(ffi.cast("uintptr_t",
/// p))``), with the object that keeps it and its context alive (`owner`). Its callbacks
/// are called from the search's threads, the GIL released: they must not need it.
#[pyclass(frozen, module = "libminimax", name = "CGame")]
pub struct CGame {
    address: usize,
    max_moves: usize,
    /// Kept so that the game outlives this object.
    #[allow(dead_code)]
    owner: Option<Py<PyAny>>,
}

#[pymethods]
impl CGame {
    /// `max_moves` is the room given to the `moves` callback (`mm_search_options.max_moves`).
    #[new]
    #[pyo3(signature = (address, owner = None, max_moves = 256))]
    fn new(address: usize, owner: Option<Py<PyAny>>, max_moves: usize) -> PyResult<Self> {
        if address == 0 {
            return Err(PyValueError::new_err(
                "address=0: the game's address is NULL",
            ));
        }
        if max_moves == 0 {
            return Err(PyValueError::new_err(
                "max_moves=0: a position needs room for its moves",
            ));
        }
        Ok(CGame {
            address,
            max_moves,
            owner,
        })
    }

    #[getter]
    fn address(&self) -> usize {
        self.address
    }
}

/// The pointers a search on another thread needs.
struct Call<O> {
    game: *const mm_game,
    options: O,
    tree: *mut mm_mcts,
}

// SAFETY: the caller of `CGame` vouched for the game's callbacks being callable from any
// thread (the class's documentation says so); the stop flag behind the options' `stop`
// is an atomic the waiting thread also reads, and outlives the call; the ProbCut fit
// behind the options' `probcut` outlives the call and is only read; the MCTS tree is
// used by one search at a time (the library's lease checks it).
unsafe impl<O> Send for Call<O> {}

/// An MCTS tree for C games (`mm_mcts`), freed on drop.
pub struct CTree(*mut mm_mcts);

// SAFETY: an `mm_mcts` is a heap object any thread may use, one call at a time.
unsafe impl Send for CTree {}
// SAFETY: a shared `&CTree` gives no access to the tree (every use takes `&mut`).
unsafe impl Sync for CTree {}

impl CTree {
    fn new() -> PyResult<CTree> {
        let mut tree = std::ptr::null_mut();
        // SAFETY: `tree` is a writable pointer.
        let status = unsafe { mm_mcts_new(&mut tree) };
        if status != mm_status::MM_OK {
            return Err(from_c_status(status));
        }
        Ok(CTree(tree))
    }

    /// Keeps the subtree of `mv` (clears the tree if it has none).
    pub fn advance(&mut self, mv: i64) {
        // SAFETY: a live object from mm_mcts_new; no search holds it (`&mut self`).
        unsafe { mm_mcts_advance(self.0, mv) };
    }

    pub fn clear(&mut self) {
        // SAFETY: as in `advance`.
        unsafe { mm_mcts_clear(self.0) };
    }
}

impl Drop for CTree {
    fn drop(&mut self) {
        // SAFETY: a live object from mm_mcts_new, freed once.
        unsafe { mm_mcts_free(self.0) };
    }
}

/// The exception for a C status, with the library's message: a game's status is the
/// `GameError` the library turns into it (`From<GameError> for mm_status`), raised as
/// `from_status` raises that.
fn from_c_status(status: mm_status) -> PyErr {
    use mm_status::*;
    if let Some(&game) = errors::ALL.iter().find(|&&g| mm_status::from(g) == status) {
        return from_status(game);
    }
    // SAFETY: mm_error_message returns a static NUL-terminated string for any code.
    let message = unsafe { CStr::from_ptr(mm_error_message(status as c_int)) };
    let message = format!("{} (status {})", message.to_string_lossy(), status as c_int);
    match status {
        MM_ERR_PANIC => PyRuntimeError::new_err(message),
        MM_ERR_NULL_ARGUMENT
        | MM_ERR_BAD_STRUCT_SIZE
        | MM_ERR_COPY_WITHOUT_FREE
        | MM_ERR_CHANCE_WITHOUT_OUTCOMES
        | MM_ERR_UNKNOWN_SCORE_VIEW => GameError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A time limit in the C options' microseconds: 0 for none, and at least 1 for any.
fn micros(time: Option<Duration>) -> u64 {
    time.map_or(0, |t| t.as_micros().clamp(1, u64::MAX as u128) as u64)
}

fn method(m: Method) -> mm_search_method {
    match m {
        Method::Minimax => MM_SEARCH_MINIMAX,
        Method::AlphaBeta => MM_SEARCH_ALPHABETA,
        Method::Pvs => MM_SEARCH_PVS,
        Method::Exact => MM_SEARCH_EXACT,
        Method::Expectimax => MM_SEARCH_EXPECTIMAX,
        Method::Star1 => MM_SEARCH_STAR1,
        Method::Star2 => MM_SEARCH_STAR2,
    }
}

fn fewer(why: mm_fewer_threads) -> Option<FewerThreads> {
    Some(match why {
        MM_FEWER_THREADS_MINIMAX => FewerThreads::Minimax,
        MM_FEWER_THREADS_CHANCE_METHOD => FewerThreads::ChanceMethod,
        MM_FEWER_THREADS_NO_HASH => FewerThreads::NoHash,
        MM_FEWER_THREADS_NO_TABLE => FewerThreads::NoTable,
        MM_FEWER_THREADS_NO_COPY => FewerThreads::NoCopy,
        MM_FEWER_THREADS_NO_SYSTEM_THREAD => FewerThreads::NoSystemThread,
        MM_FEWER_THREADS_NO_MEMORY => FewerThreads::NoMemory,
        _ => return None,
    })
}

/// A search of `game` if it is a `CGame` (`None` if it is not).
pub fn search(game: &Bound<'_, PyAny>, args: &SearchArgs) -> PyResult<Option<RustResult>> {
    let Ok(c) = game.cast::<CGame>() else {
        return Ok(None);
    };
    let c = c.get();
    let stop = AtomicI32::new(0);
    let options = search_options(args, c.max_moves, &stop);
    // The fit the options point to lives until the search has returned (`detached`
    // waits for it).
    let fit = args.probcut.map(mm_probcut::new);
    let options = mm_search_options {
        probcut: fit
            .as_ref()
            .map_or(std::ptr::null(), |f| f as *const mm_probcut),
        ..options
    };
    let mut pv: Vec<i64> = Vec::new();
    pv.try_reserve_exact(PV_ROOM)
        .map_err(|_| PyMemoryError::new_err("no memory for the principal variation"))?;
    pv.resize(PV_ROOM, 0);
    let call = Call {
        game: c.address as *const mm_game,
        options,
        tree: std::ptr::null_mut(),
    };
    let py = game.py();
    let (status, out, pv) = detached(py, &stop, move || {
        let call = call;
        let mut out = std::mem::MaybeUninit::<mm_search_result>::zeroed();
        // SAFETY: `call.game` is the address the caller gave for a live `mm_game` (its
        // promise, kept by `owner`); the options are complete; `out` is writable and
        // `pv` has `PV_ROOM` writable moves. mm_search checks the game's struct and
        // reports through its status.
        let status = unsafe {
            mm_search(
                call.game,
                &call.options,
                out.as_mut_ptr(),
                pv.as_mut_ptr(),
                PV_ROOM,
            )
        };
        // SAFETY: zeroed is a valid `mm_search_result` (integers, bools, a float), and
        // on success mm_search wrote it whole.
        (status, unsafe { out.assume_init() }, pv)
    })?;
    if status != mm_status::MM_OK {
        return Err(from_c_status(status));
    }
    Ok(Some(RustResult {
        best_move: out.has_move.then_some(out.best_move),
        value: out.value,
        expected: (out.value_kind == MM_VALUE_EXPECTED).then_some(out.expected),
        exact: out.exact,
        proven: out.proven,
        plies_to_end: u32::try_from(out.plies_to_end).ok(),
        depth: out.depth,
        pv: pv[..out.pv_len.min(PV_ROOM)].to_vec(),
        stats: SearchStats {
            nodes: out.stats.nodes,
            leaves: out.stats.leaves,
            cutoffs: out.stats.cutoffs,
            table_probes: out.stats.table_probes,
            table_hits: out.stats.table_hits,
            elapsed: Duration::from_micros(out.stats.elapsed_us),
        },
        threads: out.threads_used as usize,
        fewer_threads: fewer(out.fewer_threads),
    }))
}

/// `args` as the C search options, stopped by `stop` (no ProbCut fit: the caller points
/// to one it keeps).
fn search_options(args: &SearchArgs, max_moves: usize, stop: &AtomicI32) -> mm_search_options {
    mm_search_options {
        method: method(args.method),
        max_depth: args.depth.unwrap_or(MM_DEPTH_UNLIMITED),
        iterative_deepening: args.deepening,
        table_bytes: args.table_bytes,
        node_limit: args.nodes,
        time_limit_us: micros(args.time),
        stop: stop.as_ptr() as *const c_int,
        max_at_root: args.max_at_root,
        refine_distance: args.refine_distance,
        max_moves,
        threads: u32::try_from(args.threads).unwrap_or(u32::MAX),
        killer_moves: args.killers,
        history_order: args.history,
        late_move_reductions: args.lmr,
        aspiration_windows: args.aspiration,
        time_management: args.time_management,
        quiescence: args.quiescence,
        null_move: args.null_move,
        enhanced_transposition_cutoffs: args.etc,
        internal_iterative_deepening: args.iid,
        ..mm_search_options::default()
    }
}

/// Whether `game` is a `CGame`.
pub fn is_cgame(game: &Bound<'_, PyAny>) -> bool {
    game.cast::<CGame>().is_ok()
}

/// A ProbCut calibration by self-play from `game` if it is a `CGame` (`None` if it is
/// not), through the library's C entry point `mm_probcut_calibrate`, the GIL released.
pub fn calibrate(
    game: &Bound<'_, PyAny>,
    args: &SearchArgs,
    opts: &CalibrateOptions,
) -> PyResult<Option<PyProbCut>> {
    let Ok(c) = game.cast::<CGame>() else {
        return Ok(None);
    };
    let c = c.get();
    let stop = AtomicI32::new(0);
    let depths: Vec<mm_probcut_depths> = opts
        .pairs
        .iter()
        .map(|&(deep, shallow)| mm_probcut_depths { deep, shallow })
        .collect();
    let calibrate = mm_calibrate_options {
        pairs: depths.as_ptr(),
        pair_count: depths.len(),
        max_depth: opts.max_depth,
        games: opts.games,
        random_plies: opts.random_plies,
        max_plies: opts.max_plies,
        seed: opts.seed,
        node_limit: opts.node_limit,
        table_bytes: opts.table_bytes,
        ..mm_calibrate_options::default()
    };
    let call = Call {
        game: c.address as *const mm_game,
        options: (search_options(args, c.max_moves, &stop), calibrate),
        tree: std::ptr::null_mut(),
    };
    let (status, fit, seen) = detached(game.py(), &stop, move || {
        let call = call;
        let mut fit: *mut mm_probcut = std::ptr::null_mut();
        let mut seen = mm_calibration {
            positions: 0,
            used: 0,
        };
        // SAFETY: `call.game` is the address the caller gave for a live `mm_game` (its
        // promise, kept by `owner`); the options are complete, their pairs alive in
        // `depths` until this returns; `fit` and `seen` are writable.
        let status = unsafe {
            mm_probcut_calibrate(
                call.game,
                &call.options.0,
                &call.options.1,
                &mut fit,
                &mut seen,
            )
        };
        (status, Fit(fit), seen)
    })?;
    if status != mm_status::MM_OK {
        return Err(from_c_status(status));
    }
    // SAFETY: on MM_OK the library wrote a live fit, freed once, here.
    let copy = unsafe { *(*fit.0).fit() };
    // SAFETY: as above.
    unsafe { mm_probcut_free(fit.0) };
    Ok(Some(PyProbCut::calibrated(Calibration {
        fit: copy,
        positions: seen.positions,
        used: seen.used,
    })))
}

/// A fit the library made on the search's thread, handed back to the calling one.
struct Fit(*mut mm_probcut);

// SAFETY: a fit is plain data, owned by whoever holds the pointer; nothing else uses it.
unsafe impl Send for Fit {}

/// The most root moves an MCTS result lists.
const ROOT_ROOM: usize = 4096;

/// An MCTS search of `game` if it is a `CGame` (`None` if it is not), in `tree` (made on
/// first use).
pub fn mcts(
    game: &Bound<'_, PyAny>,
    tree: &mut Option<CTree>,
    args: &MctsArgs,
) -> PyResult<Option<RustMcts>> {
    let Ok(c) = game.cast::<CGame>() else {
        return Ok(None);
    };
    let c = c.get();
    let tree = match tree {
        Some(t) => t.0,
        None => tree.insert(CTree::new()?).0,
    };
    let stop = AtomicI32::new(0);
    let (reward, eval_scale) = match args.reward {
        Reward::Sign { scale } => (MM_MCTS_REWARD_SIGN, scale),
        Reward::Scaled => (MM_MCTS_REWARD_SCALED, 1.0),
    };
    let options = mm_mcts_options {
        playouts: args.playouts,
        max_nodes: args.max_nodes as u64,
        time_limit_us: micros(args.time),
        stop: stop.as_ptr() as *const c_int,
        exploration: args.exploration,
        reward,
        playout_depth: args.playout_depth,
        eval_scale,
        seed: args.seed,
        max_at_root: args.max_at_root,
        max_moves: c.max_moves,
        threads: u32::try_from(args.threads).unwrap_or(u32::MAX),
        open_loop: args.open_loop,
        ..mm_mcts_options::default()
    };
    let mut root: Vec<mm_mcts_move> = Vec::new();
    root.try_reserve_exact(ROOT_ROOM)
        .map_err(|_| PyMemoryError::new_err("no memory for the root's moves"))?;
    let call = Call {
        game: c.address as *const mm_game,
        options,
        tree,
    };
    let (status, out, root) = detached(game.py(), &stop, move || {
        let call = call;
        let mut root = root;
        let mut out = std::mem::MaybeUninit::<mm_mcts_result>::zeroed();
        // SAFETY: as in `search`; `call.tree` is this object's live tree, which no other
        // search holds (the Python object is borrowed mutably); `root` has room for
        // `ROOT_ROOM` moves, and its length is set to what was written.
        let status = unsafe {
            mm_mcts_search(
                call.tree,
                call.game,
                &call.options,
                out.as_mut_ptr(),
                root.as_mut_ptr(),
                ROOT_ROOM,
            )
        };
        // SAFETY: zeroed is a valid `mm_mcts_result`; on success mm_mcts_search wrote it.
        let out = unsafe { out.assume_init() };
        if status == mm_status::MM_OK {
            // SAFETY: mm_mcts_search wrote the first `root_len` (at most the room) entries.
            unsafe { root.set_len(out.root_len.min(ROOT_ROOM)) };
        }
        (status, out, root)
    })?;
    if status != mm_status::MM_OK {
        return Err(from_c_status(status));
    }
    Ok(Some(RustMcts {
        best_move: out.has_move.then_some(out.best_move),
        value: out.value,
        proven: out.proven.then_some(Proof {
            reward: out.proven_reward,
            score: out.has_score.then_some(out.score),
        }),
        root: root
            .iter()
            .map(|m| MoveStats {
                mv: m.mv,
                visits: m.visits,
                mean: m.mean,
                proven: m.is_proven.then_some(m.proven_reward),
            })
            .collect(),
        playouts: out.playouts,
        nodes: out.nodes,
        depth: out.depth,
        elapsed: Duration::from_micros(out.elapsed_us),
        threads: out.threads_used as usize,
        fewer_threads: fewer(out.fewer_threads),
        tree_full: out.tree_full,
    }))
}
