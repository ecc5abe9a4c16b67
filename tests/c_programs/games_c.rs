//! The game engine through the C API: misbehaving callbacks get their status, options are
//! checked, and the C examples (tictactoe.c, connect4.c) run with the published answers.

use crate::common;

use common::{build_example, run, stderr, stdout};
use minimax::ffi::game::*;
use minimax::ffi::options::*;
use minimax::ffi::result::*;
use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::table::*;
use minimax::ffi::twoplayer::search::*;
use std::ffi::{c_int, c_void};
use std::mem::MaybeUninit;

/// A tiny game whose callbacks misbehave as told: one move (0) then over with score 1.
#[derive(Default)]
struct Rogue {
    played: i64,
    count: c_int,
    eval: i32,
    no_end: bool,
    bounds: Option<(i32, i32)>,
    /// The count `noisy_moves` returns (after writing move 0), if the game has it.
    noisy: Option<c_int>,
    /// Whether the game offers a pass (move 7) for null-move pruning.
    passes: bool,
}

unsafe extern "C" fn rogue_moves(ctx: *mut c_void, moves: *mut i64, cap: usize) -> c_int {
    // SAFETY: ctx is the Rogue of the test; moves has cap entries.
    let r = unsafe { &*(ctx as *const Rogue) };
    if cap > 0 {
        unsafe { *moves = 0 };
    }
    if r.played > 0 && r.no_end { 0 } else { r.count }
}
unsafe extern "C" fn rogue_play(ctx: *mut c_void, _: i64) {
    // SAFETY: ctx is the Rogue of the test.
    unsafe { (*(ctx as *mut Rogue)).played += 1 };
}
unsafe extern "C" fn rogue_undo(ctx: *mut c_void, _: i64) {
    // SAFETY: ctx is the Rogue of the test.
    unsafe { (*(ctx as *mut Rogue)).played -= 1 };
}
unsafe extern "C" fn rogue_outcome(ctx: *mut c_void, score: *mut i32) -> bool {
    // SAFETY: ctx is the Rogue of the test; score is writable.
    let r = unsafe { &*(ctx as *const Rogue) };
    if r.played >= 2 && !r.no_end {
        unsafe { *score = 1 };
        return true;
    }
    false
}
unsafe extern "C" fn rogue_evaluate(ctx: *mut c_void) -> i32 {
    // SAFETY: ctx is the Rogue of the test.
    unsafe { (*(ctx as *const Rogue)).eval }
}
unsafe extern "C" fn rogue_bounds(ctx: *mut c_void, lo: *mut i32, hi: *mut i32) -> bool {
    // SAFETY: ctx is the Rogue of the test; lo and hi are writable.
    let r = unsafe { &*(ctx as *const Rogue) };
    match r.bounds {
        Some((l, h)) => {
            unsafe { (*lo, *hi) = (l, h) };
            true
        }
        None => false,
    }
}

unsafe extern "C" fn rogue_noisy(ctx: *mut c_void, moves: *mut i64, cap: usize) -> c_int {
    // SAFETY: ctx is the Rogue of the test; moves has cap entries.
    let r = unsafe { &*(ctx as *const Rogue) };
    if cap > 0 {
        unsafe { *moves = 0 };
    }
    r.noisy.unwrap_or(0)
}
unsafe extern "C" fn rogue_pass(ctx: *mut c_void, pass: *mut i64) -> bool {
    // SAFETY: ctx is the Rogue of the test; pass is writable.
    let r = unsafe { &*(ctx as *const Rogue) };
    unsafe { *pass = 7 };
    r.passes
}
fn run_rogue(rogue: &mut Rogue, depth: u32) -> Result<mm_search_result, mm_status> {
    run_rogue_with(rogue, depth, |_| {})
}
fn run_rogue_with(
    rogue: &mut Rogue,
    depth: u32,
    set: impl FnOnce(&mut mm_search_options),
) -> Result<mm_search_result, mm_status> {
    let game = mm_game {
        noisy_moves: rogue.noisy.map(|_| rogue_noisy as _),
        null_move: Some(rogue_pass),
        context: rogue as *mut Rogue as *mut c_void,
        moves: Some(rogue_moves),
        play: Some(rogue_play),
        undo: Some(rogue_undo),
        outcome: Some(rogue_outcome),
        evaluate: Some(rogue_evaluate),
        hash: None,
        max_to_move: None,
        bounds: Some(rogue_bounds),
        ..Default::default()
    };
    let mut o = MaybeUninit::uninit();
    // SAFETY: writable locals; the game's callbacks take its context.
    unsafe { mm_search_options_init_sized(o.as_mut_ptr(), size_of::<mm_search_options>()) };
    let mut o = unsafe { o.assume_init() };
    o.max_depth = depth;
    o.max_moves = 4;
    set(&mut o);
    let mut out = MaybeUninit::uninit();
    let mut pv = [0i64; 8];
    let s = unsafe { mm_search(&game, &o, out.as_mut_ptr(), pv.as_mut_ptr(), pv.len()) };
    // SAFETY: written on MM_OK.
    if s == MM_OK {
        Ok(unsafe { out.assume_init() })
    } else {
        Err(s)
    }
}

