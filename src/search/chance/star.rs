//! The chance nodes: expectimax's average, Star1's narrowed windows (Ballard 1983), and
//! Star2's probes, whose values the full search reuses.

use super::{ANY_OUTCOME, Chance};
use crate::search::game::{Game, GameError, Move, NO_MOVE, weights_total};
use crate::search::limits::Halt;
use crate::search::memory::room;
use crate::search::options::Method;

/// One outcome of a chance node: its move, its weight and probability, and what is known
/// of its value so far (the score bounds, or a probe's).
#[derive(Clone, Copy)]
pub(super) struct Draw {
    pub(super) mv: Move,
    pub(super) w: f64,
    pub(super) p: f64,
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// The sums of `p * lo` and `p * hi` over the outcomes after this one.
    pub(super) lo_rest: f64,
    pub(super) hi_rest: f64,
    /// Star2's probe of this outcome's position, if it made one: kept so that the full
    /// search of the position does not search that move again.
    pub(super) probe: Option<Probe>,
}

/// A probe's result: the position's first move searched within `(alpha, beta)`.
#[derive(Clone, Copy)]
pub(super) struct Probe {
    pub(super) mv: Move,
    pub(super) value: f64,
    pub(super) alpha: f64,
    pub(super) beta: f64,
    /// Whether no line below it was cut by the depth limit.
    pub(super) proven: bool,
}

impl Probe {
    /// The move's value as a search within `(alpha, beta)` would give it (fail-soft), if
    /// the probe tells: its exact value, or a bound beyond that window's edge too. The
    /// windows of the full search lie within the probe's, so this is usually the case.
    pub(super) fn value_within(&self, alpha: f64, beta: f64) -> Option<f64> {
        let v = self.value;
        let exact = v > self.alpha && v < self.beta;
        (exact || (v >= self.beta && v >= beta) || (v <= self.alpha && v <= alpha)).then_some(v)
    }
}

