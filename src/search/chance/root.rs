//! The root of a chance search: the deepening loop, the result and the progress reports.

use super::{ANY_OUTCOME, Chance};
use crate::search::game::{Game, GameError, first_move};
use crate::search::limits::Halt;
use crate::search::memory::room;
use crate::search::options::{Method, Progress, SearchResult};
use crate::search::value::MAX_PLY;

impl<G: Game> Chance<'_, G> {
    pub(super) fn run(&mut self) -> Result<SearchResult, GameError> {
        let root_max = self.game.max_to_move().unwrap_or(self.plan.max_at_root);
        let mut result = SearchResult::unfinished(Some(0.0));
        if self.plan.method != Method::Expectimax {
            let bounds = self.game.bounds().ok_or(GameError::NeedsBounds)?;
            let (lo, hi) = self.plan.max_view_bounds(bounds, root_max)?;
            if lo > hi {
                return Err(GameError::BadBounds);
            }
            (self.lo, self.hi) = (lo as f64, hi as f64);
        }
        if let Some(score) = self.game.outcome() {
            let score = self.plan.max_view(score, root_max)?;
            let v = self.score(score)?;
            (result.value, result.expected) = (score, Some(v));
            (result.exact, result.proven, result.plies_to_end) = (true, true, Some(0));
            return Ok(self.finish(result));
        }
        // Unlimited is one ply past the limit, as in the engine.
        let max_depth = self.plan.max_depth.clamp(1, MAX_PLY + 1);
        // Deepening serves a search that a limit may stop: with none, the last iteration
        // is the answer and the others only cost. A chance search, with no move order to
        // learn from them where it does not prune, pays for them many times over when
        // its lines are long (Pig to 10: 1,350x the nodes).
        let first = if self.plan.iterative_deepening && self.watch.can_halt() {
            1
        } else {
            max_depth
        };
        for depth in first..=max_depth {
            self.horizon = 0;
            let v = match self.node(depth, 0, root_max, f64::NEG_INFINITY, f64::INFINITY) {
                Ok(v) => v,
                Err(Halt::Limit) => break,
                Err(Halt::Game(e)) => return Err(e),
            };
            let proven = self.horizon == 0;
            result.best_move = self.pv.first(0).filter(|&m| m != ANY_OUTCOME);
            result.value = rounded(v);
            result.expected = Some(v);
            // Without deepening to an unlimited depth: how deep the search went.
            let reached = if depth > MAX_PLY {
                self.height - 1
            } else {
                depth
            };
            (result.exact, result.proven, result.depth) = (true, proven, reached);
            result.pv = self.pv.to_vec(0)?;
            if let Some(report) = self.progress.as_mut() {
                report(&Progress {
                    depth: result.depth,
                    value: result.value,
                    expected: result.expected,
                    nodes: self.watch.nodes(),
                    elapsed: self.plan.start.elapsed(),
                    pv: &result.pv,
                });
            }
            if proven {
                break;
            }
        }
        if result.proven {
            // As in the engine: a proven value outside the root's bounds shows they lied.
            if let (Some(b), Some(v)) = (self.game.bounds(), result.expected) {
                let (lo, hi) = self.plan.max_view_bounds(b, root_max)?;
                if v < lo as f64 || v > hi as f64 {
                    return Err(GameError::ScoreOutsideBounds);
                }
            }
        }
        if result.depth == 0 {
            // Stopped before any iteration finished: still answer with a legal move (none
            // at a chance root), and still hold the game to its contract there.
            if self.game.is_chance() {
                self.list_draws(&mut Vec::new())?;
            } else {
                let first = first_move(self.game)?;
                result.best_move = Some(first);
                room(&mut result.pv, 1)?;
                result.pv.clear();
                result.pv.push(first);
            }
        }
        Ok(self.finish(result))
    }

    pub(super) fn finish(&mut self, mut result: SearchResult) -> SearchResult {
        self.stats.elapsed = self.plan.start.elapsed();
        self.stats.nodes = self.watch.nodes();
        result.stats = self.stats;
        result
    }
}

/// An expected value rounded to the nearest integer, halves away from zero (-0.5 is -1,
/// 2.5 is 3). Expected values lie between two scores, so this is an `i32`.
fn rounded(v: f64) -> i32 {
    v.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}
