//! One search, iteration by iteration: select a path by UCT (skipping the moves the
//! bounds rule out) and, at chance nodes, by drawing an outcome by its weight; add one
//! node, play out at random to the end (or the cut-off), and add the reward along the
//! path, whose proven bounds then rise to the root.

use crate::search::clock::Instant;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

use super::tree::{Kind, NO_PRIOR, NONE, Nodes};
use super::{Convert, MctsOptions, MctsProgress};
use crate::search::game::{Game, GameError, Move, weights_total};
use crate::search::memory::room;
use crate::search::rng::Rng;
use crate::search::value::MAX_PLY;

/// How often, in playouts, the clock and the stop flag are looked at.
const LOOK_EVERY: u64 = 64;

/// How often, in plies of one playout, they are looked at too: a game whose playouts are
/// long (100,000 plies) would else run past a limit by many playouts' time.
const LOOK_PLIES: u32 = 1024;

/// What the threads of one search share besides the tree: the playouts claimed (in
/// batches of [`BATCH`]), and whether one thread has stopped (then all stop).
#[derive(Default)]
pub(crate) struct Team {
    pub playouts: AtomicU64,
    pub done: AtomicBool,
}

/// What `claim` found: the lock held for the caller, the child already there, or the
/// lock held by another thread.
enum Claim {
    Held,
    There,
    Busy,
}

/// One search's state on one thread: the game, the tree (its own, or shared with other
/// threads), and buffers reused by every iteration.
pub(crate) struct Run<'r, 'a, G: Game, T: Nodes> {
    game: &'r mut G,
    tree: &'r mut T,
    team: Option<&'r Team>,
    rng: &'r mut Rng,
    opts: &'r mut MctsOptions<'a>,
    convert: Convert,
    moves: Vec<Move>,
    outcomes: Vec<(Move, f64)>,
    /// Every move played in this iteration (tree, chance and playout), to take back.
    played: Vec<Move>,
    /// The nodes of this iteration's path, the root first.
    path: Vec<u32>,
    /// For each node of the path, how its reward comes from its child's: `a + b * r`. At a
    /// chance node that drew among its outcomes not yet proven, `a` is the proven ones'
    /// probability-weighted value and `b` the others' probability, so that the node gets
    /// an unbiased sample of its value; elsewhere `(0, 1)`.
    mix: Vec<(f64, f64)>,
    /// At a chance node: the outcomes whose children are proven.
    settled: Vec<Move>,
    /// The game's priors for `moves`, when it gives them.
    priors: Vec<f64>,
    /// For PUCT: the children of the node being chosen at, with their moves.
    kids: Vec<(Move, u32)>,
    /// With threads: for each node of the path, whether its visit is counted later.
    later: Vec<bool>,
    /// Set once the tree could not grow (its limit, or memory).
    full: bool,
    /// Iterations since the last one that added a node.
    since_growth: u64,
    /// Whether this iteration added a node.
    grew: bool,
    /// With a team: playouts claimed and not yet made.
    budget: u64,
    /// With a team: set when the playouts are all claimed (the others finish theirs).
    spent: bool,
    /// When the search began, for the time limit.
    start: Instant,
    /// Playout plies since the limits were last looked at.
    plies: u32,
    /// Set when a playout found a limit or the stop flag: the search ends.
    halted: bool,
}

/// PUCT's choice at a node whose moves do not all have children.
enum Puct {
    /// Go to this child.
    Child(u32),
    /// Add a child for this move, of this prior.
    Move(Move, f32),
}

/// Where one step down the tree leads.
enum Step {
    /// To this child, its move played.
    Child(u32),
    /// To this new child, its move played: the playout starts there.
    Added(u32),
    /// Nowhere: a playout from the current position, MAX to move there if this says so
    /// (where the game does not).
    Playout(bool),
    /// Another thread was adding a child here: choose again.
    Retry,
}

/// Playouts a thread of a team claims at once: one shared counter touched every
/// playout would pass its cache line between the threads each time.
const BATCH: u64 = 16;

/// Iterations without a new node after which a search without a playout limit stops.
const STALL: u64 = 100_000;

