//! Two players taking turns: the engine (negamax with alpha-beta, PVS, MTD(f) and the
//! exact solve, the table and the enhancements), its team of threads sharing a table, and
//! ProbCut's calibration by the engine's own self-play.

pub(crate) mod abdada;
pub(crate) mod calibrate;
pub(crate) mod engine;
pub(crate) mod parallel;
