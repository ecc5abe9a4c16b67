//! Games of more than two players from C: max^n, paranoid and best-reply search, and MCTS
//! with max^n backups.

pub mod maxn;
pub mod maxn_mcts;