impl<'r, 'a, G: Game, T: Nodes> Run<'r, 'a, G, T> {
    pub fn new(
        game: &'r mut G,
        tree: &'r mut T,
        team: Option<&'r Team>,
        rng: &'r mut Rng,
        opts: &'r mut MctsOptions<'a>,
        convert: Convert,
    ) -> Self {
        Run {
            game,
            tree,
            team,
            rng,
            opts,
            convert,
            moves: Vec::new(),
            outcomes: Vec::new(),
            played: Vec::new(),
            path: Vec::new(),
            mix: Vec::new(),
            settled: Vec::new(),
            priors: Vec::new(),
            kids: Vec::new(),
            later: Vec::new(),
            full: false,
            since_growth: 0,
            grew: false,
            budget: 0,
            spent: false,
            start: Instant::now(),
            plies: 0,
            halted: false,
        }
    }

    /// Iterates until a limit, the stop flag or a proof at the root; returns this
    /// thread's playouts and whether the tree filled up. With a team, ends the others'
    /// search too (unless only the playouts ran out: the others finish theirs).
    pub fn search(&mut self, start: Instant) -> Result<(u64, bool), GameError> {
        self.start = start;
        let result = self.iterations(start);
        self.tree.flush();
        match self.team {
            Some(team) if !(self.spent && result.is_ok()) => team.done.store(true, Relaxed),
            _ => {}
        }
        result
    }