#[test]
fn misbehaving_callbacks_get_their_status() {
    let ok = run_rogue(
        &mut Rogue {
            count: 1,
            ..Default::default()
        },
        10,
    )
    .unwrap();
    assert_eq!(
        (
            ok.value,
            ok.has_move,
            ok.best_move,
            ok.proven,
            ok.plies_to_end
        ),
        (1, true, 0, true, 2)
    );
    let cases: [(Rogue, u32, mm_status); 8] = [
        (
            Rogue {
                count: 5,
                ..Default::default()
            },
            10,
            MM_ERR_GAME_TOO_MANY_MOVES,
        ),
        (
            Rogue {
                count: -1,
                ..Default::default()
            },
            10,
            MM_ERR_GAME_NEGATIVE_MOVE_COUNT,
        ),
        (
            Rogue {
                count: 1,
                eval: i32::MIN,
                ..Default::default()
            },
            1,
            MM_ERR_GAME_SCORE_OUT_OF_RANGE,
        ),
        (
            Rogue {
                count: 1,
                eval: i32::MAX,
                ..Default::default()
            },
            1,
            MM_ERR_GAME_SCORE_OUT_OF_RANGE,
        ),
        (
            Rogue {
                count: 1,
                no_end: true,
                ..Default::default()
            },
            10,
            MM_ERR_GAME_NO_MOVES,
        ),
        (
            Rogue {
                count: 1,
                bounds: Some((3, -3)),
                ..Default::default()
            },
            10,
            MM_ERR_GAME_BAD_BOUNDS,
        ),
        // Found by fuzzing: a bound at INT_MAX became the search's value.
        (
            Rogue {
                count: 1,
                bounds: Some((i32::MAX, i32::MAX)),
                ..Default::default()
            },
            10,
            MM_ERR_GAME_BAD_BOUNDS,
        ),
        (
            Rogue {
                count: 1,
                bounds: Some((i32::MIN, 0)),
                ..Default::default()
            },
            10,
            MM_ERR_GAME_BAD_BOUNDS,
        ),
    ];
    for (mut rogue, depth, expected) in cases {
        assert_eq!(run_rogue(&mut rogue, depth).unwrap_err(), expected);
        assert_eq!(
            rogue.played, 0,
            "the game is back at its root after {expected:?}"
        );
    }
}

/// The noisy moves of quiescence search are held to the contract of `moves`: a count
/// below 0 or past the capacity gets the same status; within it, the search answers, and
/// takes back every move (a pass too) it played.
#[test]
fn noisy_moves_get_the_statuses_of_moves() {
    let quiesce = |o: &mut mm_search_options| o.quiescence = true;
    for (noisy, want) in [
        (-1, Err(MM_ERR_GAME_NEGATIVE_MOVE_COUNT)),
        (5, Err(MM_ERR_GAME_TOO_MANY_MOVES)),
        (0, Ok(())),
        (1, Ok(())),
    ] {
        let mut r = Rogue {
            count: 1,
            noisy: Some(noisy),
            ..Default::default()
        };
        let got = run_rogue_with(&mut r, 1, quiesce).map(|_| ());
        assert_eq!(got, want, "{noisy} noisy moves");
        assert_eq!(r.played, 0, "every move taken back");
    }
    // Without the option, the callback is never called.
    let mut r = Rogue {
        count: 1,
        noisy: Some(-1),
        ..Default::default()
    };
    assert!(run_rogue(&mut r, 1).is_ok());
    // Null-move pruning with a game that passes: the same answer, everything taken back.
    let mut r = Rogue {
        count: 1,
        passes: true,
        ..Default::default()
    };
    let with = run_rogue_with(&mut r, 10, |o| o.null_move = true).unwrap();
    assert_eq!((with.value, with.proven, r.played), (1, true, 0));
}

