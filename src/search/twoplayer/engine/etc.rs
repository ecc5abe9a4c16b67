//! Enhanced transposition cutoffs ([`Options::enhanced_transposition_cutoffs`]; Plaat,
//! Schaeffer, Pijls and de Bruin, "Exploiting Graph Properties of Game Trees", 1996,
//! written from the paper's description): before a node far enough from the leaves
//! searches its moves, each move's position is looked up in the table, and one whose
//! entry already holds beta for this node cuts it off without a search. The probes cost
//! a play, a hash and an undo a move, paid back where a transposition cuts off a subtree.
//!
//! [`Options::enhanced_transposition_cutoffs`]:
//! crate::search::Options::enhanced_transposition_cutoffs

use super::Engine;
use crate::search::game::{Game, Move};
use crate::search::table::Bound;
use crate::search::value;

/// The least depth at which a node probes its children: nearer the leaves the probes
/// cost more than the subtrees they could save.
pub(super) const ETC_DEPTH: u32 = 3;

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The node's value if a child's table entry holds beta for it, or `None`.
    pub(super) fn etc_cut(
        &mut self,
        moves: &[Move],
        depth: u32,
        ply: u32,
        max_side: bool,
        beta: i64,
    ) -> Option<i64> {
        let table = self.table?;
        if LEAN || !self.plan.enhanced_transposition_cutoffs || depth < ETC_DEPTH || ply == 0 {
            return None;
        }
        for &mv in moves {
            self.game.play(mv);
            let child_max = self.game.max_to_move().unwrap_or(!max_side);
            let entry = self
                .game
                .hash()
                .and_then(|k| table.probe(k, child_max, false));
            self.game.undo(mv);
            let only_proven = self.plan.proven_entries_only;
            let Some(e) = entry.filter(|e| e.fits(depth - 1) && (e.proven || !only_proven)) else {
                continue;
            };
            let v = value::from_table(e.value, ply + 1);
            // The child's bound, in this node's view: a child of the other side holds
            // this node up with its upper bound.
            let (v, holds) = if child_max == max_side {
                (v, matches!(e.bound, Bound::Lower | Bound::Exact))
            } else {
                (-v, matches!(e.bound, Bound::Upper | Bound::Exact))
            };
            if holds && v >= beta {
                if e.proven {
                    self.reach = self.reach.max(ply + 1 + e.depth);
                } else {
                    self.horizon += 1;
                }
                self.stats.table_hits += 1;
                return Some(v);
            }
        }
        None
    }
}
