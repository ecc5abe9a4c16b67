//! A Python object as the engine's `Game`. Its methods are looked up once. An exception
//! in any of them is kept, the search is asked to stop, and the adapter then plays
//! nothing more: it only takes back the moves that were really played, so that the game
//! is back in its position when the exception is raised again to the caller.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

use minimax::search::{Game, GameError, Move, ScoreView};
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList};

use crate::addresses::{Addresses, Held};
use crate::errors::from_status;
use crate::interrupt;
use crate::moves::MoveMap;

/// Calls between two looks for a signal (Ctrl-C) that no Python code has run yet.
const SIGNAL_EVERY: u32 = 1024;

/// The game's methods.
struct Methods<'py> {
    moves: Bound<'py, PyAny>,
    play: Bound<'py, PyAny>,
    undo: Bound<'py, PyAny>,
    outcome: Bound<'py, PyAny>,
    evaluate: Option<Bound<'py, PyAny>>,
    hash: Option<Bound<'py, PyAny>>,
    max_to_move: Option<Bound<'py, PyAny>>,
    bounds: Option<Bound<'py, PyAny>>,
    is_chance: Option<Bound<'py, PyAny>>,
    outcomes: Option<Bound<'py, PyAny>>,
    priors: Option<Bound<'py, PyAny>>,
    noisy_moves: Option<Bound<'py, PyAny>>,
    null_move: Option<Bound<'py, PyAny>>,
    /// A game of more than two players: `players()`, `to_move()` and `player_bounds()`.
    players: Option<Bound<'py, PyAny>>,
    to_move: Option<Bound<'py, PyAny>>,
    player_bounds: Option<Bound<'py, PyAny>>,
    /// A game with hidden information: what the player to move has seen, as an int.
    information_key: Option<Bound<'py, PyAny>>,
    /// A move as another player sees it (multi-observer ISMCTS).
    observed_move: Option<Bound<'py, PyAny>>,
    /// The stage of the game, for Multi-ProbCut's fits.
    stage: Option<Bound<'py, PyAny>>,
}

/// The Python games being searched now, by address: one object searched from two
/// threads at once (or by a search inside its own) would be played from two lines.
static SEARCHED: Addresses = Addresses::new();

/// A Python game searched on the calling thread, the GIL held.
pub struct PyGame<'py, 'a> {
    py: Python<'py>,
    f: Methods<'py>,
    map: &'a mut MoveMap,
    stop: &'a AtomicI32,
    view: ScoreView,
    /// The first exception a method raised.
    error: Option<PyErr>,
    /// For each move the engine has played and not taken back: whether the game played it.
    applied: Vec<bool>,
    calls: u32,
    /// Whether this search reads the deferred Ctrl-C (the one that deferred it).
    interruptible: bool,
    /// Whether the engine asked for an evaluation the game has no `evaluate()` for.
    pub unevaluated: bool,
    _searched: Held,
}

/// `obj.name` if it has it (an `AttributeError` is `None`; another error is raised).
pub fn optional<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    match obj.getattr(name) {
        Ok(f) if f.is_none() => Ok(None),
        Ok(f) => Ok(Some(f)),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyAttributeError>(obj.py()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `obj.name` if it is a method (callable): a game written for easyAI keeps its players
/// in a list, `self.players`, which is not the n-player protocol's `players()`.
fn method<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(optional(obj, name)?.filter(|f| f.is_callable()))
}

fn required<'py>(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    optional(obj, name)?.ok_or_else(|| {
        let ty = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!(
            "a game needs moves(), play(m), undo(m) and outcome(); this {ty} has no {name}()"
        ))
    })
}

