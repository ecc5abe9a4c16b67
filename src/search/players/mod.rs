//! More than two players: max^n, the paranoid and best-reply views that make a two-player
//! game for the engine, MCTS with max^n backups, and how a game's scores are read.

pub mod best_reply;
pub mod maxn;
pub mod maxn_mcts;
pub mod paranoid;
pub(crate) mod root_player;
