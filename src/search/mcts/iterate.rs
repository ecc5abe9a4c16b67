//! One search, iteration by iteration: select a path by UCT (skipping the moves the
//! bounds rule out), add one node, play out at random to the end (or the cut-off), and
//! add the reward along the path, whose proven bounds then rise to the root.

use std::time::Instant;

use super::rng::Rng;
use super::tree::Tree;
use super::{Convert, MctsOptions, MctsProgress};
use crate::search::game::{Game, GameError, Move};
use crate::search::value::MAX_PLY;

/// How often, in playouts, the clock and the stop flag are looked at.
const LOOK_EVERY: u64 = 64;

/// One search's state: the game, the tree, and buffers reused by every iteration.
pub(crate) struct Run<'r, 'a, G: Game> {
    game: &'r mut G,
    tree: &'r mut Tree,
    rng: &'r mut Rng,
    opts: &'r mut MctsOptions<'a>,
    convert: Convert,
    moves: Vec<Move>,
    outcomes: Vec<(Move, f64)>,
    /// Every move played in this iteration (tree, chance and playout), to take back.
    played: Vec<Move>,
    /// The nodes of this iteration's path, the root first.
    path: Vec<u32>,
    /// Set once the tree could not grow (its limit, or memory).
    full: bool,
    /// Iterations since the last one that added a node.
    since_growth: u64,
}

/// Iterations without a new node after which a search without a playout limit stops.
const STALL: u64 = 100_000;

impl<'r, 'a, G: Game> Run<'r, 'a, G> {
    pub fn new(
        game: &'r mut G,
        tree: &'r mut Tree,
        rng: &'r mut Rng,
        opts: &'r mut MctsOptions<'a>,
        convert: Convert,
    ) -> Self {
        Run {
            game,
            tree,
            rng,
            opts,
            convert,
            moves: Vec::new(),
            outcomes: Vec::new(),
            played: Vec::new(),
            path: Vec::new(),
            full: false,
            since_growth: 0,
        }
    }

    /// Iterates until a limit, the stop flag or a proof at the root; returns the playouts
    /// and whether the tree filled up.
    pub fn search(&mut self, start: Instant) -> Result<(u64, bool), GameError> {
        let root_max = self.tree.nodes[0].max_to_move;
        if let Some(score) = self.game.outcome() {
            let r = self.convert.final_reward(score, root_max)?;
            let root = &mut self.tree.nodes[0];
            (root.lo, root.hi, root.expanded) = (r, r, true);
            return Ok((0, false));
        }
        let mut playouts = 0u64;
        loop {
            let root = &self.tree.nodes[0];
            if root.lo == root.hi && !root.open {
                break; // proven
            }
            if self.opts.playouts != 0 && playouts >= self.opts.playouts {
                break;
            }
            if self.opts.playouts == 0 && (self.full || self.since_growth > STALL) {
                // No proof can come without new nodes (a tree below chance steps may have
                // every move it can see, and prove nothing).
                break;
            }
            if playouts % LOOK_EVERY == 0 && playouts > 0 && self.halted(start) {
                break;
            }
            self.iterate()?;
            playouts += 1;
            let every = self.opts.report_every;
            if every != 0 && playouts % every == 0 {
                self.report(playouts, start);
            }
        }
        Ok((playouts, self.full))
    }