impl<'py, 'a> PyGame<'py, 'a> {
    /// The adapter for `obj`, whose scores take `view`; `interruptible` for the search
    /// that deferred Ctrl-C (`interrupt.rs`). `evaluate` may be missing when the search
    /// never stops at a depth limit (an exact solve, MCTS playing to the end); it is then
    /// 0, and `unevaluated` says that it was asked for. An object already being searched
    /// is a `RuntimeError`.
    pub fn new(
        obj: &Bound<'py, PyAny>,
        view: ScoreView,
        map: &'a mut MoveMap,
        stop: &'a AtomicI32,
        interruptible: bool,
    ) -> PyResult<Self> {
        let searched = SEARCHED
            .hold(obj.as_ptr() as usize)
            .ok_or_else(|| PyRuntimeError::new_err("the game is being searched already"))?;
        let f = Methods {
            moves: required(obj, "moves")?,
            play: required(obj, "play")?,
            undo: required(obj, "undo")?,
            outcome: required(obj, "outcome")?,
            evaluate: optional(obj, "evaluate")?,
            hash: optional(obj, "hash")?,
            max_to_move: optional(obj, "max_to_move")?,
            bounds: optional(obj, "bounds")?,
            is_chance: optional(obj, "is_chance")?,
            outcomes: optional(obj, "outcomes")?,
            priors: optional(obj, "priors")?,
            noisy_moves: optional(obj, "noisy_moves")?,
            null_move: optional(obj, "null_move")?,
            players: method(obj, "players")?,
            to_move: method(obj, "to_move")?,
            player_bounds: method(obj, "player_bounds")?,
            information_key: optional(obj, "information_key")?,
            observed_move: optional(obj, "observed_move")?,
            stage: optional(obj, "stage")?,
        };
        Ok(PyGame {
            py: obj.py(),
            f,
            map,
            stop,
            view,
            error: None,
            applied: Vec::new(),
            calls: 0,
            interruptible,
            unevaluated: false,
            _searched: searched,
        })
    }

    /// The search's answer, or the exception a method raised (which wins over a status:
    /// the status came of the search stopping for it).
    pub fn finish<T>(mut self, result: Result<T, GameError>) -> PyResult<T> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        result.map_err(from_status)
    }

    /// The Python object of the move numbered `mv` (for a wrapper that calls other
    /// methods of the game with moves: batched MCTS's `action_index`).
    pub fn move_object(&self, mv: Move) -> PyResult<Bound<'py, PyAny>> {
        self.map.object(self.py, mv)
    }

    /// Whether a method has raised an exception (the search is unwinding).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Keeps the first exception and asks the search to stop.
    pub fn fail(&mut self, e: PyErr) {
        if self.error.is_none() {
            self.error = Some(e);
        }
        self.stop.store(1, Relaxed);
    }

    /// Stops the search for a deferred Ctrl-C (`interrupt.rs`), and looks for other
    /// pending signals now and then: a game whose methods are written in C runs no
    /// Python code that would.
    fn tick(&mut self) {
        if self.interruptible && interrupt::taken() {
            self.fail(PyKeyboardInterrupt::new_err(()));
        }
        self.calls += 1;
        if self.calls % SIGNAL_EVERY == 0 {
            if let Err(e) = self.py.check_signals() {
                self.fail(e);
            }
        }
    }

    /// The search's status for what `list` did: an exception stops the search (and the
    /// status is then replaced by it).
    fn listed(&mut self, result: PyResult<()>) -> Result<(), GameError> {
        result.map_err(|e| {
            self.fail(e);
            GameError::NoMovesNotOver
        })
    }

    /// Calls `f(mv)` for the move numbered `mv`.
    fn call_with_move(&self, f: &Bound<'py, PyAny>, mv: Move) -> PyResult<Bound<'py, PyAny>> {
        f.call1((self.map.object(self.py, mv)?,))
    }

    /// `f()`, or `None` after an exception or when `f` raises one (kept).
    fn ask(&mut self, f: Option<&Bound<'py, PyAny>>) -> Option<Bound<'py, PyAny>> {
        if self.error.is_some() {
            return None;
        }
        match f?.call0() {
            Ok(v) => Some(v),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }

    /// `f()` converted by `convert` (`None` stays `None`), with the conversion's own
    /// exception if it does not convert.
    fn ask_for<T>(
        &mut self,
        f: Option<Bound<'py, PyAny>>,
        convert: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
    ) -> Option<T> {
        let v = self.ask(f.as_ref())?;
        if v.is_none() {
            return None;
        }
        convert(&v).map_err(|e| self.fail(e)).ok()
    }
}

/// A score `name()` returned: an int (a bool is not one: `outcome()` says `None` while
/// the game goes on).
fn score(v: &Bound<'_, PyAny>, name: &str) -> PyResult<i32> {
    if v.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name}() returned {v}: a score is an int (outcome() returns None while the \
             game goes on)"
        )));
    }
    v.extract::<i32>()
}