impl<G: Game> Chance<'_, G> {
    /// A chance node: its outcomes, checked, then their average (plain, or Star1/Star2).
    pub(super) fn chance_node(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, Halt> {
        let p = ply as usize;
        let mut draws = std::mem::take(&mut self.draws[p]);
        let value = self
            .list_draws(&mut draws)
            .map_err(Halt::from)
            .and_then(|()| match self.plan.method {
                Method::Star2 => {
                    match self.probe_all(&mut draws, depth, ply, max_side, alpha, beta)? {
                        Some(v) => Ok(v),
                        None => self.star1(&mut draws, depth, ply, max_side, alpha, beta),
                    }
                }
                Method::Star1 => self.star1(&mut draws, depth, ply, max_side, alpha, beta),
                _ => self.star1(
                    &mut draws,
                    depth,
                    ply,
                    max_side,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                ),
            });
        self.draws[p] = draws;
        value
    }

    /// The game's outcomes as draws with probabilities, leaving out those of weight 0.
    pub(super) fn list_draws(&mut self, draws: &mut Vec<Draw>) -> Result<(), GameError> {
        self.listed.clear();
        room(&mut self.listed, 64)?;
        self.game.outcomes(&mut self.listed)?;
        if self.listed.is_empty() {
            return Err(GameError::NoOutcomes);
        }
        let total = weights_total(self.listed.iter().map(|&(_, w)| w))?;
        draws.clear();
        room(draws, self.listed.len())?;
        draws.extend(
            self.listed
                .iter()
                .filter(|&&(_, w)| w > 0.0)
                .map(|&(mv, w)| Draw {
                    mv,
                    w,
                    p: w / total,
                    lo: self.lo,
                    hi: self.hi,
                    lo_rest: 0.0,
                    hi_rest: 0.0,
                    probe: None,
                }),
        );
        Ok(())
    }

    /// Star2's probing phase: one move of each outcome's position (a MAX position's move
    /// gives a lower bound on it, a MIN position's an upper bound), searched with the
    /// window that would settle the chance node. Returns the node's bound if the probes
    /// settle it; else tightens the draws' bounds for `star1`.
    pub(super) fn probe_all(
        &mut self,
        draws: &mut [Draw],
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: f64,
        beta: f64,
    ) -> Result<Option<f64>, Halt> {
        if alpha == f64::NEG_INFINITY && beta == f64::INFINITY {
            return Ok(None); // no probe can settle a node with no window edge
        }
        let mut lo_sum: f64 = draws.iter().map(|d| d.p * d.lo).sum();
        let mut hi_sum: f64 = draws.iter().map(|d| d.p * d.hi).sum();
        // Whose turn the outcomes are: known here if the game lets the sides alternate;
        // else the outcome is played to ask (and, if probed, searched while played).
        let alternating = self.game.max_to_move().is_none();
        for draw in draws.iter_mut() {
            let d = *draw;
            if !alternating {
                self.game.play(d.mv);
            }
            let child_max = match alternating {
                true => !max_side,
                false => self.game.max_to_move().unwrap_or(!max_side),
            };
            // The outcome's window, as Star1 would give it with the others at their
            // bounds; a MAX position's probe can only settle the node against `beta`, a
            // MIN position's against `alpha`, so an infinite one is not probed.
            let a = (alpha - (hi_sum - d.p * d.hi)) / d.p;
            let b = (beta - (lo_sum - d.p * d.lo)) / d.p;
            let window = match child_max {
                true if beta < f64::INFINITY => Some((a.max(d.lo), b)),
                false if alpha > f64::NEG_INFINITY => Some((a, b.min(d.hi))),
                _ => None,
            };
            let Some(window) = window else {
                if !alternating {
                    self.game.undo(d.mv);
                }
                continue;
            };
            if alternating {
                self.game.play(d.mv);
            }
            let probed = self.probe(depth - 1, ply + 1, child_max, window.0, window.1);
            self.game.undo(d.mv);
            let Some(probe) = probed? else { continue };
            draw.probe = Some(probe);
            let v = probe.value;
            let (a, b) = window;
            // A value inside the window is the move's own (a bound on the position); one
            // beyond it is a bound on the move's, in the same direction.
            if child_max && v > a && v > d.lo {
                lo_sum += d.p * (v.min(d.hi) - d.lo);
                draw.lo = v.min(d.hi);
                if lo_sum >= beta {
                    self.stats.cutoffs += 1;
                    return Ok(Some(lo_sum.max(beta)));
                }
            } else if !child_max && v < b && v < d.hi {
                hi_sum -= d.p * (d.hi - v.max(d.lo));
                draw.hi = v.max(d.lo);
                if hi_sum <= alpha {
                    self.stats.cutoffs += 1;
                    return Ok(Some(hi_sum.min(alpha)));
                }
            }
        }
        Ok(None)
    }

    /// Star2's probe of a position (already played): the value of its first move (the
    /// table's best move if it has one) searched within `(alpha, beta)`, a bound on the
    /// position's value; `None` for a final position, a chance node or the depth limit.
    pub(super) fn probe(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: f64,
        beta: f64,
    ) -> Result<Option<Probe>, Halt> {
        if depth == 0 || self.game.outcome().is_some() || self.game.is_chance() {
            return Ok(None);
        }
        self.watch.tick()?;
        let p = ply as usize;
        self.grow(p)?;
        let key = self.table.and_then(|_| self.game.hash());
        let table_move = match (key, self.table) {
            (Some(k), Some(t)) => t.probe(k, max_side, true).map_or(NO_MOVE, |e| e.best),
            _ => NO_MOVE,
        };
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        let first = self
            .game
            .moves(&mut moves)
            .map_err(Halt::from)
            .and_then(|()| {
                let mv = if moves.contains(&table_move) {
                    table_move
                } else {
                    *moves.first().ok_or(GameError::NoMovesNotOver)?
                };
                let horizon = self.horizon;
                let value = self.child(mv, depth, ply, max_side, alpha, beta)?;
                let proven = self.horizon == horizon;
                Ok(Probe {
                    mv,
                    value,
                    alpha,
                    beta,
                    proven,
                })
            });
        self.moves[p] = moves;
        first.map(Some)
    }

    /// Star1 at a chance node (with the full window, plain expectimax): the outcomes in
    /// order, each searched within the window that could still move the average across
    /// `alpha` or `beta`, given the outcomes searched and the others' bounds.
    pub(super) fn star1(
        &mut self,
        draws: &mut [Draw],
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, Halt> {
        let p = ply as usize;
        // The bounds of the outcomes after each one: summed from the end.
        let (mut lo_rest, mut hi_rest): (f64, f64) = (0.0, 0.0);
        for d in draws.iter_mut().rev() {
            (d.lo_rest, d.hi_rest) = (lo_rest, hi_rest);
            lo_rest += d.p * d.lo;
            hi_rest += d.p * d.hi;
        }
        // `sum` (by probabilities) steers the windows; the value itself is the weighted sum
        // over the weights' sum, so that equal weights over equal values give that value
        // exactly (six outcomes of weight 1 scoring 1 give 1, not 0.9999999999999999).
        let (mut sum, mut weighted, mut total) = (0.0, 0.0, 0.0);
        let mut likeliest = 0.0;
        for d in draws.iter() {
            let (lo_rest, hi_rest) = (d.lo_rest, d.hi_rest);
            let (lo_now, hi_now) = (sum + d.p * d.lo + lo_rest, sum + d.p * d.hi + hi_rest);
            if hi_now <= alpha || lo_now >= beta {
                self.stats.cutoffs += 1;
                return Ok(if hi_now <= alpha { hi_now } else { lo_now });
            }
            let a = (alpha - sum - hi_rest) / d.p;
            let b = (beta - sum - lo_rest) / d.p;
            self.hint = d.probe.map(|probe| (ply + 1, probe));
            let v = self.child(d.mv, depth, ply, max_side, a, b)?;
            if v <= a {
                self.stats.cutoffs += 1;
                return Ok((sum + d.p * v + hi_rest).min(alpha));
            }
            if v >= b {
                self.stats.cutoffs += 1;
                return Ok((sum + d.p * v + lo_rest).max(beta));
            }
            sum += d.p * v;
            weighted += d.w * v;
            total += d.w;
            if d.p > likeliest {
                likeliest = d.p;
                self.set_pv(p, ANY_OUTCOME);
            }
        }
        Ok(weighted / total)
    }
}
