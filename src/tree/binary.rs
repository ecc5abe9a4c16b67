//! Complete binary trees given by their `2^h` leaves: the shape the textbook functions take.
//!
//! [`BinaryTree::value`] returns the exact minimax value by the fastest method we have, and
//! [`BinaryTree::alphabeta`] returns exactly what the textbook fail-soft alpha-beta returns
//! (see [`crate::tree::reference::alphabeta`]), bounds included, without recursion.

use super::fast;
use super::solve::Stats;
use super::{TreeError, height_of};

/// The deepest binary tree a slice can hold: `2^63` leaves would not fit in memory anyway.
const MAX_BINARY_HEIGHT: usize = 63;

/// A complete binary tree: `2^height` leaves, the leftmost first.
#[derive(Debug, Clone, Copy)]
pub struct BinaryTree<'a> {
    leaves: &'a [i32],
    height: u32,
}

impl<'a> BinaryTree<'a> {
    /// The tree over `leaves`, whose length must be a power of two (1 is a lone leaf).
    pub fn new(leaves: &'a [i32]) -> Result<Self, TreeError> {
        let height = height_of(leaves.len(), 2)?;
        Ok(BinaryTree { leaves, height })
    }

    /// The number of levels below the root.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The leaves, leftmost first.
    pub fn leaves(&self) -> &'a [i32] {
        self.leaves
    }

    /// The subtree rooted at node `index` of level `depth` (the root is depth 0, index 0).
    pub fn subtree(&self, depth: u32, index: usize) -> Result<BinaryTree<'a>, TreeError> {
        if depth > self.height {
            return Err(TreeError::DepthBeyondHeight);
        }
        if index >= 1usize << depth {
            return Err(TreeError::NodeOutOfRange);
        }
        let height = self.height - depth;
        let width = 1usize << height;
        Ok(BinaryTree {
            leaves: &self.leaves[index * width..(index + 1) * width],
            height,
        })
    }

    /// The exact minimax value of the root, where MAX moves first if `max_at_root`, by the
    /// fastest method we have ([`fast::search`]).
    pub fn value(&self, max_at_root: bool) -> i32 {
        fast::search(
            self.leaves,
            self.height,
            max_at_root,
            i32::MIN,
            i32::MAX,
            &mut Stats::default(),
        )
    }

    /// The textbook fail-soft alpha-beta over the window `(alpha, beta)`: children left to
    /// right, a node stops when `beta <= alpha`. Returns exactly what
    /// [`reference::alphabeta`](crate::tree::reference::alphabeta) returns, for any window.
    pub fn alphabeta(&self, max_at_root: bool, alpha: i32, beta: i32) -> i32 {
        let leaves = self.leaves;
        let mut counts = Stats::default();
        alphabeta_over(
            self.height,
            max_at_root,
            alpha,
            beta,
            &mut counts,
            |i, _| leaves[i],
        )
    }
}

/// One inner node on the explicit stack: its window, its best value so far, and whether
/// its second (right) child is the one to visit next.
#[derive(Clone, Copy)]
struct Frame {
    alpha: i32,
    beta: i32,
    best: i32,
    right_next: bool,
}

