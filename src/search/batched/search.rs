//! The loop of a batched search: gather leaves from every game's tree (several a tree,
//! spread by virtual loss) into one batch, call the evaluator once, expand each leaf with
//! the priors from its logits and back its value up; final positions and proven nodes
//! are backed up at once, never sent. It ends when every game has made its simulations
//! or has a proven root.

use super::policies::{self, Halving};
use super::tree::{NONE, Node, State, Tree, seen};
use super::{BatchedOptions, BatchedResult, Encode, Evaluator, RootMove, RootPolicy};
use crate::search::game::{Game, GameError, Move, ScoreView, weights_total};
use crate::search::rng::Rng;

/// One game's progress in this search.
#[derive(Default)]
pub(super) struct Progress {
    /// Simulations backed up, and leaves in the batch being gathered.
    done: u32,
    in_flight: u32,
    /// The root's noisy priors (PUCT with noise), drawn once the root is expanded.
    noise: Vec<f32>,
    halving: Option<Halving>,
    full: bool,
    /// Room in the tree claimed by the leaves of this tree in the batch.
    claimed: usize,
    /// Whether the game's scores are the side to move's (read once).
    side_view: bool,
    /// The game's own draws (noise, Gumbel, chance, temperature), so that a game's search
    /// is the same whichever games share its calls and threads.
    rng: Rng,
}

/// The seed of game `i`'s draws: SplitMix's output from `seed + i`, so that the games'
/// streams do not overlap (seeds a step apart would give one stream shifted by a draw).
fn game_seed(seed: u64, i: usize) -> u64 {
    Rng::new(seed.wrapping_add(i as u64)).next_u64()
}

/// A leaf in the batch: its game (in its share), node, and where its moves lie in the
/// moves buffer.
struct Slot {
    game: usize,
    node: u32,
    moves: std::ops::Range<usize>,
    /// Whether the tree has room to expand it.
    expand: bool,
}

/// The buffers of one batch, kept from call to call.
struct Batch {
    obs: Vec<f32>,
    values: Vec<f32>,
    logits: Vec<f32>,
    slots: Vec<Slot>,
    /// The legal moves of the leaves, with their action indices.
    moves: Vec<(Move, u32)>,
    obs_size: usize,
    actions: usize,
}

/// What one descent found.
enum Descent {
    /// A leaf put in the batch.
    Leaf,
    /// A final position, or one proven before (only a root's proven child is revisited:
    /// below it, proven children are left out), backed up already: no evaluator call,
    /// but a simulation.
    Backed,
    /// A leaf already in the batch: this game adds no more to it.
    Collision,
}

/// Scratch space for the policies.
#[derive(Default)]
struct Scratch {
    path: Vec<Move>,
    q: Vec<f64>,
    policy: Vec<f64>,
    scratch_moves: Vec<Move>,
    /// The action indices of a leaf's moves.
    indices: Vec<usize>,
    seen_action: Vec<u32>,
    stamp: u32,
}

fn reserve<T>(v: &mut Vec<T>, n: usize) -> Result<(), GameError> {
    v.try_reserve(n.saturating_sub(v.len()))
        .map_err(|_| GameError::OutOfMemory)
}

/// The sizes of one game's encoding, checked the same for every game.
pub(super) fn shape<G: Encode>(games: &[G]) -> Result<(usize, usize), GameError> {
    let Some(first) = games.first() else {
        return Ok((0, 0));
    };
    let (obs_size, actions) = (first.observation_size(), first.action_count());
    if games
        .iter()
        .any(|g| g.observation_size() != obs_size || g.action_count() != actions)
        || actions == 0
        || actions > u32::MAX as usize
    {
        return Err(GameError::BadBatchOptions);
    }
    Ok((obs_size, actions))
}

/// Some of the games, with their trees, searched by one thread at a time: each step
/// expands the leaves the evaluator has valued, then gathers the next leaves into the
/// share's own batch (at most `cap`), its games taken in turn from a point that moves on
/// a game each step.
pub(super) struct Share<'a, G> {
    trees: &'a mut [Tree],
    games: &'a mut [G],
    progress: Vec<Progress>,
    batch: Batch,
    scratch: Scratch,
    start: usize,
    cap: usize,
    /// Whether the batch holds values from the evaluator, to expand at the next step.
    pub valued: bool,
    /// Whether the last gathering met a game still searching, and one that made a
    /// simulation without the evaluator.
    pub active: bool,
    pub progressed: bool,
}

