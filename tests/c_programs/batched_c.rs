//! Batched MCTS from C (tests/c/batched.c): tic-tac-toe through `mm_game`, `mm_encoding`
//! and an evaluator in C, 24 games at once; with exact values from a negamax written in
//! the C program no game plays a losing move where another holds; the tree kept across a
//! move; failures, NULLs, sizes and bad options get their statuses. Also run under the
//! sanitizers and valgrind by .ci/run.

use crate::common;

#[test]
fn batched_mcts_from_c() {
    let summary = common::run_c_test("batched");
    assert!(summary.starts_with("batched: "), "{summary}");
}
