//! The searches through the Rust API, family by family, each against a reference written
//! apart (a brute force, the textbook algorithm, published values).
//! One test binary of a few modules rather than a binary a file: each binary links the
//! library, and linking them was most of a cold `cargo test` (issue 68, point 7).

#[path = "../common/mod.rs"]
mod common;

mod shared;

mod batched;
mod callbacks;
mod chance;
mod chance_defaults;
mod chance_trees;
mod checked_leaves;
mod connect4_bare;
mod dots;
mod engine;
mod enhancements;
mod fast;
mod hearts;
mod hidden;
mod leaf;
mod lying_bounds;
mod maxn_mcts;
mod mcts;
mod mcts_chance;
mod mcts_limits;
mod mcts_strength;
mod mcts_threads;
mod oh_hell;
#[cfg(feature = "onnx")]
mod onnx;
mod own_playouts;
mod parallel;
mod player_games;
mod players;
mod probcut;
mod proofs;
mod recipe;
mod score_view;
mod star_nodes;
mod textbook;
mod trust;
