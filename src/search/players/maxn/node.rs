//! Max^n's nodes: a player's (the mover's best child, with shallow pruning and the
//! table) and a chance step's (the outcomes' weighted mean).

use std::sync::atomic::Ordering::Relaxed;

use super::{MAX_PLAYERS, Searcher, Values};
use crate::search::game::{Game, GameError, Move, NO_MOVE, move_first, weights_total};
use crate::search::limits::Halt;
use crate::search::memory::room;
use crate::search::stack;

/// How a player's node ended.
enum Ended {
    /// Every move searched, or the mover sure of the most it can have: the value is exact.
    Exact,
    /// Cut by shallow pruning: the value is only a bound.
    Cut,
}

impl<G: Game> Searcher<'_, '_, G> {
    /// The player to move; `ply` counts plies from the root, chance steps included.
    fn mover(&mut self, ply: u32) -> Result<usize, GameError> {
        self.scoring.mover(self.game, ply - self.chance_steps)
    }

    /// Whether the position is final, its scores then in `out`.
    fn final_values(&mut self, ply: u32, out: &mut Values) -> Result<bool, GameError> {
        let mut scores = [0; MAX_PLAYERS];
        let over = self
            .scoring
            .final_scores(self.game, ply - self.chance_steps, &mut scores)?;
        *out = scores.map(f64::from);
        Ok(over)
    }

    fn evaluations(&mut self, ply: u32, out: &mut Values) -> Result<(), GameError> {
        let mut scores = [0; MAX_PLAYERS];
        self.scoring
            .evaluations(self.game, ply - self.chance_steps, &mut scores)?;
        *out = scores.map(f64::from);
        Ok(())
    }

    /// Whether a limit or the stop flag says to stop.
    fn halted(&self) -> bool {
        if self.opts.node_limit > 0 && self.nodes > self.opts.node_limit {
            return true;
        }
        // The first node looks too: a search stopped before it starts does nothing.
        if self.nodes % 1024 == 1 {
            if self.opts.stop.is_some_and(|s| s.load(Relaxed) != 0) {
                return true;
            }
            if self
                .opts
                .time_limit
                .is_some_and(|t| self.start.elapsed() >= t)
            {
                return true;
            }
        }
        false
    }

    /// The max^n value of the position `depth` plies deep, into `out`, its line in
    /// `lines[ply]`. `parent`: the parent's mover and the best score it has so far, for
    /// shallow pruning (`None` at the root, at a parent's first move and below a chance
    /// step). `first`: a move to try first.
    pub(super) fn node(
        &mut self,
        depth: u32,
        ply: u32,
        parent: Option<(usize, f64)>,
        first: Move,
        out: &mut Values,
    ) -> Result<(), Halt> {
        self.nodes += 1;
        if self.halted() {
            return Err(Halt::Limit);
        }
        let at = ply as usize;
        self.lines.reach(at)?;
        self.lines.clear(at);
        if self.lists.len() <= at {
            room(&mut self.lists, 1)?;
            self.lists.push(Vec::new());
            room(&mut self.draws, 1)?;
            self.draws.push(Vec::new());
        }
        let chance = self.game.is_chance();
        if !chance && self.final_values(ply, out)? {
            self.leaves += 1;
            return Ok(());
        }
        if depth == 0 {
            self.leaves += 1;
            self.horizon = true;
            self.evaluations(ply, out)?;
            return Ok(());
        }
        if ply >= stack::MAX_DEPTH {
            return Err(GameError::TooDeep.into());
        }
        if chance {
            return self.chance_node(depth, ply, out);
        }
        let mover = self.mover(ply)?;
        // One ply above the leaves the table costs more than the leaves it saves (as in
        // the engine: measured on Rolit and Chinese Checkers).
        let key = match self.table.is_some() && depth >= 2 {
            true => self.game.hash(),
            false => None,
        };
        let mut first = first;
        if let Some(e) = key.and_then(|k| self.table.as_ref()?.probe(k, mover)) {
            if ply > 0 && e.fits(depth) {
                *out = e.values;
                let (best, proven) = (e.best, e.proven);
                self.table_hits += 1;
                self.horizon |= !proven;
                if best != NO_MOVE {
                    self.lines.set(at, best, false);
                }
                return Ok(());
            }
            if first == NO_MOVE {
                first = e.best;
            }
        }
        // Whether this node's own subtree meets the depth limit.
        let above = std::mem::replace(&mut self.horizon, false);
        let mut moves = std::mem::take(&mut self.lists[at]);
        moves.clear();
        room(&mut moves, 64)?;
        let listed = self.game.moves(&mut moves);
        let found = listed.map(|()| moves.is_empty());
        let answer = match found {
            Err(e) => Err(e.into()),
            Ok(true) => Err(GameError::NoMovesNotOver.into()),
            Ok(false) => {
                // Where the move tried first stood in the game's order.
                let moved = moves.iter().position(|&m| m == first);
                move_first(&mut moves, first);
                self.best_of(&moves, moved, depth, ply, mover, parent, out)
            }
        };
        self.lists[at] = moves;
        let ended = answer?;
        let proven = !self.horizon;
        self.horizon |= above;
        if let (Some(key), Some(table)) = (key, self.table.as_mut()) {
            let exact = matches!(ended, Ended::Exact);
            table.store(key, mover, depth, out, self.lines.first(at), exact, proven);
        }
        Ok(())
    }

