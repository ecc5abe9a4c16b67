//! `BatchedMcts`: the library's batched MCTS over native games, its evaluator any
//! Python callable that takes a float32 array of observations `[batch, size]` and returns
//! `(values, logits)` (numpy, JAX, PyTorch on CPU: anything numpy can read). The trees
//! are searched with the GIL released; it is taken for each evaluator call only.
//!
//! Games are native ones with an encoding (searched with the GIL released, taken for each
//! evaluator call only) or Python objects that add `observation()` (a sequence of floats,
//! as long at every position), `action_index(move)` and `action_count` to the game
//! protocol (searched with the GIL held, as `Mcts` searches them).
//!
//! The arrays live in Python's memory (bytearrays the adapter owns, seen as numpy arrays
//! without a copy): the library's batch is copied in once a call (a memcpy), and the
//! evaluator's answer read back once. An evaluator that keeps a reference to the array
//! it was given sees the next batch in it, and nothing worse.

use std::sync::atomic::AtomicI32;

use minimax::search::batched::{
    BatchedMcts as Core, BatchedOptions, BatchedResult as CoreResult, Encode, Evaluator, Gumbel,
    Puct, RootPolicy,
};
use minimax::search::{Game, GameError, Move, ScoreView};
use pyo3::exceptions::{
    PyImportError, PyIndexError, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PySlice, PyTuple};

use crate::errors::from_status;
use crate::games;
use crate::moves::MoveMap;
use crate::pygame::{PyGame, optional};

pub mod onnx;

/// Copies `src` into the first bytes of `dst`, native byte order (numpy's float32).
fn put(dst: &mut [u8], src: &[f32]) {
    for (d, s) in dst.chunks_exact_mut(4).zip(src) {
        d.copy_from_slice(&s.to_ne_bytes());
    }
}

/// Reads `dst.len()` floats from the first bytes of `src`.
fn get(src: &[u8], dst: &mut [f32]) {
    for (d, s) in dst.iter_mut().zip(src.chunks_exact(4)) {
        *d = f32::from_ne_bytes([s[0], s[1], s[2], s[3]]);
    }
}

/// A bytearray of `floats` float32 zeros and the numpy array of `shape` over it.
fn array<'py>(
    numpy: &Bound<'py, PyModule>,
    floats: usize,
    shape: &[usize],
) -> PyResult<(Bound<'py, PyByteArray>, Bound<'py, PyAny>)> {
    let py = numpy.py();
    let too_big = || {
        PyMemoryError::new_err(format!(
            "the evaluator's arrays of shape {shape:?} could not be had: lower batch_size, \
             or search fewer games at once"
        ))
    };
    let bytes = floats.checked_mul(4).ok_or_else(too_big)?;
    let buffer = PyByteArray::new_with(py, bytes, |b| {
        b.fill(0);
        Ok(())
    })
    .map_err(|e| {
        if e.is_instance_of::<PyMemoryError>(py) {
            too_big()
        } else {
            e
        }
    })?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", numpy.getattr("float32")?)?;
    let flat = numpy.call_method("frombuffer", (&buffer,), Some(&kwargs))?;
    let shaped = flat.call_method1("reshape", (PyTuple::new(py, shape)?,))?;
    Ok((buffer, shaped))
}

/// A numpy shape as Python writes it: `(3,)`, `(3, 7)`, `()`.
fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// The Python evaluator, seen as the library's.
struct PyEvaluator {
    call: Py<PyAny>,
    numpy: Py<PyModule>,
    obs: (Py<PyByteArray>, Py<PyAny>),
    values: (Py<PyByteArray>, Py<PyAny>),
    logits: (Py<PyByteArray>, Py<PyAny>),
    actions: usize,
    /// The exception the evaluator raised, raised again once the search has stopped.
    error: Option<PyErr>,
}

