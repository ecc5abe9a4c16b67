//! Two players taking turns: the calibration of a Multi-ProbCut fit by the engine's
//! self-play. (`search()` itself, which chooses among every family, is `search.rs`.)

pub mod calibrate;
