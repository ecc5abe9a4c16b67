//! The checked tree API with arbitrary leaf arrays, counts and branching factors: every
//! call returns a status; on success all algorithms agree with plain recursive minimax
//! and the line leads to the best leaf; on failure `*out` is untouched.
#![no_main]

use libfuzzer_sys::fuzz_target;
use minimax::ffi::tree::leaves::*;
use minimax::ffi::status::mm_status::*;
use minimax::ffi::tree::trees::*;
use std::ptr;

/// Plain minimax over a complete `b`-ary tree's leaves, written out here.
fn reference(leaves: &[i32], b: usize, is_max: bool) -> i32 {
    if leaves.len() == 1 {
        return leaves[0];
    }
    let step = leaves.len() / b;
    let values = leaves.chunks(step).map(|c| reference(c, b, !is_max));
    if is_max { values.max().unwrap() } else { values.min().unwrap() }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let branching = data[0] as usize % 9; // 0 and 1 are errors
    let algorithm = data[1] as u32 % 4; // 3 is not an algorithm
    let max_at_root = data[2] & 1 == 1;
    let leaves: Vec<i32> = data[3..]
        .chunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            i32::from_le_bytes(b)
        })
        .collect();
    // Any count up to the array's length, often a power of the branching factor.
    let count = if data[2] & 2 == 2 && branching >= 2 && !leaves.is_empty() {
        let mut c = 1;
        while c * branching <= leaves.len() {
            c *= branching;
        }
        c
    } else {
        leaves.len()
    };
    let ptr_in = if data[2] & 4 == 4 { ptr::null() } else { leaves.as_ptr() };
    // SAFETY: an all-zero mm_solution is a valid value of plain integers.
    let mut out: mm_solution = unsafe { std::mem::zeroed() };
    out.value = 0x5eed;
    // SAFETY: `ptr_in` is NULL or holds `count <= leaves.len()` values; `out` is writable.
    let s = unsafe { mm_solve_leaves(ptr_in, count, branching, max_at_root, algorithm, &mut out) };
    if s != MM_OK {
        assert_eq!(out.value, 0x5eed, "untouched on error {s:?}");
        return;
    }
    let leaves = &leaves[..count];
    let expected = reference(leaves, branching, max_at_root);
    assert_eq!(out.value, expected);
    assert_eq!(leaves[out.best_leaf], expected);
    // The line, read as digits in base `branching`, is the best leaf's index.
    let mut index = 0;
    for &c in &out.line[..out.line_len] {
        assert!(c < branching);
        index = index * branching + c;
    }
    assert_eq!(index, out.best_leaf);
    // The same leaves as a general tree solve to the same value.
    let mut tree = ptr::null_mut();
    // SAFETY: `leaves` holds `count` values; `tree` is writable.
    let s = unsafe { mm_tree_from_leaves(leaves.as_ptr(), count, branching, &mut tree) };
    assert_eq!(s, MM_OK);
    // SAFETY: a live handle, freed once; `sol` is writable; no line buffer.
    unsafe {
        let mut sol = std::mem::zeroed::<mm_tree_solution>();
        assert_eq!(mm_tree_solve(tree, max_at_root, 1, &mut sol, ptr::null_mut(), 0), MM_OK);
        assert_eq!(sol.value, expected);
        mm_tree_free(tree);
    }
});
