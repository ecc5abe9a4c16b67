//! The C boundary: argument checks, status codes, the panic boundary, and conversions
//! between C and Rust types. No search is decided here; every function calls
//! [`crate::tree`]. The declarations C sees are generated into `include/minimax.h`.

// C names: the types follow the C convention (mm_status, mm_tree), not Rust's.
#![allow(non_camel_case_types)]

pub mod args;
pub mod batched;
pub mod boundary;
pub mod calibrate;
pub mod game;
pub mod hidden;
mod lease;
pub mod leaves;
pub mod mcts;
pub mod options;
pub mod pimc;
pub mod players;
pub mod players_mcts;
pub mod probcut;
pub mod result;
pub mod search;
pub mod status;
pub mod table;
pub mod textbook;
pub mod trees;
pub mod version;
