//! The games and helpers several modules search, declared once so that each is compiled once.

#[path = "../../examples/connect4/game.rs"]
pub mod connect4;
#[path = "../../examples/dice/games.rs"]
pub mod dice;
#[path = "../../examples/star/game2048.rs"]
pub mod game2048;
#[path = "../common/games.rs"]
pub mod games;
#[path = "../../examples/hidden/hearts.rs"]
pub mod hearts;
#[path = "../../examples/hidden/oh_hell.rs"]
pub mod oh_hell;
#[cfg(feature = "onnx")]
#[path = "../common/onnx_model.rs"]
pub mod onnx_model;
#[path = "../common/players.rs"]
pub mod players;
#[path = "../common/pons.rs"]
pub mod pons;
