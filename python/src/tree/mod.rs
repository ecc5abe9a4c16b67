//! The trees of the textbook functions from Python: the two functions and the leaves
//! they take.

pub mod leaves;
pub mod textbook;
