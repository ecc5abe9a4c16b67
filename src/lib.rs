//! libminimax: game-tree search with a C ABI that replaces the textbook C code.
//!
//! - [`tree`]: explicit trees (leaf arrays of complete trees), the textbook reference
//!   algorithms, and the fast paths; safe Rust, usable directly.
//! - [`search`]: the generic game-search engine (a [`search::Game`] trait and
//!   [`search::search`]); safe Rust, usable directly.
//! - `ffi`: the C boundary (argument checks, status codes, the panic boundary). Its
//!   functions are declared in `include/minimax.h`.
//!
//! ```
//! use minimax::tree::{BinaryTree, CompleteTree, Algorithm};
//! let leaves = [3, 5, 6, 9, 1, 2, 0, -1];
//! assert_eq!(BinaryTree::new(&leaves).unwrap().value(true), 5);
//! let s = CompleteTree::new(&leaves, 2).unwrap().solve(true, Algorithm::AlphaBeta);
//! assert_eq!((s.value, s.line.as_slice()), (5, &[0, 0, 1][..]));
//! ```

pub mod ffi;
pub mod search;
pub mod tree;
