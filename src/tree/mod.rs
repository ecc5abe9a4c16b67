//! Explicit game trees: leaf arrays of complete trees, trees of any shape (chance nodes
//! included), and the searches over them.
//!
//! Everything here is safe Rust and knows nothing of C; the C boundary in `crate::ffi`
//! only checks arguments and calls in.

pub mod binary;
pub mod chance;
pub mod complete;
pub mod dot;
pub mod fast;
pub mod general;
pub mod reference;
pub mod solve;
pub mod text;
mod traversal;

pub use binary::BinaryTree;
pub use complete::CompleteTree;
pub use general::{CsrError, Tree};
pub use solve::{Algorithm, GameTree, Solution, Stats, Trace, solve, solve_traced};

use std::fmt;

/// Why a leaf array or a query does not describe a node of a complete tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeError {
    /// The leaf array is empty: a tree has at least one leaf.
    NoLeaves,
    /// The branching factor is below 2.
    BranchingTooSmall,
    /// The leaf count is not `branching^h` for any `h >= 0`.
    LeafCountNotAPower,
    /// `depth` is greater than the tree's height.
    DepthBeyondHeight,
    /// `index` is not in `[0, branching^depth)`.
    NodeOutOfRange,
    /// The tree's memory could not be allocated.
    OutOfMemory,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TreeError::NoLeaves => "a tree needs at least one leaf",
            TreeError::BranchingTooSmall => "the branching factor must be at least 2",
            TreeError::LeafCountNotAPower => {
                "the leaf count is not a power of the branching factor"
            }
            TreeError::DepthBeyondHeight => "the depth is greater than the tree's height",
            TreeError::NodeOutOfRange => "the node index is outside [0, branching^depth)",
            TreeError::OutOfMemory => "the tree's memory could not be allocated",
        })
    }
}

impl std::error::Error for TreeError {}

/// The exponent `h` with `branching^h == count`, if there is one.
pub fn height_of(count: usize, branching: usize) -> Result<u32, TreeError> {
    if branching < 2 {
        return Err(TreeError::BranchingTooSmall);
    }
    if count == 0 {
        return Err(TreeError::NoLeaves);
    }
    let mut rest = count;
    let mut h = 0;
    while rest % branching == 0 {
        rest /= branching;
        h += 1;
    }
    if rest == 1 {
        Ok(h)
    } else {
        Err(TreeError::LeafCountNotAPower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn height_of_powers_and_non_powers() {
        assert_eq!(height_of(1, 2), Ok(0));
        assert_eq!(height_of(8, 2), Ok(3));
        assert_eq!(height_of(81, 3), Ok(4));
        assert_eq!(height_of(12, 2), Err(TreeError::LeafCountNotAPower));
        assert_eq!(height_of(0, 2), Err(TreeError::NoLeaves));
        assert_eq!(height_of(4, 1), Err(TreeError::BranchingTooSmall));
        assert_eq!(height_of(4, 0), Err(TreeError::BranchingTooSmall));
    }
}
