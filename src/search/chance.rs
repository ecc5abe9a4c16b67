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

use std::sync::atomic::AtomicI32;

use super::engine::{Halt, Plan, check_score, search_table, stopped_or_late};
use super::table::{Bound, Entry, NO_MOVE, Table};
use super::value::MAX_PLY;
use super::{Game, GameError, Method, Move, Options, Progress, SearchResult, SearchStats};

/// The principal variation's entry for a chance step: the outcome is not chosen.
pub const ANY_OUTCOME: Move = i64::MIN + 1;

/// Mixed into a chance node's hash in the table, so that a game whose hash does not tell
/// a chance node from a player's node at the same position cannot confuse the two.
const CHANCE_KEY: u64 = 0x6A09_E667_F3BC_C909;

/// One outcome of a chance node: its move, its probability, and what is known of its
/// value so far (the score bounds, or a probe's).
#[derive(Clone, Copy)]
struct Draw {
    mv: Move,
    p: f64,
    lo: f64,
    hi: f64,
    /// The sums of `p * lo` and `p * hi` over the outcomes after this one.
    lo_rest: f64,
    hi_rest: f64,
}

struct Chance<'a, G: Game> {
    game: &'a mut G,
    plan: Plan,
    stop: Option<&'a AtomicI32>,
    progress: Option<&'a mut (dyn FnMut(&Progress) + 'a)>,
    table: Option<&'a Table>,
    /// Bounds on every score and evaluation (Star1 and Star2); `(-inf, inf)` otherwise.
    lo: f64,
    hi: f64,
    stats: SearchStats,
    /// Leaves cut off by the depth limit in the current iteration (0: proven).
    horizon: u64,
    pv: Vec<Vec<Move>>,
    moves: Vec<Vec<Move>>,
    draws: Vec<Vec<Draw>>,
    /// The game's outcome list, before it is checked and turned into `Draw`s.
    listed: Vec<(Move, f64)>,
}

