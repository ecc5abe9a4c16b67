//! The C boundary: argument checks, status codes, the panic boundary, and conversions
//! between C and Rust types. No search is decided here; every function calls
//! [`crate::tree`]. The declarations C sees are generated into `include/minimax.h`.

// C names: the types follow the C convention (mm_status, mm_tree), not Rust's.
#![allow(non_camel_case_types)]

// The families, one folder each, as in `src/search/` (chance has none: it is a method of
// `mm_search`), and the trees of `src/tree/`.
pub mod batched;
pub mod hidden;
pub mod mcts;
pub mod players;
pub mod tree;
pub mod twoplayer;

// What the families share: one file per C type, and the boundary's helpers.
pub mod args;
pub mod boundary;
mod engine;
pub mod game;
mod lease;
#[cfg(feature = "onnx")]
pub mod onnx;
pub mod options;
pub mod parse_error;
pub mod probcut;
pub mod result;
pub mod reward;
pub mod status;
pub mod table;
pub mod version;
