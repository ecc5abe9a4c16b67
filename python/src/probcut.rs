//! Multi-ProbCut from Python: `ProbCut` (a fit, saved and read back as text), its pairs,
//! and `calibrate_probcut`, which fits one on a native, C or Python game by self-play or
//! on the program's own positions.

use std::sync::atomic::AtomicI32;

use minimax::search::{
    CalibrateOptions, Calibration, Game, Method, ProbCut, ProbCutError, ProbCutPair,
    calibrate_probcut_positions,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::cgame;
use crate::errors::from_status;
use crate::exit::Running;
use crate::games;
use crate::interrupt::Deferred;
use crate::moves::MoveMap;
use crate::options::{self, SearchArgs};
use crate::pygame::PyGame;

/// A Multi-ProbCut fit: for each stage of the game (its `stage()`) and pair of depths, a
/// line that predicts a deep search's value from a shallow one's, and one confidence `t`
/// (how many standard deviations past the window a shallow search's bound is put).
/// Made by `calibrate_probcut()`, read by `ProbCut.from_text()`, or built empty and
/// filled with `add()`; given to `search(probcut=...)`, which copies it.
#[pyclass(module = "libminimax", name = "ProbCut")]
#[derive(Clone)]
pub struct PyProbCut {
    pub fit: ProbCut,
    /// Positions the calibration searched (0 for a fit not calibrated here).
    #[pyo3(get)]
    positions: u32,
    /// Of them, those whose values it used.
    #[pyo3(get)]
    used: u32,
}

/// One pair of a fit: at stage `stage`, `v_deep ≈ a * v_shallow + b` with an error of
/// standard deviation `sigma`, fitted on `samples` positions.
#[pyclass(frozen, module = "libminimax", name = "ProbCutPair", get_all)]
pub struct PyProbCutPair {
    pub stage: u32,
    pub deep: u32,
    pub shallow: u32,
    pub a: f64,
    pub b: f64,
    pub sigma: f64,
    pub samples: u32,
}

#[pymethods]
impl PyProbCutPair {
    fn __repr__(&self) -> String {
        format!(
            "ProbCutPair(stage={}, deep={}, shallow={}, a={:?}, b={:?}, sigma={:?}, samples={})",
            self.stage, self.deep, self.shallow, self.a, self.b, self.sigma, self.samples
        )
    }
}

fn value_error(e: ProbCutError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

#[pymethods]
impl PyProbCut {
    /// An empty fit (no pairs; `t` 1.5).
    #[new]
    fn new() -> Self {
        PyProbCut::of(ProbCut::default())
    }

    /// Reads a fit written by `to_text()`; a `ValueError` names the line that is wrong.
    #[staticmethod]
    fn from_text(text: &str) -> PyResult<Self> {
        ProbCut::from_text(text)
            .map(PyProbCut::of)
            .map_err(value_error)
    }

    /// The fit as text, which `from_text()` reads back exactly.
    fn to_text(&self) -> String {
        self.fit.to_text()
    }

    /// The confidence: finite and at least 0 (a calibration sets 1.5).
    #[getter]
    fn t(&self) -> f64 {
        self.fit.t()
    }

    #[setter]
    fn set_t(&mut self, t: f64) -> PyResult<()> {
        self.fit.set_t(t).map_err(|_| {
            PyValueError::new_err(format!(
                "t={t:?}: a ProbCut confidence is a finite number at least 0"
            ))
        })
    }

    /// The pairs, by stage, deep then shallow depth.
    #[getter]
    fn pairs(&self) -> Vec<PyProbCutPair> {
        self.fit
            .pairs()
            .iter()
            .map(|p| PyProbCutPair {
                stage: p.stage,
                deep: p.deep,
                shallow: p.shallow,
                a: p.a,
                b: p.b,
                sigma: p.sigma,
                samples: p.samples,
            })
            .collect()
    }

    /// Adds a pair, in its place; a `ValueError` for one that cannot be used
    /// (`1 <= shallow < deep <= 63`, `a` finite and above 0, `b` finite, `sigma` finite
    /// and at least 0), a second pair of the same stage and depths, or a 97th.
    #[pyo3(signature = (stage, deep, shallow, a, b, sigma, samples = 0))]
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        stage: u32,
        deep: u32,
        shallow: u32,
        a: f64,
        b: f64,
        sigma: f64,
        samples: u32,
    ) -> PyResult<()> {
        let pair = ProbCutPair {
            stage,
            deep,
            shallow,
            a,
            b,
            sigma,
            samples,
        };
        self.fit.add(pair).map_err(value_error)
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.fit == other.fit
    }

    fn __repr__(&self) -> String {
        format!(
            "ProbCut(pairs={}, t={:?})",
            self.fit.pairs().len(),
            self.fit.t()
        )
    }
}

impl PyProbCut {
    fn of(fit: ProbCut) -> Self {
        PyProbCut {
            fit,
            positions: 0,
            used: 0,
        }
    }

    /// A calibration's fit, with what it saw.
    pub fn calibrated(c: Calibration) -> Self {
        PyProbCut {
            fit: c.fit,
            positions: c.positions,
            used: c.used,
        }
    }
}

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
            refused.get_or_insert_with(|| crate::players::not_two_players(players));
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
