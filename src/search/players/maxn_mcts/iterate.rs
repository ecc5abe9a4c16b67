//! One thread's iterations: selection by UCT for each node's own mover, expansion of every
//! child at once, a random playout, the reward vector added along the path, and the
//! n-player solver, which proves a node from its children.

use crate::search::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use super::MaxnMctsOptions;
use super::tree::{CHANCE, Tree};
use crate::search::game::{Game, GameError, Move, pick, weights_total};
use crate::search::memory::room;
use crate::search::player_scores::{Convert, MAX_PLAYERS, Rewards};
use crate::search::rng::Rng;
use crate::search::value::MAX_PLY;

/// The state of one thread's search.
pub(super) struct Run<'a, 'o, G: Game> {
    game: &'a mut G,
    tree: &'a mut Tree,
    opts: &'a MaxnMctsOptions<'o>,
    convert: Convert,
    rng: Rng,
    /// Set by a thread that ends the search for all: it proved the root, or failed.
    team: Option<&'a AtomicBool>,
    /// This thread's share of the playouts (0: no limit).
    budget: u64,
    path: Vec<u32>,
    /// Where the path left a proven child that selection chose for an unproven sibling:
    /// the level in `path` of their parent, and the proven child.
    swaps: Vec<(usize, u32)>,
    line: Vec<Move>,
    moves: Vec<Move>,
    outcomes: Vec<(Move, f64)>,
    playouts: u64,
    full: bool,
}

impl<'a, 'o, G: Game> Run<'a, 'o, G> {
    pub fn new(
        game: &'a mut G,
        tree: &'a mut Tree,
        opts: &'a MaxnMctsOptions<'o>,
        convert: Convert,
        seed: u64,
        team: Option<&'a AtomicBool>,
        budget: u64,
    ) -> Self {
        Run {
            game,
            tree,
            opts,
            convert,
            rng: Rng::new(seed),
            team,
            budget,
            path: Vec::new(),
            swaps: Vec::new(),
            line: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            playouts: 0,
            full: false,
        }
    }

    /// Iterates until the budget, a limit, the stop flag or a proven root; then the
    /// playouts made and whether the tree filled up.
    pub fn search(&mut self, start: Instant) -> Result<(u64, bool), GameError> {
        let mut idle = 0u32;
        loop {
            if self.tree.nodes[0].proven || (self.budget > 0 && self.playouts >= self.budget) {
                break;
            }
            if self.opts.stop.is_some_and(|s| s.load(Relaxed) != 0)
                || self.team.is_some_and(|t| t.load(Relaxed))
            {
                break;
            }
            if self.playouts % 16 == 0 && self.opts.time_limit.is_some_and(|t| start.elapsed() >= t)
            {
                break;
            }
            let before = self.tree.nodes.len();
            self.iterate()?;
            self.playouts += 1;
            // With no playout limit, a tree that stops growing ends the search.
            idle = if self.tree.nodes.len() == before {
                idle + 1
            } else {
                0
            };
            if self.budget == 0 && self.opts.time_limit.is_none() && idle >= 100_000 {
                break;
            }
        }
        if self.tree.nodes[0].proven {
            // The others stop: their trees can add nothing to a proof.
            self.team.inspect(|t| t.store(true, Relaxed));
        }
        Ok((self.playouts, self.full))
    }

    /// One iteration from the root; the game is left as it was found.
    fn iterate(&mut self) -> Result<(), GameError> {
        self.path.clear();
        self.swaps.clear();
        self.line.clear();
        room(&mut self.path, 64)?;
        self.path.push(0);
        let mut reward = [0.0; MAX_PLAYERS];
        let went = self.descend(&mut reward);
        while let Some(mv) = self.line.pop() {
            self.game.undo(mv);
        }
        went?;
        self.backup(&reward);
        Ok(())
    }

