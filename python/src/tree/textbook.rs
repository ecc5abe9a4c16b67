//! The two textbook functions under the C names and parameter orders, with the C
//! version's checks raising `ValueError`, and one more C cannot make: the leaves must
//! number exactly 2**h.

use ::minimax::tree::BinaryTree;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::tree::leaves::Leaves;

/// The largest height the textbook functions take, as in C (`MM_MAX_HEIGHT`).
const MAX_HEIGHT: i64 = 30;

/// Checks a textbook query and gives the subtree it asks about (the C checks, in C's order).
fn subtree<'a>(leaves: &'a [i32], h: i64, depth: i64, node: i64) -> PyResult<BinaryTree<'a>> {
    let fail = |what: String| Err(PyValueError::new_err(what));
    if h < 0 {
        return fail(format!("the tree height is negative (h = {h})"));
    }
    if h > MAX_HEIGHT {
        return fail(format!("the tree height {h} is above {MAX_HEIGHT}"));
    }
    if depth < 0 {
        return fail(format!("the depth is negative (depth = {depth})"));
    }
    if depth > h {
        return fail(format!(
            "the depth {depth} is greater than the tree height {h}"
        ));
    }
    if node < 0 || node >= 1 << depth {
        return fail(format!("the node index {node} is outside [0, 2**{depth})"));
    }
    if leaves.len() != 1 << h {
        return fail(format!(
            "the scores hold {} values, and a tree of height {h} has 2**{h} = {} leaves",
            leaves.len(),
            1u64 << h
        ));
    }
    let tree = BinaryTree::new(leaves).map_err(|e| PyValueError::new_err(e.to_string()))?;
    tree.subtree(depth as u32, node as usize)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The first document's `minimax`: the value of node `node` at level `depth` of the
/// complete binary tree of height `h` whose leaves are `scores` (a list, or a buffer of
/// ints: an int32 array is read in place). The root is `minimax(0, 0, True, scores, h)`.
#[pyfunction]
#[pyo3(signature = (depth, node, is_max, scores, h))]
pub fn minimax(
    depth: i64,
    node: i64,
    is_max: bool,
    scores: &Bound<'_, PyAny>,
    h: i64,
) -> PyResult<i32> {
    let leaves = Leaves::read(scores)?;
    Ok(subtree(leaves.as_slice(), h, depth, node)?.value(is_max))
}

/// The second document's fail-soft alpha-beta at node `node` of level `depth` of the
/// complete binary tree of height `height` whose leaves are `values`; the root with a
/// full window is `alphabeta(height, 0, 0, True, values)`.
#[pyfunction]
#[pyo3(signature = (height, depth, node, max_player, values, alpha = i32::MIN, beta = i32::MAX))]
pub fn alphabeta(
    height: i64,
    depth: i64,
    node: i64,
    max_player: bool,
    values: &Bound<'_, PyAny>,
    alpha: i32,
    beta: i32,
) -> PyResult<i32> {
    let leaves = Leaves::read(values)?;
    let tree = subtree(leaves.as_slice(), height, depth, node)?;
    Ok(tree.alphabeta(max_player, alpha, beta))
}