    /// The outcomes' mean vector, weighted by their probabilities, into `out`. No
    /// pruning here nor at the outcomes' own moves (their parent's best is a mean).
    fn chance_node(&mut self, depth: u32, ply: u32, out: &mut Values) -> Result<(), Halt> {
        let at = ply as usize;
        let mut draws = std::mem::take(&mut self.draws[at]);
        draws.clear();
        let answer = self.outcomes_mean(&mut draws, depth, ply, out);
        self.draws[at] = draws;
        answer
    }

    fn outcomes_mean(
        &mut self,
        draws: &mut Vec<(Move, f64)>,
        depth: u32,
        ply: u32,
        out: &mut Values,
    ) -> Result<(), Halt> {
        room(draws, 8)?;
        self.game.outcomes(draws)?;
        if draws.is_empty() {
            return Err(GameError::NoOutcomes.into());
        }
        let total = weights_total(draws.iter().map(|d| d.1))?;
        let mut mean = [0.0; MAX_PLAYERS];
        let mut child = [0.0; MAX_PLAYERS];
        self.chance_steps += 1;
        for &(mv, w) in draws.iter() {
            self.game.play(mv);
            let searched = self.child(depth, ply, None, &mut child);
            self.game.undo(mv);
            if let Err(e) = searched {
                self.chance_steps -= 1;
                return Err(e);
            }
            let p = w / total;
            for (m, c) in mean.iter_mut().zip(&child).take(self.players) {
                *m += p * c;
            }
        }
        self.chance_steps -= 1;
        *out = mean;
        Ok(())
    }

    /// The child just played, searched one ply less deep, into `out`.
    fn child(
        &mut self,
        depth: u32,
        ply: u32,
        bound: Option<(usize, f64)>,
        out: &mut Values,
    ) -> Result<(), Halt> {
        let below =
            |s: &mut Self, out: &mut Values| s.node(depth - 1, ply + 1, bound, NO_MOVE, out);
        // Deep lines go on in a fresh stack segment, as the engine's do.
        if (ply + 1) % stack::EVERY == 0 {
            stack::with_room(|| below(self, out))
        } else {
            below(self, out)
        }
    }

    /// The mover's best among `moves`, into `out`; `moved`: where `moves[0]` stood in
    /// the game's order, if it was put first (ties go to the first in that order).
    #[allow(clippy::too_many_arguments)]
    fn best_of(
        &mut self,
        moves: &[Move],
        moved: Option<usize>,
        depth: u32,
        ply: u32,
        mover: usize,
        parent: Option<(usize, f64)>,
        out: &mut Values,
    ) -> Result<Ended, Halt> {
        let at = ply as usize;
        let order = |i: usize| match moved {
            Some(k) if i == 0 => k,
            Some(k) if i <= k => i - 1,
            _ => i,
        };
        let mut best: Values = [0.0; MAX_PLAYERS];
        let mut best_at = None;
        let mut child = [0.0; MAX_PLAYERS];
        let mut ended = Ended::Exact;
        for (i, &mv) in moves.iter().enumerate() {
            // A move before the best in the game's order takes a tie, so it is cut only
            // where it cannot reach the best's score (one less is below it, integer or
            // mean).
            let earlier = best_at.is_some_and(|b| order(i) < order(b));
            let have = best[mover] - f64::from(u8::from(earlier));
            let bound = best_at.map(|_| (mover, have));
            self.game.play(mv);
            let searched = self.child(depth, ply, bound, &mut child);
            self.game.undo(mv);
            searched?;
            let better = child[mover] > best[mover] || (earlier && child[mover] == best[mover]);
            if best_at.is_none() || better {
                best = child;
                best_at = Some(i);
                self.lines.set(at, mv, true);
            }
            if let Some((lo, sum)) = self.bounds {
                let n = self.players as f64;
                let mine = best[mover];
                // Nothing is better for the mover than all the sum leaves it (nor ties
                // it from before it in the game's order, once the moves left are after).
                let full = mine >= sum - (n - 1.0) * lo && moved.is_none_or(|k| i >= k);
                // The parent's mover gets at most what the others leave it here.
                let shallow = parent
                    .is_some_and(|(q, have)| q != mover && sum - mine - (n - 2.0) * lo <= have);
                if full || shallow {
                    self.cutoffs += (moves.len() - i - 1) as u64;
                    if shallow && !full && i + 1 < moves.len() {
                        ended = Ended::Cut;
                    }
                    break;
                }
            }
        }
        *out = best;
        Ok(ended)
    }
}