impl PyEvaluator {
    fn new(
        py: Python<'_>,
        call: &Bound<'_, PyAny>,
        cap: usize,
        (size, actions): (usize, usize),
    ) -> PyResult<Self> {
        let numpy = py.import("numpy").map_err(|_| {
            PyImportError::new_err(
                "BatchedMcts hands its evaluator numpy arrays: pip install numpy",
            )
        })?;
        let obs = array(&numpy, cap.saturating_mul(size), &[cap, size])?;
        let values = array(&numpy, cap, &[cap])?;
        let logits = array(&numpy, cap.saturating_mul(actions), &[cap, actions])?;
        let own = |(b, a): (Bound<'_, PyByteArray>, Bound<'_, PyAny>)| (b.unbind(), a.unbind());
        Ok(PyEvaluator {
            call: call.clone().unbind(),
            numpy: numpy.unbind(),
            obs: own(obs),
            values: own(values),
            logits: own(logits),
            actions,
            error: None,
        })
    }

    fn call(
        &self,
        py: Python<'_>,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> PyResult<()> {
        let k = values.len();
        // SAFETY: the GIL is held, and the bytearray is this adapter's own, never
        // resized: no other reference writes to it or moves it while this runs (a numpy
        // view the evaluator kept from an earlier call only reads it).
        put(unsafe { self.obs.0.bind(py).as_bytes_mut() }, observations);
        let rows = PySlice::new(py, 0, k as isize, 1);
        let batch = self.obs.1.bind(py).get_item(&rows)?;
        let answer = self.call.bind(py).call1((batch,))?;
        let (v, l): (Bound<'_, PyAny>, Bound<'_, PyAny>) = answer.extract().map_err(|_| {
            PyTypeError::new_err("the evaluator must return a pair: (values, logits)")
        })?;
        let numpy = self.numpy.bind(py);
        let kwargs = PyDict::new(py);
        kwargs.set_item("casting", "same_kind")?;
        let v = numpy.call_method1("asarray", (v,))?;
        let l = numpy.call_method1("asarray", (l,))?;
        let v_shape: Vec<usize> = v.getattr("shape")?.extract()?;
        let l_shape: Vec<usize> = l.getattr("shape")?.extract()?;
        if v_shape != [k] && v_shape != [k, 1] {
            return Err(PyValueError::new_err(format!(
                "the evaluator returned values of shape {}: expected ({k},) or ({k}, 1), one \
                 value a position of the batch of {k}",
                shape_text(&v_shape)
            )));
        }
        if l_shape != [k, self.actions] {
            return Err(PyValueError::new_err(format!(
                "the evaluator returned logits of shape {}: expected ({k}, {}), the batch of \
                 {k} positions by action_count = {}",
                shape_text(&l_shape),
                self.actions,
                self.actions
            )));
        }
        let v = numpy.call_method1("reshape", (v, (k,)))?;
        let values_out = self.values.1.bind(py).get_item(&rows)?;
        let logits_out = self.logits.1.bind(py).get_item(&rows)?;
        numpy.call_method("copyto", (values_out, v), Some(&kwargs))?;
        numpy.call_method("copyto", (logits_out, l), Some(&kwargs))?;
        // SAFETY: as above; numpy's copies have finished (they run under the GIL).
        get(unsafe { self.values.0.bind(py).as_bytes() }, values);
        get(unsafe { self.logits.0.bind(py).as_bytes() }, logits);
        Ok(())
    }
}

impl Evaluator for PyEvaluator {
    fn evaluate(
        &mut self,
        observations: &[f32],
        values: &mut [f32],
        logits: &mut [f32],
    ) -> Result<(), GameError> {
        Python::attach(|py| match self.call(py, observations, values, logits) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.error = Some(e);
                Err(GameError::EvaluatorFailed)
            }
        })
    }
}