impl<'a, G: Encode> Share<'a, G> {
    /// A share of `games` (the first of them the search's game `first`), each tree's
    /// root made the game's position, with a batch of room for `cap` leaves.
    pub fn new(
        trees: &'a mut [Tree],
        games: &'a mut [G],
        first: usize,
        (obs_size, actions): (usize, usize),
        cap: usize,
        opts: &BatchedOptions,
    ) -> Result<Share<'a, G>, GameError> {
        let mut batch = Batch {
            obs: Vec::new(),
            values: Vec::new(),
            logits: Vec::new(),
            slots: Vec::new(),
            moves: Vec::new(),
            obs_size,
            actions,
        };
        let obs_len = cap.checked_mul(obs_size).ok_or(GameError::OutOfMemory)?;
        let logits_len = cap.checked_mul(actions).ok_or(GameError::OutOfMemory)?;
        reserve(&mut batch.obs, obs_len)?;
        batch.obs.resize(obs_len, 0.0);
        reserve(&mut batch.values, cap)?;
        batch.values.resize(cap, 0.0);
        reserve(&mut batch.logits, logits_len)?;
        batch.logits.resize(logits_len, 0.0);
        reserve(&mut batch.slots, cap)?;
        let mut scratch = Scratch::default();
        reserve(&mut scratch.seen_action, actions)?;
        scratch.seen_action.resize(actions, 0);
        let mut progress: Vec<Progress> = Vec::new();
        reserve(&mut progress, games.len())?;
        for (i, (tree, game)) in trees.iter_mut().zip(games.iter_mut()).enumerate() {
            let side_view = game.score_view() == ScoreView::SideToMove;
            find_root(tree, game, opts, &mut scratch)?;
            progress.push(Progress {
                side_view,
                rng: Rng::new(game_seed(opts.seed, first + i)),
                ..Progress::default()
            });
        }
        Ok(Share {
            trees,
            games,
            progress,
            batch,
            scratch,
            start: 0,
            cap,
            valued: false,
            active: false,
            progressed: false,
        })
    }

    /// One step: the valued leaves expanded and backed up, then the next gathered.
    pub fn step(&mut self, opts: &BatchedOptions) -> Result<(), GameError> {
        if self.valued {
            self.valued = false;
            self.expand_all()?;
        }
        self.gather(opts)
    }

    /// Leaves in the batch.
    pub fn leaves(&self) -> usize {
        self.batch.slots.len()
    }

    /// The batch's observations, values and logits, as far as its leaves fill them.
    pub fn buffers(&mut self) -> (&mut [f32], &mut [f32], &mut [f32]) {
        let k = self.batch.slots.len();
        let b = &mut self.batch;
        (
            &mut b.obs[..k * b.obs_size],
            &mut b.values[..k],
            &mut b.logits[..k * b.actions],
        )
    }

    /// Fills the batch from the games in turn, each up to `leaves_per_tree` leaves.
    fn gather(&mut self, opts: &BatchedOptions) -> Result<(), GameError> {
        let n = self.games.len();
        let cap = self.cap;
        let batch = &mut self.batch;
        batch.slots.clear();
        batch.moves.clear();
        self.progressed = false;
        self.active = false;
        for offset in 0..n {
            if batch.slots.len() >= cap {
                break;
            }
            let i = (self.start + offset) % n;
            let (tree, game, st) = (
                &mut self.trees[i],
                &mut self.games[i],
                &mut self.progress[i],
            );
            let mut taken = 0;
            while taken < opts.leaves_per_tree
                && batch.slots.len() < cap
                && !finished(tree, st, opts)
            {
                self.active = true;
                match descend(i, tree, game, st, opts, batch, &mut self.scratch)? {
                    Descent::Leaf => {
                        taken += 1;
                        st.in_flight += 1;
                    }
                    Descent::Backed if self.scratch.path.is_empty() => {} // a final root
                    Descent::Backed => {
                        st.done += 1;
                        self.progressed = true;
                    }
                    Descent::Collision => break,
                }
            }
        }
        self.start = (self.start + 1) % n.max(1);
        Ok(())
    }

    /// Expands every leaf of the batch with the evaluator's values and backs them up.
    fn expand_all(&mut self) -> Result<(), GameError> {
        for s in 0..self.batch.slots.len() {
            let slot = &self.batch.slots[s];
            let (g, node) = (slot.game, slot.node);
            let st = &mut self.progress[g];
            st.in_flight -= 1;
            if node != 0 {
                // (The root's own evaluation is not a simulation, as mctx counts.)
                st.done += 1;
            }
            st.claimed = 0;
            let full = expand(&mut self.trees[g], &self.batch, s)?;
            st.full |= full;
        }
        Ok(())
    }

    /// Every game's result, in order, added to `out`.
    pub fn answers(
        &mut self,
        opts: &BatchedOptions,
        out: &mut Vec<BatchedResult>,
    ) -> Result<(), GameError> {
        reserve(out, out.len() + self.trees.len())?;
        for (tree, st) in self.trees.iter().zip(self.progress.iter_mut()) {
            out.push(answer(
                tree,
                st,
                opts,
                self.batch.actions,
                &mut self.scratch,
            )?);
        }
        Ok(())
    }
}

