//! The two textbook functions under the documents' names and parameter orders.

use std::ffi::c_int;

use crate::ffi::boundary::textbook_call;
use crate::ffi::status::mm_status::{self, *};
use crate::tree::BinaryTree;

/// The largest tree height the textbook functions accept: `2^30` leaves, so that every
/// leaf index and the leaf count itself fit in an `int`.
pub const MM_MAX_HEIGHT: c_int = 30;

/// Checks a textbook query and borrows the leaves under node `node_index` of level `depth`.
///
/// # Safety
/// `scores`, if not NULL, must point to `2^h` readable `int`s that stay unchanged for `'a`.
unsafe fn subtree_leaves<'a>(
    scores: *const c_int,
    h: c_int,
    depth: c_int,
    node_index: c_int,
) -> Result<&'a [i32], mm_status> {
    if scores.is_null() {
        return Err(MM_ERR_NULL_ARGUMENT);
    }
    if h < 0 {
        return Err(MM_ERR_NEGATIVE_HEIGHT);
    }
    if h > MM_MAX_HEIGHT {
        return Err(MM_ERR_HEIGHT_TOO_LARGE);
    }
    if depth < 0 {
        return Err(MM_ERR_NEGATIVE_DEPTH);
    }
    if depth > h {
        return Err(MM_ERR_DEPTH_BEYOND_HEIGHT);
    }
    if node_index < 0 || node_index as usize >= 1usize << depth {
        return Err(MM_ERR_NODE_OUT_OF_RANGE);
    }
    let width = 1usize << (h - depth);
    // The offset is computed with wrapping_add, so only the borrowed leaves need to exist.
    let first = scores.wrapping_add(node_index as usize * width);
    // SAFETY: the caller guarantees `2^h` readable ints at `scores`; node `node_index` of
    // level `depth` covers leaves `[node_index * width, (node_index + 1) * width)`, which
    // lie inside them because `node_index < 2^depth` and `width = 2^(h - depth)`. Only
    // those leaves, the ones the textbook code would read, are borrowed.
    Ok(unsafe { std::slice::from_raw_parts(first, width) })
}

/// The first document's `minimax`: the value of node `nodeIndex` at level `depth` of the
/// complete binary tree of height `h` whose leaves are `scores`. A MAX node (`isMax`) takes
/// the larger of its two children, a MIN node the smaller, and the sides alternate. The
/// root is `minimax(0, 0, true, scores, h)`.
///
/// On bad arguments it returns 0, and `mm_last_error()` says why: `scores` NULL, `h` or
/// `depth` negative, `h > MM_MAX_HEIGHT`, `depth > h`, or `nodeIndex` outside
/// `[0, 2^depth)`. On success `mm_last_error()` is `MM_OK`.
///
/// # Safety
/// `scores` must hold `2^h` values (the call reads only those under the queried node).
#[allow(non_snake_case)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn minimax(
    depth: c_int,
    nodeIndex: c_int,
    isMax: bool,
    scores: *const c_int,
    h: c_int,
) -> c_int {
    textbook_call(|| {
        // SAFETY: the caller's contract: `scores` holds `2^h` values.
        let leaves = unsafe { subtree_leaves(scores, h, depth, nodeIndex)? };
        Ok(BinaryTree::new(leaves)?.value(isMax))
    })
}

/// The second document's alpha-beta (fail-soft, children left to right, a node stops when
/// `beta <= alpha`) over the complete binary tree of height `height` whose leaves are
/// `values`, at node `nodeIndex` of level `depth`. It always visits both children of a
/// node (the document's loop ran `height - 1` times, right only for height 3). It returns
/// exactly what that algorithm returns for every window, including the fail-soft bound
/// when the value lies outside `(alpha, beta)`. The root with a full window is
/// `alphabeta(height, 0, 0, true, values, INT_MIN, INT_MAX)`.
///
/// Bad arguments return 0 and are reported by `mm_last_error()`, as for `minimax`.
///
/// # Safety
/// `values` must hold `2^height` values (the call reads only those under the queried node).
#[allow(non_snake_case)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn alphabeta(
    height: c_int,
    depth: c_int,
    nodeIndex: c_int,
    maxPlayer: bool,
    values: *const c_int,
    alpha: c_int,
    beta: c_int,
) -> c_int {
    textbook_call(|| {
        // SAFETY: the caller's contract: `values` holds `2^height` values.
        let leaves = unsafe { subtree_leaves(values, height, depth, nodeIndex)? };
        Ok(BinaryTree::new(leaves)?.alphabeta(maxPlayer, alpha, beta))
    })
}