    /// Plays `mv` on the way down.
    fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if self.line.len() >= MAX_PLY as usize {
            return Err(GameError::TooDeep);
        }
        room(&mut self.line, 1)?;
        self.game.play(mv);
        self.line.push(mv);
        Ok(())
    }

    /// Selection, expansion and playout: the rewards reached, into `reward`.
    fn descend(&mut self, reward: &mut Rewards) -> Result<(), GameError> {
        let players = self.tree.players;
        let (mut k, mut ply) = (0u32, 0u32);
        loop {
            let n = *self.tree.node(k);
            if n.proven {
                reward[..players].copy_from_slice(self.tree.proof(k));
                return Ok(());
            }
            if !n.expanded {
                break;
            }
            let c = if n.mover == CHANCE {
                self.draw(k)
            } else {
                ply += 1;
                let c = self.select(k);
                match self.tree.node(c).proven {
                    true => self.stand_in(k, c)?,
                    false => c,
                }
            };
            self.play(self.tree.node(c).mv)?;
            room(&mut self.path, 1)?;
            self.path.push(c);
            k = c;
        }
        // An unexpanded node: final, or expanded now with a child to play out from.
        let mut scores = [0; MAX_PLAYERS];
        if self
            .convert
            .scoring
            .final_scores(self.game, ply, &mut scores)?
        {
            self.convert.rewards(&scores, reward);
            self.prove_final(k, reward);
            return Ok(());
        }
        let chance = self.game.is_chance();
        let mover = match chance {
            true => CHANCE,
            false => self.convert.scoring.mover(self.game, ply)? as u8,
        };
        self.list(chance)?;
        let mut from = None;
        if self
            .tree
            .add_children(k, &self.outcomes, self.opts.max_nodes)
        {
            let n = self.tree.node_mut(k);
            (n.expanded, n.mover) = (true, mover);
            let c = match chance {
                true => self.draw(k),
                false => self.tree.node(k).first_child,
            };
            ply += u32::from(!chance);
            self.play(self.tree.node(c).mv)?;
            room(&mut self.path, 1)?;
            self.path.push(c);
            from = Some(c);
        } else {
            self.full = true;
        }
        self.playout(ply, from, reward)
    }

    /// The position's moves (probability 1 each) or chance outcomes (with their
    /// probabilities), into `outcomes`.
    fn list(&mut self, chance: bool) -> Result<(), GameError> {
        self.outcomes.clear();
        if chance {
            room(&mut self.outcomes, 8)?;
            self.game.outcomes(&mut self.outcomes)?;
            if self.outcomes.is_empty() {
                return Err(GameError::NoOutcomes);
            }
            let total = weights_total(self.outcomes.iter().map(|o| o.1))?;
            for o in &mut self.outcomes {
                o.1 /= total;
            }
            return Ok(());
        }
        self.moves.clear();
        room(&mut self.moves, 32)?;
        self.game.moves(&mut self.moves)?;
        if self.moves.is_empty() {
            return Err(GameError::NoMovesNotOver);
        }
        room(&mut self.outcomes, self.moves.len())?;
        self.outcomes.extend(self.moves.iter().map(|&m| (m, 1.0)));
        Ok(())
    }

    /// Plays at random from the current position (the tree's node `from`, new, if any)
    /// to its end, or for `playout_depth` plies then by the evaluations; to the end, a
    /// game of more than two players may play out itself (`Game::playout`).
    fn playout(
        &mut self,
        mut ply: u32,
        from: Option<u32>,
        reward: &mut Rewards,
    ) -> Result<(), GameError> {
        let mut scores = [0; MAX_PLAYERS];
        let mut plies = 0u32;
        let own = self.opts.playout_depth == 0 && !self.convert.scoring.is_two();
        loop {
            if self
                .convert
                .scoring
                .final_scores(self.game, ply, &mut scores)?
            {
                self.convert.rewards(&scores, reward);
                if let (0, Some(c)) = (plies, from) {
                    self.prove_final(c, reward);
                }
                return Ok(());
            }
            if own && plies == 0 {
                let players = self.convert.scoring.players;
                scores[..players].fill(0);
                // The generator moves on only for a game that plays out itself, so that
                // the others' searches are as before under a seed.
                let seed = self.rng.clone().next_u64();
                if self.game.playout(seed, &mut scores[..players]) {
                    self.rng.next_u64();
                    self.convert.scoring.check(&scores)?;
                    self.convert.rewards(&scores, reward);
                    return Ok(());
                }
            }
            if self.opts.playout_depth > 0 && plies >= self.opts.playout_depth {
                self.convert
                    .scoring
                    .evaluations(self.game, ply, &mut scores)?;
                self.convert.rewards(&scores, reward);
                return Ok(());
            }
            let mv = if self.game.is_chance() {
                self.draw_outcome()?
            } else {
                self.moves.clear();
                room(&mut self.moves, 32)?;
                self.game.moves(&mut self.moves)?;
                if self.moves.is_empty() {
                    return Err(GameError::NoMovesNotOver);
                }
                ply += 1;
                self.moves[self.rng.below(self.moves.len())]
            };
            self.play(mv)?;
            plies += 1;
        }
    }

    /// A playout's outcome of the chance step here, drawn by its weight: the weights are
    /// not divided by their sum (a playout keeps no probabilities), the draw scaled up.
    fn draw_outcome(&mut self) -> Result<Move, GameError> {
        self.outcomes.clear();
        room(&mut self.outcomes, 8)?;
        self.game.outcomes(&mut self.outcomes)?;
        if self.outcomes.is_empty() {
            return Err(GameError::NoOutcomes);
        }
        let total = weights_total(self.outcomes.iter().map(|o| o.1))?;
        let u = self.rng.unit() * total;
        let i = pick(self.outcomes.iter().map(|o| o.1), u).unwrap_or(0);
        Ok(self.outcomes[i].0)
    }

    /// Marks the final node `k` proven with `reward`.
    fn prove_final(&mut self, k: u32, reward: &Rewards) {
        let players = self.tree.players;
        self.tree.proof_mut(k).copy_from_slice(&reward[..players]);
        let n = self.tree.node_mut(k);
        (n.proven, n.expanded) = (true, true);
    }

    /// The child of the chance node `k` drawn by the outcomes' probabilities.
    fn draw(&mut self, k: u32) -> u32 {
        let kids = self.tree.children(k);
        let u = self.rng.unit();
        let probs = kids.clone().map(|c| self.tree.node(c).prob);
        kids.start + pick(probs, u).unwrap_or(0) as u32
    }

    /// UCT for the mover of `k`: an unvisited child first (in order), else the best mean
    /// for the mover plus exploration, ties to the first.
    fn select(&self, k: u32) -> u32 {
        self.uct(k, false)
            .unwrap_or_else(|| self.tree.children(k).start)
    }

    /// UCT's choice among the children of `k` (the unproven ones only, with
    /// `unproven_only`): the first unvisited and unproven, else the best score; `None` if
    /// there is no candidate.
    fn uct(&self, k: u32, unproven_only: bool) -> Option<u32> {
        let t = &*self.tree;
        let m = t.node(k).mover as usize;
        let log = (t.node(k).visits.max(1) as f64).ln();
        let mut best = None;
        let mut top = f64::NEG_INFINITY;
        for c in t.children(k) {
            let n = t.node(c);
            if unproven_only && n.proven {
                continue;
            }
            if n.visits == 0 && !n.proven {
                return Some(c);
            }
            let score =
                t.mean(c, m) + self.opts.exploration * (log / n.visits.max(1) as f64).sqrt();
            if score > top {
                (best, top) = (Some(c), score);
            }
        }
        best
    }

    /// Where selection at `k` chose the proven child `c`: the unproven sibling with the
    /// best UCT score goes on instead (else `c`), so that the solver can prove `k`,
    /// while `c` stands in for it above (see `backup`).
    fn stand_in(&mut self, k: u32, c: u32) -> Result<u32, GameError> {
        let Some(u) = self.uct(k, true) else {
            return Ok(c);
        };
        room(&mut self.swaps, 1)?;
        self.swaps.push((self.path.len() - 1, c));
        Ok(u)
    }

    /// A visit of `k` with `reward`.
    fn credit(&mut self, k: u32, reward: &Rewards) {
        let players = self.tree.players;
        let n = self.tree.node_mut(k);
        n.visits = n.visits.saturating_add(1);
        for (s, r) in self.tree.sums_mut(k).iter_mut().zip(&reward[..players]) {
            *s += r;
        }
    }

    /// Adds `reward` along the path, from its end up; at a swap, the proven child is
    /// credited with its proof, which is what its parent and the nodes above receive
    /// (the mover would play it: the sibling searched in its place only learns for
    /// itself). Then proves what the path's end lets the solver prove.
    fn backup(&mut self, reward: &Rewards) {
        let players = self.tree.players;
        let mut reward = *reward;
        let mut swaps = self.swaps.len();
        for level in (0..self.path.len()).rev() {
            if swaps > 0 && self.swaps[swaps - 1].0 == level {
                swaps -= 1;
                let c = self.swaps[swaps].1;
                reward[..players].copy_from_slice(self.tree.proof(c));
                self.credit(c, &reward);
            }
            self.credit(self.path[level], &reward);
        }
        let end = *self.path.last().expect("the root");
        if !self.tree.node(end).proven {
            return;
        }
        for i in (0..self.path.len() - 1).rev() {
            let p = self.path[i];
            if self.tree.node(p).proven || !prove(self.tree, p) {
                break;
            }
        }
    }
}

