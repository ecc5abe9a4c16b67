//! The tree-text parser through the C API: any bytes either parse into a tree that
//! solves, prints and parses back to the same text, or fail with a parse status and a
//! NUL-terminated message. A tree with chance nodes (`?(w: ...)`) is refused by the
//! deterministic solvers and solved alike by expectimax, Star1 and Star2.
#![no_main]

use libfuzzer_sys::fuzz_target;
use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::parse_error::mm_parse_error;
use minimax::ffi::tree::trees::*;
use std::ptr;

fn parse(text: &[u8]) -> (mm_status, *mut mm_tree, mm_parse_error) {
    let mut tree = ptr::null_mut();
    let mut error = mm_parse_error {
        line: 0,
        column: 0,
        message: [1; 160],
    };
    // SAFETY: `text` holds `len` bytes; `tree` and `error` are writable locals.
    let s = unsafe { mm_tree_parse(text.as_ptr().cast(), text.len(), &mut tree, &mut error) };
    (s, tree, error)
}

fn print(tree: *const mm_tree) -> Vec<u8> {
    let mut needed = 0;
    // SAFETY: a live tree; NULL buffer asks for the size; `needed` is writable.
    let s = unsafe { mm_tree_print(tree, ptr::null_mut(), 0, &mut needed) };
    assert_eq!(s, MM_ERR_BUFFER_TOO_SMALL);
    let mut buf = vec![0u8; needed];
    // SAFETY: `buf` has `needed` writable bytes.
    let s = unsafe { mm_tree_print(tree, buf.as_mut_ptr().cast(), buf.len(), &mut needed) };
    assert_eq!(s, MM_OK);
    assert_eq!(buf.pop(), Some(0), "NUL-terminated");
    buf
}

fuzz_target!(|data: &[u8]| {
    let (s, tree, error) = parse(data);
    if s != MM_OK {
        assert!(tree.is_null(), "no tree on an error");
        let parse_status = (13..=19).contains(&(s as i32)) || s == MM_ERR_PARSE_BAD_WEIGHT;
        assert!(parse_status, "a parse status: {s:?}");
        assert!(error.message.contains(&0), "the message is NUL-terminated");
        assert!(error.line >= 1 && error.column >= 1);
        return;
    }
    let (mut nodes, mut height) = (0, 0);
    // SAFETY: `tree` is the live handle just parsed; outputs are locals.
    unsafe {
        assert_eq!(mm_tree_size(tree, &mut nodes, &mut height), MM_OK);
        let mut line = vec![0usize; height];
        let mut sol = std::mem::zeroed::<mm_tree_solution>();
        let s = mm_tree_solve(tree, true, 1, &mut sol, line.as_mut_ptr(), height);
        if s == MM_ERR_GAME_CHANCE_NODE {
            chance(tree, nodes, height);
            let text = print(tree);
            let (s2, again, _) = parse(&text);
            assert_eq!(s2, MM_OK, "the printed text parses");
            assert_eq!(print(again), text);
            mm_tree_free(again);
            mm_tree_free(tree);
            return;
        }
        let mut values = Vec::new();
        for algorithm in 0..3 {
            let mut sol = std::mem::zeroed::<mm_tree_solution>();
            let s = mm_tree_solve(tree, true, algorithm, &mut sol, line.as_mut_ptr(), height);
            assert_eq!(s, MM_OK);
            assert!(sol.line_len <= height && sol.best_leaf < nodes);
            values.push(sol.value);
        }
        assert!(values.windows(2).all(|w| w[0] == w[1]), "algorithms agree: {values:?}");
        let mut count = 0;
        let s = mm_tree_pruned(tree, false, ptr::null_mut(), 0, &mut count);
        assert!(s == MM_OK || s == MM_ERR_BUFFER_TOO_SMALL);
        let mut pruned = vec![0usize; count];
        let s = mm_tree_pruned(tree, false, pruned.as_mut_ptr(), count, &mut count);
        assert_eq!(s, MM_OK);
        assert!(pruned.iter().all(|&n| n < nodes));
        if nodes < 2000 {
            let mut needed = 0;
            mm_tree_dot(tree, true, 1, ptr::null_mut(), 0, &mut needed);
            let mut dot = vec![0u8; needed];
            let s = mm_tree_dot(tree, true, 1, dot.as_mut_ptr().cast(), needed, &mut needed);
            assert_eq!(s, MM_OK);
        }
    }
    // Printing, parsing and printing again gives the same text.
    let text = print(tree);
    let (s2, again, _) = parse(&text);
    assert_eq!(s2, MM_OK, "the printed text parses: {}", String::from_utf8_lossy(&text));
    assert_eq!(print(again), text);
    // SAFETY: both handles are live and freed once.
    unsafe {
        mm_tree_free(again);
        mm_tree_free(tree);
    }
});

/// A tree with chance nodes: the three chance algorithms agree (or all find it too deep).
///
/// # Safety
/// `tree` must be a live handle of `nodes` nodes and this height.
unsafe fn chance(tree: *mut mm_tree, nodes: usize, height: usize) {
    use minimax::ffi::tree::leaves::{MM_ALGORITHM_EXPECTIMAX, MM_ALGORITHM_STAR2, mm_chance_solution};
    let mut line = vec![0usize; height];
    let mut values = Vec::new();
    for algorithm in MM_ALGORITHM_EXPECTIMAX..=MM_ALGORITHM_STAR2 {
        // SAFETY: all-zero is a valid value of plain fields.
        let mut sol: mm_chance_solution = unsafe { std::mem::zeroed() };
        // SAFETY: a live tree; `sol` writable; `line` has `height` entries.
        let s = unsafe { mm_tree_expectimax(tree, true, algorithm, &mut sol, line.as_mut_ptr(), height) };
        if s == MM_ERR_GAME_TOO_DEEP {
            assert!(height > 1000);
            return;
        }
        assert_eq!(s, MM_OK);
        assert!(sol.line_len <= height && sol.pruned < nodes && sol.value.is_finite());
        values.push(sol.value);
    }
    let scale = values[0].abs().max(1.0);
    assert!(values.iter().all(|v| (v - values[0]).abs() <= 1e-9 * scale), "{values:?}");
    if nodes < 2000 {
        let mut needed = 0;
        // SAFETY: a live tree; a NULL buffer asks for the size.
        unsafe { mm_tree_dot(tree, true, MM_ALGORITHM_STAR2, ptr::null_mut(), 0, &mut needed) };
        let mut dot = vec![0u8; needed];
        // SAFETY: `dot` has `needed` bytes.
        let s = unsafe { mm_tree_dot(tree, true, MM_ALGORITHM_STAR2, dot.as_mut_ptr().cast(), needed, &mut needed) };
        assert_eq!(s, MM_OK);
    }
    let mut count = 0;
    // SAFETY: a live tree; `count` writable.
    let s = unsafe { mm_tree_pruned(tree, true, ptr::null_mut(), 0, &mut count) };
    assert_eq!(s, MM_ERR_GAME_CHANCE_NODE);
}
