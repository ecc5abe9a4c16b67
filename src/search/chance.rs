//! Chance nodes: expectiminimax, and Ballard's *-minimax pruning (Star1, and Star2 with
//! probing; Ballard 1983, as described by Hauk, Buro and Schaeffer 2004), for games where
//! dice or a random draw decide some steps. Written from those papers' descriptions.
//!
//! Values here are expected scores in MAX's view, as `f64`: MAX nodes maximise, MIN nodes
//! minimise, chance nodes average their outcomes by probability. `Expectimax` prunes
//! nothing. `Star1` searches MAX and MIN nodes by fail-soft alpha-beta, and at a chance
//! node narrows each outcome's window by what the outcomes already searched and the score
//! bounds of the rest allow, cutting off once the average cannot enter the window.
//! `Star2` first probes one move of each outcome's position: a lower bound on a MAX
//! position (an upper on a MIN one) that often settles the chance node at once.
//!
//! A chance node's exact value is always summed in the order of its outcomes, so that
//! every method finds the same double as a plain expectimax that sums in that order.

use super::game::{Game, GameError, Move, NO_MOVE, first_move, move_first};
use super::limits::{Halt, Plan, Watch};
use super::options::{Method, Options, Progress, SearchResult, SearchStats, search_table};
use super::pv::Lines;
use super::stack;
use super::table::{Bound, Entry, Table};
use super::value::MAX_PLY;

/// The principal variation's entry for a chance step: the outcome is not chosen.
pub const ANY_OUTCOME: Move = i64::MIN + 1;

/// Mixed into a chance node's hash in the table, so that a game whose hash does not tell
/// a chance node from a player's node at the same position cannot confuse the two.
const CHANCE_KEY: u64 = 0x6A09_E667_F3BC_C909;

/// One outcome of a chance node: its move, its weight and probability, and what is known
/// of its value so far (the score bounds, or a probe's).
#[derive(Clone, Copy)]
struct Draw {
    mv: Move,
    w: f64,
    p: f64,
    lo: f64,
    hi: f64,
    /// The sums of `p * lo` and `p * hi` over the outcomes after this one.
    lo_rest: f64,
    hi_rest: f64,
    /// Star2's probe of this outcome's position, if it made one: kept so that the full
    /// search of the position does not search that move again.
    probe: Option<Probe>,
}

/// A probe's result: the position's first move searched within `(alpha, beta)`.
#[derive(Clone, Copy)]
struct Probe {
    mv: Move,
    value: f64,
    alpha: f64,
    beta: f64,
    /// Whether no line below it was cut by the depth limit.
    proven: bool,
}

impl Probe {
    /// The move's value as a search within `(alpha, beta)` would give it (fail-soft), if
    /// the probe tells: its exact value, or a bound beyond that window's edge too. The
    /// windows of the full search lie within the probe's, so this is usually the case.
    fn value_within(&self, alpha: f64, beta: f64) -> Option<f64> {
        let v = self.value;
        let exact = v > self.alpha && v < self.beta;
        (exact || (v >= self.beta && v >= beta) || (v <= self.alpha && v <= alpha)).then_some(v)
    }
}

struct Chance<'a, G: Game> {
    game: &'a mut G,
    plan: Plan,
    watch: Watch<'a>,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    /// Bounds on every score and evaluation (Star1 and Star2); `(-inf, inf)` otherwise.
    lo: f64,
    hi: f64,
    stats: SearchStats,
    /// Leaves cut off by the depth limit in the current iteration (0: proven).
    horizon: u64,
    /// One more than the deepest ply a node was at: the plies whose buffers are ready.
    height: u32,
    pv: Lines,
    moves: Vec<Vec<Move>>,
    draws: Vec<Vec<Draw>>,
    /// The game's outcome list, before it is checked and turned into `Draw`s.
    listed: Vec<(Move, f64)>,
    /// A Star2 probe of the position about to be searched (at ply `.0`), handed from the
    /// chance node to it.
    hint: Option<(u32, Probe)>,
}

/// Searches a game that may have chance nodes, by `opts.method` (a chance method), on one
/// thread. See [`super::search`].
pub(crate) fn search<G: Game>(
    game: &mut G,
    opts: &mut Options<'_>,
) -> Result<SearchResult, GameError> {
    let plan = Plan::of(game, opts);
    let (mut lent, mut own) = (opts.table.take(), None);
    let table = search_table(opts.method, &mut lent, &mut own, opts.table_bytes);
    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    let mut chance = Chance {
        game,
        plan,
        watch: Watch::new(plan, opts.stop, None),
        progress,
        table,
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
        stats: SearchStats::default(),
        horizon: 0,
        height: 0,
        pv: Lines::default(),
        moves: Vec::new(),
        draws: Vec::new(),
        listed: Vec::new(),
        hint: None,
    };
    let result = chance.run();
    opts.table = lent;
    result
}

