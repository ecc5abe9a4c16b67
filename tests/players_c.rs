//! Games of more than two players through the C API (tests/c/players.c): max^n and the
//! paranoid search against a plain max^n and a plain paranoid minimax written in C, and
//! the statuses of games that break the n-player contract. Also run under the
//! sanitizers and valgrind by .ci/run.

mod common;

#[test]
fn players_from_c() {
    let summary = common::run_c_test("players");
    assert!(
        summary.starts_with("players: 120 positions (60 with best-reply"),
        "{summary}"
    );
}
