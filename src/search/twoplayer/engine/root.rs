//! The root of a search: the deepening loop, the exact solve's null-window probes, and
//! the result and progress reports of each iteration.

use super::deepening::Iterations;
use super::{Engine, Outcome};
use crate::search::game::{Game, GameError, Move, first_move};
use crate::search::limits::Halt;
use crate::search::memory::room;
use crate::search::options::{Method, Progress, SearchResult};
use crate::search::value::{self, INF, MAX_PLY, check_score};

impl<G: Game, const LEAN: bool, const M: u8> Engine<'_, G, LEAN, M> {
    pub(super) fn run(&mut self) -> Result<Outcome, GameError> {
        let root_max = self.game.max_to_move().unwrap_or(self.plan.max_at_root);
        let sign = if root_max { 1 } else { -1 };
        let mut result = SearchResult::unfinished(None);
        if let Some(score) = self.game.outcome() {
            let score = self.plan.max_view(score, root_max)?;
            check_score(score)?;
            result.value = score;
            (result.exact, result.proven, result.plies_to_end) = (true, true, Some(0));
            return Ok(self.finish(result, true));
        }
        // Unlimited is one ply past the limit, so that a line longer than the limit is an
        // error rather than a heuristic value.
        let max_depth = self.plan.max_depth.clamp(1, MAX_PLY + 1);
        let first = if self.plan.iterative_deepening {
            1
        } else {
            max_depth
        };
        let mut completed = true;
        let mut iterations = Iterations::default();
        let mut depth = first;
        while depth <= max_depth {
            if let (true, Some(limit)) = (self.plan.time_management, self.plan.time_limit) {
                let elapsed = self.plan.start.elapsed();
                if depth > first && !iterations.next_fits(elapsed, limit) {
                    // As at the limit: the other threads stop too, and the deepest
                    // completed iteration answers.
                    let _ = self.watch.halt();
                    completed = false;
                    break;
                }
            }
            let began = self.plan.start.elapsed();
            self.trial_leaves = 0;
            self.horizon = 0;
            self.pv_is_partial = false;
            let window = iterations.window().filter(|_| self.plan.aspiration_windows);
            let outcome = match (self.plan.method, window) {
                (Method::Exact, _) => self.exact(depth, root_max),
                (_, Some(window)) => self.aspirated(depth, root_max, window),
                (_, None) => self.node(depth, 0, root_max, -INF, INF),
            };
            let v = match outcome {
                Ok(v) => v,
                Err(Halt::Limit) => {
                    completed = false;
                    break;
                }
                Err(Halt::Game(e)) => return Err(e),
            };
            let proven = self.horizon == 0;
            // Each trial's leaves are among the horizon's, counted once.
            debug_assert!(self.trial_leaves <= self.horizon);
            if self.horizon > 0 && self.horizon <= self.trial_leaves {
                // Unproven only by trials: the next iterations go without them.
                self.plan.null_move = false;
                self.plan.late_move_reductions = false;
                self.plan.probcut = None;
            }
            iterations.completed(v, self.plan.start.elapsed().saturating_sub(began));
            result.pv = self.pv.to_vec(0)?;
            result.best_move = result.pv.first().copied();
            result.value = max_view(sign, v);
            result.exact = true;
            result.proven = proven;
            let along_pv = (!self.pv_is_partial).then_some(result.pv.len() as u32);
            result.plies_to_end = value::plies_to_end(v).or(along_pv).filter(|_| proven);
            // A search without deepening to an unlimited depth reports how deep it went.
            result.depth = if depth > MAX_PLY {
                self.height - 1
            } else {
                depth
            };
            let elapsed = self.plan.start.elapsed();
            match (self.watch.team, self.progress.as_mut()) {
                // In a team, each depth is reported once, in order, from the caller's
                // thread: the iterations the other threads completed before this one too.
                (Some(team), report) => {
                    let (nodes, pv) = (self.watch.nodes(), &result.pv);
                    team.record(result.depth, result.value, nodes, elapsed, pv)?;
                    if let Some(report) = report {
                        team.report_upto(u32::MAX, *report);
                    }
                }
                (None, Some(report)) => report(&Progress {
                    depth: result.depth,
                    value: result.value,
                    expected: None,
                    nodes: self.watch.nodes(),
                    elapsed,
                    pv: &result.pv,
                }),
                (None, None) => {}
            }
            if proven {
                break;
            }
            // An unlimited search has no next iteration after its last, and at its depth
            // only trials leave a leaf unproven, here or through the values they left in
            // the table: it searches that depth once more without them, and without the
            // table's unproven values, which proves it, as documented.
            let unlimited = self.plan.max_depth > MAX_PLY;
            if unlimited && depth == max_depth && !self.plan.proven_entries_only {
                self.plan.null_move = false;
                self.plan.late_move_reductions = false;
                self.plan.probcut = None;
                self.plan.proven_entries_only = true;
            } else {
                depth += 1;
            }
        }
        if result.proven {
            self.within_root_bounds(result.value, root_max)?;
        }
        if result.best_move.is_none() {
            // Stopped before any iteration finished: still answer with a legal move, and
            // still hold the game to its contract.
            let first = first_move(self.game)?;
            result.best_move = Some(first);
            room(&mut result.pv, 1)?;
            result.pv.clear();
            result.pv.push(first);
        }
        Ok(self.finish(result, completed))
    }

    /// A proven value (MAX's view) must lie within the bounds the game gives at the root
    /// (the value with best play): one outside them shows that the bounds lied, and the
    /// values they cut off may be wrong too.
    fn within_root_bounds(&mut self, value: i32, root_max: bool) -> Result<(), GameError> {
        if let Some(bounds) = self.game.bounds() {
            let (lo, hi) = self.plan.max_view_bounds(bounds, root_max)?;
            if value < lo || value > hi {
                return Err(GameError::ScoreOutsideBounds);
            }
        }
        Ok(())
    }

    fn finish(&mut self, mut result: SearchResult, completed: bool) -> Outcome {
        self.stats.elapsed = self.plan.start.elapsed();
        self.stats.nodes = self.watch.nodes();
        result.stats = self.stats;
        Outcome { result, completed }
    }

    /// The exact value at `depth`: null-window tests at score boundaries narrow the range
    /// (toward 0 first, as good solvers do), then an optional search within the score's
    /// band finds the fastest win or slowest loss.
    fn exact(&mut self, depth: u32, root_max: bool) -> Result<i64, Halt> {
        // Without the game's bounds, every score (MAX's view) strictly inside int32.
        let (min, max) = (i32::MIN as i64 + 1, i32::MAX as i64 - 1);
        // Within the game's bounds the probes bisect a range one score wider on each
        // side: for Connect Four that is Pons' root range, and it needed fewer nodes on
        // most of his sets and on 300 random positions (docs/changes.md, "Performance history").
        let (mut lo, mut hi) = match self.side_bounds(root_max)? {
            Some((lo, hi)) if lo < hi => (lo - 1, hi + 1),
            Some(b) => b,
            None if root_max => (min, max),
            None => (-max, -min),
        };
        let mut proof: Option<Vec<Move>> = None; // the PV of the last fail-high search
        self.full_pv = false;
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            let (alpha, beta) = (value::at_most(med), value::at_least(med + 1));
            let r = self.node(depth, 0, root_max, alpha, beta);
            let r = r.inspect_err(|_| self.full_pv = true)?;
            if r <= alpha {
                hi = med.min(value::score(r));
            } else {
                lo = (med + 1).max(value::score(r));
                proof = Some(self.pv.to_vec(0)?);
            }
        }
        self.full_pv = true;
        match proof {
            Some(pv) if !(self.plan.refine_distance && lo != 0) => {
                // The move that proved `lo` is a best move; its distance was not sought,
                // and the PV holds only that move.
                self.pv.set_line(0, &pv)?;
                self.pv_is_partial = true;
                Ok(value::heuristic(lo))
            }
            _ => self.node(
                depth,
                0,
                root_max,
                value::at_least(lo) - 1,
                value::at_most(lo) + 1,
            ),
        }
    }
}

/// A root value as the score in MAX's view. Every score the engine meets lies strictly
/// inside int32, and so does this; the clamp only keeps that promise to C should a
/// value ever stray.
pub(crate) fn max_view(sign: i64, v: i64) -> i32 {
    let score = sign * value::score(v);
    debug_assert!(
        score > i32::MIN as i64 && score < i32::MAX as i64,
        "{score}"
    );
    score.clamp(i32::MIN as i64 + 1, i32::MAX as i64 - 1) as i32
}