impl<G: Game> Chance<'_, G> {
    fn run(&mut self) -> Result<SearchResult, GameError> {
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
        let first = if self.plan.iterative_deepening {
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
            result.pv = self.pv.to_vec(0);
            if let Some(report) = self.progress.as_mut() {
                report(&Progress {
                    depth: result.depth,
                    value: result.value,
                    expected: result.expected,
                    nodes: self.stats.nodes,
                    elapsed: self.plan.start.elapsed(),
                    pv: &result.pv,
                });
            }
            if proven {
                break;
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
                result.pv = vec![first];
            }
        }
        Ok(self.finish(result))
    }

    fn finish(&mut self, mut result: SearchResult) -> SearchResult {
        self.stats.elapsed = self.plan.start.elapsed();
        result.stats = self.stats;
        result
    }

    /// A final score or an evaluation as a value, checked against the bounds. Any `i32`
    /// is a score here: expected values are never negated.
    fn score(&self, score: i32) -> Result<f64, GameError> {
        let v = score as f64;
        if v < self.lo || v > self.hi {
            return Err(GameError::BadBounds);
        }
        Ok(v)
    }

    /// The value of the position searched `depth` plies deep (chance steps count as
    /// plies) within `(alpha, beta)`, fail-soft, in MAX's view. `max_side`: whether MAX
    /// would move here if the game does not say (sides alternate at every ply).
    fn node(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, Halt> {
        if ply % stack::EVERY == 0 && ply > 0 {
            return stack::with_room(|| self.node_here(depth, ply, max_side, alpha, beta));
        }
        self.node_here(depth, ply, max_side, alpha, beta)
    }

    /// `node`, on the stack it is on.
    fn node_here(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        mut alpha: f64,
        mut beta: f64,
    ) -> Result<f64, Halt> {
        // A position a probe entered was counted then.
        let hint = self.hint.take().filter(|h| h.0 == ply).map(|h| h.1);
        if hint.is_none() {
            self.stats.nodes += 1;
        }
        self.watch.check(self.stats.nodes)?;
        let p = ply as usize;
        self.grow(p);
        self.pv.clear(p);
        if let Some(score) = self.game.outcome() {
            self.stats.leaves += 1;
            let score = self.plan.max_view(score, max_side)?;
            return Ok(self.score(score)?);
        }
        let chance = self.game.is_chance();
        if depth == 0 {
            self.stats.leaves += 1;
            self.horizon += 1;
            let e = self.plan.max_view(self.game.evaluate(), max_side)?;
            return Ok(self.score(e)?);
        }
        if ply >= MAX_PLY {
            return Err(GameError::TooDeep.into());
        }
        let key = match self.table {
            Some(_) => self
                .game
                .hash()
                .map(|k| if chance { k ^ CHANCE_KEY } else { k }),
            None => None,
        };
        let mut table_move = NO_MOVE;
        if let (Some(key), Some(table)) = (key, self.table) {
            self.stats.table_probes += 1;
            if let Some(e) = table.probe(key, max_side, true) {
                self.stats.table_hits += 1;
                table_move = e.best;
                let v = f64::from_bits(e.value as u64);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if ply > 0 && e.fits(depth) && usable {
                    if !e.proven {
                        self.horizon += 1;
                    }
                    return Ok(v);
                }
                if e.fits(depth) && e.bound != Bound::Exact {
                    // Searched before with a window that did not hold this one: this time
                    // the exact value, so that the position is searched at most twice.
                    (alpha, beta) = (f64::NEG_INFINITY, f64::INFINITY);
                }
            }
        }
        let horizon_before = self.horizon;
        let (v, best) = if chance {
            (
                self.chance_node(depth, ply, max_side, alpha, beta)?,
                NO_MOVE,
            )
        } else {
            self.player_node(depth, ply, max_side, alpha, beta, table_move, hint)?
        };
        if let (Some(key), Some(table)) = (key, self.table) {
            let bound = Bound::of(v, alpha, beta);
            table.store(Entry {
                key,
                value: v.to_bits() as i64,
                best,
                depth,
                bound,
                proven: self.horizon == horizon_before,
                max_side,
                expected: true,
            });
        }
        Ok(v)
    }

    /// Makes room in the per-ply buffers for ply `p`.
    fn grow(&mut self, p: usize) {
        if p as u32 >= self.height {
            self.moves.resize_with(p + 1, Vec::new);
            self.draws.resize_with(p + 1, Vec::new);
            self.pv.reach(p);
            self.height = p as u32 + 1;
        }
    }

    /// A MAX or MIN node: plain expectiminimax, or fail-soft alpha-beta. Returns the value
    /// and the best move.
    #[allow(clippy::too_many_arguments)]
    fn player_node(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        mut alpha: f64,
        mut beta: f64,
        table_move: Move,
        hint: Option<Probe>,
    ) -> Result<(f64, Move), Halt> {
        let p = ply as usize;
        let mut moves = std::mem::take(&mut self.moves[p]);
        moves.clear();
        let searched = self
            .game
            .moves(&mut moves)
            .map_err(Halt::from)
            .and_then(|()| {
                if moves.is_empty() {
                    return Err(GameError::NoMovesNotOver.into());
                }
                // The probed move first (its value is known), else the table's.
                move_first(&mut moves, hint.map_or(table_move, |h| h.mv));
                let prune = self.plan.method != Method::Expectimax;
                let mut best = (f64::NAN, NO_MOVE);
                for (i, &mv) in moves.iter().enumerate() {
                    let (a, b) = if prune {
                        (alpha, beta)
                    } else {
                        (f64::NEG_INFINITY, f64::INFINITY)
                    };
                    let known = hint
                        .filter(|h| i == 0 && h.mv == mv)
                        .and_then(|h| h.value_within(a, b).map(|v| (v, h.proven)));
                    let v = match known {
                        Some((v, proven)) => {
                            if !proven {
                                self.horizon += 1; // its subtree met the depth limit
                            }
                            v
                        }
                        None => self.child(mv, depth, ply, max_side, a, b)?,
                    };
                    let better = if max_side { v > best.0 } else { v < best.0 };
                    if i == 0 || better {
                        best = (v, mv);
                        // A probed move's line below was overwritten since: the move alone.
                        self.pv.set(p, mv, known.is_none());
                    }
                    if prune {
                        if max_side {
                            alpha = alpha.max(v);
                        } else {
                            beta = beta.min(v);
                        }
                        if alpha >= beta {
                            if i + 1 < moves.len() {
                                self.stats.cutoffs += 1;
                            }
                            break;
                        }
                    }
                }
                Ok(best)
            });
        self.moves[p] = moves;
        searched
    }

    /// Plays `mv`, searches the position within `(alpha, beta)`, and takes it back.
    fn child(
        &mut self,
        mv: Move,
        depth: u32,
        ply: u32,
        max_side: bool,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, Halt> {
        self.game.play(mv);
        let child_max = self.game.max_to_move().unwrap_or(!max_side);
        let v = self.node(depth - 1, ply + 1, child_max, alpha, beta);
        self.game.undo(mv);
        v
    }

    /// The PV at `ply`: `mv`, then the PV found below it.
    fn set_pv(&mut self, ply: usize, mv: Move) {
        self.pv.set(ply, mv, true);
    }

    /// A chance node: its outcomes, checked, then their average (plain, or Star1/Star2).
    fn chance_node(
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
    fn list_draws(&mut self, draws: &mut Vec<Draw>) -> Result<(), GameError> {
        self.listed.clear();
        self.game.outcomes(&mut self.listed)?;
        if self.listed.is_empty() {
            return Err(GameError::NoOutcomes);
        }
        if self.listed.iter().any(|&(_, w)| !w.is_finite() || w < 0.0) {
            return Err(GameError::BadWeight);
        }
        let total: f64 = self.listed.iter().map(|&(_, w)| w).sum();
        if !total.is_finite() {
            return Err(GameError::WeightSumOverflow);
        }
        if total == 0.0 {
            return Err(GameError::ZeroWeights);
        }
        draws.clear();
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
    fn probe_all(
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
    fn probe(
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
        self.stats.nodes += 1;
        self.watch.check(self.stats.nodes)?;
        let p = ply as usize;
        self.grow(p);
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
    fn star1(
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

/// An expected value rounded to the nearest integer, halves away from zero (-0.5 is -1,
/// 2.5 is 3). Expected values lie between two scores, so this is an `i32`.
fn rounded(v: f64) -> i32 {
    v.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}