/// What a search knows of one root move.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct BatchedMove {
    /// The move (the game's own object; an int for a native game).
    #[pyo3(name = "move")]
    pub mv: Py<PyAny>,
    /// Its index in the action space.
    pub action: usize,
    /// Its probability under the evaluator's policy.
    pub prior: f64,
    /// Visits.
    pub visits: u32,
    /// Its mean value for the side to move at the root, in [-1, 1].
    pub q: f64,
    /// Its proven value for the side to move at the root (1, 0, -1), or `None`.
    pub proven: Option<f64>,
    /// Its share of the policy target.
    pub policy: f64,
}

/// One game's answer.
#[pyclass(frozen, module = "libminimax", get_all)]
pub struct BatchedResult {
    /// The move to play, or `None` if the game is over.
    pub best_move: Py<PyAny>,
    /// The root's value for its side to move, in [-1, 1]: its proof, else the mean.
    pub value: f64,
    /// The root's proven value (1, 0, -1), or `None`.
    pub proven: Option<f64>,
    /// The root's moves, in the game's order.
    pub root: Vec<Py<BatchedMove>>,
    /// The policy target: a float32 numpy array over the action space, summing to 1.
    pub policy: Py<PyAny>,
    /// Simulations made for this game in this search.
    pub simulations: u32,
    /// Whether the tree reached `max_nodes`.
    pub tree_full: bool,
    /// The threads the search ran on.
    pub threads: usize,
    /// Why it ran on fewer threads than asked for, in a few words, or `None`.
    pub fewer_threads: Option<&'static str>,
}

#[pymethods]
impl BatchedResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "BatchedResult(best_move={}, value={:.3}, proven={}, simulations={})",
            self.best_move.bind(py).repr()?,
            self.value,
            self.proven.map_or("None".into(), |p| format!("{p:.1}")),
            self.simulations
        ))
    }
}

fn result(
    py: Python<'_>,
    numpy: &Bound<'_, PyModule>,
    map: &MoveMap,
    r: CoreResult,
) -> PyResult<BatchedResult> {
    let mut bytes = vec![0u8; r.policy.len() * 4];
    put(&mut bytes, &r.policy);
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", numpy.getattr("float32")?)?;
    let policy = numpy
        .call_method("frombuffer", (PyByteArray::new(py, &bytes),), Some(&kwargs))?
        .unbind();
    let root = r
        .root
        .iter()
        .map(|m| {
            Py::new(
                py,
                BatchedMove {
                    mv: map.object(py, m.mv)?.unbind(),
                    action: m.action,
                    prior: m.prior,
                    visits: m.visits,
                    q: m.q,
                    proven: m.proven,
                    policy: m.policy,
                },
            )
        })
        .collect::<PyResult<_>>()?;
    let best_move = match r.best_move {
        Some(m) => map.object(py, m)?.unbind(),
        None => py.None(),
    };
    Ok(BatchedResult {
        best_move,
        value: r.value,
        proven: r.proven,
        root,
        policy,
        simulations: r.simulations,
        tree_full: r.tree_full,
        threads: r.threads,
        fewer_threads: crate::results::fewer(r.fewer_threads),
    })
}

