//! The MAX and MIN nodes of a chance search: fail-soft alpha-beta with the table, and the
//! probed move of Star2 first.

use super::{CHANCE_KEY, Chance, Probe};
use crate::search::game::{Game, GameError, Move, NO_MOVE, move_first};
use crate::search::limits::Halt;
use crate::search::memory::{lengthen, room};
use crate::search::options::Method;
use crate::search::stack;
use crate::search::table::{Bound, Entry};

impl<G: Game> Chance<'_, G> {
    /// A final score or an evaluation as a value, checked against the bounds. Any `i32`
    /// is a score here: expected values are never negated.
    pub(super) fn score(&self, score: i32) -> Result<f64, GameError> {
        let v = score as f64;
        if v < self.lo || v > self.hi {
            return Err(GameError::ScoreOutsideBounds);
        }
        Ok(v)
    }

    /// The value of the position searched `depth` plies deep (chance steps count as
    /// plies) within `(alpha, beta)`, fail-soft, in MAX's view. `max_side`: whether MAX
    /// would move here if the game does not say (sides alternate at every ply).
    pub(super) fn node(
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
    pub(super) fn node_here(
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
            self.watch.tick()?;
        }
        let p = ply as usize;
        self.grow(p)?;
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
        if ply >= stack::MAX_DEPTH {
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

    /// Makes room in the per-ply buffers for ply `p` (a move list room for 64 moves),
    /// or [`GameError::OutOfMemory`].
    pub(super) fn grow(&mut self, p: usize) -> Result<(), GameError> {
        if p as u32 >= self.height {
            lengthen(&mut self.moves, p + 1, Vec::new)?;
            lengthen(&mut self.draws, p + 1, Vec::new)?;
            room(&mut self.moves[p], 64)?;
            self.pv.reach(p)?;
            self.height = p as u32 + 1;
        }
        Ok(())
    }

    /// A MAX or MIN node: plain expectiminimax, or fail-soft alpha-beta. Returns the value
    /// and the best move.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn player_node(
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
    pub(super) fn child(
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
    pub(super) fn set_pv(&mut self, ply: usize, mv: Move) {
        self.pv.set(ply, mv, true);
    }
}
