//! Complete b-ary trees stored as their leaf array, the leftmost leaf first.

use super::fast;
use super::solve::{Algorithm, GameTree, Solution, solve};
use super::{TreeError, height_of};

/// A complete tree with `branching^height` leaves.
#[derive(Debug, Clone, Copy)]
pub struct CompleteTree<'a> {
    leaves: &'a [i32],
    branching: usize,
    height: u32,
}

/// A node of a [`CompleteTree`]: its level and its index within that level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The node's depth: 0 for the root.
    pub depth: u32,
    /// The node's index among the nodes of its depth, from the left.
    pub index: usize,
}

impl<'a> CompleteTree<'a> {
    /// The tree over `leaves`, whose count must be `branching^h` for some `h >= 0`.
    pub fn new(leaves: &'a [i32], branching: usize) -> Result<Self, TreeError> {
        let height = height_of(leaves.len(), branching)?;
        Ok(CompleteTree {
            leaves,
            branching,
            height,
        })
    }

    /// The tree's height: leaves are `branching^height`.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Each inner node's number of children.
    pub fn branching(&self) -> usize {
        self.branching
    }

    /// Solves the tree with MAX to move at the root if `max_at_root`.
    pub fn solve(&self, max_at_root: bool, algorithm: Algorithm) -> Solution {
        if algorithm == Algorithm::Fastest && self.branching == 2 {
            return fast::solve(self.leaves, self.height, max_at_root);
        }
        solve(self, max_at_root, algorithm)
    }

    /// The index of the leaf that `line` (child indices from the root down) leads to.
    pub fn leaf_index(&self, line: &[usize]) -> usize {
        line.iter()
            .fold(0, |index, &child| index * self.branching + child)
    }
}

impl GameTree for CompleteTree<'_> {
    type Node = Position;

    fn root(&self) -> Position {
        Position { depth: 0, index: 0 }
    }

    fn leaf_value(&self, node: Position) -> Option<i32> {
        (node.depth == self.height).then(|| self.leaves[node.index])
    }

    fn child_count(&self, _node: Position) -> usize {
        self.branching
    }

    fn child(&self, node: Position, i: usize) -> Position {
        Position {
            depth: node.depth + 1,
            index: node.index * self.branching + i,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::reference;

    #[test]
    fn documents_example_and_its_line() {
        let leaves = [3, 5, 6, 9, 1, 2, 0, -1];
        let tree = CompleteTree::new(&leaves, 2).unwrap();
        for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Fastest] {
            let s = tree.solve(true, algorithm);
            assert_eq!(s.value, reference::minimax(0, 0, true, &leaves, 3));
            assert_eq!(leaves[tree.leaf_index(&s.line)], s.value);
            assert_eq!(s.line.len(), 3);
        }
        let plain = tree.solve(true, Algorithm::Minimax).stats;
        assert_eq!((plain.nodes, plain.leaves, plain.cutoffs), (15, 8, 0));
    }

    #[test]
    fn lone_leaf_is_the_root() {
        let tree = CompleteTree::new(&[7], 3).unwrap();
        let s = tree.solve(false, Algorithm::AlphaBeta);
        assert_eq!((s.value, s.line.len(), s.stats.leaves), (7, 0, 1));
    }
}
