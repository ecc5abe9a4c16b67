//! Games of more than two players through the C API (tests/c/players.c): max^n, the
//! paranoid search and MCTS's proofs against a plain max^n, a plain paranoid minimax and
//! a plain max^n over win rewards written in C, and
//! the statuses of games that break the n-player contract. Also run under the
//! sanitizers and valgrind by .ci/run.

use crate::common;

#[test]
fn players_from_c() {
    let summary = common::run_c_test("players");
    assert!(
        summary.starts_with(
            "players: 120 positions (60 with best-reply search, 100 proved by MCTS, 82 with dice)"
        ),
        "{summary}"
    );
}