/// The scores `name()` returned for a game of `out.len()` players: a sequence of as
/// many ints.
fn scores(v: &Bound<'_, PyAny>, name: &str, out: &mut [i32]) -> PyResult<()> {
    let mut n = 0;
    for x in v.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name}() returned {v}: in a game of {} players it gives a score for each, \
             as a tuple of ints",
            out.len()
        ))
    })? {
        let x = x?;
        if n < out.len() {
            out[n] = score(&x, name)?;
        }
        n += 1;
    }
    if n != out.len() {
        return Err(PyValueError::new_err(format!(
            "{name}() returned {n} scores in a game of {} players",
            out.len()
        )));
    }
    Ok(())
}

/// The table's key for what `hash()` returned: an int, any size (taken modulo 2**64).
/// Another type is a `TypeError`: Python's `hash()` of a float or a str would pass
/// silently, and differ from run to run for a str.
fn hash_value(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    if !v.is_instance_of::<PyInt>() || v.is_instance_of::<PyBool>() {
        let ty = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "hash() returned a {ty}: it returns an int, or None for no hash"
        )));
    }
    // i64 first: Python's hash() is one (half of them negative, where a failed u64
    // conversion would make and drop an exception, a microsecond a node).
    if let Ok(h) = v.extract::<i64>() {
        return Ok(h as u64);
    }
    if let Ok(h) = v.extract::<u64>() {
        return Ok(h);
    }
    v.call_method1("__and__", (u64::MAX,))?.extract::<u64>()
}

/// Appends the moves `f()` lists to `out`, as numbers.
fn list(map: &mut MoveMap, f: &Bound<'_, PyAny>, out: &mut Vec<Move>) -> PyResult<()> {
    for mv in f.call0()?.try_iter()? {
        let n = map.number(&mv?)?;
        out.try_reserve(1)
            .map_err(|_| from_status(GameError::OutOfMemory))?;
        out.push(n);
    }
    Ok(())
}