/// Searches every game on this thread; returns the results and the evaluator calls and
/// positions sent.
pub(crate) fn run<G: Encode, E: Evaluator + ?Sized>(
    trees: &mut [Tree],
    games: &mut [G],
    evaluator: &mut E,
    opts: &BatchedOptions,
) -> Result<(Vec<BatchedResult>, u64, u64), GameError> {
    if games.is_empty() {
        return Ok((Vec::new(), 0, 0));
    }
    let shape = shape(games)?;
    let cap = opts.batch_room(games.len());
    let mut share = Share::new(trees, games, 0, shape, cap, opts)?;
    let (mut calls, mut positions) = (0u64, 0u64);
    loop {
        share.step(opts)?;
        let k = share.leaves();
        if k == 0 {
            if share.active && share.progressed {
                continue;
            }
            break;
        }
        let (obs, values, logits) = share.buffers();
        evaluator.evaluate(obs, values, logits)?;
        share.valued = true;
        calls += 1;
        positions += k as u64;
    }
    let mut results = Vec::new();
    share.answers(opts, &mut results)?;
    Ok((results, calls, positions))
}

/// Whether game `st`'s search is over: its root final or proven, or its simulations made.
fn finished(tree: &Tree, st: &Progress, opts: &BatchedOptions) -> bool {
    let root = &tree.nodes[0];
    root.state == State::Final
        || root.proof.is_some()
        || (root.state == State::Expanded && st.done + st.in_flight >= opts.simulations)
        || (root.state == State::Waiting)
}

/// Makes the tree's root the game's position: kept where it is known to be the same
/// (the same hash, or `advance` since the last search) with the same side to move and
/// moves the game lists; else afresh.
fn find_root<G: Game>(
    tree: &mut Tree,
    game: &mut G,
    opts: &BatchedOptions,
    scratch: &mut Scratch,
) -> Result<(), GameError> {
    if game.is_chance() {
        return Err(GameError::ChanceRoot);
    }
    let max = game.max_to_move().unwrap_or(opts.max_at_root);
    let hash = game.hash();
    let known = tree.advanced || (hash.is_some() && tree.root_hash == hash);
    let mut keep = known
        && tree.nodes.first().is_some_and(|r| {
            // (A final root kept for a game that goes on: the program started another.)
            r.max_to_move == max && (r.state == State::Final) == game.outcome().is_some()
        });
    if keep && tree.nodes[0].children > 0 {
        let moves = &mut scratch.scratch_moves;
        moves.clear();
        reserve(moves, tree.nodes[0].children as usize)?;
        game.moves(moves)?;
        keep = tree.nodes[0]
            .kids()
            .all(|c| moves.contains(&tree.nodes[c as usize].mv));
    }
    // A kept root without children holds nothing of the old tree: made afresh, so that
    // the old tree's nodes leave room for its children.
    if keep && tree.nodes[0].children == 0 && tree.nodes.len() > 1 {
        keep = false;
    }
    if keep {
        tree.root_hash = hash;
        tree.advanced = false;
        let root = &mut tree.nodes[0];
        if root.state == State::Fresh {
            // Proven by a decisive move below the old root: it needs its children now.
            (root.proof, root.lo) = (None, -1);
        }
    } else if !tree.reset(max, hash) {
        return Err(GameError::OutOfMemory);
    }
    Ok(())
}