impl BatchedMcts {
    /// [`BatchedMcts::search`] once the object is borrowed.
    fn search_all(
        &mut self,
        py: Python<'_>,
        games: &Bound<'_, PyAny>,
        evaluator: &Bound<'_, PyAny>,
        simulations: Option<u32>,
        temperature: Option<f64>,
        seed: Option<u64>,
    ) -> PyResult<Vec<BatchedResult>> {
        let opts = BatchedOptions {
            simulations: simulations.unwrap_or(self.opts.simulations),
            temperature: temperature.unwrap_or(self.opts.temperature),
            seed: seed.unwrap_or(self.opts.seed),
            ..self.opts
        };
        opts.check().map_err(from_status)?;
        if !evaluator.is_callable() {
            return Err(PyTypeError::new_err(
                "evaluator must be callable: observations -> (values, logits)",
            ));
        }
        let first = games.try_iter()?.next().transpose()?;
        let Some(first) = first else {
            return Ok(Vec::new());
        };
        if first.cast::<games::Native>().is_err() {
            return self.search_python(py, games, evaluator, opts);
        }
        let mut copies = games::encoded(games)?;
        let core = &mut self.core;
        if let Ok(model) = evaluator.cast::<onnx::OnnxEvaluator>() {
            // The library's own evaluator: no Python at all until the search ends.
            let model = model.get();
            model.fits(&copies[0])?;
            let outcome = py.detach(|| {
                model.with(|evaluator| core.search_parallel(&mut copies, evaluator, &opts))
            });
            let numpy = py.import("numpy")?;
            let ints = MoveMap::default();
            return outcome
                .map_err(from_status)?
                .into_iter()
                .map(|r| result(py, &numpy, &ints, r))
                .collect();
        }
        let shape = (copies[0].observation_size(), copies[0].action_count());
        let cap = opts.batch_room(copies.len());
        let mut adapter = PyEvaluator::new(py, evaluator, cap, shape)?;
        let outcome = py.detach(|| core.search_parallel(&mut copies, &mut adapter, &opts));
        if let Some(e) = adapter.error.take() {
            return Err(e);
        }
        let numpy = adapter.numpy.bind(py);
        let ints = MoveMap::default();
        outcome
            .map_err(from_status)?
            .into_iter()
            .map(|r| result(py, numpy, &ints, r))
            .collect()
    }

    /// [`BatchedMcts::search`] of Python games, the GIL held throughout.
    fn search_python(
        &mut self,
        py: Python<'_>,
        games: &Bound<'_, PyAny>,
        evaluator: &Bound<'_, PyAny>,
        mut opts: BatchedOptions,
    ) -> PyResult<Vec<BatchedResult>> {
        let objects: Vec<Bound<'_, PyAny>> = games.try_iter()?.collect::<PyResult<_>>()?;
        let numpy = py.import("numpy").map_err(|_| {
            PyImportError::new_err(
                "BatchedMcts hands its evaluator numpy arrays: pip install numpy",
            )
        })?;
        if self.maps.len() < objects.len() {
            self.maps.resize_with(objects.len(), MoveMap::default);
        }
        let stop = AtomicI32::new(0);
        let mut wrapped = Vec::new();
        let mut shape = None;
        for (i, (obj, map)) in objects.iter().zip(self.maps.iter_mut()).enumerate() {
            let encoding = |name: &str| {
                optional(obj, name)?.ok_or_else(|| {
                    PyTypeError::new_err(format!(
                        "games[{i}] has no {name}: batched MCTS needs observation(), \
                         action_index(move) and action_count beside the game's methods"
                    ))
                })
            };
            let observation = encoding("observation")?;
            let action_index = encoding("action_index")?;
            let actions: usize = encoding("action_count")?.extract()?;
            // Whose turn it is at the root decides whose values the evaluator gives:
            // guessed, half the roots would be searched for the wrong side.
            if optional(obj, "max_to_move")?.is_none() {
                return Err(PyTypeError::new_err(format!(
                    "games[{i}] has no max_to_move(): batched MCTS needs to know whose turn \
                     it is at each game's root (True when the first player, whose view \
                     outcome() takes, is to move)"
                )));
            }
            let size = observation.call0()?.len()?;
            if *shape.get_or_insert((size, actions)) != (size, actions) {
                let (size0, actions0) = shape.unwrap_or_default();
                return Err(PyValueError::new_err(format!(
                    "games[{i}] has observations of {size} floats and action_count {actions}, \
                     where games[0] has {size0} and {actions0}: one search takes games of one \
                     shape"
                )));
            }
            let observe = match optional(obj, "observe")? {
                Some(f) => {
                    let (bytes, row) = array(&numpy, size, &[size])?;
                    Some((f, bytes, row))
                }
                None => None,
            };
            let game = PyGame::new(obj, ScoreView::Max, map, &stop, false)?;
            wrapped.push(PyEncoded {
                observe,
                action_indices: optional(obj, "action_indices")?,
                wins_at_once: optional(obj, "wins_at_once")?,
                game,
                observation,
                action_index,
                size,
                actions,
                index: i,
            });
        }
        let (size, actions) = shape.unwrap_or((0, 0));
        // Decisive moves played from Python cost a game of many moves several times its
        // search: on by default only where the game answers in one call.
        if self.decisive.is_none() {
            opts.decisive = wrapped.iter().all(|w| w.wins_at_once.is_some());
        }
        let cap = opts.batch_room(wrapped.len());
        let mut adapter = PyEvaluator::new(py, evaluator, cap, (size, actions))?;
        let outcome = self.core.search(&mut wrapped, &mut adapter, &opts);
        // An exception of a game's method wins (the search stopped for it), then the
        // evaluator's.
        for w in wrapped {
            w.game.finish(Ok(()))?;
        }
        if let Some(e) = adapter.error.take() {
            return Err(e);
        }
        let numpy = adapter.numpy.bind(py);
        outcome
            .map_err(from_status)?
            .into_iter()
            .zip(&self.maps)
            .map(|(r, map)| result(py, numpy, map, r))
            .collect()
    }
}