    fn iterations(&mut self, start: Instant) -> Result<(u64, bool), GameError> {
        // The buffers' first room, had fallibly (each grows fallibly too, where it grows).
        for more in [
            room(&mut self.moves, 64),
            room(&mut self.outcomes, 64),
            room(&mut self.played, 256),
            room(&mut self.path, 64),
            room(&mut self.mix, 64),
            room(&mut self.later, 64),
            room(&mut self.priors, 64),
            room(&mut self.kids, 64),
            room(&mut self.settled, 64),
        ] {
            more?;
        }
        let root_max = self.tree.max_to_move(0);
        if let Some(score) = self.game.outcome() {
            let r = self.convert.final_reward(score, root_max)?;
            self.tree.narrow(0, r, r);
            self.tree.set_expanded(0);
            return Ok((0, false));
        }
        let mut playouts = 0u64;
        loop {
            let (lo, hi) = self.tree.bounds(0);
            if proven(lo, hi) {
                break;
            }
            let limit = self.opts.playouts;
            match self.team {
                None if limit != 0 && playouts >= limit => break,
                None => {}
                Some(team) => {
                    if team.done.load(Relaxed) {
                        break;
                    }
                    if self.budget == 0 {
                        let claimed = team.playouts.fetch_add(BATCH, Relaxed);
                        if limit != 0 && claimed >= limit {
                            self.spent = true;
                            break;
                        }
                        self.budget = match limit {
                            0 => BATCH,
                            _ => BATCH.min(limit - claimed),
                        };
                    }
                    self.budget -= 1;
                }
            }
            if self.opts.playouts == 0 && (self.full || self.since_growth > STALL) {
                // No proof can come without new nodes (a tree below chance steps may have
                // every move it can see, and prove nothing).
                break;
            }
            if self.halted || (playouts % LOOK_EVERY == 0 && playouts > 0 && self.halted(start)) {
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

    /// Whether the time is up, the stop flag is set, or (with a team) another thread
    /// has ended the search.
    fn halted(&self, start: Instant) -> bool {
        let late = self.opts.time_limit.is_some_and(|t| start.elapsed() >= t);
        let stopped = self
            .opts
            .stop
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed) != 0);
        let ended = self.team.is_some_and(|t| t.done.load(Relaxed));
        late || stopped || ended
    }

    fn report(&mut self, playouts: u64, start: Instant) {
        let root_max = self.tree.max_to_move(0);
        let best = self.tree.children(0).max_by_key(|&c| self.tree.stats(c).0);
        let (best_move, value) = match best {
            Some(c) => {
                let (visits, sum) = self.tree.stats(c);
                let mean = sum / visits.max(1) as f64;
                (
                    Some(self.tree.mv(c)),
                    if root_max { mean } else { 1.0 - mean },
                )
            }
            None => (None, 0.0),
        };
        // With a team, the playouts every thread has claimed (within a batch each).
        let playouts = match (self.team, self.opts.playouts) {
            (Some(team), 0) => team.playouts.load(Relaxed),
            (Some(team), limit) => team.playouts.load(Relaxed).min(limit),
            (None, _) => playouts,
        };
        let p = MctsProgress {
            playouts,
            nodes: self.tree.len() as u64,
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
        self.grew = false;
        self.played.clear();
        self.path.clear();
        self.mix.clear();
        self.later.clear();
        self.enter(0)?;
        let reward = self.descend();
        for &mv in self.played.iter().rev() {
            self.game.undo(mv);
        }
        let reward = reward?;
        if self.grew {
            self.since_growth = 0;
        } else {
            self.since_growth += 1;
        }
        let mut reward = reward;
        for i in (0..self.path.len()).rev() {
            let (a, b) = self.mix[i];
            reward = a + b * reward;
            let loss = self.loss(i);
            let later = T::SHARED && self.later[i];
            self.tree.leave(self.path[i], reward, loss, later);
        }
        self.update_bounds();
        Ok(())
    }

    /// Adds `id` to the path, counting the visit now when threads share the tree.
    #[inline]
    fn enter(&mut self, id: u32) -> Result<(), GameError> {
        room(&mut self.path, 1)?;
        room(&mut self.mix, 1)?;
        room(&mut self.later, 1)?;
        self.path.push(id);
        self.mix.push((0.0, 1.0));
        if T::SHARED {
            let loss = self.loss(self.path.len() - 1);
            let later = self.tree.enter(id, loss);
            self.later.push(later);
        }
        Ok(())
    }

    /// The virtual loss of the path's `i`th node: the worst reward for the side that
    /// chose it (MAX's reward is 0 when MAX chose, 1 when MIN did).
    fn loss(&self, i: usize) -> f64 {
        match i {
            0 => 0.0,
            _ if self.tree.max_to_move(self.path[i - 1]) => 0.0,
            _ => 1.0,
        }
    }

    /// Selection and expansion, then the playout: MAX's reward of this iteration.
    fn descend(&mut self) -> Result<f64, GameError> {
        let mut node = 0u32;
        loop {
            let (lo, hi) = self.tree.bounds(node);
            if proven(lo, hi) {
                return Ok(lo); // its value is known, no playout needed
            }
            let step = match self.tree.is_chance(node) {
                true => self.draw(node)?,
                false => self.choose(node)?,
            };
            let (child, added) = match step {
                Step::Retry => continue,
                Step::Playout(max_side) => return self.playout(max_side),
                Step::Child(child) => (child, false),
                Step::Added(child) => (child, true),
            };
            self.enter(child)?;
            if self.path.len() as u32 > MAX_PLY {
                return Err(GameError::TooDeep);
            }
            let (lo, hi) = self.tree.bounds(child);
            if proven(lo, hi) {
                return Ok(lo); // a final position, or a proof
            }
            if added {
                return self.playout(self.tree.max_to_move(child));
            }
            if self.tree.is_open(child) {
                // Open loop: this visit's position may be over where another's was not.
                if let Some(score) = self.game.outcome() {
                    let side = self.side(child);
                    return self.convert.final_reward(score, side);
                }
            }
            node = child;
        }
    }

    /// Whether MAX is to move at `node` on this visit: the node's side, or with open loop
    /// below a chance step, the game's where it says.
    fn side(&mut self, node: u32) -> bool {
        let stored = self.tree.max_to_move(node);
        match self.tree.is_open(node) {
            true => self.game.max_to_move().unwrap_or(stored),
            false => stored,
        }
    }

    /// At a player's node: the child UCT (or PUCT) chooses, its move played (with open
    /// loop, the draws after it too); or a new child for the first move without one.
    fn choose(&mut self, node: u32) -> Result<Step, GameError> {
        let max_side = self.side(node);
        let open = self.tree.is_open(node);
        let (mut expand, mut chosen, mut busy) = (None, None, false);
        if open || !self.tree.is_expanded(node) {
            self.moves.clear();
            self.game.moves(&mut self.moves)?;
            if self.moves.is_empty() {
                return Err(GameError::NoMovesNotOver);
            }
            let (missing, all_there) = match self.fetch_priors()? {
                false => {
                    let missing = self.missing(node);
                    (missing.map(|mv| (mv, NO_PRIOR)), missing.is_none())
                }
                true => {
                    room(&mut self.kids, self.tree.child_count(node) as usize)?;
                    let (choice, all_there) = self.puct(node, max_side, open);
                    let missing = match choice {
                        Some(Puct::Child(id)) => {
                            chosen = Some(id);
                            None
                        }
                        Some(Puct::Move(mv, prior)) => Some((mv, prior)),
                        None => None,
                    };
                    (missing, all_there)
                }
            };
            if all_there && !open {
                self.tree.set_expanded(node);
            }
            if let Some(m) = missing.filter(|_| !self.full) {
                expand = Some(m);
            }
            if let Some((mv, _)) = expand.filter(|_| T::SHARED) {
                match self.claim(node, mv) {
                    Claim::Held => {}
                    Claim::There => expand = None,
                    Claim::Busy => (expand, busy) = (None, true),
                }
            }
        }
        if let Some((mv, prior)) = expand {
            let moves = self.moves.len();
            let added = self.add_child(node, mv, max_side, prior, moves);
            self.tree.unlock(node);
            return Ok(match added? {
                Some(child) => Step::Added(child),
                None => Step::Playout(max_side), // the tree is full
            });
        }
        Ok(match chosen.or_else(|| self.select(node, max_side, open)) {
            Some(child) => {
                self.play(self.tree.mv(child))?;
                if self.opts.open_loop {
                    self.resolve_chance()?;
                }
                Step::Child(child)
            }
            // Another thread is adding this node's first child (or the only one left to
            // choose): wait for it and choose again, so that every playout through a
            // node with moves goes through one of its children (the root's counts sum
            // to the playouts). Each retry follows a child another thread added, or the
            // search's end.
            None if busy && self.wait_unlocked(node) => Step::Retry,
            None => Step::Playout(max_side),
        })
    }

    /// At a chance node: an outcome drawn by weight among those not yet proven, and
    /// played, with its child (added if the tree has none yet). Drawing the proven ones
    /// would teach nothing: their part of the node's value is known, and the path's
    /// reward takes it in (`mix`). Without that, an outcome of small probability deep in
    /// the tree is drawn so rarely that a small game is never solved.
    fn draw(&mut self, node: u32) -> Result<Step, GameError> {
        self.settled.clear();
        let (mut known, mut mass) = (0.0, 0.0);
        for c in self.tree.children(node) {
            let (lo, hi) = self.tree.bounds(c);
            if proven(lo, hi) {
                let p = self.tree.prior(c) as f64;
                (known, mass) = (known + p * lo, mass + p);
                room(&mut self.settled, 1)?;
                self.settled.push(self.tree.mv(c));
            }
        }
        let k = self.sample()?;
        let k = match self.settled.is_empty() {
            true => k,
            false => self.redraw().unwrap_or(k),
        };
        if !self.settled.contains(&self.outcomes[k].0) {
            *self.mix.last_mut().expect("the chance node is on the path") =
                (known, (1.0 - mass).max(0.0));
        }
        let mv = self.outcomes[k].0;
        // The side to move after the draw, where the game does not say: sides alternate at
        // every ply, chance plies included.
        let after = !self.tree.max_to_move(node);
        loop {
            if let Some(child) = self.tree.child(node, mv) {
                self.play(mv)?;
                return Ok(Step::Child(child));
            }
            if self.full {
                self.play(mv)?;
                return Ok(Step::Playout(after));
            }
            match self.claim(node, mv) {
                Claim::Held => break,
                Claim::There => continue,
                // Another thread adds an outcome here: wait, then look again.
                Claim::Busy if self.wait_unlocked(node) => continue,
                Claim::Busy => {
                    self.play(mv)?;
                    return Ok(Step::Playout(after));
                }
            }
        }
        let (p, outcomes) = probability(&self.outcomes, mv)?;
        let added = self.add_child(node, mv, !after, p, outcomes);
        self.tree.unlock(node);
        Ok(match added? {
            Some(child) => Step::Added(child),
            None => Step::Playout(self.tree.max_to_move(node)), // the tree is full
        })
    }

    /// The first of `moves` that has no child of `node`. Children are added in the order
    /// of the moves, so where the game lists its moves in one order, the children are the
    /// first moves and the move after them is the one: one walk of the children checks
    /// that, and a game whose order changes gets the search of every move.
    fn missing(&self, node: u32) -> Option<Move> {
        let tree = &*self.tree;
        let scan = || {
            self.moves
                .iter()
                .copied()
                .find(|&m| tree.child(node, m).is_none())
        };
        let mut k = 0;
        for c in tree.children(node) {
            if self.moves.get(k) != Some(&tree.mv(c)) {
                return scan();
            }
            k += 1;
        }
        // (A move listed twice has its child already.)
        match self.moves.get(k) {
            Some(&mv) if tree.child(node, mv).is_none() => Some(mv),
            Some(_) => scan(),
            None => None,
        }
    }

    /// Asks the game for priors of `moves` into `priors`, checked and scaled to sum to 1:
    /// whether it gave them.
    fn fetch_priors(&mut self) -> Result<bool, GameError> {
        self.priors.clear();
        room(&mut self.priors, self.moves.len())?;
        self.priors.resize(self.moves.len(), 0.0);
        if !self.game.priors(&self.moves, &mut self.priors) {
            return Ok(false);
        }
        let total = weights_total(self.priors.iter().copied()).map_err(|_| GameError::BadPriors)?;
        self.priors.iter_mut().for_each(|p| *p /= total);
        Ok(true)
    }

    /// PUCT's choice at `node` among `moves`, with `priors` (Rosin 2011; the form of
    /// Silver et al. 2017): `q + c * prior * sqrt(parent visits) / (1 + visits)`, where
    /// a move without a child counts no visits and the node's own mean as its `q`. A
    /// child whose proven bounds cannot change the node's is left out, as in `select`.
    /// Also whether every move has a child.
    fn puct(&mut self, node: u32, max_side: bool, open: bool) -> (Option<Puct>, bool) {
        let tree = &*self.tree;
        self.kids.clear();
        self.kids
            .extend(tree.children(node).map(|k| (tree.mv(k), k)));
        let side = |mean: f64| if max_side { mean } else { 1.0 - mean };
        let (n_visits, n_sum) = tree.stats(node);
        let first_play = match n_visits {
            0 => 0.5,
            v => side(n_sum / v as f64),
        };
        let root_n = (n_visits.max(1) as f64).sqrt();
        let c = self.opts.exploration;
        let (n_lo, n_hi) = tree.bounds(node);
        let (mut best, mut any_missing) = (None::<(f64, Puct)>, false);
        for (&mv, &p) in self.moves.iter().zip(&self.priors) {
            let (score, choice) = match self.kids.iter().find(|k| k.0 == mv) {
                Some(&(_, id)) => {
                    let (lo, hi) = tree.bounds(id);
                    if !open && ((max_side && hi <= n_lo) || (!max_side && lo >= n_hi)) {
                        continue;
                    }
                    let (visits, sum) = tree.stats(id);
                    let q = side(sum / visits.max(1) as f64);
                    (q + c * p * root_n / (1.0 + visits as f64), Puct::Child(id))
                }
                None => {
                    any_missing = true;
                    (first_play + c * p * root_n, Puct::Move(mv, p as f32))
                }
            };
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, choice));
            }
        }
        (best.map(|(_, choice)| choice), !any_missing)
    }

    /// With threads: waits while another thread holds `node`'s lock; false (at once) if
    /// the search is ending, when a thread may have stopped holding it. Adding a child
    /// takes the holder a play, the game's questions and an undo: the wait is short.
    fn wait_unlocked(&self, node: u32) -> bool {
        let mut spins = 0u32;
        while self.tree.is_locked(node) {
            if self.team.is_some_and(|t| t.done.load(Relaxed)) {
                return false;
            }
            spins = spins.wrapping_add(1);
            if spins % 1024 == 0 {
                std::thread::yield_now(); // the holder may be waiting for this core
            } else {
                std::hint::spin_loop();
            }
        }
        true
    }

    /// With threads: takes `node`'s lock to add `mv`'s child, if no other thread added it
    /// meanwhile. Unless `Held`, no lock is held and the caller selects. (One thread:
    /// always `Held`.)
    fn claim(&mut self, node: u32, mv: Move) -> Claim {
        if !T::SHARED {
            return Claim::Held;
        }
        if !self.tree.lock(node) {
            return Claim::Busy;
        }
        if self.tree.child(node, mv).is_some() {
            self.tree.unlock(node);
            return Claim::There;
        }
        Claim::Held
    }

    /// Plays `mv` from `node` (MAX to move there if `max_side`) and adds its child,
    /// `prior` its prior (an outcome's probability at a chance node): a final position's
    /// child is proven at once, a chance position's is a chance node; with open loop, the
    /// draws after `mv` are played too and the child is open. `node` is expanded once it
    /// has `all` children. `None` (the moves taken back) when the tree is full. With
    /// threads, the caller holds `node`'s lock.
    fn add_child(
        &mut self,
        node: u32,
        mv: Move,
        max_side: bool,
        prior: f32,
        all: usize,
    ) -> Result<Option<u32>, GameError> {
        // (A shared tree's room is at most `max_nodes`: it says when it is full itself.)
        if !T::SHARED && self.tree.len() >= self.opts.max_nodes {
            self.full = true;
            return Ok(None);
        }
        let mark = self.played.len();
        self.play(mv)?;
        // Sides alternate at every ply, chance plies included, where the game does not say.
        let after_move = self.game.max_to_move().unwrap_or(!max_side);
        let (mut child_max, mut open) = (after_move, self.tree.is_open(node));
        if self.opts.open_loop {
            let draws = self.resolve_chance()?;
            child_max = self
                .game
                .max_to_move()
                .unwrap_or(after_move ^ (draws % 2 == 1));
            open |= draws > 0;
        }
        let over = self.game.outcome();
        let chance = over.is_none() && self.game.is_chance();
        // Below a chance step (open loop) the position varies: its hash would not
        // identify the node.
        let hash = match open {
            true => 0,
            false => self.game.hash().unwrap_or(0),
        };
        // A final position's child is made proven (below a chance step, where positions
        // vary, it proves nothing).
        let final_reward = over
            .filter(|_| !open)
            .map(|score| self.convert.final_reward(score, child_max))
            .transpose()?;
        let kind = Kind {
            chance,
            open,
            final_reward,
        };
        let Some(child) = self.tree.add_child(node, mv, child_max, kind, hash, prior) else {
            self.full = true;
            while self.played.len() > mark {
                let m = self.played.pop().expect("a move played here");
                self.game.undo(m);
            }
            return Ok(None);
        };
        self.grew = true;
        if !self.tree.is_open(node) && self.tree.child_count(node) as usize >= all {
            self.tree.set_expanded(node);
        }
        Ok(Some(child))
    }

    /// The child UCT chooses (PUCT for a child with a prior), leaving out a child whose
    /// proven bounds cannot change the node's; at an open node, among the moves legal on
    /// this visit.
    fn select(&self, node: u32, max_side: bool, open: bool) -> Option<u32> {
        let (n_lo, n_hi) = self.tree.bounds(node);
        let parent_visits = self.tree.stats(node).0.max(1) as f64;
        let ln = parent_visits.ln();
        let c = self.opts.exploration;
        let mut best: Option<(f64, u32)> = None;
        for id in self.tree.children(node) {
            if open && !self.moves.contains(&self.tree.mv(id)) {
                continue;
            }
            let (lo, hi) = self.tree.bounds(id);
            if !open && ((max_side && hi <= n_lo) || (!max_side && lo >= n_hi)) {
                continue;
            }
            let (n, sum) = self.tree.stats(id);
            let visits = n.max(1) as f64;
            let mean = sum / visits;
            let q = if max_side { mean } else { 1.0 - mean };
            let u = match self.tree.prior(id) {
                p if p >= 0.0 => q + c * p as f64 * parent_visits.sqrt() / (1.0 + n as f64),
                _ => q + c * (ln / visits).sqrt(),
            };
            if best.is_none_or(|(b, _)| u > b) {
                best = Some((u, id));
            }
        }
        best.map(|(_, id)| id)
    }

    /// Plays `mv`, noted to be taken back (memory for the note is had first).
    fn play(&mut self, mv: Move) -> Result<(), GameError> {
        room(&mut self.played, 1)?;
        self.game.play(mv);
        self.played.push(mv);
        Ok(())
    }

    /// An outcome of `outcomes` (as `sample` listed them) drawn by weight among those not
    /// `settled`; `None` if every one is.
    fn redraw(&mut self) -> Option<usize> {
        let open = |&(mv, w): &(Move, f64)| (!self.settled.contains(&mv)).then_some(w);
        let total: f64 = self.outcomes.iter().filter_map(open).sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = self.rng.unit() * total;
        let mut last = None;
        for (k, o) in self.outcomes.iter().enumerate() {
            let Some(w) = open(o).filter(|&w| w > 0.0) else {
                continue;
            };
            if x < w {
                return Some(k);
            }
            (x, last) = (x - w, Some(k));
        }
        last // rounding
    }

    /// Open loop: plays outcomes drawn by weight while the position is a chance node and
    /// not over; how many.
    fn resolve_chance(&mut self) -> Result<u32, GameError> {
        let mut draws = 0;
        while self.game.outcome().is_none() && self.game.is_chance() {
            let k = self.sample()?;
            self.play(self.outcomes[k].0)?;
            draws += 1;
            if self.played.len() as u32 > MAX_PLY {
                return Err(GameError::TooDeep);
            }
        }
        Ok(draws)
    }

    /// The index in `outcomes` of an outcome of the chance node, drawn by weight; the
    /// weights checked as the chance search checks them.
    fn sample(&mut self) -> Result<usize, GameError> {
        self.outcomes.clear();
        self.game.outcomes(&mut self.outcomes)?;
        if self.outcomes.is_empty() {
            return Err(GameError::NoOutcomes);
        }
        let total = weights_total(self.outcomes.iter().map(|&(_, w)| w))?;
        let mut x = self.rng.unit() * total;
        for (k, &(_, w)) in self.outcomes.iter().enumerate() {
            if x < w {
                return Ok(k);
            }
            x -= w;
        }
        // Rounding: the last outcome of positive weight.
        let last = self.outcomes.iter().rposition(|&(_, w)| w > 0.0);
        Ok(last.expect("a positive total has a positive weight"))
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
            self.plies += 1;
            if self.plies >= LOOK_PLIES {
                self.plies = 0;
                if self.halted(self.start) {
                    // Cut off here, as `playout_depth` would: the iteration ends as one.
                    self.halted = true;
                    return self.convert.eval_reward(self.game.evaluate(), side);
                }
            }
            if self.played.len() as u32 > MAX_PLY {
                return Err(GameError::TooDeep);
            }
            let mv = if self.game.is_chance() {
                let k = self.sample()?;
                self.outcomes[k].0
            } else {
                self.moves.clear();
                self.game.moves(&mut self.moves)?;
                if self.moves.is_empty() {
                    return Err(GameError::NoMovesNotOver);
                }
                self.moves[self.rng.below(self.moves.len())]
            };
            self.play(mv)?;
            side = self.game.max_to_move().unwrap_or(!side);
            plies += 1;
        }
    }

    /// Raises the proven bounds from the end of the path toward the root, while they
    /// change: a MAX node is at least its best child's lower bound and, once every move
    /// has a child, at most its best child's upper bound; a MIN node the other way round;
    /// a chance node is its outcomes' bounds weighted by their probabilities, an outcome
    /// without a child at [0, 1].
    fn update_bounds(&mut self) {
        for i in (0..self.path.len()).rev() {
            let id = self.path[i];
            if self.tree.is_open(id) || self.tree.first_child(id) == NONE {
                continue; // an open node proves nothing; a leaf's bounds are set when added
            }
            let (lo, hi) = match self.tree.is_chance(id) {
                true => self.chance_bounds(id),
                false => self.player_bounds(id),
            };
            if !self.tree.narrow(id, lo, hi) {
                break;
            }
        }
    }

    fn player_bounds(&self, id: u32) -> (f64, f64) {
        let max_side = self.tree.max_to_move(id);
        let (mut best_lo, mut best_hi) = if max_side { (0.0, 0.0) } else { (1.0, 1.0) };
        let (expanded, children) = self.tree.expanded_children(id);
        for c in children {
            let (lo, hi) = self.tree.bounds(c);
            if max_side {
                best_lo = f64::max(best_lo, lo);
                best_hi = f64::max(best_hi, hi);
            } else {
                best_lo = f64::min(best_lo, lo);
                best_hi = f64::min(best_hi, hi);
            }
        }
        match (max_side, expanded) {
            (_, true) => (best_lo, best_hi),
            (true, false) => (best_lo, 1.0),
            (false, false) => (0.0, best_hi),
        }
    }

    fn chance_bounds(&self, id: u32) -> (f64, f64) {
        // Probabilities are whole units of 2^-24 summing to 1 exactly (`probability`),
        // so that the unseen outcomes' weight is exact and a node whose outcomes are all
        // proven gets one value for both bounds.
        let (mut lo, mut hi, mut seen) = (0.0f64, 0.0f64, 0.0f64);
        let mut all_proven = true;
        let (expanded, children) = self.tree.expanded_children(id);
        for c in children {
            let p = self.tree.prior(c) as f64;
            let (l, h) = self.tree.bounds(c);
            (lo, hi, seen) = (lo + p * l, hi + p * h, seen + p);
            all_proven &= proven(l, h);
        }
        if all_proven && expanded {
            return (lo, lo);
        }
        (lo.min(1.0), (hi + (1.0 - seen).max(0.0)).min(1.0))
    }
}

