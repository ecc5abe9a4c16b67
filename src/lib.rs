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

#![warn(missing_docs)]

// The C ABI. WebAssembly without an operating system has no C callers (its face is
// wasm-bindgen's, in web/), and exporting every `mm_` function there would only grow the module.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
pub mod ffi;
pub mod search;
pub mod tree;

// The Rust code blocks of the README and the guides are tested as doctests; the C blocks
// by tests/c_programs/docs.rs.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/c-api.md")]
struct CApiDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/engine.md")]
struct EngineDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/safety.md")]
struct SafetyDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/performance.md")]
struct PerformanceDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/layout.md")]
struct LayoutDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/mcts.md")]
struct MctsDoctests;
#[cfg(doctest)]
#[doc = include_str!("../docs/batched.md")]
struct BatchedDoctests;
