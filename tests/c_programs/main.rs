//! The tests that build and run C programs against the library (every C example, the
//! documents' programs, the C face of each family): CI runs this binary again with the
//! programs under AddressSanitizer and valgrind (`MM_CHECK`, tests/common/mod.rs).
//! One test binary of a few modules rather than a binary a file: each binary links the
//! library, and linking them was most of a cold `cargo test` (issue 68, point 7).

#[path = "../common/mod.rs"]
mod common;

mod batched_c;
mod c_examples;
mod chance_c;
mod check_mode;
mod docs;
mod game2048_c;
mod games_c;
mod hex_c;
mod hidden_c;
mod hostile_c;
mod mcts_c;
mod old_structs_c;
#[cfg(feature = "onnx")]
mod onnx_c;
#[cfg(feature = "onnx")]
#[path = "../common/onnx_model.rs"]
mod onnx_model;
mod parallel_c;
mod players_c;
mod probcut_c;
mod threads;
mod trees;
mod user_games;
