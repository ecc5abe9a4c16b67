//! `mm_solve_leaves`: validation with untouched out-parameters, and solutions checked
//! against the reference and against an independent walk down the optimal line.

use crate::common;

use common::Rng;
use minimax::ffi::status::mm_status::{self, *};
use minimax::ffi::tree::leaves::{
    MM_ALGORITHM_ALPHABETA, MM_ALGORITHM_FASTEST, MM_ALGORITHM_MINIMAX, mm_solution,
    mm_solve_leaves,
};
use minimax::tree::reference;
use std::mem::MaybeUninit;

fn solve(
    leaves: &[i32],
    branching: usize,
    max: bool,
    algorithm: u32,
) -> Result<mm_solution, mm_status> {
    let mut out = MaybeUninit::<mm_solution>::uninit();
    // SAFETY: `leaves` is a live slice of `leaves.len()` values and `out` is writable.
    let status = unsafe {
        mm_solve_leaves(
            leaves.as_ptr(),
            leaves.len(),
            branching,
            max,
            algorithm,
            out.as_mut_ptr(),
        )
    };
    // SAFETY: MM_OK means `out` was written.
    if status == MM_OK {
        Ok(unsafe { out.assume_init() })
    } else {
        Err(status)
    }
}

/// The plain minimax value of every node of a complete b-ary tree, level by level.
fn node_values(leaves: &[i32], b: usize, max_at_root: bool) -> Vec<Vec<i32>> {
    let mut levels = vec![leaves.to_vec()];
    let h = (leaves.len() as f64).log(b as f64).round() as usize;
    for depth in (0..h).rev() {
        let is_max = max_at_root ^ (depth % 2 == 1);
        let below = levels.last().unwrap();
        let level = below
            .chunks(b)
            .map(|c| {
                if is_max {
                    *c.iter().max().unwrap()
                } else {
                    *c.iter().min().unwrap()
                }
            })
            .collect();
        levels.push(level);
    }
    levels.reverse();
    levels
}

#[test]
fn values_and_lines_are_right_on_random_complete_trees() {
    let mut rng = Rng::new(21);
    for b in 2..=5usize {
        for h in 0..=6u32 {
            // (Smaller and fewer under Miri, which checks the C API's pointer work.)
            if b.pow(h) > if cfg!(miri) { 300 } else { 5000 } {
                continue;
            }
            for _ in 0..if cfg!(miri) { 1 } else { 10 } {
                let leaves: Vec<i32> = (0..b.pow(h)).map(|_| rng.range(-3, 3) as i32).collect();
                let max = rng.range(0, 1) == 1;
                let values = node_values(&leaves, b, max);
                if b == 2 {
                    assert_eq!(values[0][0], reference::minimax(0, 0, max, &leaves, h));
                }
                for algorithm in [
                    MM_ALGORITHM_MINIMAX,
                    MM_ALGORITHM_ALPHABETA,
                    MM_ALGORITHM_FASTEST,
                ] {
                    let s = solve(&leaves, b, max, algorithm).unwrap();
                    assert_eq!(s.value, values[0][0]);
                    assert_eq!(s.line_len, h as usize);
                    // Walk the line: each step takes the leftmost child whose value is the
                    // max (MAX node) or min (MIN node) of its siblings.
                    let mut index = 0;
                    for depth in 0..h as usize {
                        let children = &values[depth + 1][index * b..(index + 1) * b];
                        let is_max = max ^ (depth % 2 == 1);
                        let best = if is_max {
                            children.iter().max()
                        } else {
                            children.iter().min()
                        };
                        let first = children.iter().position(|v| Some(v) == best).unwrap();
                        assert_eq!(s.line[depth], first, "b {b} h {h} depth {depth}");
                        index = index * b + first;
                    }
                    assert_eq!((s.best_leaf, leaves[s.best_leaf]), (index, s.value));
                }
                let plain = solve(&leaves, b, max, MM_ALGORITHM_MINIMAX).unwrap().stats;
                let nodes: u64 = (0..=h).map(|d| b.pow(d) as u64).sum();
                assert_eq!(
                    (plain.nodes, plain.leaves, plain.cutoffs),
                    (nodes, leaves.len() as u64, 0)
                );
            }
        }
    }
}

#[test]
fn bad_arguments_get_their_status_and_leave_out_untouched() {
    let leaves = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    let cases: [(usize, usize, u32, mm_status); 6] = [
        (9, 0, MM_ALGORITHM_MINIMAX, MM_ERR_BRANCHING_TOO_SMALL),
        (9, 1, MM_ALGORITHM_MINIMAX, MM_ERR_BRANCHING_TOO_SMALL),
        (0, 2, MM_ALGORITHM_MINIMAX, MM_ERR_NO_LEAVES),
        (6, 2, MM_ALGORITHM_ALPHABETA, MM_ERR_LEAF_COUNT_NOT_A_POWER),
        (9, 2, MM_ALGORITHM_ALPHABETA, MM_ERR_LEAF_COUNT_NOT_A_POWER),
        (9, 3, 7, MM_ERR_UNKNOWN_ALGORITHM),
    ];
    for (count, b, algorithm, expected) in cases {
        let mut out = MaybeUninit::<mm_solution>::zeroed();
        // SAFETY: `count` <= leaves.len() and `out` is writable.
        let status = unsafe {
            mm_solve_leaves(leaves.as_ptr(), count, b, true, algorithm, out.as_mut_ptr())
        };
        assert_eq!(status, expected, "count {count} b {b}");
        // SAFETY: zeroed is a valid mm_solution.
        let out = unsafe { out.assume_init() };
        assert_eq!(
            (out.value, out.best_leaf, out.line_len, out.stats.nodes),
            (0, 0, 0, 0)
        );
    }
    let mut out = MaybeUninit::<mm_solution>::uninit();
    // SAFETY: the NULL pointers are rejected before any use.
    unsafe {
        assert_eq!(
            mm_solve_leaves(std::ptr::null(), 1, 2, true, 0, out.as_mut_ptr()),
            MM_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            mm_solve_leaves(leaves.as_ptr(), 9, 3, true, 0, std::ptr::null_mut()),
            MM_ERR_NULL_ARGUMENT
        );
        assert_eq!(
            mm_solve_leaves(leaves.as_ptr(), usize::MAX, 2, true, 0, out.as_mut_ptr()),
            MM_ERR_TOO_MANY_LEAVES
        );
    }
    let s = solve(&leaves, 3, false, MM_ALGORITHM_ALPHABETA).unwrap();
    assert_eq!(s.value, 3); // min over rows of the row maxima: min(3, 6, 9)
}