/// Searches a game that may have chance nodes, by `opts.method` (a chance method), on one
/// thread. See [`super::search`].
pub(crate) fn search<G: Game>(
    game: &mut G,
    opts: &mut Options<'_>,
) -> Result<SearchResult, GameError> {
    let plan = Plan::new(opts);
    let (mut lent, mut own) = (opts.table.take(), None);
    let table = search_table(opts.method, &mut lent, &mut own, opts.table_bytes);
    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    let mut chance = Chance {
        game,
        plan,
        stop: opts.stop,
        progress,
        table,
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
        stats: SearchStats::default(),
        horizon: 0,
        pv: Vec::new(),
        moves: Vec::new(),
        draws: Vec::new(),
        listed: Vec::new(),
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
            let (lo, hi) = self.game.bounds().ok_or(GameError::NoBounds)?;
            if lo > hi || check_score(lo).is_err() || check_score(hi).is_err() {
                return Err(GameError::BadBounds);
            }
            (self.lo, self.hi) = (lo as f64, hi as f64);
        }
        if let Some(score) = self.game.outcome() {
            let v = self.score(score)?;
            (result.value, result.expected) = (score, Some(v));
            (result.exact, result.proven, result.plies_to_end) = (true, true, Some(0));
            return Ok(self.finish(result));
        }
        let max_depth = self.plan.max_depth.clamp(1, MAX_PLY - 1);
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
            result.best_move = self.pv[0].first().copied().filter(|&m| m != ANY_OUTCOME);
            result.value = rounded(v);
            result.expected = Some(v);
            (result.exact, result.proven, result.depth) = (true, proven, depth);
            result.pv = self.pv[0].clone();
            if let Some(report) = self.progress.as_mut() {
                report(&Progress {
                    depth,
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
        if result.depth == 0 && !self.game.is_chance() {
            // Stopped before any iteration finished: still answer with a legal move.
            let mut moves = Vec::new();
            self.game.moves(&mut moves)?;
            result.best_move = moves.first().copied();
            result.pv = result.best_move.into_iter().collect();
        }
        Ok(self.finish(result))
    }

    fn finish(&mut self, mut result: SearchResult) -> SearchResult {
        self.stats.elapsed = self.plan.start.elapsed();
        result.stats = self.stats;
        result
    }

    /// A final score or an evaluation as a value, checked against the bounds.
    fn score(&self, score: i32) -> Result<f64, GameError> {
        check_score(score)?;
        let v = score as f64;
        if v < self.lo || v > self.hi {
            return Err(GameError::BadBounds);
        }
        Ok(v)
    }

    fn check_limits(&mut self) -> Result<(), Halt> {
        let limit = self.plan.node_limit;
        let over = limit != 0 && self.stats.nodes > limit;
        if over || (self.stats.nodes % 256 == 1 && stopped_or_late(&self.plan, self.stop)) {
            return Err(Halt::Limit);
        }
        Ok(())
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
        self.stats.nodes += 1;
        self.check_limits()?;
        let p = ply as usize;
        self.grow(p);
        self.pv[p].clear();
        if let Some(score) = self.game.outcome() {
            self.stats.leaves += 1;
            return Ok(self.score(score)?);
        }
        let chance = self.game.is_chance();
        if depth == 0 {
            self.stats.leaves += 1;
            self.horizon += 1;
            let e = self.game.evaluate();
            return Ok(self.score(e)?);
        }
        if ply + 1 >= MAX_PLY {
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
            if let Some(e) = table.probe(key, max_side) {
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
            }
        }
        let horizon_before = self.horizon;
        let (v, best) = if chance {
            (
                self.chance_node(depth, ply, max_side, alpha, beta)?,
                NO_MOVE,
            )
        } else {
            self.player_node(depth, ply, max_side, alpha, beta, table_move)?
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
            });
        }
        Ok(v)
    }

    /// Makes room in the per-ply buffers for ply `p`.
    fn grow(&mut self, p: usize) {
        if self.pv.len() <= p {
            self.pv.resize_with(p + 1, Vec::new);
            self.moves.resize_with(p + 1, Vec::new);
            self.draws.resize_with(p + 1, Vec::new);
        }
    }

    /// A MAX or MIN node: plain expectiminimax, or fail-soft alpha-beta. Returns the value
    /// and the best move.
    fn player_node(
        &mut self,
        depth: u32,
        ply: u32,
        max_side: bool,
        mut alpha: f64,
        mut beta: f64,
        table_move: Move,
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
                if let Some(i) = moves.iter().position(|&m| m == table_move) {
                    moves[..=i].rotate_right(1);
                }
                let prune = self.plan.method != Method::Expectimax;
                let mut best = (f64::NAN, NO_MOVE);
                for (i, &mv) in moves.iter().enumerate() {
                    let (a, b) = if prune {
                        (alpha, beta)
                    } else {
                        (f64::NEG_INFINITY, f64::INFINITY)
                    };
                    let v = self.child(mv, depth, ply, max_side, a, b)?;
                    let better = if max_side { v > best.0 } else { v < best.0 };
                    if i == 0 || better {
                        best = (v, mv);
                        self.set_pv(p, mv);
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
        let (here, below) = self.pv.split_at_mut(ply + 1);
        here[ply].clear();
        here[ply].push(mv);
        here[ply].extend_from_slice(&below[0]);
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
    fn list_draws(&mut self, draws: &mut Vec<Draw>) -> Result<(), Halt> {
        self.listed.clear();
        self.game.outcomes(&mut self.listed)?;
        if self.listed.is_empty() {
            return Err(GameError::NoOutcomes.into());
        }
        if self.listed.iter().any(|&(_, w)| !w.is_finite() || w < 0.0) {
            return Err(GameError::BadWeight.into());
        }
        let total: f64 = self.listed.iter().map(|&(_, w)| w).sum();
        if !total.is_finite() {
            return Err(GameError::BadWeight.into());
        }
        if total == 0.0 {
            return Err(GameError::ZeroWeights.into());
        }
        draws.clear();
        draws.extend(
            self.listed
                .iter()
                .filter(|&&(_, w)| w > 0.0)
                .map(|&(mv, w)| Draw {
                    mv,
                    p: w / total,
                    lo: self.lo,
                    hi: self.hi,
                    lo_rest: 0.0,
                    hi_rest: 0.0,
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
            let Some(v) = probed? else { continue };
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
    ) -> Result<Option<f64>, Halt> {
        if depth == 0 || self.game.outcome().is_some() || self.game.is_chance() {
            return Ok(None);
        }
        self.stats.nodes += 1;
        self.check_limits()?;
        let p = ply as usize;
        self.grow(p);
        let key = self.table.and_then(|_| self.game.hash());
        let table_move = match (key, self.table) {
            (Some(k), Some(t)) => t.probe(k, max_side).map_or(NO_MOVE, |e| e.best),
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
                self.child(mv, depth, ply, max_side, alpha, beta)
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
        let mut sum = 0.0;
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
            if d.p > likeliest {
                likeliest = d.p;
                self.set_pv(p, ANY_OUTCOME);
            }
        }
        Ok(sum)
    }
}

/// An expected value as the nearest score strictly inside int32.
fn rounded(v: f64) -> i32 {
    v.round()
        .clamp(i32::MIN as f64 + 1.0, i32::MAX as f64 - 1.0) as i32
}
