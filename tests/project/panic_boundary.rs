//! The panic boundary: a panic inside an exported function, forced through the test-only
//! hook, becomes `MM_ERR_PANIC` (or 0 plus `MM_ERR_PANIC` from `mm_last_error` for the
//! textbook functions), leaves the outputs untouched, and the process goes on.

use minimax::ffi::boundary::{force_panic_for_tests, mm_last_error};
use minimax::ffi::game::*;
use minimax::ffi::result::*;
use minimax::ffi::status::mm_status::*;
use minimax::ffi::tree::leaves::*;
use minimax::ffi::tree::textbook::{alphabeta, minimax};
use minimax::ffi::tree::trees::*;
use minimax::ffi::twoplayer::search::*;
use std::ffi::c_void;
use std::ptr;

const LEAVES: [i32; 8] = [3, 5, 6, 9, 1, 2, 0, -1];

unsafe extern "C" fn no_moves(_: *mut c_void, _: *mut i64, _: usize) -> i32 {
    0
}
unsafe extern "C" fn nothing(_: *mut c_void, _: i64) {}
unsafe extern "C" fn over(_: *mut c_void, score: *mut i32) -> bool {
    // SAFETY: the engine passes a writable local.
    unsafe { score.write(1) };
    true
}
unsafe extern "C" fn zero(_: *mut c_void) -> i32 {
    0
}

/// Every kind of exported call once; returns what each gave, for comparison.
fn calls() -> Vec<(&'static str, i32)> {
    let mut got = Vec::new();
    // SAFETY: all pointers are to live locals of the stated lengths.
    unsafe {
        let v = minimax(0, 0, true, LEAVES.as_ptr(), 3);
        got.push(("minimax", v));
        got.push(("minimax error", mm_last_error() as i32));
        let v = alphabeta(3, 0, 0, true, LEAVES.as_ptr(), i32::MIN, i32::MAX);
        got.push(("alphabeta", v));
        got.push(("alphabeta error", mm_last_error() as i32));

        let mut sol: mm_solution = std::mem::zeroed();
        sol.value = 77;
        let s = mm_solve_leaves(LEAVES.as_ptr(), 8, 2, true, MM_ALGORITHM_DEFAULT, &mut sol);
        got.push(("mm_solve_leaves", s as i32));
        got.push(("mm_solve_leaves value", sol.value));

        let text = "(((3 5) (6 9)) ((1 2) (0 -1)))";
        let mut tree = ptr::null_mut();
        let s = mm_tree_parse(text.as_ptr().cast(), text.len(), &mut tree, ptr::null_mut());
        got.push(("mm_tree_parse", s as i32));
        got.push(("mm_tree_parse wrote a tree", !tree.is_null() as i32));
        mm_tree_free(tree);

        let game = mm_game {
            context: ptr::null_mut(),
            moves: Some(no_moves),
            play: Some(nothing),
            undo: Some(nothing),
            outcome: Some(over),
            evaluate: Some(zero),
            hash: None,
            max_to_move: None,
            bounds: None,
            ..Default::default()
        };
        let mut out: mm_search_result = std::mem::zeroed();
        out.value = 77;
        let s = mm_search(&game, ptr::null(), &mut out, ptr::null_mut(), 0);
        got.push(("mm_search", s as i32));
        got.push(("mm_search value", out.value));
    }
    got
}

#[test]
fn a_forced_panic_becomes_a_status_and_the_process_goes_on() {
    let normal = calls();
    assert_eq!(
        normal,
        [
            ("minimax", 5),
            ("minimax error", MM_OK as i32),
            ("alphabeta", 5),
            ("alphabeta error", MM_OK as i32),
            ("mm_solve_leaves", MM_OK as i32),
            ("mm_solve_leaves value", 5),
            ("mm_tree_parse", MM_OK as i32),
            ("mm_tree_parse wrote a tree", 1),
            ("mm_search", MM_OK as i32),
            ("mm_search value", 1),
        ]
    );
    // The panic message would be printed by the default hook: keep the output quiet.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    force_panic_for_tests(true);
    let panicked = calls();
    force_panic_for_tests(false);
    std::panic::set_hook(hook);
    let panic = MM_ERR_PANIC as i32;
    assert_eq!(
        panicked,
        [
            ("minimax", 0),
            ("minimax error", panic),
            ("alphabeta", 0),
            ("alphabeta error", panic),
            ("mm_solve_leaves", panic),
            ("mm_solve_leaves value", 77),
            ("mm_tree_parse", panic),
            ("mm_tree_parse wrote a tree", 0),
            ("mm_search", panic),
            ("mm_search value", 77),
        ]
    );
    // Still alive, and the library works as before.
    assert_eq!(calls(), normal);
}