/// One descent from the root of game `i`: down by the policies to a leaf, which goes in
/// the batch, or a final or proven position, backed up at once. Every node on the way
/// holds a visit in flight until then. The game is left at its root.
#[allow(clippy::too_many_arguments)]
fn descend<G: Encode>(
    i: usize,
    tree: &mut Tree,
    game: &mut G,
    st: &mut Progress,
    opts: &BatchedOptions,
    batch: &mut Batch,
    scratch: &mut Scratch,
) -> Result<Descent, GameError> {
    scratch.path.clear();
    let mut node = 0u32;
    let found = loop {
        let here = &tree.nodes[node as usize];
        match here.state {
            State::Final => break Ok(Descent::Backed),
            _ if node != 0 && here.proof.is_some() => break Ok(Descent::Backed),
            State::Waiting => break Ok(Descent::Collision),
            State::Fresh if game.is_chance() => {
                if let Err(e) = expand_chance(tree, node, game) {
                    break Err(e);
                }
            }
            State::Fresh => break leaf(i, tree, node, game, st, opts, batch, scratch),
            State::Expanded => {}
        }
        let Some(child) = choose(tree, node, st, opts, scratch) else {
            break Err(GameError::NoMovesNotOver);
        };
        let mv = tree.nodes[child as usize].mv;
        game.play(mv);
        scratch.path.push(mv);
        if tree.nodes[child as usize].state == State::Fresh {
            // The game's side to move, else the other side after a move and the same
            // after a draw (a chance node holds the side that moves after it).
            let parent = &tree.nodes[node as usize];
            let alternate = if parent.chance {
                parent.max_to_move
            } else {
                !parent.max_to_move
            };
            let max = game.max_to_move().unwrap_or(alternate);
            tree.nodes[child as usize].max_to_move = max;
        }
        node = child;
    };
    for &mv in scratch.path.iter().rev() {
        game.undo(mv);
    }
    let found = found?;
    match found {
        Descent::Leaf => {
            // Visits in flight on the way, until the evaluator's value comes back.
            let mut k = node;
            while k != NONE {
                let n = &mut tree.nodes[k as usize];
                n.pending += 1;
                k = n.parent;
            }
        }
        Descent::Backed => {
            let n = &tree.nodes[node as usize];
            let value = f64::from(n.proof.unwrap_or(0));
            backup(tree, node, value, false);
        }
        Descent::Collision => {}
    }
    Ok(found)
}

/// The child of `node` to visit: at the root the root policy, below it PUCT or Gumbel's
/// completed-Q rule.
fn choose(
    tree: &Tree,
    node: u32,
    st: &mut Progress,
    opts: &BatchedOptions,
    scratch: &mut Scratch,
) -> Option<u32> {
    let rng = &mut st.rng;
    let parent = &tree.nodes[node as usize];
    let first = parent.first_child;
    let kids = &tree.nodes[parent.kids().start as usize..parent.kids().end as usize];
    if parent.chance {
        return draw(rng, kids).map(|k| first + k as u32);
    }
    let pick = match opts.root {
        RootPolicy::Puct { noise } => {
            let noisy = match noise {
                Some((alpha, fraction)) if node == 0 => {
                    if st.noise.len() != kids.len() {
                        policies::dirichlet_noise(rng, kids, alpha, fraction, &mut st.noise);
                    }
                    Some(&st.noise[..])
                }
                _ => None,
            };
            policies::puct(&opts.puct, parent, kids, noisy, node != 0)
        }
        RootPolicy::Gumbel(g) if node == 0 => {
            let plan = st
                .halving
                .get_or_insert_with(|| Halving::new(&g, rng, parent, kids, opts.simulations));
            plan.next(&g, parent, kids, &mut scratch.q)
        }
        RootPolicy::Gumbel(g) => {
            policies::gumbel_interior(&g, parent, kids, &mut scratch.q, &mut scratch.policy)
        }
    };
    pick.map(|p| first + p as u32)
}