/// The textbook fail-soft alpha-beta over a complete binary tree of `height` levels whose
/// bottom nodes are valued by `bottom(index, is_max)` (`is_max`: that node's side to move),
/// without recursion. With `bottom` reading a leaf this is exactly the textbook algorithm;
/// [`crate::tree::fast`] uses it with whole blocks of leaves as the bottom nodes.
pub(crate) fn alphabeta_over(
    height: u32,
    max_at_root: bool,
    alpha: i32,
    beta: i32,
    counts: &mut Stats,
    mut bottom: impl FnMut(usize, bool) -> i32,
) -> i32 {
    let height = height as usize;
    if height == 0 {
        return bottom(0, max_at_root);
    }
    assert!(
        height <= MAX_BINARY_HEIGHT,
        "a slice cannot hold 2^{height} leaves"
    );
    let start = |alpha, beta, is_max: bool| Frame {
        alpha,
        beta,
        best: if is_max { i32::MIN } else { i32::MAX },
        right_next: false,
    };
    let mut stack = [start(0, 0, false); MAX_BINARY_HEIGHT];
    let is_max_at = |depth: usize| max_at_root ^ (depth % 2 == 1);
    let bottom_is_max = is_max_at(height);

    stack[0] = start(alpha, beta, max_at_root);
    let mut depth = 0; // the frame on top of the stack
    let mut index = 0usize; // that frame's node index within its level
    loop {
        // Visit the next child of the node on top.
        let frame = stack[depth];
        let child = index * 2 + frame.right_next as usize;
        counts.nodes += 1;
        // The child's subtree, if no more than INLINE_LEVELS deep, is valued in straight-line
        // code (as the loop would value it); a deeper child gets a frame of its own.
        let below = height - depth - 1;
        let mut val = if below > INLINE_LEVELS {
            depth += 1;
            index = child;
            stack[depth] = start(frame.alpha, frame.beta, is_max_at(depth));
            continue;
        } else {
            let (alpha, beta, is_max) = (frame.alpha, frame.beta, is_max_at(depth + 1));
            let leaf = &mut |i: usize, _: i32, _: i32, _: &mut Stats| bottom(i, bottom_is_max);
            match below {
                0 => leaf(child, alpha, beta, counts),
                1 => node2(child, is_max, alpha, beta, counts, leaf),
                2 => node2(
                    child,
                    is_max,
                    alpha,
                    beta,
                    counts,
                    &mut |i, a, b, c: &mut Stats| node2(i, !is_max, a, b, c, leaf),
                ),
                _ => node2(
                    child,
                    is_max,
                    alpha,
                    beta,
                    counts,
                    &mut |i, a, b, c: &mut Stats| {
                        node2(i, !is_max, a, b, c, &mut |j, a, b, c: &mut Stats| {
                            node2(j, is_max, a, b, c, leaf)
                        })
                    },
                ),
            }
        };
        // Hand `val` up until some node still has a child to visit.
        loop {
            let frame = &mut stack[depth];
            if is_max_at(depth) {
                frame.best = frame.best.max(val);
                frame.alpha = frame.alpha.max(frame.best);
            } else {
                frame.best = frame.best.min(val);
                frame.beta = frame.beta.min(frame.best);
            }
            let cut = frame.beta <= frame.alpha;
            if frame.right_next || cut {
                counts.cutoffs += (cut && !frame.right_next) as u64;
                val = frame.best;
                if depth == 0 {
                    return val;
                }
                depth -= 1;
                index /= 2;
            } else {
                frame.right_next = true;
                break;
            }
        }
    }
}

/// How many levels above the bottom a subtree is valued by [`node2`] in straight-line code.
const INLINE_LEVELS: usize = 3;

/// One textbook alpha-beta node with two children, valued by `child(index, alpha, beta,
/// counts)`: the first child's value, and the second's only when the first does not cut.
#[inline(always)]
fn node2(
    node: usize,
    is_max: bool,
    alpha: i32,
    beta: i32,
    counts: &mut Stats,
    child: &mut impl FnMut(usize, i32, i32, &mut Stats) -> i32,
) -> i32 {
    counts.nodes += 1;
    let first = child(node * 2, alpha, beta, counts);
    let (alpha, beta) = if is_max {
        (alpha.max(first), beta)
    } else {
        (alpha, beta.min(first))
    };
    if beta <= alpha {
        counts.cutoffs += 1;
        return first;
    }
    counts.nodes += 1;
    let second = child(node * 2 + 1, alpha, beta, counts);
    if is_max {
        first.max(second)
    } else {
        first.min(second)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::reference;

    #[test]
    fn subtree_checks_its_query() {
        let leaves = [1, 2, 3, 4];
        let tree = BinaryTree::new(&leaves).unwrap();
        assert_eq!(tree.subtree(1, 1).unwrap().leaves(), &[3, 4]);
        assert_eq!(tree.subtree(2, 3).unwrap().leaves(), &[4]);
        assert_eq!(
            tree.subtree(3, 0).unwrap_err(),
            TreeError::DepthBeyondHeight
        );
        assert_eq!(tree.subtree(1, 2).unwrap_err(), TreeError::NodeOutOfRange);
    }

    #[test]
    #[cfg_attr(miri, ignore = "23 s under Miri, for safe code only")]
    fn alphabeta_matches_reference_on_every_small_window() {
        let leaves = [13, 8, 24, -5, 23, 15, -14, -20];
        let tree = BinaryTree::new(&leaves).unwrap();
        for alpha in -25..=25 {
            for beta in -25..=25 {
                for max in [true, false] {
                    assert_eq!(
                        tree.alphabeta(max, alpha, beta),
                        reference::alphabeta(3, 0, 0, max, &leaves, alpha, beta),
                        "window ({alpha}, {beta}), max {max}"
                    );
                }
            }
        }
    }
}
