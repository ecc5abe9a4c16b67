//! The textbook algorithms, written as plainly as the two documents wrote them.
//!
//! This is the yardstick: every faster path in the library is tested against these
//! functions, and they live here once. They recurse, index the leaf array the way the
//! documents do, and trust their arguments (a bad index panics, as a slice index does).

use super::solve::GameTree;

/// The first document's `minimax`: the value of node `node_index` at `depth` in the complete
/// binary tree of height `h` whose `2^h` leaves are `scores`.
pub fn minimax(depth: u32, node_index: usize, is_max: bool, scores: &[i32], h: u32) -> i32 {
    if depth == h {
        return scores[node_index];
    }
    let left = minimax(depth + 1, node_index * 2, !is_max, scores, h);
    let right = minimax(depth + 1, node_index * 2 + 1, !is_max, scores, h);
    if is_max {
        left.max(right)
    } else {
        left.min(right)
    }
}

/// The second document's fail-soft alpha-beta, with its loop bug fixed: it always visits
/// both children of a binary node (the document loops `height - 1` times, which is right
/// only for height 3). Children go left to right, and a node stops when `beta <= alpha`.
pub fn alphabeta(
    height: u32,
    depth: u32,
    node_index: usize,
    max_player: bool,
    values: &[i32],
    alpha: i32,
    beta: i32,
) -> i32 {
    alphabeta_counting(
        height, depth, node_index, max_player, values, alpha, beta, &mut 0,
    )
}

/// [`alphabeta`], adding to `leaves` one for each leaf it reads.
#[allow(clippy::too_many_arguments)]
pub fn alphabeta_counting(
    height: u32,
    depth: u32,
    node_index: usize,
    max_player: bool,
    values: &[i32],
    mut alpha: i32,
    mut beta: i32,
    leaves: &mut u64,
) -> i32 {
    if depth == height {
        *leaves += 1;
        return values[node_index];
    }
    if max_player {
        let mut best = i32::MIN;
        for i in 0..2 {
            let val = alphabeta_counting(
                height,
                depth + 1,
                node_index * 2 + i,
                false,
                values,
                alpha,
                beta,
                leaves,
            );
            best = best.max(val);
            alpha = alpha.max(best);
            if beta <= alpha {
                break;
            }
        }
        best
    } else {
        let mut best = i32::MAX;
        for i in 0..2 {
            let val = alphabeta_counting(
                height,
                depth + 1,
                node_index * 2 + i,
                true,
                values,
                alpha,
                beta,
                leaves,
            );
            best = best.min(val);
            beta = beta.min(best);
            if beta <= alpha {
                break;
            }
        }
        best
    }
}

/// Plain recursive minimax over a tree of any shape: the value of `node` with MAX to move
/// there if `is_max`. The reference for [`crate::tree::solve()`].
pub fn minimax_of<T: GameTree>(tree: &T, node: T::Node, is_max: bool) -> i32 {
    if let Some(v) = tree.leaf_value(node) {
        return v;
    }
    let values =
        (0..tree.child_count(node)).map(|i| minimax_of(tree, tree.child(node, i), !is_max));
    if is_max {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_examples() {
        let first = [3, 5, 6, 9, 1, 2, 0, -1];
        assert_eq!(minimax(0, 0, true, &first, 3), 5);
        let second = [13, 8, 24, -5, 23, 15, -14, -20];
        assert_eq!(alphabeta(3, 0, 0, true, &second, i32::MIN, i32::MAX), 13);
    }
}
