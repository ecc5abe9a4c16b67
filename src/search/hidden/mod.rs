//! Hidden information: perfect-information Monte Carlo (samples searched as if open) and
//! information-set MCTS.

pub mod ismcts;
pub mod pimc;
