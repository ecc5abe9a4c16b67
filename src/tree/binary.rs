//! Complete binary trees given by their `2^h` leaves: the shape the textbook functions take.
//!
//! [`BinaryTree::value`] returns the exact minimax value by the fastest method we have, and
//! [`BinaryTree::alphabeta`] returns exactly what the textbook fail-soft alpha-beta returns
//! (see [`crate::tree::reference::alphabeta`]), bounds included, without recursion.

use super::fast;
use super::solve::Stats;
use super::traversal::alphabeta_over;
use super::{TreeError, height_of};

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
