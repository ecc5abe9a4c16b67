//! The trees of `src/tree/` from C: the two textbook functions, the checked API over leaf
//! arrays, and trees of any shape behind a handle.

pub mod leaves;
pub mod textbook;
pub mod trees;
