//! Quiescence search ([`Options::quiescence`]): past the depth limit, the side to move
//! may stand pat on the evaluation or play one of the game's noisy moves, so that a
//! position is scored only once it is quiet (a capture's answer is seen).
//!
//! [`Options::quiescence`]: crate::search::Options::quiescence

use super::Engine;
use crate::search::game::{Game, GameError};
use crate::search::limits::Halt;
use crate::search::options::Method;
use crate::search::value;

/// The most plies a line goes on past the depth limit.
pub(super) const QUIESCENCE_PLIES: u32 = 32;

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// Whether a node at the depth limit searches on with quiescence.
    #[inline(always)]
    pub(super) fn quiesces(&self) -> bool {
        !LEAN && self.plan.quiescence && matches!(self.method(), Method::AlphaBeta | Method::Pvs)
    }

    /// The value of a position at the depth limit (its outcome and chance already looked
    /// at), `left` plies of quiescence still allowed: the evaluation (stand pat), or
    /// better, a noisy move's value. Fail-soft, from the side to move's point of view.
    pub(super) fn quiesce(
        &mut self,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
        left: u32,
    ) -> Result<i64, Halt> {
        let stand = value::heuristic(self.plan.side_score(self.game.evaluate(), max_side)?);
        self.stats.leaves += 1;
        self.horizon += 1;
        if stand >= beta || left == 0 || ply >= crate::search::stack::MAX_DEPTH {
            return Ok(stand);
        }
        if ply >= self.height {
            self.grow(ply)?;
        }
        let p = ply as usize;
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        let searched = match self.game.noisy_moves(&mut moves) {
            Err(e) => Err(e.into()),
            Ok(()) => {
                self.noisy_children(&moves, ply, max_side, alpha.max(stand), beta, stand, left)
            }
        };
        self.moves[p] = moves;
        searched
    }

    /// The noisy moves' values against the stand-pat value `stand`.
    #[allow(clippy::too_many_arguments)]
    fn noisy_children(
        &mut self,
        moves: &[i64],
        ply: u32,
        max_side: bool,
        mut alpha: i64,
        beta: i64,
        stand: i64,
        left: u32,
    ) -> Result<i64, Halt> {
        let mut best = stand;
        for (i, &mv) in moves.iter().enumerate() {
            self.game.play(mv);
            let child_max = self.game.max_to_move().unwrap_or(!max_side);
            let same = child_max == max_side;
            let (a, b) = if same { (alpha, beta) } else { (-beta, -alpha) };
            let v = self.quiet_node(ply + 1, child_max, a, b, left - 1);
            self.game.undo(mv);
            let v = if same { v? } else { -v? };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                if i + 1 < moves.len() {
                    self.stats.cutoffs += 1;
                }
                break;
            }
        }
        Ok(best)
    }

    /// A node of the quiescence search: counted, its outcome looked at, then `quiesce`.
    fn quiet_node(
        &mut self,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
        left: u32,
    ) -> Result<i64, Halt> {
        self.watch.tick()?;
        if let Some(score) = self.game.outcome() {
            let score = self.plan.side_score(score, max_side)?;
            self.stats.leaves += 1;
            return Ok(value::final_at(score, ply));
        }
        if self.game.is_chance() {
            return Err(GameError::ChanceNode.into());
        }
        self.quiesce(ply, max_side, alpha, beta, left)
    }
}
