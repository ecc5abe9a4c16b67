//! MCTS from C (tests/c/mcts.c): tic-tac-toe proven a draw through the game callbacks,
//! the root's moves in the caller's buffer, tree reuse, seeded repeats, a busy object and
//! one freed from its own callback, NULLs, sizes and bad options. Also run under the
//! sanitizers and valgrind by .ci/run.

use crate::common;

#[test]
fn mcts_from_c() {
    let summary = common::run_c_test("mcts");
    assert!(summary.starts_with("mcts: "), "{summary}");
}
