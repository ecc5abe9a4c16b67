//! The Python face of libminimax (issue 42): a layer beside the C ABI, as thin as it can
//! be. The algorithms are the library's; this crate turns Python objects into games and
//! options, results into Python objects, and statuses into exceptions. The package
//! `libminimax` (python/libminimax) re-exports what this module defines.

// This crate needs Rust 1.91 (the library's onnx feature); the library and its examples,
// whose game files this crate shares, keep 1.85, before `is_multiple_of` and let chains:
// the lints that would rewrite them for the newer Rust are off, so the code stays one.
#![allow(clippy::manual_is_multiple_of, clippy::collapsible_if)]

// The families, one folder each, as in the library's `src/search/` and `src/ffi/`;
// `search.rs` chooses among them for `search()`.
mod batched;
mod hidden;
mod mcts;
mod players;
mod tree;
mod twoplayer;

// What the families share.
mod addresses;
mod cgame;
mod errors;
mod exit;
mod games;
mod interrupt;
mod main_thread;
mod moves;
mod options;
mod probcut;
mod pygame;
mod results;
mod search;
mod watch;

use pyo3::prelude::*;

/// The native module: `libminimax._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(tree::textbook::minimax, m)?)?;
    m.add_function(wrap_pyfunction!(tree::textbook::alphabeta, m)?)?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    m.add_function(wrap_pyfunction!(hidden::ismcts, m)?)?;
    m.add_function(wrap_pyfunction!(hidden::pimc, m)?)?;
    m.add_function(wrap_pyfunction!(
        twoplayer::calibrate::calibrate_probcut,
        m
    )?)?;
    m.add_class::<probcut::PyProbCut>()?;
    m.add_class::<probcut::PyProbCutPair>()?;
    m.add_class::<results::SearchResult>()?;
    m.add_class::<cgame::CGame>()?;
    m.add_class::<mcts::Mcts>()?;
    m.add_class::<results::MctsResult>()?;
    m.add_class::<results::MoveStats>()?;
    m.add_class::<results::PimcResult>()?;
    m.add_class::<results::PimcMove>()?;
    m.add_class::<batched::BatchedMcts>()?;
    m.add_class::<batched::BatchedResult>()?;
    m.add_class::<batched::BatchedMove>()?;
    m.add_class::<batched::onnx::OnnxEvaluator>()?;
    games::register(m)?;
    errors::register(m)?;
    main_thread::note_main_thread(m.py())?;
    exit::register(m.py())?;
    Ok(())
}
