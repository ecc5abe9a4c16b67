//! Multi-ProbCut's fit from Python: `ProbCut` (a fit, saved and read back as text) and its
//! pairs. Its calibration is `twoplayer/calibrate.rs`.

use minimax::search::{Calibration, ProbCut, ProbCutError, ProbCutPair};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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
