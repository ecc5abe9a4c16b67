//! Chance nodes through the C API (tests/c/chance.c): random trees searched by the three
//! chance methods against a plain expectimax in C, callbacks that break the chance
//! contract, and the 0.2.0-sized game and result structs. Also run under the sanitizers
//! and valgrind by .ci/run.

use crate::common;

#[test]
fn chance_nodes_from_c() {
    let summary = common::run_c_test("chance");
    assert!(summary.starts_with("chance: "), "{summary}");
}
