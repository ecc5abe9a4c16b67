//! Multi-ProbCut at a node ([`Options::probcut`]; the fit is `search/probcut.rs`): for
//! each pair of the fit for the position's stage whose deep depth is the node's,
//! shallowest first, a null-window
//! search of the node itself at the pair's shallow depth asks whether its value is past
//! the bound that predicts, `t` sigmas beyond the window, a deep value past beta (or
//! below alpha). If it is, the node is cut off with the window's edge.
//!
//! Like a pass's cut-off, a cut is counted as one leaf at the horizon, so that it is never
//! taken as a proof, and an iteration left unproven by such trials alone is followed by
//! ones without them (`root.rs`). The windows' edges must be heuristic values: a window
//! at a proven win or loss is never cut.
//!
//! [`Options::probcut`]: crate::search::Options::probcut

use super::Engine;
use crate::search::game::Game;
use crate::search::limits::Halt;
use crate::search::options::Method;
use crate::search::value::{self, BAND, INF};

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    /// The node's cut-off value if a shallow search predicts one, or `None` to search it
    /// as usual. Only below the root, at a depth the fit has pairs for, in alpha-beta or
    /// PVS.
    pub(super) fn probcut(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: i64,
        beta: i64,
    ) -> Result<Option<i64>, Halt> {
        if LEAN || ply == 0 || !matches!(self.method(), Method::AlphaBeta | Method::Pvs) {
            return Ok(None);
        }
        match self.plan.probcut.as_ref() {
            Some(fit) if fit.cuts_at(depth) => {}
            _ => return Ok(None),
        }
        let stage = self.game.stage();
        let fit = self.plan.probcut.as_ref().expect("a fit");
        let (pairs, t) = (fit.at_range(stage, depth), fit.t());
        if pairs.is_empty() {
            return Ok(None);
        }
        // The scores at the window's edges: the least whose value holds beta, the most
        // whose value is at most alpha; none at an infinite or proven edge.
        let high = (beta < INF && heuristic_edge(beta)).then(|| -(-beta).div_euclid(BAND));
        let low = (alpha > -INF && heuristic_edge(alpha)).then(|| alpha.div_euclid(BAND));
        // The shallow searches are trials: what they leave at the horizon, and the trials
        // within them, count only through a cut-off, as one trial leaf.
        let counts = self.leaf_counts();
        for i in pairs {
            let pair = self
                .plan
                .probcut
                .as_ref()
                .map(|f| f.pairs()[i])
                .expect("a fit");
            if let Some(score) = high {
                let bound = value::heuristic(pair.high_bound(score, t));
                let v = self.node(pair.shallow, ply, max_side, bound - 1, bound);
                self.restore_leaf_counts(counts);
                if v? >= bound {
                    return Ok(Some(self.trial_cut(value::heuristic(score))));
                }
            }
            if let Some(score) = low {
                let bound = value::heuristic(pair.low_bound(score, t));
                let v = self.node(pair.shallow, ply, max_side, bound, bound + 1);
                self.restore_leaf_counts(counts);
                if v? <= bound {
                    return Ok(Some(self.trial_cut(value::heuristic(score))));
                }
            }
        }
        Ok(None)
    }
}

/// Whether a window's edge is a heuristic value, or one off it (a null window's other
/// edge), rather than a proven result's.
fn heuristic_edge(v: i64) -> bool {
    (v - value::heuristic(value::score(v))).abs() <= 1
}