/// Whether bounds prove a value: equal (or, after two threads narrowed them with values
/// an ulp apart, crossed).
#[inline]
pub(crate) fn proven(lo: f64, hi: f64) -> bool {
    lo >= hi
}

/// Units of probability an outcome's weight is rounded to: 2^-24, which an `f32` holds
/// exactly, and sums of which an `f64` adds exactly.
const PROBABILITY_UNIT: f64 = (1u64 << 24) as f64;

/// The probability of `mv` among `outcomes` (checked weights, duplicates added up), in
/// whole units of 2^-24, the units of every outcome summing to 2^24 (the first largest
/// takes what rounding left over); and how many distinct outcomes have a positive weight.
fn probability(outcomes: &[(Move, f64)], mv: Move) -> Result<(f32, usize), GameError> {
    let mut merged: Vec<(Move, f64)> = Vec::new();
    room(&mut merged, outcomes.len())?;
    for &(m, w) in outcomes.iter().filter(|o| o.1 > 0.0) {
        match merged.iter_mut().find(|e| e.0 == m) {
            Some(e) => e.1 += w,
            None => merged.push((m, w)),
        }
    }
    let total: f64 = merged.iter().map(|e| e.1).sum();
    let units = |w: f64| (w / total * PROBABILITY_UNIT).round();
    let sum: f64 = merged.iter().map(|e| units(e.1)).sum();
    let largest = merged
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.1.total_cmp(&b.1.1).then(b.0.cmp(&a.0)))
        .map(|(k, _)| k);
    let mut p = 0.0;
    for (k, &(m, w)) in merged.iter().enumerate() {
        if m == mv {
            let extra = if Some(k) == largest {
                PROBABILITY_UNIT - sum
            } else {
                0.0
            };
            p = (units(w) + extra).max(0.0) / PROBABILITY_UNIT;
        }
    }
    Ok((p as f32, merged.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::shared::SharedTree;
    use crate::search::mcts::tree::Tree;
    use crate::search::mcts::{Convert, Reward};

    /// Two moves a turn, four plies, then a draw.
    struct Four(u32);

    impl Game for Four {
        fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
            out.extend([0, 1]);
            Ok(())
        }
        fn play(&mut self, _: Move) {
            self.0 += 1;
        }
        fn undo(&mut self, _: Move) {
            self.0 -= 1;
        }
        fn outcome(&mut self) -> Option<i32> {
            (self.0 == 4).then_some(0)
        }
        fn evaluate(&mut self) -> i32 {
            0
        }
    }

    #[test]
    fn a_thread_that_finds_the_root_growing_waits_and_goes_through_a_child() {
        let mut tree = Tree::default();
        tree.reset(true, 0);
        let shared = SharedTree::copy_of(&tree, 100).unwrap();
        let team = Team::default();
        // Another thread is adding the root's first child, and holds the root's lock.
        let mut other = shared.local();
        assert!(other.lock(0));
        let unused = std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let mut game = Four(0);
                let mut local = shared.local();
                let mut opts = MctsOptions::default();
                let mut rng = Rng::new(1);
                let convert = Convert::of(&mut game, Reward::Sign { scale: 1.0 }).unwrap();
                Run::new(
                    &mut game,
                    &mut local,
                    Some(&team),
                    &mut rng,
                    &mut opts,
                    convert,
                )
                .iterate()
                .unwrap();
                local.flush();
                local.unused()
            });
            std::thread::sleep(std::time::Duration::from_millis(50));
            other
                .add_child(0, 0, false, Kind::default(), 0, NO_PRIOR)
                .unwrap();
            other.unlock(0);
            waiter.join().unwrap()
        });
        let back = shared.to_tree([other.unused(), unused]).unwrap();
        let through: u32 = back.children(0).map(|c| back.stats(c).0).sum();
        assert_eq!(back.stats(0).0, 1, "one iteration");
        assert_eq!(through, 1, "the iteration went through a root move");
    }
}