/// The error for a call on a `BatchedMcts` that is searching already (from its evaluator
/// or a game's method, or another thread).
fn busy(call: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "BatchedMcts.{call}() was called while this object is searching (from its evaluator, \
         a game's method or another thread): use another BatchedMcts for a search inside a \
         search"
    ))
}

/// A Python game with an encoding: its `observation()` and `action_index(move)`.
struct PyEncoded<'py, 'a> {
    game: PyGame<'py, 'a>,
    observation: Bound<'py, PyAny>,
    action_index: Bound<'py, PyAny>,
    size: usize,
    actions: usize,
    /// The game's place in the search's list, for messages.
    index: usize,
    /// The batch-friendly protocol, where the game has it: `observe(out)` with the
    /// float32 array it fills (and the bytes under it), `action_indices()` and
    /// `wins_at_once()`.
    observe: Option<(
        Bound<'py, PyAny>,
        Bound<'py, PyByteArray>,
        Bound<'py, PyAny>,
    )>,
    action_indices: Option<Bound<'py, PyAny>>,
    wins_at_once: Option<Bound<'py, PyAny>>,
}

impl Game for PyEncoded<'_, '_> {
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

impl Encode for PyEncoded<'_, '_> {
    fn observation_size(&self) -> usize {
        self.size
    }
    fn action_count(&self) -> usize {
        self.actions
    }
    fn observe(&mut self, out: &mut [f32]) {
        if self.game.failed() {
            return;
        }
        if let Some((f, bytes, row)) = &self.observe {
            // The game fills the array in place; its bytes are read once.
            match f.call1((row,)) {
                // SAFETY: the GIL is held and the bytearray is this adapter's own, never
                // resized; the game's call that wrote it has returned.
                Ok(_) => get(unsafe { bytes.as_bytes() }, out),
                Err(e) => self.game.fail(e),
            }
            return;
        }
        let floats = self
            .observation
            .call0()
            .and_then(|o| o.extract::<Vec<f32>>());
        match floats {
            Ok(v) if v.len() == out.len() => out.copy_from_slice(&v),
            Ok(v) => self.game.fail(PyValueError::new_err(format!(
                "observation() gave {} floats here and {} at the root",
                v.len(),
                out.len()
            ))),
            Err(e) => self.game.fail(e),
        }
    }
    fn action_indices(&mut self, moves: &[Move], out: &mut Vec<usize>) {
        let Some(f) = &self.action_indices else {
            for &mv in moves {
                out.push(self.action_index(mv));
            }
            return;
        };
        if self.game.failed() {
            return;
        }
        let answer = f.call0().and_then(|v| {
            let v: Vec<i64> = v.extract()?;
            if v.len() != moves.len() {
                return Err(crate::errors::BadActionIndexError::new_err(format!(
                    "games[{}].action_indices() gave {} indices for {} legal moves: one for \
                     each move of moves(), in its order",
                    self.index,
                    v.len(),
                    moves.len()
                )));
            }
            match v
                .iter()
                .position(|&i| !(0..self.actions as i64).contains(&i))
            {
                Some(k) => Err(crate::errors::BadActionIndexError::new_err(format!(
                    "games[{}].action_indices() gave {} for move {} ({}): an action index is \
                     an int from 0 to action_count - 1 = {}",
                    self.index,
                    v[k],
                    k,
                    self.game.move_object(moves[k])?.repr()?,
                    self.actions as i64 - 1
                ))),
                None => Ok(v),
            }
        });
        match answer {
            Ok(v) => out.extend(v.into_iter().map(|i| i as usize)),
            Err(e) => self.game.fail(e),
        }
    }
    fn wins_at_once(&mut self, _moves: &[Move]) -> Option<bool> {
        let f = self.wins_at_once.as_ref()?;
        if self.game.failed() {
            return Some(false);
        }
        match f.call0().and_then(|v| v.extract::<bool>()) {
            Ok(wins) => Some(wins),
            Err(e) => {
                self.game.fail(e);
                Some(false)
            }
        }
    }
    fn action_index(&mut self, mv: Move) -> usize {
        if self.game.failed() {
            return usize::MAX;
        }
        let index = self.game.move_object(mv).and_then(|m| {
            let i = self.action_index.call1((&m,))?;
            match i.extract::<i64>() {
                Ok(i) if (0..self.actions as i64).contains(&i) => Ok(i as usize),
                _ => Err(crate::errors::BadActionIndexError::new_err(format!(
                    "games[{}].action_index({}) returned {}: an action index is an int from 0 \
                     to action_count - 1 = {}",
                    self.index,
                    m.repr()?,
                    i.repr()?,
                    self.actions as i64 - 1
                ))),
            }
        });
        index.unwrap_or_else(|e| {
            self.game.fail(e);
            usize::MAX
        })
    }
}

/// Monte Carlo tree search whose leaves a network evaluates in batches (AlphaZero's
/// search), over many games at once: one tree per game, kept between moves (`advance`).
#[pyclass(module = "libminimax")]
pub struct BatchedMcts {
    core: Core,
    opts: BatchedOptions,
    /// Each Python game's moves as numbers, kept with its tree (native games' moves are
    /// ints, their own numbers).
    maps: Vec<MoveMap>,
    /// `decisive` as given; `None`: on, except for Python games without `wins_at_once()`.
    decisive: Option<bool>,
}

#[pymethods]
impl BatchedMcts {
    /// `root` is "puct" (with `noise=(alpha, fraction)`, Dirichlet noise at the root) or
    /// "gumbel" (Sequential Halving among `considered` moves; `c_visit`, `c_scale`).
    /// `leaves_per_tree` leaves of one tree go in a batch at most (virtual loss spreads
    /// them); `batch_size` positions in an evaluator call at most. `decisive` checks for
    /// moves that win at once before a leaf is sent: by default on for native games and
    /// for Python games with `wins_at_once()`, off for other Python games (each move
    /// played from Python costs much: docs/batched.md). `threads` share the native games'
    /// trees (0: one per core); the evaluator is called on the calling thread.
    #[new]
    #[pyo3(signature = (
        *, simulations = 800, batch_size = 256, leaves_per_tree = 8, root = "puct",
        noise = None, considered = 16, c_visit = 50.0, c_scale = 0.1, c_init = 1.25,
        c_base = 19652.0, temperature = 0.0, decisive = None, max_nodes = 1 << 20,
        seed = 0x5EED, threads = 1
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        simulations: u32,
        batch_size: usize,
        leaves_per_tree: usize,
        root: &str,
        noise: Option<(f64, f64)>,
        considered: u32,
        c_visit: f64,
        c_scale: f64,
        c_init: f64,
        c_base: f64,
        temperature: f64,
        decisive: Option<bool>,
        max_nodes: usize,
        seed: u64,
        threads: i64,
    ) -> PyResult<Self> {
        let threads = crate::options::thread_count(threads)?;
        if root == "gumbel" && considered < 2 {
            return Err(PyValueError::new_err(format!(
                "considered={considered}: Gumbel's Sequential Halving compares at least 2 \
                 root moves (with one it would play the noise's pick)"
            )));
        }
        let root = match root {
            "puct" => RootPolicy::Puct { noise },
            "gumbel" if noise.is_none() => RootPolicy::Gumbel(Gumbel {
                considered,
                c_visit,
                c_scale,
            }),
            "gumbel" => {
                return Err(PyValueError::new_err(
                    "noise is for root='puct'; Gumbel draws its own",
                ));
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "root='{root}' is not 'puct' or 'gumbel'"
                )));
            }
        };
        let opts = BatchedOptions {
            simulations,
            batch_size,
            leaves_per_tree,
            puct: Puct {
                init: c_init,
                base: c_base,
            },
            root,
            temperature,
            max_nodes,
            decisive: decisive.unwrap_or(true),
            seed,
            threads,
            ..BatchedOptions::default()
        };
        opts.check().map_err(from_status)?;
        Ok(BatchedMcts {
            core: Core::new(),
            opts,
            decisive,
            maps: Vec::new(),
        })
    }

    /// Searches each of `games` (native games of one kind with an encoding: TicTacToe,
    /// ConnectFour), calling `evaluator(observations)` with up to `batch_size`
    /// positions at once; returns one `BatchedResult` a game. The games are left as
    /// they were. `simulations`, `temperature` and `seed` override the object's for this
    /// search. An exception of the evaluator stops the search and is raised.
    #[pyo3(signature = (games, evaluator, *, simulations = None, temperature = None, seed = None))]
    fn search(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        games: &Bound<'_, PyAny>,
        evaluator: &Bound<'_, PyAny>,
        simulations: Option<u32>,
        temperature: Option<f64>,
        seed: Option<u64>,
    ) -> PyResult<Vec<BatchedResult>> {
        let mut this = slf.try_borrow_mut().map_err(|_| busy("search"))?;
        this.search_all(py, games, evaluator, simulations, temperature, seed)
    }

    /// Keeps the subtree of `move` (just played in game `game`) as that game's tree. A
    /// game the last search did not have is an `IndexError`, a move its root does not
    /// have a `ValueError`.
    #[pyo3(signature = (game, r#move))]
    fn advance(slf: &Bound<'_, Self>, game: i64, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut this = slf.try_borrow_mut().map_err(|_| busy("advance"))?;
        let this = &mut *this;
        let games = this.core.games();
        let Some(g) = usize::try_from(game).ok().filter(|&g| g < games) else {
            return Err(PyIndexError::new_err(format!(
                "advance({game}, ...): the last search had {games} games (indices 0 to {})",
                games as i64 - 1
            )));
        };
        let n = match this.maps.get_mut(g) {
            Some(map) => map.number(r#move)?,
            None => MoveMap::default().number(r#move)?,
        };
        if !this.core.holds(g, n) {
            return Err(PyValueError::new_err(format!(
                "advance({game}, {}): not one of the moves at the root of game {game}'s tree \
                 (its moves as the last search listed them)",
                r#move.repr()?
            )));
        }
        this.core.advance(g, n);
        Ok(())
    }

    /// Forgets every tree, and the move objects they held.
    fn clear(slf: &Bound<'_, Self>) -> PyResult<()> {
        let mut this = slf.try_borrow_mut().map_err(|_| busy("clear"))?;
        this.core.clear();
        this.maps.clear();
        Ok(())
    }

    /// Nodes in game `game`'s tree.
    fn nodes(&self, game: usize) -> usize {
        self.core.nodes(game)
    }

    /// Evaluator calls and positions sent, over the object's life.
    #[getter]
    fn evaluator_calls(&self) -> (u64, u64) {
        self.core.evaluator_calls()
    }
}