impl Game for PyGame<'_, '_> {
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.error.is_some() {
            // Unwinding after an exception: the status is replaced by it.
            return Err(GameError::NoMovesNotOver);
        }
        self.tick();
        let listed = list(self.map, &self.f.moves, out);
        self.listed(listed)
    }
    fn play(&mut self, mv: Move) {
        self.tick();
        let played = self.error.is_none() && {
            match self.call_with_move(&self.f.play, mv) {
                Ok(_) => true,
                Err(e) => {
                    self.fail(e);
                    false
                }
            }
        };
        self.applied.push(played);
    }
    fn undo(&mut self, mv: Move) {
        if self.applied.pop() == Some(true) {
            if let Err(e) = self.call_with_move(&self.f.undo, mv) {
                self.fail(e);
            }
        }
    }
    fn outcome(&mut self) -> Option<i32> {
        let f = Some(self.f.outcome.clone());
        self.ask_for(f, |v| score(v, "outcome"))
    }
    fn evaluate(&mut self) -> i32 {
        if self.f.evaluate.is_none() {
            self.unevaluated = true;
            return 0;
        }
        let f = self.f.evaluate.clone();
        self.ask_for(f, |v| score(v, "evaluate")).unwrap_or(0)
    }
    fn observed_move(&mut self, mv: Move, player: usize) -> Move {
        let Some(f) = self.f.observed_move.clone() else {
            return mv;
        };
        if self.error.is_some() {
            return mv;
        }
        let seen = self
            .map
            .object(self.py, mv)
            .and_then(|m| f.call1((m, player)))
            .and_then(|o| self.map.number(&o));
        seen.unwrap_or_else(|e| {
            self.fail(e);
            mv
        })
    }
    fn information_key(&mut self) -> Option<u64> {
        let f = self.f.information_key.clone()?;
        self.ask_for(Some(f), |v| {
            hash_value(v).map_err(|_| {
                PyTypeError::new_err("information_key() returns an int, or None for no key")
            })
        })
    }
    fn hash(&mut self) -> Option<u64> {
        let f = self.f.hash.clone()?;
        let v = self.ask(Some(&f))?;
        if v.is_none() {
            return None;
        }
        match hash_value(&v) {
            Ok(h) => Some(h),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }
    fn stage(&mut self) -> u32 {
        let Some(f) = self.f.stage.clone() else {
            return 0;
        };
        self.ask_for(Some(f), |v| v.extract::<u32>()).unwrap_or(0)
    }
    fn max_to_move(&mut self) -> Option<bool> {
        let f = self.f.max_to_move.clone()?;
        self.ask_for(Some(f), |v| v.extract::<bool>())
    }
    fn bounds(&mut self) -> Option<(i32, i32)> {
        let f = self.f.bounds.clone()?;
        self.ask_for(Some(f), |v| v.extract::<(i32, i32)>())
    }
    fn score_view(&mut self) -> ScoreView {
        self.view
    }
    fn is_chance(&mut self) -> bool {
        let Some(f) = self.f.is_chance.clone() else {
            return false;
        };
        self.ask_for(Some(f), |v| v.extract::<bool>())
            .unwrap_or(false)
    }
    fn outcomes(&mut self, out: &mut Vec<(Move, f64)>) -> Result<(), GameError> {
        if self.error.is_some() {
            return Err(GameError::NoOutcomes);
        }
        let Some(f) = self.f.outcomes.clone() else {
            let e = PyTypeError::new_err("the game has is_chance() but no outcomes()");
            self.fail(e);
            return Err(GameError::NoOutcomes);
        };
        let listed = (|| -> PyResult<()> {
            for pair in f.call0()?.try_iter()? {
                let (mv, weight): (Bound<'_, PyAny>, f64) = pair?.extract()?;
                let n = self.map.number(&mv)?;
                out.try_reserve(1)
                    .map_err(|_| from_status(GameError::OutOfMemory))?;
                out.push((n, weight));
            }
            Ok(())
        })();
        listed.map_err(|e| {
            self.fail(e);
            GameError::NoOutcomes
        })
    }
    fn priors(&mut self, moves: &[Move], out: &mut [f64]) -> bool {
        let Some(f) = self.f.priors.clone() else {
            return false;
        };
        if self.error.is_some() {
            return false;
        }
        let given = (|| -> PyResult<bool> {
            let objects = moves
                .iter()
                .map(|&m| self.map.object(self.py, m))
                .collect::<PyResult<Vec<_>>>()?;
            let weights = f.call1((PyList::new(self.py, objects)?,))?;
            if weights.is_none() {
                return Ok(false);
            }
            let weights: Vec<f64> = weights.extract()?;
            if weights.len() != out.len() {
                return Err(PyValueError::new_err(format!(
                    "priors() gave {} weights for {} moves",
                    weights.len(),
                    out.len()
                )));
            }
            out.copy_from_slice(&weights);
            Ok(true)
        })();
        given.unwrap_or_else(|e| {
            self.fail(e);
            false
        })
    }
    fn noisy_moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if self.error.is_some() {
            return Err(GameError::NoMovesNotOver);
        }
        let Some(f) = &self.f.noisy_moves else {
            return Ok(());
        };
        let listed = list(self.map, f, out);
        self.listed(listed)
    }
    fn players(&mut self) -> usize {
        let f = self.f.players.clone();
        self.ask_for(f, |v| v.extract::<usize>()).unwrap_or(2)
    }
    /// (A number no game has where `to_move()` failed: the search stops, and its
    /// exception is raised.)
    fn player_to_move(&mut self) -> usize {
        let f = self.f.to_move.clone();
        self.ask_for(f, |v| v.extract::<usize>())
            .unwrap_or(usize::MAX)
    }
    fn player_scores(&mut self, out: &mut [i32]) -> bool {
        let f = Some(self.f.outcome.clone());
        self.ask_for(f, |v| scores(v, "outcome", out)).is_some()
    }
    fn player_evaluations(&mut self, out: &mut [i32]) {
        if self.f.evaluate.is_none() {
            self.unevaluated = true;
            return;
        }
        let f = self.f.evaluate.clone();
        self.ask_for(f, |v| scores(v, "evaluate", out));
    }
    fn player_bounds(&mut self) -> Option<(i32, i32)> {
        let f = self.f.player_bounds.clone()?;
        self.ask_for(Some(f), |v| v.extract::<(i32, i32)>())
    }
    fn null_move(&mut self) -> Option<Move> {
        let f = self.f.null_move.clone()?;
        let mv = self.ask(Some(&f))?;
        if mv.is_none() {
            return None;
        }
        match self.map.number(&mv) {
            Ok(n) => Some(n),
            Err(e) => {
                self.fail(e);
                None
            }
        }
    }
}
