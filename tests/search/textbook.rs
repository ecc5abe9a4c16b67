//! The exported `minimax` and `alphabeta`, called through the C ABI, against the plain
//! recursive reference in `minimax::tree::reference`.

use crate::common;

use common::Rng;
use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::tree::textbook::{self, MM_MAX_HEIGHT};
use minimax::ffi::{boundary::mm_last_error, status::mm_error_message};
use minimax::tree::reference;
use std::ffi::{CStr, c_int};

fn ffi_minimax(depth: i32, node: i32, is_max: bool, scores: &[i32], h: i32) -> (i32, mm_status) {
    // SAFETY: `scores` holds 2^h values in every call below with valid arguments, and the
    // invalid ones are rejected before any read.
    let v = unsafe { textbook::minimax(depth, node, is_max, scores.as_ptr(), h) };
    (v, mm_last_error())
}

#[allow(clippy::too_many_arguments)]
fn ffi_alphabeta(
    h: i32,
    depth: i32,
    node: i32,
    max: bool,
    values: &[i32],
    a: i32,
    b: i32,
) -> (i32, mm_status) {
    // SAFETY: as for ffi_minimax.
    let v = unsafe { textbook::alphabeta(h, depth, node, max, values.as_ptr(), a, b) };
    (v, mm_last_error())
}

/// Checks both functions at every node of the tree, for both sides and the given windows.
fn check_every_node(leaves: &[i32], h: u32, windows: &[(i32, i32)]) {
    for depth in 0..=h {
        for node in 0..1usize << depth {
            for is_max in [true, false] {
                let expected = reference::minimax(depth, node, is_max, leaves, h);
                let got = ffi_minimax(depth as i32, node as i32, is_max, leaves, h as i32);
                assert_eq!(
                    got,
                    (expected, MM_OK),
                    "minimax {leaves:?} depth {depth} node {node} max {is_max}"
                );
                for &(a, b) in windows {
                    let expected = reference::alphabeta(h, depth, node, is_max, leaves, a, b);
                    let got =
                        ffi_alphabeta(h as i32, depth as i32, node as i32, is_max, leaves, a, b);
                    assert_eq!(
                        got,
                        (expected, MM_OK),
                        "alphabeta {leaves:?} depth {depth} node {node} max {is_max} window ({a}, {b})"
                    );
                }
            }
        }
    }
}

/// Every tree whose leaves come from `values`, as the leaf arrays of height `h`.
fn every_tree(values: &[i32], h: u32, mut f: impl FnMut(&[i32])) {
    let n = 1usize << h;
    let mut digits = vec![0usize; n];
    let mut leaves = vec![values[0]; n];
    loop {
        f(&leaves);
        let mut i = 0;
        while i < n && digits[i] + 1 == values.len() {
            digits[i] = 0;
            leaves[i] = values[0];
            i += 1;
        }
        if i == n {
            return;
        }
        digits[i] += 1;
        leaves[i] = values[digits[i]];
    }
}

#[test]
fn every_small_tree_at_every_node() {
    // (Under Miri, which checks the C functions' pointer work, three of the bounds:
    // 135 s with all five.)
    let extremes: &[i32] = if cfg!(miri) {
        &[i32::MIN, 0, i32::MAX]
    } else {
        &[i32::MIN, -1, 0, 1, i32::MAX]
    };
    let windows: Vec<(i32, i32)> = extremes
        .iter()
        .flat_map(|&a| extremes.iter().map(move |&b| (a, b)))
        .collect();
    // (Under Miri, which checks the C functions' pointer work, to height 2 only.)
    for h in 0..=if cfg!(miri) { 2 } else { 3 } {
        every_tree(&[-1, 0, 1], h, |leaves| {
            check_every_node(leaves, h, &windows)
        });
    }
    if cfg!(miri) {
        return;
    }
    let few = [(i32::MIN, i32::MAX), (0, 1), (1, 0), (0, 0), (-1, 1)];
    every_tree(&[0, 1], 4, |leaves| check_every_node(leaves, 4, &few));
}

#[test]
fn random_trees_and_windows_up_to_height_20() {
    let mut rng = Rng::new(0x5eed_0001);
    // (Under Miri, to height 8 with two trees each.)
    for h in 0..=if cfg!(miri) { 8 } else { 20u32 } {
        let trees = if cfg!(miri) {
            2
        } else if h <= 12 {
            40
        } else {
            3
        };
        for _ in 0..trees {
            let leaves: Vec<i32> = (0..1usize << h).map(|_| rng.leaf()).collect();
            for _ in 0..8 {
                let (a, b) = (rng.bound(), rng.bound());
                let depth = rng.range(0, h as i64) as u32;
                let node = rng.range(0, (1i64 << depth) - 1) as usize;
                let max = rng.range(0, 1) == 1;
                assert_eq!(
                    ffi_alphabeta(h as i32, depth as i32, node as i32, max, &leaves, a, b),
                    (
                        reference::alphabeta(h, depth, node, max, &leaves, a, b),
                        MM_OK
                    ),
                    "h {h} depth {depth} node {node} window ({a}, {b})"
                );
                assert_eq!(
                    ffi_minimax(depth as i32, node as i32, max, &leaves, h as i32),
                    (reference::minimax(depth, node, max, &leaves, h), MM_OK)
                );
            }
        }
    }
}