/// An outcome of a chance node's children, drawn by their probabilities.
fn draw(rng: &mut Rng, kids: &[Node]) -> Option<usize> {
    let mut x = rng.unit() as f32;
    for (i, kid) in kids.iter().enumerate() {
        if x < kid.prior {
            return Some(i);
        }
        x -= kid.prior;
    }
    kids.iter().rposition(|k| k.prior > 0.0)
}

/// Makes a chance node reached for the first time (the game is there) a node whose
/// children are its outcomes, with their probabilities as priors; no evaluator call.
fn expand_chance<G: Game>(tree: &mut Tree, node: u32, game: &mut G) -> Result<(), GameError> {
    let mut outcomes = Vec::new();
    outcomes
        .try_reserve(16)
        .map_err(|_| GameError::OutOfMemory)?;
    game.outcomes(&mut outcomes)?;
    if outcomes.is_empty() {
        return Err(GameError::NoOutcomes);
    }
    let total = weights_total(outcomes.iter().map(|o| o.1))?;
    tree.nodes
        .try_reserve(outcomes.len())
        .map_err(|_| GameError::OutOfMemory)?;
    let first = tree.nodes.len() as u32;
    let max = tree.nodes[node as usize].max_to_move;
    for &(mv, w) in &outcomes {
        tree.nodes
            .push(Node::fresh(mv, node, (w / total) as f32, 0, max));
    }
    let n = &mut tree.nodes[node as usize];
    (n.first_child, n.children, n.state, n.chance) =
        (first, outcomes.len() as u32, State::Expanded, true);
    Ok(())
}

/// A position reached for the first time (the game is there): final, it is proven and
/// backed up; else it goes in the batch with its moves, the game's encoding and their
/// action indices, checked.
#[allow(clippy::too_many_arguments)]
fn leaf<G: Encode>(
    i: usize,
    tree: &mut Tree,
    node: u32,
    game: &mut G,
    st: &mut Progress,
    opts: &BatchedOptions,
    batch: &mut Batch,
    scratch: &mut Scratch,
) -> Result<Descent, GameError> {
    let max = tree.nodes[node as usize].max_to_move;
    if let Some(score) = game.outcome() {
        crate::search::value::check_score(score)?;
        let mine = if st.side_view || max { score } else { -score };
        let n = &mut tree.nodes[node as usize];
        n.proof = Some(mine.signum() as i8);
        n.state = State::Final;
        return Ok(Descent::Backed);
    }
    let start = batch.moves.len();
    let moves = &mut scratch.scratch_moves;
    moves.clear();
    reserve(moves, 64)?;
    game.moves(moves)?;
    if moves.is_empty() {
        return Err(GameError::NoMovesNotOver);
    }
    // A root the tree has no room to expand would be sent to the evaluator again and
    // again, the search never moving on.
    if node == 0 && moves.len() >= opts.max_nodes {
        return Err(GameError::TreeTooSmall);
    }
    if opts.decisive && node != 0 && decided(game, moves, max, st.side_view)? {
        let n = &mut tree.nodes[node as usize];
        (n.proof, n.lo) = (Some(1), 1);
        return Ok(Descent::Backed);
    }
    reserve(&mut batch.moves, start + moves.len())?;
    scratch.stamp = scratch.stamp.wrapping_add(1);
    if scratch.stamp == 0 {
        scratch.seen_action.fill(0);
        scratch.stamp = 1;
    }
    let indices = &mut scratch.indices;
    indices.clear();
    reserve(indices, moves.len())?;
    game.action_indices(moves, indices);
    if indices.len() != moves.len() {
        return Err(GameError::BadActionIndex);
    }
    for (&mv, &a) in moves.iter().zip(indices.iter()) {
        if a >= batch.actions || scratch.seen_action[a] == scratch.stamp {
            return Err(GameError::BadActionIndex);
        }
        scratch.seen_action[a] = scratch.stamp;
        batch.moves.push((mv, a as u32));
    }
    let s = batch.slots.len();
    let out = &mut batch.obs[s * batch.obs_size..(s + 1) * batch.obs_size];
    out.fill(0.0);
    game.observe(out);
    // (Other leaves of this tree in the batch have claimed their room already.)
    let expand = tree.nodes.len() + st.claimed + moves.len() <= opts.max_nodes;
    if expand {
        st.claimed += moves.len();
    }
    batch.slots.push(Slot {
        game: i,
        node,
        moves: start..batch.moves.len(),
        expand,
    });
    tree.nodes[node as usize].state = State::Waiting;
    Ok(Descent::Leaf)
}

