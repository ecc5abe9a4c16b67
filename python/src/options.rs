//! The search's keyword arguments, checked, as the engine's options.

use std::sync::atomic::AtomicI32;
use std::time::Duration;

use minimax::search::maxn_mcts::{MaxnMctsOptions, PlayerReward};
use minimax::search::mcts::{MctsOptions, Reward};
use minimax::search::{Method, Options, ProbCut, ScoreView};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// What `search()` was asked, checked; owned, so that a native search can take it to
/// another thread.
#[derive(Clone, Copy)]
pub struct SearchArgs {
    pub method: Method,
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: u64,
    pub threads: usize,
    pub table_bytes: usize,
    pub view: ScoreView,
    pub max_at_root: bool,
    pub killers: bool,
    pub history: bool,
    pub lmr: bool,
    pub aspiration: bool,
    pub time_management: bool,
    pub quiescence: bool,
    pub null_move: bool,
    pub refine_distance: bool,
    pub deepening: bool,
    /// A Multi-ProbCut fit (`ProbCut`): copied, a fixed array.
    pub probcut: Option<ProbCut>,
    /// Enhanced transposition cut-offs.
    pub etc: bool,
    /// Internal iterative deepening.
    pub iid: bool,
}

pub fn method(name: &str) -> PyResult<Method> {
    Ok(match name {
        "minimax" => Method::Minimax,
        "alphabeta" => Method::AlphaBeta,
        "pvs" => Method::Pvs,
        "exact" => Method::Exact,
        "expectimax" => Method::Expectimax,
        "star1" => Method::Star1,
        "star2" => Method::Star2,
        _ => {
            return Err(PyValueError::new_err(format!(
                "method='{name}' is not one of 'minimax', 'alphabeta', 'pvs', 'exact', \
                 'expectimax', 'star1', 'star2', 'maxn', 'paranoid', 'best_reply'"
            )));
        }
    })
}

pub fn view(name: &str) -> PyResult<ScoreView> {
    match name {
        "max" => Ok(ScoreView::Max),
        "side" => Ok(ScoreView::SideToMove),
        _ => Err(PyValueError::new_err(format!(
            "view='{name}' is not 'max' (scores from the first player's side) or 'side' \
             (from the side to move's)"
        ))),
    }
}

/// A time limit in seconds: `None`, or a number at least 0; one longer than a duration
/// holds (about 585 billion years; `math.inf`) is no limit.
pub fn seconds(time: Option<f64>) -> PyResult<Option<Duration>> {
    match time {
        None => Ok(None),
        Some(t) if t >= Duration::MAX.as_secs_f64() => Ok(None),
        // (`{t:?}` writes 1e300 as that, where `{t}` writes all 301 digits.)
        Some(t) => Duration::try_from_secs_f64(t).map(Some).map_err(|_| {
            PyValueError::new_err(format!("time={t:?} is not a number of seconds at least 0"))
        }),
    }
}

/// A thread count: 0 (one per core) to the library's `MAX_THREADS`, as C's
/// `MM_ERR_TOO_MANY_THREADS` holds it.
pub fn thread_count(threads: i64) -> PyResult<usize> {
    let most = minimax::search::MAX_THREADS;
    match usize::try_from(threads) {
        Ok(n) if n <= most => Ok(n),
        Ok(_) => Err(PyValueError::new_err(format!(
            "threads={threads} is more than {most}, the most a search runs on"
        ))),
        Err(_) => Err(PyValueError::new_err(format!(
            "threads={threads} is negative (0 means one per core)"
        ))),
    }
}

/// A node limit: `None` (no limit), or a count from 1 to 2**64 - 1.
pub fn node_limit(nodes: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let Some(n) = nodes else { return Ok(0) };
    match n.extract::<u64>() {
        Ok(count) if count >= 1 => Ok(count),
        _ => Err(PyValueError::new_err(format!(
            "nodes={n}: a node limit is a count from 1 to 2**64 - 1 (None for none)"
        ))),
    }
}

