//! `c_examples/2048.c`: every move it plays is legal and every board follows from the
//! last by the standard rules (a slide, then one new 2 or 4 in an empty cell), checked
//! with the Rust 2048 of `examples/star`; seeded games reach 2048; bad arguments are
//! refused. Also run under the sanitizers and valgrind by .ci/run (shorter there).

use crate::common;
#[allow(dead_code)] // shared with the Star figures, which use more of it
#[path = "../../examples/star/game2048.rs"]
mod game2048;

use common::{Check, build_example, check_mode, run, stderr, stdout};
use game2048::Game2048;

/// The boards `--show` prints: four lines of four cells, "." for empty.
fn board(lines: &[&str]) -> [u8; 16] {
    let mut cells = [0; 16];
    for (r, line) in lines.iter().enumerate() {
        for (c, t) in line.split_whitespace().enumerate() {
            cells[4 * r + c] = match t {
                "." => 0,
                n => n.parse::<u32>().unwrap().trailing_zeros() as u8,
            };
        }
    }
    cells
}

#[test]
fn every_move_is_legal_and_every_board_follows_the_rules() {
    let exe = build_example("2048.c");
    let moves = if check_mode() == Check::Plain {
        300
    } else {
        30
    };
    let out = run(
        &exe,
        &["--seed", "5", "--moves", &moves.to_string(), "--show"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "start");
    let mut now = Game2048::new(board(&lines[1..5]));
    assert_eq!(
        now.cells.iter().filter(|&&c| c > 0).count(),
        2,
        "two tiles to start"
    );
    let mut seen = 0;
    let mut i = 5;
    while i + 4 < lines.len() && lines[i].starts_with("move ") {
        let dir = ["left", "right", "up", "down"]
            .iter()
            .position(|d| lines[i].contains(&format!(": {d} ")))
            .unwrap_or_else(|| panic!("a direction in {:?}", lines[i]));
        let slid = now.slid(dir as u8);
        assert_ne!(slid, now.cells, "{}: a move that changes nothing", lines[i]);
        let next = board(&lines[i + 1..i + 5]);
        let added: Vec<usize> = (0..16).filter(|&k| slid[k] != next[k]).collect();
        assert_eq!(added.len(), 1, "{}: one new tile", lines[i]);
        let k = added[0];
        assert!(
            slid[k] == 0 && (next[k] == 1 || next[k] == 2),
            "{}",
            lines[i]
        );
        now = Game2048::new(next);
        seen += 1;
        i += 5;
    }
    assert_eq!(seen, moves, "{text}");
    assert!(
        lines[i].starts_with("game 1 (seed 5): highest tile "),
        "{}",
        lines[i]
    );
}

#[test]
fn seeded_games_reach_2048() {
    if check_mode() != Check::Plain {
        return; // whole games take minutes under valgrind; the test above runs there
    }
    let exe = build_example("2048.c");
    let out = run(&exe, &["--games", "3", "--seed", "1"], "");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 3);
    assert!(
        text.contains("reached 2048 in 3 of 3 games"),
        "the engine's expectimax should win these: {text}"
    );
}

#[test]
fn mcts_reaches_1024_in_most_games() {
    if check_mode() != Check::Plain {
        return; // whole games take minutes under valgrind
    }
    let exe = build_example("2048.c");
    let out = run(
        &exe,
        &["--method", "mcts", "--games", "3", "--seed", "1"],
        "",
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = text
        .lines()
        .find(|l| l.starts_with("reached 1024 in "))
        .expect("a 1024 line");
    let reached: u32 = line["reached 1024 in ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(reached >= 2, "MCTS should reach 1024 in most games: {text}");
}

#[test]
fn time_limits_other_methods_and_interactive_play() {
    let exe = build_example("2048.c");
    for args in [
        &["--ms", "5", "--moves", "5"][..],
        &["--method", "star2", "--depth", "3", "--moves", "5"],
        &["--method", "mcts", "--playouts", "50", "--moves", "5"],
        &["--method", "mcts", "--ms", "5", "--moves", "5"],
    ] {
        let out = run(&exe, args, "");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("5 moves"),
            "{args:?}: {}",
            stdout(&out)
        );
    }
    // You play: a move that does nothing is refused, the others are played, q quits.
    let out = run(&exe, &["--play"], "w\nw\nw\nw\na\nd\nq\n");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(text.matches("the engine advises").count() >= 2, "{text}");
}

#[test]
fn bad_arguments_are_refused() {
    let exe = build_example("2048.c");
    for args in [
        &["--games", "x"][..],
        &["--depth"],
        &["--method", "minimax"],
        &["--games", "0"],
        &["--frobnicate"],
    ] {
        let out = run(&exe, args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with("2048: ") || stderr(&out).starts_with("usage: "));
    }
}