#[test]
fn options_and_arguments_are_checked() {
    let mut out = MaybeUninit::uninit();
    // SAFETY: NULL game is rejected before use.
    let s = unsafe {
        mm_search(
            std::ptr::null(),
            std::ptr::null(),
            out.as_mut_ptr(),
            std::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(s, MM_ERR_NULL_ARGUMENT);
    let mut rogue = Rogue {
        count: 1,
        ..Default::default()
    };
    let mut game = mm_game {
        context: &mut rogue as *mut Rogue as *mut c_void,
        moves: Some(rogue_moves),
        play: Some(rogue_play),
        undo: Some(rogue_undo),
        outcome: Some(rogue_outcome),
        evaluate: None,
        hash: None,
        max_to_move: None,
        bounds: None,
        ..Default::default()
    };
    // SAFETY: the missing callback is rejected before any call.
    let s = unsafe {
        mm_search(
            &game,
            std::ptr::null(),
            out.as_mut_ptr(),
            std::ptr::null_mut(),
            0,
        )
    };
    assert_eq!(s, MM_ERR_NULL_ARGUMENT);
    game.evaluate = Some(rogue_evaluate);
    let mut o = MaybeUninit::uninit();
    // SAFETY: writable local.
    assert_eq!(
        unsafe { mm_search_options_init_sized(o.as_mut_ptr(), size_of::<mm_search_options>()) },
        MM_OK
    );
    let mut o: mm_search_options = unsafe { o.assume_init() };
    o.struct_size = 8;
    // SAFETY: valid game and options.
    assert_eq!(
        unsafe { mm_search(&game, &o, out.as_mut_ptr(), std::ptr::null_mut(), 0) },
        MM_ERR_BAD_STRUCT_SIZE
    );
    o.struct_size = size_of::<mm_search_options>();
    o.method = 9;
    assert_eq!(
        unsafe { mm_search(&game, &o, out.as_mut_ptr(), std::ptr::null_mut(), 0) },
        MM_ERR_UNKNOWN_ALGORITHM
    );
    o.method = MM_SEARCH_PVS;
    assert_eq!(
        unsafe { mm_search(&game, &o, out.as_mut_ptr(), std::ptr::null_mut(), 0) },
        MM_OK
    );
    // Memory that cannot be had is a status, never an abort (found by fuzzing): a move
    // buffer is required, a table is not (the search runs without one).
    let expected = unsafe { out.assume_init() }.value;
    o.max_moves = usize::MAX;
    assert_eq!(
        unsafe { mm_search(&game, &o, out.as_mut_ptr(), std::ptr::null_mut(), 0) },
        MM_ERR_OUT_OF_MEMORY
    );
    o.max_moves = 4;
    o.table_bytes = usize::MAX;
    assert_eq!(
        unsafe { mm_search(&game, &o, out.as_mut_ptr(), std::ptr::null_mut(), 0) },
        MM_OK
    );
    assert_eq!(unsafe { out.assume_init() }.value, expected);
    let mut table = std::ptr::null_mut();
    // SAFETY: `table` is a writable local; nothing is written on an error.
    unsafe {
        assert_eq!(mm_table_new(usize::MAX, &mut table), MM_ERR_OUT_OF_MEMORY);
        assert_eq!(mm_table_new(63, &mut table), MM_ERR_TABLE_TOO_SMALL);
        assert!(table.is_null());
    }
}

#[test]
fn tictactoe_solves_the_empty_board_with_the_published_count() {
    let exe = build_example("tictactoe.c");
    let o = run(&exe, &["--solve"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("value of the empty board: 0 (a draw)\n"),
        "{out}"
    );
    assert!(out.contains("minimax    value 0, nodes 549946,"), "{out}");
    for name in ["alpha-beta", "pvs", "exact"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(name) && l.contains("value 0,")),
            "{out}"
        );
    }
}

#[test]
fn tictactoe_plays_asks_again_and_exits_on_end_of_input() {
    let exe = build_example("tictactoe.c");
    // Bad square, taken square, then moves; the computer never loses.
    let o = run(&exe, &[], "0\nten\n5\n5\n1\n9\n3\n7\n2\n4\n6\n8\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("please type a square from 1 to 9"), "{out}");
    assert!(out.contains("square 5 is taken"), "{out}");
    assert!(
        out.trim_end().ends_with("draw")
            || out.trim_end().ends_with("computer wins")
            || out.contains("goodbye")
    );
    assert!(!out.contains("you win"), "{out}");
    let o = run(&exe, &["--o"], "");
    assert!(o.status.success() && stdout(&o).contains("goodbye"));
}

#[test]
fn connect4_scores_known_positions_and_reports_bad_lines() {
    let exe = build_example("connect4.c");
    let o = run(&exe, &[], "4455\n44455554221\n8\n1111111\n4455667\n\n");
    let out = stdout(&o);
    let lines: Vec<Vec<&str>> = out.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!((lines[0][0], lines[0][1]), ("4455", "18"));
    assert_eq!((lines[1][0], lines[1][1]), ("44455554221", "-15"));
    let err = stderr(&o);
    assert!(
        err.contains("line 3: \"8\": not a column digit 1-7"),
        "{err}"
    );
    assert!(
        err.contains("line 4: \"1111111\": the column is full"),
        "{err}"
    );
    assert!(
        err.contains("line 5: \"4455667\": the game is already over"),
        "{err}"
    );
}

/// Othello as a C program plays it (c_examples/othello.c): a game of the engine against
/// itself is a legal game to its end, every move checked here against Othello's rules by
/// a plain board written apart; a short match at a node budget runs its games.
#[test]
fn othello_plays_legal_games_from_c() {
    let exe = build_example("othello.c");
    let o = run(&exe, &["--depth", "3"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // The rules on a plain 8x8 array: 1 black, -1 white; black moves first.
    let mut board = [[0i8; 8]; 8];
    (board[3][3], board[4][4], board[3][4], board[4][3]) = (-1, -1, 1, 1);
    let dirs = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let flips = |b: &[[i8; 8]; 8], side: i8, r: i32, c: i32| -> Vec<(i32, i32)> {
        if b[r as usize][c as usize] != 0 {
            return Vec::new();
        }
        let mut all = Vec::new();
        for (dr, dc) in dirs {
            let (mut rr, mut cc, mut run) = (r + dr, c + dc, Vec::new());
            while (0..8).contains(&rr)
                && (0..8).contains(&cc)
                && b[rr as usize][cc as usize] == -side
            {
                run.push((rr, cc));
                (rr, cc) = (rr + dr, cc + dc);
            }
            if !run.is_empty()
                && (0..8).contains(&rr)
                && (0..8).contains(&cc)
                && b[rr as usize][cc as usize] == side
            {
                all.extend(run);
            }
        }
        all
    };
    let can_place = |b: &[[i8; 8]; 8], side: i8| {
        (0..8).any(|r| (0..8).any(|c| !flips(b, side, r, c).is_empty()))
    };
    let mut side = 1i8;
    let lines: Vec<&str> = out.lines().collect();
    let (last, moves) = lines.split_last().expect("output");
    for line in moves {
        let (who, what) = line.split_once(' ').expect("a move line");
        assert_eq!(who, if side == 1 { "black" } else { "white" }, "{line}");
        if what == "passes" {
            assert!(
                !can_place(&board, side) && can_place(&board, -side),
                "{line}"
            );
        } else {
            let (c, r) = (
                what.as_bytes()[0] as i32 - 'a' as i32,
                what[1..].parse::<i32>().unwrap() - 1,
            );
            let turned = flips(&board, side, r, c);
            assert!(!turned.is_empty(), "{line}: not a legal move");
            board[r as usize][c as usize] = side;
            for (rr, cc) in turned {
                board[rr as usize][cc as usize] = side;
            }
        }
        side = -side;
    }
    assert!(
        !can_place(&board, 1) && !can_place(&board, -1),
        "the game went to its end"
    );
    let count = |s: i8| board.iter().flatten().filter(|&&x| x == s).count();
    let (b, w) = (count(1), count(-1));
    let verdict = if b > w {
        "black wins"
    } else if b < w {
        "white wins"
    } else {
        "a draw"
    };
    assert_eq!(*last, format!("black {b}, white {w}: {verdict}"));
    let o = run(&exe, &["--match", "2", "--nodes", "300"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("in 2 games"), "{}", stdout(&o));
    let o = run(&exe, &["--depth"], "");
    assert_eq!(o.status.code(), Some(2), "a bad argument is exit status 2");
}