/// A table size in MiB (0: none).
pub fn table_bytes(table_mb: f64) -> PyResult<usize> {
    if !(table_mb >= 0.0 && table_mb.is_finite() && table_mb * 1048576.0 <= usize::MAX as f64) {
        return Err(PyValueError::new_err(format!(
            "table_mb={table_mb} is not a size in MiB at least 0"
        )));
    }
    Ok((table_mb * 1048576.0) as usize)
}

impl SearchArgs {
    /// The engine's options, stopped by `stop`.
    pub fn options<'a>(&self, stop: &'a AtomicI32) -> Options<'a> {
        Options {
            method: self.method,
            max_depth: self.depth.unwrap_or(u32::MAX),
            iterative_deepening: self.deepening,
            table_bytes: self.table_bytes,
            node_limit: self.nodes,
            time_limit: self.time,
            stop: Some(stop),
            max_at_root: self.max_at_root,
            refine_distance: self.refine_distance,
            threads: self.threads,
            killer_moves: self.killers,
            history_order: self.history,
            late_move_reductions: self.lmr,
            aspiration_windows: self.aspiration,
            time_management: self.time_management,
            quiescence: self.quiescence,
            null_move: self.null_move,
            probcut: self.probcut,
            enhanced_transposition_cutoffs: self.etc,
            internal_iterative_deepening: self.iid,
            ..Options::default()
        }
    }
}

/// What `Mcts` and its `search()` were asked, checked.
#[derive(Clone, Copy)]
pub struct MctsArgs {
    pub playouts: u64,
    pub time: Option<Duration>,
    pub threads: usize,
    pub max_at_root: bool,
    pub exploration: f64,
    pub reward: Reward,
    pub playout_depth: u32,
    pub max_nodes: usize,
    pub seed: u64,
    pub open_loop: bool,
}

impl MctsArgs {
    /// The n-player search's options, stopped by `stop`: sign rewards are wins (the top
    /// scorers share 1).
    pub fn player_options<'a>(&self, stop: &'a AtomicI32) -> MaxnMctsOptions<'a> {
        MaxnMctsOptions {
            playouts: self.playouts,
            max_nodes: self.max_nodes,
            time_limit: self.time,
            stop: Some(stop),
            exploration: self.exploration,
            reward: match self.reward {
                Reward::Sign { .. } => PlayerReward::Win,
                Reward::Scaled => PlayerReward::Scaled,
            },
            playout_depth: self.playout_depth,
            seed: self.seed,
            threads: self.threads,
        }
    }

    /// The engine's options, stopped by `stop`.
    pub fn options<'a>(&self, stop: &'a AtomicI32) -> MctsOptions<'a> {
        MctsOptions {
            playouts: self.playouts,
            max_nodes: self.max_nodes,
            time_limit: self.time,
            stop: Some(stop),
            exploration: self.exploration,
            reward: self.reward,
            playout_depth: self.playout_depth,
            max_at_root: self.max_at_root,
            seed: self.seed,
            threads: self.threads,
            open_loop: self.open_loop,
            ..MctsOptions::default()
        }
    }
}

/// The n-player methods, by the name `search()` takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Maxn,
    Paranoid,
    BestReply,
}

impl Family {
    /// The name `search()` takes.
    pub fn name(self) -> &'static str {
        match self {
            Family::Maxn => "maxn",
            Family::Paranoid => "paranoid",
            Family::BestReply => "best_reply",
        }
    }
}

/// The n-player method `name` names, if it names one.
pub fn family(name: Option<&str>) -> Option<Family> {
    match name? {
        "maxn" => Some(Family::Maxn),
        "paranoid" => Some(Family::Paranoid),
        "best_reply" => Some(Family::BestReply),
        _ => None,
    }
}

/// A `TypeError` for a game of more than two players given to a two-player method.
pub fn not_two_players(players: usize) -> PyErr {
    PyTypeError::new_err(format!(
        "the game has {players} players: search it with method='maxn', 'paranoid' or \
         'best_reply'"
    ))
}