#[test]
fn extreme_leaves() {
    for leaves in [
        [i32::MIN; 8],
        [i32::MAX; 8],
        [
            i32::MIN,
            i32::MAX,
            i32::MAX,
            i32::MIN,
            0,
            i32::MIN,
            i32::MAX,
            0,
        ],
    ] {
        let windows = [
            (i32::MIN, i32::MAX),
            (i32::MAX, i32::MIN),
            (i32::MIN, i32::MIN),
            (i32::MAX, i32::MAX),
        ];
        check_every_node(&leaves, 3, &windows);
    }
}

#[test]
fn known_answers() {
    let cases: [([i32; 8], i32); 4] = [
        ([13, 8, 24, -5, 23, 15, -14, -20], 13),
        ([3, 5, 6, 9, 1, 2, 0, -1], 5),
        ([3, 5, 2, 9, 12, 5, 23, 23], 12),
        ([4, 6, 2, 9, 11, 5, 17, 23], 11),
    ];
    for (leaves, answer) in cases {
        assert_eq!(ffi_minimax(0, 0, true, &leaves, 3), (answer, MM_OK));
        assert_eq!(
            ffi_alphabeta(3, 0, 0, true, &leaves, i32::MIN, i32::MAX),
            (answer, MM_OK)
        );
    }
}

#[test]
fn bad_arguments_return_zero_and_record_why() {
    let leaves = [5; 16];
    let null = std::ptr::null();
    let cases: [(i32, i32, i32, *const c_int, mm_status); 9] = [
        // (h, depth, nodeIndex, pointer, expected)
        (4, 0, 0, null, MM_ERR_NULL_ARGUMENT),
        (-1, 0, 0, leaves.as_ptr(), MM_ERR_NEGATIVE_HEIGHT),
        (
            MM_MAX_HEIGHT + 1,
            0,
            0,
            leaves.as_ptr(),
            MM_ERR_HEIGHT_TOO_LARGE,
        ),
        (i32::MAX, 0, 0, leaves.as_ptr(), MM_ERR_HEIGHT_TOO_LARGE),
        (4, -1, 0, leaves.as_ptr(), MM_ERR_NEGATIVE_DEPTH),
        (4, 5, 0, leaves.as_ptr(), MM_ERR_DEPTH_BEYOND_HEIGHT),
        (4, 2, 4, leaves.as_ptr(), MM_ERR_NODE_OUT_OF_RANGE),
        (4, 2, -1, leaves.as_ptr(), MM_ERR_NODE_OUT_OF_RANGE),
        (4, 0, 1, leaves.as_ptr(), MM_ERR_NODE_OUT_OF_RANGE),
    ];
    for (h, depth, node, ptr, expected) in cases {
        // A successful call first, so that each failure is seen to set the error.
        assert_eq!(ffi_minimax(0, 0, true, &leaves, 4), (5, MM_OK));
        // SAFETY: every case has an argument that is rejected before any read.
        let v = unsafe { textbook::minimax(depth, node, true, ptr, h) };
        assert_eq!(
            (v, mm_last_error()),
            (0, expected),
            "minimax h {h} depth {depth} node {node}"
        );
        assert_eq!(ffi_alphabeta(4, 0, 0, true, &leaves, 0, 1), (5, MM_OK));
        // SAFETY: as above.
        let v = unsafe { textbook::alphabeta(h, depth, node, false, ptr, i32::MIN, i32::MAX) };
        assert_eq!(
            (v, mm_last_error()),
            (0, expected),
            "alphabeta h {h} depth {depth} node {node}"
        );
        // SAFETY: mm_error_message returns a static C string.
        let msg = unsafe { CStr::from_ptr(mm_error_message(expected as c_int)) };
        assert!(!msg.is_empty() && msg != c"unknown status code");
    }
}

#[test]
fn the_largest_height_is_accepted_and_reads_only_the_queried_subtree() {
    // At height 30 a query for a node one level above the leaves reads two leaves; the
    // pointer is offset to where the caller's 2^30-leaf array would have them.
    let leaves = [4, 9];
    let node = (1 << 29) - 1;
    let base = leaves.as_ptr().wrapping_sub(2 * node as usize);
    // SAFETY: the call reads only leaves [2 * node, 2 * node + 2), which are `leaves`.
    let v = unsafe { textbook::minimax(29, node, true, base, MM_MAX_HEIGHT) };
    assert_eq!((v, mm_last_error()), (9, MM_OK));
}
