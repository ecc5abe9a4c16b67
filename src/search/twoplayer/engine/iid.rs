//! Move ordering by a shallow search ([`Options::internal_iterative_deepening`]; Slate
//! and Atkin's Chess 4.5 and Marsland's survey "A Review of Game-Tree Pruning", 1986,
//! written from their descriptions): a node far from the leaves that the table gives no
//! move first searches itself a few plies shallower, and tries first the move that
//! search stored as best. The shallow search only orders: its value is dropped, and
//! what it left at the horizon is taken out of the count, so that it proves nothing.
//! Nodes within it do not search themselves shallower again (one level, where Chess
//! 4.5's deepened recursively: the stack's room is counted by plies).
//!
//! [`Options::internal_iterative_deepening`]:
//! crate::search::Options::internal_iterative_deepening

use super::Engine;
use crate::search::game::{Game, Move, NO_MOVE};
use crate::search::limits::Halt;
use crate::search::options::Method;
use crate::search::value::MAX_PLY;

/// The least depth at which a node without a table move searches itself shallower
/// first: nearer the leaves the shallow search costs more than a good first move saves.
const IID_DEPTH: u32 = 5;
/// How much shallower it searches itself.
const IID_REDUCTION: u32 = 2;

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The move a search of the node `IID_REDUCTION` plies shallower, in the same window,
    /// finds best (from the table entry it stores), or `NO_MOVE`: only below the root, at
    /// `IID_DEPTH` or more (in a depth-limited search), in alpha-beta or PVS, with a table
    /// and the position's key.
    pub(super) fn shallow_move(
        &mut self,
        key: Option<u64>,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<Move, Halt> {
        let (Some(key), Some(table)) = (key, self.table) else {
            return Ok(NO_MOVE);
        };
        if LEAN
            || self.ordering_search
            || ply == 0
            || !(IID_DEPTH..=MAX_PLY).contains(&depth)
            || !matches!(self.method(), Method::AlphaBeta | Method::Pvs)
        {
            return Ok(NO_MOVE);
        }
        let counts = self.leaf_counts();
        // One shallow search at a time: nested at a node's ply, searches that each
        // searched themselves shallower again would stack frames where the stack's room
        // is counted by plies (`stack.rs`), and, in a test's 2 MiB threads, ran out of it.
        self.ordering_search = true;
        let v = self.node(depth - IID_REDUCTION, ply, max_side, alpha, beta);
        self.ordering_search = false;
        self.restore_leaf_counts(counts);
        // Its line is not this node's: the search that follows writes that.
        self.pv.clear(ply as usize);
        v?;
        Ok(table
            .probe(key, max_side, false)
            .map_or(NO_MOVE, |e| e.best))
    }
}
