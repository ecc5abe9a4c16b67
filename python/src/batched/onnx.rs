//! `OnnxEvaluator`: a network saved as ONNX, evaluated by the library itself (the `onnx`
//! feature, tract). Handed to `BatchedMcts.search` with native games, the whole search
//! runs with the GIL released: no Python between its batches. It is also a callable
//! evaluator (`observations -> (values, logits)`), for Python games and for checking.

use std::sync::Mutex;

use minimax::search::batched::{Encode, Evaluator, OnnxError, OnnxEvaluator as Core};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyTuple};

/// The library's error as the Python exception a caller expects: a file that cannot be
/// read is an `OSError`, a model that does not fit a `ValueError`; the message names it.
pub fn from_onnx(e: OnnxError) -> PyErr {
    match e {
        OnnxError::Io(m) => PyOSError::new_err(m),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// A network saved as ONNX, checked when it is loaded: one float input
/// `[batch, observation_size]`, outputs `value` and `logits`.
#[pyclass(frozen, module = "libminimax")]
pub struct OnnxEvaluator {
    /// Locked for a search or a call (tract's plans are made and kept per batch size).
    core: Mutex<Core>,
    observation_size: usize,
    action_count: usize,
    fixed_batch: Option<usize>,
}

impl OnnxEvaluator {
    /// Whether `game` has the model's sizes (a `ValueError` naming both else).
    pub fn fits(&self, game: &dyn Encode) -> PyResult<()> {
        let (obs, actions) = (game.observation_size(), game.action_count());
        if (obs, actions) != (self.observation_size, self.action_count) {
            return Err(PyValueError::new_err(format!(
                "the model takes observations of {} floats and gives {} logits; the games \
                 have {obs} and {actions}: a network trained for another game",
                self.observation_size, self.action_count
            )));
        }
        Ok(())
    }

    /// Runs `f` on the model, the lock held (the GIL is not needed, nor should be held).
    pub fn with<R>(&self, f: impl FnOnce(&mut Core) -> R) -> R {
        // A panic while the lock was held cannot leave tract's plans half made in a way
        // a later run would trust: each plan is inserted whole.
        let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut core)
    }
}

#[pymethods]
impl OnnxEvaluator {
    /// Loads the ONNX model at `path` (a `str` or `os.PathLike`), or from `data` (the
    /// file's bytes).
    #[new]
    #[pyo3(signature = (path = None, *, data = None))]
    fn new(
        py: Python<'_>,
        path: Option<std::path::PathBuf>,
        data: Option<Vec<u8>>,
    ) -> PyResult<Self> {
        let core = match (path, data) {
            (Some(p), None) => py.detach(|| Core::from_path(&p)),
            (None, Some(d)) => py.detach(|| Core::from_bytes(&d)),
            _ => {
                return Err(PyTypeError::new_err(
                    "OnnxEvaluator takes a path or data=bytes, one of the two",
                ));
            }
        }
        .map_err(from_onnx)?;
        Ok(OnnxEvaluator {
            observation_size: core.observation_size(),
            action_count: core.action_count(),
            fixed_batch: core.fixed_batch(),
            core: Mutex::new(core),
        })
    }

    /// Floats in one observation, as the model takes them.
    #[getter]
    fn observation_size(&self) -> usize {
        self.observation_size
    }

    /// Logits a position, as the model gives them.
    #[getter]
    fn action_count(&self) -> usize {
        self.action_count
    }

    /// The batch size the model was saved with, or None for a dynamic one.
    #[getter]
    fn fixed_batch(&self) -> Option<usize> {
        self.fixed_batch
    }

    /// Evaluates `observations` (`[batch, observation_size]`, anything numpy reads as
    /// float32) and returns `(values [batch], logits [batch, action_count])`, numpy.
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        observations: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let numpy = py.import("numpy")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", numpy.getattr("float32")?)?;
        let x = numpy.call_method("ascontiguousarray", (observations,), Some(&kwargs))?;
        let shape: Vec<usize> = x.getattr("shape")?.extract()?;
        let obs = self.observation_size;
        let n = match shape[..] {
            [n, size] if size == obs => n,
            _ => {
                let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                return Err(PyValueError::new_err(format!(
                    "observations of shape ({}): the model takes (batch, {obs})",
                    dims.join(", ")
                )));
            }
        };
        // Read in place: a `Vec<u8>` extracted from `bytes` goes through Python's
        // sequence protocol, one integer an element, and cost as much as the model.
        let raw = x.call_method0("tobytes")?;
        let mut input = vec![0f32; n * obs];
        super::get(raw.cast::<PyBytes>()?.as_bytes(), &mut input);
        let mut values = vec![0f32; n];
        let mut logits = vec![0f32; n * self.action_count];
        if n > 0 {
            py.detach(|| self.with(|core| core.evaluate(&input, &mut values, &mut logits)))
                .map_err(|_| {
                    PyRuntimeError::new_err(format!("the model failed on a batch of {n}"))
                })?;
        }
        let as_array = |floats: &[f32], dims: &[usize]| -> PyResult<Bound<'py, PyAny>> {
            let raw = PyByteArray::new_with(py, floats.len() * 4, |b| {
                super::put(b, floats);
                Ok(())
            })?;
            let flat = numpy.call_method("frombuffer", (raw,), Some(&kwargs))?;
            flat.call_method1("reshape", (PyTuple::new(py, dims)?,))
        };
        Ok((
            as_array(&values, &[n])?,
            as_array(&logits, &[n, self.action_count])?,
        ))
    }

    fn __repr__(&self) -> String {
        let batch = match self.fixed_batch {
            Some(b) => b.to_string(),
            None => "dynamic".to_string(),
        };
        format!(
            "OnnxEvaluator(observation_size={}, action_count={}, batch={batch})",
            self.observation_size, self.action_count
        )
    }
}
