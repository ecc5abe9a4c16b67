//! Multi-ProbCut through the C API (tests/c/probcut.c): a fit calibrated from C against a
//! least-squares line over plain fixed-depth minimax values worked out there, a
//! self-play calibration, a fit's text read back exactly, the pairs and confidences the
//! library refuses, and searches with a fit (cuts save nodes, a confidence no value
//! reaches and enhanced transposition cut-offs change no value, the game's `stage`
//! chooses the pairs, an exact solve never cuts). Also run under the sanitizers and
//! valgrind by .ci/run.

use crate::common;

#[test]
fn probcut_from_c() {
    let summary = common::run_c_test("probcut");
    assert!(summary.starts_with("probcut: "), "{summary}");
}
