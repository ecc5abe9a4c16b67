//! `calibrate_probcut`: a Multi-ProbCut fit for a native, C or Python game, by the
//! engine's self-play or on the program's own positions.

use std::sync::atomic::AtomicI32;

use minimax::search::{CalibrateOptions, Game, Method, calibrate_probcut_positions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::cgame;
use crate::errors::from_status;
use crate::exit::Running;
use crate::games;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options::{self, SearchArgs};
use crate::probcut::PyProbCut;
use crate::pygame::PyGame;

/// Calibrates a Multi-ProbCut fit for `game`'s kind of game: by the engine's self-play
/// from `game`'s position (left as it was), or on `positions`, a list of games in the
/// positions to sample (give one or the other). Each position is searched with deepening
/// to the deepest depth of `pairs` (a list of `(deep, shallow)`; `None` for each depth
/// from 3 to `max_depth` with the one about half as deep of the same parity), each
/// completed depth's value a sample; the fit is a least-squares line per `stage()` and
/// pair, after values far from the others are dropped, with `t` 1.5. Self-play plays
/// `games` games of `random_plies` seeded random plies (`seed`) then the searches' own
/// moves, at most `max_plies`, until the game ends or a search proves its result (a
/// proven position is left out). `nodes` caps one position's search; `table_mb` is the
/// table for each. The searches use `method` ("alphabeta" or "pvs"; "pvs" with killer
/// moves by default for a Python game) and the enhancements given, as `search()` takes
/// them. Seeded and bounded by depths and nodes, never the clock: the same arguments
/// give the same fit on any machine. Ctrl-C stops it (and raises `KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (
    game = None, *, positions = None, pairs = None, max_depth = 10, games = 8,
    random_plies = 6, max_plies = 200, seed = 1, nodes = None, table_mb = 16.0,
    method = None, killers = None, history = false, lmr = false, quiescence = false,
    null_move = false, view = "max", max_at_root = true
))]
#[allow(clippy::too_many_arguments)]
pub fn calibrate_probcut(
    py: Python<'_>,
    game: Option<&Bound<'_, PyAny>>,
    positions: Option<&Bound<'_, PyAny>>,
    pairs: Option<Vec<(i64, i64)>>,
    max_depth: i64,
    games: i64,
    random_plies: i64,
    max_plies: i64,
    seed: u64,
    nodes: Option<&Bound<'_, PyAny>>,
    table_mb: f64,
    method: Option<&str>,
    killers: Option<bool>,
    history: bool,
    lmr: bool,
    quiescence: bool,
    null_move: bool,
    view: &str,
    max_at_root: bool,
) -> PyResult<PyProbCut> {
    let count = |name: &str, v: i64| {
        u32::try_from(v).map_err(|_| {
            PyValueError::new_err(format!("{name}={v} is not a count from 0 to 2**32 - 1"))
        })
    };
    let pairs = pairs
        .unwrap_or_default()
        .into_iter()
        .map(|(d, s)| Ok((count("deep", d)?, count("shallow", s)?)))
        .collect::<PyResult<Vec<_>>>()?;
    let opts = CalibrateOptions {
        pairs,
        max_depth: count("max_depth", max_depth)?,
        games: count("games", games)?,
        random_plies: count("random_plies", random_plies)?,
        max_plies: count("max_plies", max_plies)?,
        seed,
        node_limit: options::node_limit(nodes)?,
        table_bytes: options::table_bytes(table_mb)?,
    };
    let method = match method {
        None => None,
        Some("alphabeta") => Some(Method::AlphaBeta),
        Some("pvs") => Some(Method::Pvs),
        Some(m) => {
            return Err(PyValueError::new_err(format!(
                "method='{m}': a calibration searches with 'alphabeta' or 'pvs'"
            )));
        }
    };
    let mut args = SearchArgs {
        method: method.unwrap_or(Method::AlphaBeta),
        depth: None,
        time: None,
        nodes: 0,
        threads: 1,
        table_bytes: opts.table_bytes,
        view: options::view(view)?,
        max_at_root,
        killers: killers.unwrap_or(false),
        history,
        lmr,
        aspiration: false,
        time_management: false,
        quiescence,
        null_move,
        refine_distance: true,
        deepening: true,
        probcut: None,
        etc: false,
        iid: false,
    };
    let positions: Option<Vec<Bound<'_, PyAny>>> = positions
        .map(|p| p.try_iter()?.collect::<PyResult<Vec<_>>>())
        .transpose()?;
    match (game, positions) {
        (Some(game), None) => {
            if let Some(fit) = games::calibrate(game, &args, &opts)? {
                return Ok(fit);
            }
            if let Some(fit) = cgame::calibrate(game, &args, &opts)? {
                return Ok(fit);
            }
            python_defaults(&mut args, method, killers);
            python_calibrate(py, std::slice::from_ref(game), &args, &opts, true)
        }
        (None, Some(positions)) => {
            if let Some(fit) = games::calibrate_positions(py, &positions, &args, &opts)? {
                return Ok(fit);
            }
            python_defaults(&mut args, method, killers);
            python_calibrate(py, &positions, &args, &opts, false)
        }
        _ => Err(PyTypeError::new_err(
            "calibrate_probcut() takes a game (for self-play) or positions=[...], not both",
        )),
    }
}

/// A Python game's defaults, as `search()` has them: PVS with killer moves.
fn python_defaults(args: &mut SearchArgs, method: Option<Method>, killers: Option<bool>) {
    args.method = method.unwrap_or(Method::Pvs);
    args.killers = killers.unwrap_or(true);
}

/// Calibrates on Python games, on the calling thread: self-play from `objects[0]`, or
/// the positions `objects`.
fn python_calibrate(
    py: Python<'_>,
    objects: &[Bound<'_, PyAny>],
    args: &SearchArgs,
    opts: &CalibrateOptions,
    self_play: bool,
) -> PyResult<PyProbCut> {
    if !self_play {
        if let Some(i) = objects.iter().position(cgame::is_cgame) {
            return Err(PyTypeError::new_err(format!(
                "positions[{i}] is a C game: a C game is calibrated by self-play \
                 (calibrate_probcut(game))"
            )));
        }
    }
    let stop = AtomicI32::new(0);
    let _running = Running::start(py, &stop);
    let deferred = Deferred::install(py)?;
    let mut maps: Vec<MoveMap> = objects.iter().map(|_| MoveMap::default()).collect();
    let mut adapters = Vec::new();
    for (g, map) in objects.iter().zip(maps.iter_mut()) {
        adapters.push(PyGame::new(g, args.view, map, &stop, deferred.active())?);
    }
    let mut refused = None;
    for a in adapters.iter_mut() {
        let players = Game::players(a);
        if players != 2 && !a.failed() {
            refused.get_or_insert_with(|| options::not_two_players(players));
        }
    }
    let calibrated = match refused {
        Some(e) => Err(e),
        None => {
            let settings = args.options(&stop);
            Ok(if self_play {
                minimax::search::calibrate_probcut(&mut adapters[0], &settings, opts)
            } else {
                calibrate_probcut_positions(&mut adapters, &settings, opts)
            })
        }
    };
    // The first exception a game's method raised wins over the status it caused.
    for a in adapters {
        a.finish(Ok(()))?;
    }
    calibrated?.map(PyProbCut::calibrated).map_err(from_status)
}
