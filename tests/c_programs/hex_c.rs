//! `c_examples/hex.c`: what a user would expect of MCTS on a game with no evaluation.
//! With 20,000 playouts a move it beats alpha-beta given a zero evaluation on 7x7 in most
//! seeded games (a count of playouts, not a time: the same on every machine), on one
//! thread and on two sharing its tree; the
//! terminal game takes moves and refuses cells that are not empty; bad arguments are
//! refused.

use crate::common;

use common::{Check, build_example, check_mode, run, stderr, stdout};

#[test]
fn mcts_beats_zero_evaluation_alpha_beta_at_hex_on_one_thread_and_two() {
    let exe = build_example("hex.c");
    let games = if check_mode() == Check::Plain { 6 } else { 1 };
    let playouts = if check_mode() == Check::Plain {
        "20000"
    } else {
        "500"
    };
    for threads in ["1", "2"] {
        let out = run(
            &exe,
            &[
                "--selfplay",
                "--games",
                &games.to_string(),
                "--seed",
                "1",
                "--playouts",
                playouts,
                "--threads",
                threads,
            ],
            "",
        );
        let text = stdout(&out);
        assert!(out.status.success(), "{}", stderr(&out));
        let line = text.lines().last().unwrap();
        let won: u32 = line
            .split(" won ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("a match line: {text}"));
        if check_mode() == Check::Plain {
            assert!(
                won * 3 >= 2 * games,
                "MCTS on {threads} threads won {won} of {games}: {text}"
            );
        }
    }
}

#[test]
fn the_terminal_game_takes_moves_and_refuses_bad_ones() {
    let exe = build_example("hex.c");
    // 3x3: b2 is the centre; z9 and a repeated b2 are refused; then quit.
    let out = run(
        &exe,
        &["--size", "3", "--playouts", "200"],
        "b2\nz9\nb2\nq\n",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.contains("MCTS plays"), "{text}");
    assert_eq!(text.matches("not an empty cell").count(), 2, "{text}");
    for bad in [
        &["--size", "12"][..],
        &["--bogus"],
        &["--playouts", "0"],
        &["--threads", "0"],
    ] {
        let out = run(&exe, bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}
