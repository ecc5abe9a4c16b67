//! Games with hidden information from C: information-set MCTS and perfect-information
//! Monte Carlo.

pub mod ismcts;
pub mod pimc;
