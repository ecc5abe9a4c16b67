//! A game written in C: an `mm_game` in a shared library, passed by its address (from
//! ctypes or cffi), searched through the library's own C entry point `mm_search`, as a
//! C program would, with the GIL released.

use std::ffi::{CStr, c_int};
use std::sync::atomic::AtomicI32;

use minimax::ffi::game::mm_game;
use minimax::ffi::options::*;
use minimax::ffi::result::*;
use minimax::ffi::search::mm_search;
use minimax::ffi::status::{mm_error_message, mm_status};
use minimax::search::{
    FewerThreads, GameError as Status, Method, SearchResult as RustResult, SearchStats,
};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::{GameError, from_status};
use crate::options::SearchArgs;
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
struct Call {
    game: *const mm_game,
    options: mm_search_options,
}

// SAFETY: the caller of `CGame` vouched for the game's callbacks being callable from any
// thread (the class's documentation says so); the stop flag behind `options.stop` is an
// atomic the waiting thread also reads, and outlives the call.
unsafe impl Send for Call {}

/// The exception for a C status, with the library's message.
fn from_c_status(status: mm_status) -> PyErr {
    use mm_status::*;
    let game = |s: Status| Some(from_status(s));
    let known = match status {
        MM_ERR_GAME_TOO_MANY_MOVES => game(Status::TooManyMoves),
        MM_ERR_GAME_NEGATIVE_MOVE_COUNT => game(Status::NegativeMoveCount),
        MM_ERR_GAME_SCORE_OUT_OF_RANGE => game(Status::ScoreOutOfRange),
        MM_ERR_GAME_NO_MOVES => game(Status::NoMovesNotOver),
        MM_ERR_GAME_BAD_BOUNDS => game(Status::BadBounds),
        MM_ERR_GAME_TOO_DEEP => game(Status::TooDeep),
        MM_ERR_GAME_NO_OUTCOMES => game(Status::NoOutcomes),
        MM_ERR_GAME_BAD_WEIGHT => game(Status::BadWeight),
        MM_ERR_GAME_ZERO_WEIGHTS => game(Status::ZeroWeights),
        MM_ERR_GAME_CHANCE_NODE => game(Status::ChanceNode),
        MM_ERR_NEEDS_BOUNDS => game(Status::NeedsBounds),
        MM_ERR_GAME_WEIGHT_SUM_OVERFLOW => game(Status::WeightSumOverflow),
        MM_ERR_GAME_BAD_PRIORS => game(Status::BadPriors),
        MM_ERR_GAME_SCORE_OUTSIDE_BOUNDS => game(Status::ScoreOutsideBounds),
        MM_ERR_OUT_OF_MEMORY => game(Status::OutOfMemory),
        _ => None,
    };
    known.unwrap_or_else(|| {
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
    })
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
    let mut options = mm_search_options {
        method: method(args.method),
        max_depth: args.depth.unwrap_or(MM_DEPTH_UNLIMITED),
        iterative_deepening: args.deepening,
        table_bytes: args.table_bytes,
        node_limit: args.nodes,
        time_limit_us: args
            .time
            .map_or(0, |t| t.as_micros().clamp(1, u64::MAX as u128) as u64),
        stop: stop.as_ptr() as *const c_int,
        max_at_root: args.max_at_root,
        refine_distance: args.refine_distance,
        max_moves: c.max_moves,
        threads: u32::try_from(args.threads).unwrap_or(u32::MAX),
        killer_moves: args.killers,
        history_order: args.history,
        late_move_reductions: args.lmr,
        aspiration_windows: args.aspiration,
        time_management: args.time_management,
        quiescence: args.quiescence,
        null_move: args.null_move,
        ..mm_search_options::default()
    };
    if args.threads == 0 {
        options.threads = 0;
    }
    let mut pv: Vec<i64> = Vec::new();
    pv.try_reserve_exact(PV_ROOM)
        .map_err(|_| PyMemoryError::new_err("no memory for the principal variation"))?;
    pv.resize(PV_ROOM, 0);
    let call = Call {
        game: c.address as *const mm_game,
        options,
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
    let proven = out.proven;
    Ok(Some(RustResult {
        best_move: out.has_move.then_some(out.best_move),
        value: out.value,
        expected: (out.value_kind == MM_VALUE_EXPECTED).then_some(out.expected),
        exact: out.exact,
        proven,
        plies_to_end: u32::try_from(out.plies_to_end).ok(),
        depth: out.depth,
        pv: pv[..out.pv_len.min(PV_ROOM)].to_vec(),
        stats: SearchStats {
            nodes: out.stats.nodes,
            leaves: out.stats.leaves,
            cutoffs: out.stats.cutoffs,
            table_probes: out.stats.table_probes,
            table_hits: out.stats.table_hits,
            elapsed: std::time::Duration::from_micros(out.stats.elapsed_us),
        },
        threads: out.threads_used as usize,
        fewer_threads: fewer(out.fewer_threads),
    }))
}
