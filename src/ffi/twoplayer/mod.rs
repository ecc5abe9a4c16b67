//! The two-player engine from C: `mm_search` (which also runs the chance methods), and
//! the calibration of a Multi-ProbCut fit by the engine's self-play (the fit itself,
//! `mm_probcut`, is in the options every search takes: `ffi/probcut.rs`).

pub mod calibrate;
pub mod search;