/// Whether the side to move wins at once: the game's answer where it has one
/// ([`Encode::wins_at_once`]), else each move played.
fn decided<G: Encode>(
    game: &mut G,
    moves: &[Move],
    max: bool,
    side_view: bool,
) -> Result<bool, GameError> {
    match game.wins_at_once(moves) {
        Some(wins) => Ok(wins),
        None => wins_at_once(game, moves, max, side_view),
    }
}

/// Whether one of `moves` (the moves of a position whose side to move is MAX if `max`)
/// ends the game at once in a win for that side.
fn wins_at_once<G: Game>(
    game: &mut G,
    moves: &[Move],
    max: bool,
    side_view: bool,
) -> Result<bool, GameError> {
    for &mv in moves {
        game.play(mv);
        let after_max = game.max_to_move().unwrap_or(!max);
        let score = game.outcome();
        game.undo(mv);
        if let Some(score) = score {
            crate::search::value::check_score(score)?;
            // In MAX's view, then the mover's.
            let max_view = if side_view && !after_max {
                -score
            } else {
                score
            };
            if (if max { max_view } else { -max_view }) > 0 {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Expands slot `s`'s leaf with the priors from its logits (softmax over the legal
/// moves) and backs up its value; true if the tree had no room to expand it.
fn expand(tree: &mut Tree, batch: &Batch, s: usize) -> Result<bool, GameError> {
    let slot = &batch.slots[s];
    let value = batch.values[s];
    if !(-1.0..=1.0).contains(&value) {
        return Err(GameError::BadEvaluation);
    }
    let logits = &batch.logits[s * batch.actions..(s + 1) * batch.actions];
    let legal = &batch.moves[slot.moves.clone()];
    let mut top = f32::NEG_INFINITY;
    for &(_, a) in legal {
        let l = logits[a as usize];
        if l.is_nan() || l == f32::INFINITY {
            return Err(GameError::BadEvaluation);
        }
        top = top.max(l);
    }
    if top == f32::NEG_INFINITY {
        return Err(GameError::BadEvaluation);
    }
    let node = slot.node;
    let full = !slot.expand || tree.nodes.try_reserve(legal.len()).is_err();
    let leaf = &mut tree.nodes[node as usize];
    leaf.net_value = value;
    if full {
        leaf.state = State::Fresh;
    } else {
        // The children get their exponentials first, then each is divided by the sum:
        // one exponential a move.
        let first = tree.nodes.len() as u32;
        let max = tree.nodes[node as usize].max_to_move;
        let mut total = 0.0f32;
        for &(mv, a) in legal {
            let e = (logits[a as usize] - top).exp();
            total += e;
            tree.nodes.push(Node::fresh(mv, node, e, a, !max));
        }
        for child in &mut tree.nodes[first as usize..] {
            child.prior /= total;
        }
        let leaf = &mut tree.nodes[node as usize];
        (leaf.first_child, leaf.children, leaf.state) =
            (first, legal.len() as u32, State::Expanded);
    }
    backup(tree, node, f64::from(value), true);
    Ok(full)
}

/// Adds `value` (the side to move's at `leaf`) to every node from `leaf` to the root,
/// each in its own side's view, taking back the visits in flight if `in_flight`; then
/// carries a proof up as far as it settles a parent (MCTS-Solver: a child lost for its
/// side to move wins for its parent's; a parent all of whose children are proven has the
/// best of them).
fn backup(tree: &mut Tree, leaf: u32, value: f64, in_flight: bool) {
    let leaf_max = tree.nodes[leaf as usize].max_to_move;
    let mut k = leaf;
    while k != NONE {
        let n = &mut tree.nodes[k as usize];
        if in_flight {
            n.pending -= 1;
        }
        n.visits += 1;
        n.value_sum += seen(value, leaf_max, n.max_to_move);
        k = n.parent;
    }
    let mut k = leaf;
    while let Some(v) = tree.nodes[k as usize].proof {
        let parent = tree.nodes[k as usize].parent;
        // (A chance node proves nothing: its value is an expectation.)
        if parent == NONE
            || tree.nodes[parent as usize].proof.is_some()
            || tree.nodes[parent as usize].chance
        {
            break;
        }
        let kid_max = tree.nodes[k as usize].max_to_move;
        let p = &mut tree.nodes[parent as usize];
        let mine = if kid_max == p.max_to_move { v } else { -v };
        p.lo = p.lo.max(mine);
        let p = &tree.nodes[parent as usize];
        let all = p.kids().all(|c| tree.nodes[c as usize].proof.is_some());
        if !(p.lo == 1 || all) {
            break;
        }
        let p = &mut tree.nodes[parent as usize];
        p.proof = Some(p.lo);
        k = parent;
    }
}

/// One game's result.
fn answer(
    tree: &Tree,
    st: &mut Progress,
    opts: &BatchedOptions,
    actions: usize,
    scratch: &mut Scratch,
) -> Result<BatchedResult, GameError> {
    let root = &tree.nodes[0];
    let kids = &tree.nodes[root.kids().start as usize..root.kids().end as usize];
    let mut policy = Vec::new();
    reserve(&mut policy, actions)?;
    policy.resize(actions, 0.0f32);
    let mut shares = Vec::new();
    reserve(&mut shares, kids.len())?;
    let total: u32 = kids.iter().map(|k| k.visits).sum();
    match opts.root {
        RootPolicy::Gumbel(g) if !kids.is_empty() => {
            policies::completed_q(root, kids, &mut scratch.q);
            policies::improved_policy(&g, kids, &scratch.q, &mut scratch.policy);
            shares.extend(scratch.policy.iter().copied());
        }
        _ => shares.extend(kids.iter().map(|k| {
            if total > 0 {
                f64::from(k.visits) / f64::from(total)
            } else {
                f64::from(k.prior)
            }
        })),
    }
    let mut moves = Vec::new();
    reserve(&mut moves, kids.len())?;
    for (k, &share) in kids.iter().zip(&shares) {
        policy[k.action as usize] = share as f32;
        let proven = k
            .proof
            .map(|p| seen(f64::from(p), k.max_to_move, root.max_to_move));
        moves.push(RootMove {
            mv: k.mv,
            action: k.action as usize,
            prior: f64::from(k.prior),
            visits: k.visits,
            q: if k.known() {
                seen(k.value(), k.max_to_move, root.max_to_move)
            } else {
                0.0
            },
            proven,
            policy: share,
        });
    }
    let proven = root.proof.map(f64::from);
    // A move that achieves the proof; else Gumbel's or the temperature's, among the
    // moves not proven lost where there is one.
    let best = match proven {
        Some(p) => moves.iter().position(|m| m.proven == Some(p)),
        None => None,
    };
    let best = best.or_else(|| match (opts.root, st.halving.as_mut()) {
        (RootPolicy::Gumbel(g), Some(plan)) => plan.chosen(&g, root, kids, &mut scratch.q),
        _ => {
            let lost = |m: &RootMove| m.proven.is_some_and(|p| p < 0.0);
            let all_lost = moves.iter().all(lost);
            let visits: Vec<u32> = moves
                .iter()
                .map(|m| if lost(m) && !all_lost { 0 } else { m.visits })
                .collect();
            policies::by_temperature(&mut st.rng, &visits, opts.temperature)
        }
    });
    let value = match proven {
        Some(p) => p,
        None if root.visits > 0 => root.value(),
        None => f64::from(root.net_value),
    };
    Ok(BatchedResult {
        best_move: best.map(|b| moves[b].mv),
        value,
        proven,
        root: moves,
        policy,
        simulations: st.done,
        tree_full: st.full,
        threads: 1,
        fewer_threads: None,
    })
}
