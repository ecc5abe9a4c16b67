//! Null-move pruning ([`Options::null_move`]): at a node whose evaluation already holds
//! beta, the side to move passes; if the opponent, searched shallower, cannot bring the
//! value below beta even then, a verification search of the node itself (as shallow,
//! without a pass at its root) must agree before the node is cut off. The verification
//! is the guard against zugzwang, where passing would be better than any move (Tabibi
//! and Netanyahu's verified null-move pruning, 2002, in a simpler form).
//!
//! A cut-off by a pass is counted as one leaf at the horizon, so that it is never taken
//! as a proof; an iteration left unproven by such trials alone is followed by ones
//! without them (`root.rs`), so that a search without a depth limit still proves a game
//! whose lines all end.
//!
//! [`Options::null_move`]: crate::search::Options::null_move

use super::Engine;
use crate::search::game::Game;
use crate::search::limits::Halt;
use crate::search::options::Method;
use crate::search::value::{self, BAND};

/// How much shallower the pass and the verification are searched than the node's
/// children: the node's depth less 1 + `REDUCTION`.
const REDUCTION: u32 = 2;

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The node's value if a pass shows it holds beta (and the verification agrees), or
    /// `None` to search it as usual. Only below the root, `REDUCTION + 2` plies or more
    /// from the leaves, not right after a pass, and where the game can pass.
    pub(super) fn null_cut(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        beta: i64,
    ) -> Result<Option<i64>, Halt> {
        if LEAN
            || !self.plan.null_move
            || ply == 0
            || depth < REDUCTION + 2
            || self.no_pass_at == ply
            || !matches!(self.method(), Method::AlphaBeta | Method::Pvs)
        {
            return Ok(None);
        }
        let stand = value::heuristic(self.plan.side_score(self.game.evaluate(), max_side)?);
        if stand < beta {
            return Ok(None);
        }
        let Some(pass) = self.game.null_move() else {
            return Ok(None);
        };
        let shallower = depth - 1 - REDUCTION;
        // The searches below are trials: what they leave at the horizon, and the trials
        // within them, count only through the cut-off, as one trial leaf.
        let counts = self.leaf_counts();
        let before = std::mem::replace(&mut self.no_pass_at, ply + 1);
        self.game.play(pass);
        let child_max = self.game.max_to_move().unwrap_or(!max_side);
        let passed = self.child::<false>(shallower + 1, ply, child_max, max_side, beta - 1, beta);
        self.game.undo(pass);
        self.no_pass_at = before;
        let passed = passed?;
        self.restore_leaf_counts(counts);
        // A value past beta from a proven line (a win after a pass) says nothing of the
        // node's moves: only an evaluation's value is taken as a sign.
        if !(passed >= beta && passed.rem_euclid(BAND) == 0) {
            return Ok(None);
        }
        self.no_pass_at = ply;
        let verified = self.node(shallower, ply, max_side, beta - 1, beta);
        self.no_pass_at = before;
        let verified = verified?;
        self.restore_leaf_counts(counts);
        if verified < beta {
            return Ok(None);
        }
        // Cut off by a pass: never a proof.
        Ok(Some(self.trial_cut(verified)))
    }
}