    fn halted(&self, start: Instant) -> bool {
        let late = self.opts.time_limit.is_some_and(|t| start.elapsed() >= t);
        let stopped = self
            .opts
            .stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed) != 0);
        late || stopped
    }

    fn report(&mut self, playouts: u64, start: Instant) {
        let root_max = self.tree.nodes[0].max_to_move;
        let best = self
            .tree
            .children(0)
            .max_by_key(|&c| self.tree.nodes[c as usize].visits);
        let (best_move, value) = match best {
            Some(c) => {
                let n = &self.tree.nodes[c as usize];
                let mean = n.sum / n.visits.max(1) as f64;
                (Some(n.mv), if root_max { mean } else { 1.0 - mean })
            }
            None => (None, 0.0),
        };
        let p = MctsProgress {
            playouts,
            nodes: self.tree.nodes.len() as u64,
            best_move,
            value,
            elapsed: start.elapsed(),
        };
        if let Some(f) = self.opts.progress.as_mut() {
            f(&p);
        }
    }

    /// One iteration. Every move it plays is taken back, also on an error.
    fn iterate(&mut self) -> Result<(), GameError> {
        let nodes_before = self.tree.nodes.len();
        self.played.clear();
        self.path.clear();
        self.path.push(0);
        let reward = self.descend();
        for &mv in self.played.iter().rev() {
            self.game.undo(mv);
        }
        let reward = reward?;
        if self.tree.nodes.len() > nodes_before {
            self.since_growth = 0;
        } else {
            self.since_growth += 1;
        }
        for &id in &self.path {
            let n = &mut self.tree.nodes[id as usize];
            n.visits = n.visits.saturating_add(1);
            n.sum += reward;
        }
        self.update_bounds();
        Ok(())
    }

    /// Selection and expansion, then the playout: MAX's reward of this iteration.
    fn descend(&mut self) -> Result<f64, GameError> {
        let mut node = 0u32;
        loop {
            let n = &self.tree.nodes[node as usize];
            if n.lo == n.hi && !n.open {
                return Ok(n.lo); // proven: its value is known, no playout needed
            }
            let (max_side, open) = (n.max_to_move, n.open);
            let mut expand = None;
            if open || !n.expanded {
                self.moves.clear();
                self.game.moves(&mut self.moves)?;
                if self.moves.is_empty() {
                    return Err(GameError::NoMovesNotOver);
                }
                let missing = self
                    .moves
                    .iter()
                    .copied()
                    .find(|&mv| self.tree.child(node, mv).is_none());
                match missing {
                    None if !open => self.tree.nodes[node as usize].expanded = true,
                    Some(mv) if !self.full => expand = Some(mv),
                    _ => {}
                }
            }
            let (child, mv) = match expand {
                Some(mv) => match self.add_child(node, mv, max_side, open)? {
                    Some(child) => (child, mv),
                    None => return self.playout(max_side), // the tree is full
                },
                None => match self.select(node, max_side, open) {
                    Some(child) => (child, self.tree.nodes[child as usize].mv),
                    None => return self.playout(max_side),
                },
            };
            if expand.is_none() {
                self.play(mv);
                self.resolve_chance()?;
            }
            self.path.push(child);
            if self.path.len() as u32 > MAX_PLY {
                return Err(GameError::TooDeep);
            }
            let c = &self.tree.nodes[child as usize];
            let child_max = self.game.max_to_move().unwrap_or(c.max_to_move);
            if c.lo == c.hi && !c.open {
                return Ok(c.lo);
            }
            if let Some(score) = self.game.outcome() {
                return self.convert.final_reward(score, child_max);
            }
            if expand.is_some() {
                return self.playout(child_max);
            }
            node = child;
        }
    }

    /// Plays `mv` from `node`, resolves the chance steps after it, and adds its child (a
    /// final position's child is proven at once). `None` (the move taken back) when the
    /// tree is full.
    fn add_child(
        &mut self,
        node: u32,
        mv: Move,
        max_side: bool,
        open: bool,
    ) -> Result<Option<u32>, GameError> {
        if self.tree.nodes.len() >= self.opts.max_nodes {
            self.full = true;
            return Ok(None);
        }
        self.play(mv);
        let alternated = self.game.max_to_move().unwrap_or(!max_side);
        let chanced = self.resolve_chance()?;
        let child_max = self.game.max_to_move().unwrap_or(alternated);
        let child_open = open || chanced;
        // Below a chance step the position varies: its hash would not identify the node.
        let hash = match child_open {
            true => 0,
            false => self.game.hash().unwrap_or(0),
        };
        let Some(child) = self.tree.add_child(node, mv, child_max, child_open, hash) else {
            self.full = true;
            return Ok(None);
        };
        if !child_open {
            if let Some(score) = self.game.outcome() {
                let r = self.convert.final_reward(score, child_max)?;
                let c = &mut self.tree.nodes[child as usize];
                (c.lo, c.hi, c.expanded) = (r, r, true);
            }
        }
        if !open && self.tree.nodes[node as usize].children as usize == self.moves.len() {
            self.tree.nodes[node as usize].expanded = true;
        }
        Ok(Some(child))
    }

    /// The child UCT chooses, among the moves legal now (below a chance step the moves
    /// may differ from the last visit), leaving out a child whose proven bounds cannot
    /// change the node's.
    fn select(&self, node: u32, max_side: bool, open: bool) -> Option<u32> {
        let n = &self.tree.nodes[node as usize];
        let ln = (n.visits.max(1) as f64).ln();
        let c = self.opts.exploration;
        let mut best: Option<(f64, u32)> = None;
        for id in self.tree.children(node) {
            let ch = &self.tree.nodes[id as usize];
            if open && !self.moves.contains(&ch.mv) {
                continue;
            }
            if !open && ((max_side && ch.hi <= n.lo) || (!max_side && ch.lo >= n.hi)) {
                continue;
            }
            let visits = ch.visits.max(1) as f64;
            let mean = ch.sum / visits;
            let q = if max_side { mean } else { 1.0 - mean };
            let u = q + c * (ln / visits).sqrt();
            if best.is_none_or(|(b, _)| u > b) {
                best = Some((u, id));
            }
        }
        best.map(|(_, id)| id)
    }

    fn play(&mut self, mv: Move) {
        self.game.play(mv);
        self.played.push(mv);
    }

    /// Plays sampled outcomes while the position is a chance node; whether there was one.
    fn resolve_chance(&mut self) -> Result<bool, GameError> {
        let mut any = false;
        while self.game.is_chance() {
            let mv = self.sample()?;
            self.play(mv);
            any = true;
            if self.played.len() as u32 > MAX_PLY {
                return Err(GameError::TooDeep);
            }
        }
        Ok(any)
    }

    /// An outcome of the chance node, drawn by weight; the weights checked as the chance
    /// search checks them.
    fn sample(&mut self) -> Result<Move, GameError> {
        self.outcomes.clear();
        self.game.outcomes(&mut self.outcomes)?;
        if self.outcomes.is_empty() {
            return Err(GameError::NoOutcomes);
        }
        if self
            .outcomes
            .iter()
            .any(|&(_, w)| !w.is_finite() || w < 0.0)
        {
            return Err(GameError::BadWeight);
        }
        let total: f64 = self.outcomes.iter().map(|&(_, w)| w).sum();
        if !total.is_finite() {
            return Err(GameError::WeightSumOverflow);
        }
        if total == 0.0 {
            return Err(GameError::ZeroWeights);
        }
        let mut x = self.rng.unit() * total;
        for &(mv, w) in &self.outcomes {
            if x < w {
                return Ok(mv);
            }
            x -= w;
        }
        // Rounding: the last outcome of positive weight.
        let last = self.outcomes.iter().rev().find(|&&(_, w)| w > 0.0);
        Ok(last.expect("a positive total has a positive weight").0)
    }

    /// A uniformly random playout from the current position (MAX to move if `max_side`,
    /// when the game does not say): MAX's reward at its end or at the cut-off.
    fn playout(&mut self, max_side: bool) -> Result<f64, GameError> {
        let mut side = self.game.max_to_move().unwrap_or(max_side);
        let mut plies = 0u32;
        loop {
            if let Some(score) = self.game.outcome() {
                return self.convert.final_reward(score, side);
            }
            let cut = self.opts.playout_depth;
            if cut != 0 && plies >= cut {
                return self.convert.eval_reward(self.game.evaluate(), side);
            }
            if self.played.len() as u32 > MAX_PLY {
                return Err(GameError::TooDeep);
            }
            let mv = if self.game.is_chance() {
                self.sample()?
            } else {
                self.moves.clear();
                self.game.moves(&mut self.moves)?;
                if self.moves.is_empty() {
                    return Err(GameError::NoMovesNotOver);
                }
                self.moves[self.rng.below(self.moves.len())]
            };
            self.play(mv);
            side = self.game.max_to_move().unwrap_or(!side);
            plies += 1;
        }
    }

    /// Raises the proven bounds from the end of the path toward the root, while they
    /// change: a MAX node is at least its best child's lower bound and, once every move
    /// has a child, at most its best child's upper bound; a MIN node the other way round.
    fn update_bounds(&mut self) {
        for i in (0..self.path.len()).rev() {
            let id = self.path[i];
            let n = &self.tree.nodes[id as usize];
            if n.open || n.first_child == super::tree::NONE {
                continue; // a leaf's bounds are set when it is added
            }
            let (max_side, expanded) = (n.max_to_move, n.expanded);
            let (mut best_lo, mut best_hi) = if max_side {
                (0.0f64, 0.0f64)
            } else {
                (1.0f64, 1.0f64)
            };
            for c in self.tree.children(id) {
                let ch = &self.tree.nodes[c as usize];
                if max_side {
                    best_lo = best_lo.max(ch.lo);
                    best_hi = best_hi.max(ch.hi);
                } else {
                    best_lo = best_lo.min(ch.lo);
                    best_hi = best_hi.min(ch.hi);
                }
            }
            let (lo, hi) = match (max_side, expanded) {
                (true, true) => (best_lo, best_hi),
                (true, false) => (best_lo, 1.0),
                (false, true) => (best_lo, best_hi),
                (false, false) => (0.0, best_hi),
            };
            let n = &mut self.tree.nodes[id as usize];
            if (n.lo, n.hi) == (lo, hi) {
                break;
            }
            (n.lo, n.hi) = (lo, hi);
        }
    }
}