/// Proves `k` from its children where they allow: a chance node once every outcome is
/// proven (their mean by probability); a mover's node once every child is proven (the
/// best for the mover, the first on ties), or at the first child that proves the most
/// the mover can have when every child before it is proven. True if proven.
pub(super) fn prove(tree: &mut Tree, k: u32) -> bool {
    let players = tree.players;
    let n = *tree.node(k);
    let mut value = [0.0; MAX_PLAYERS];
    if n.mover == CHANCE {
        for c in tree.children(k) {
            if !tree.node(c).proven {
                return false;
            }
            let prob = tree.node(c).prob;
            for (v, r) in value.iter_mut().zip(tree.proof(c)) {
                *v += prob * r;
            }
        }
    } else {
        let m = n.mover as usize;
        let mut best = None;
        for c in tree.children(k) {
            if !tree.node(c).proven {
                return false;
            }
            let mine = tree.proof(c)[m];
            if best.is_none_or(|b| mine > tree.proof(b)[m]) {
                best = Some(c);
            }
            if mine >= 1.0 {
                break;
            }
        }
        let Some(best) = best else { return false };
        value[..players].copy_from_slice(tree.proof(best));
    }
    tree.proof_mut(k).copy_from_slice(&value[..players]);
    tree.node_mut(k).proven = true;
    true
}
