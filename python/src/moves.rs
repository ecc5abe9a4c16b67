//! Python moves as the engine's integer moves. An `int` in (-2**62, 2**62) is its own
//! number (the common case, at no cost); any other hashable object gets a number from
//! 2**62 on, kept in a dict for the map's life, so that the same move always has the same
//! number (a kept MCTS tree relies on it).

use minimax::search::Move;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt};

/// The first number given to a move that is not a small `int`.
const OBJECTS: Move = 1 << 62;

/// Numbers for moves, and the moves for numbers.
#[derive(Default)]
pub struct MoveMap {
    objects: Vec<Py<PyAny>>,
    /// Made for the first move that is not a small `int` (native and C games have none).
    numbers: Option<Py<PyDict>>,
}

impl MoveMap {
    /// The number of `mv` (a `TypeError` if it is not hashable).
    pub fn number(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        if mv.is_exact_instance_of::<PyInt>() {
            if let Ok(n) = mv.extract::<i64>() {
                if n > -OBJECTS && n < OBJECTS {
                    return Ok(n);
                }
            }
        }
        let numbers = self
            .numbers
            .get_or_insert_with(|| PyDict::new(mv.py()).unbind())
            .bind(mv.py());
        if let Some(n) = numbers.get_item(mv)? {
            return n.extract();
        }
        let n = OBJECTS + self.objects.len() as Move;
        numbers.set_item(mv, n)?;
        self.objects.push(mv.clone().unbind());
        Ok(n)
    }

    /// The move numbered `n`, which `number` gave.
    pub fn object<'py>(&self, py: Python<'py>, n: Move) -> PyResult<Bound<'py, PyAny>> {
        if n > -OBJECTS && n < OBJECTS {
            return Ok(n.into_pyobject(py)?.into_any());
        }
        match usize::try_from(n - OBJECTS)
            .ok()
            .and_then(|i| self.objects.get(i))
        {
            Some(obj) => Ok(obj.bind(py).clone()),
            None => Ok(py.None().into_bound(py)),
        }
    }
}
