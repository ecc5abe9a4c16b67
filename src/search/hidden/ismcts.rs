//! Single-observer information-set MCTS (SO-ISMCTS; Cowling, Powley and Whitehouse 2012,
//! from their description): one tree over the information sets of the player to move at
//! the root, where a node is a line of moves from the root as every player sees it
//! played. Each iteration draws a position consistent with the root player's view
//! ([`Game::sample`]), descends the tree by the moves legal in that position only,
//! adds one child, plays at random to the end, and adds each player's reward along the
//! path. Selection is UCB with availability counts: a child's exploration term counts
//! the iterations in which its move was legal, not its parent's visits.
//!
//! For two to eight players (each node chooses for its own mover, as max^n backups do),
//! with chance steps drawn on the way (not in the tree). Moves must be seen by every
//! player (the tricks of a card game): where they are not,
//! [`IsmctsOptions::multi_observer`] keeps a tree a player instead (MO-ISMCTS).

use crate::search::clock::Instant;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::time::Duration;

use crate::search::game::{Game, GameError, Move, pick, same_moves, weights_total};
use crate::search::memory::room;
use crate::search::player_scores::{Convert, MAX_PLAYERS, PlayerReward, Rewards};
use crate::search::rng::Rng;
use crate::search::value::MAX_PLY;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsmctsOptions {
    /// Iterations (at least 1 unless `time_limit` is given).
    pub iterations: u64,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// UCB's exploration constant (rewards lie in [0, 1]).
    pub exploration: f64,
    /// How scores become rewards.
    pub reward: PlayerReward,
    /// The seed of the samples and playouts: the same seed, the same search.
    pub seed: u64,
    /// The most nodes the tree may hold; past it, iterations go on without adding any.
    pub max_nodes: usize,
    /// Multi-observer ISMCTS: a tree for each player, each over that player's
    /// information sets, in which a move is as [`Game::observed_move`] shows it to the
    /// tree's player; each player chooses in its own tree. For games where players do
    /// not see every move (a card passed face down). Where they do, it searches as the
    /// single tree does.
    pub multi_observer: bool,
}

impl Default for IsmctsOptions {
    fn default() -> Self {
        IsmctsOptions {
            iterations: 10_000,
            time_limit: None,
            exploration: 0.7,
            reward: PlayerReward::Win,
            seed: 0,
            max_nodes: 1 << 20,
            multi_observer: false,
        }
    }
}

/// A root move's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct IsmctsMove {
    /// The move.
    pub mv: Move,
    /// Iterations through it.
    pub visits: u64,
    /// Its mover's mean reward.
    pub mean: f64,
}

/// What ISMCTS found.
#[derive(Debug, Clone, PartialEq)]
pub struct IsmctsResult {
    /// The most visited root move (the first listed on a tie), `None` if the game is
    /// over.
    pub best_move: Option<Move>,
    /// The root's children, in the order they were first tried.
    pub root: Vec<IsmctsMove>,
    /// Iterations made.
    pub iterations: u64,
    /// Nodes in the tree.
    pub nodes: usize,
    /// The wall time of the call.
    pub elapsed: Duration,
}

/// A node: the move that led to it and what its iterations gave.
#[derive(Clone, Copy)]
struct Node {
    mv: Move,
    /// The player who made `mv` (its rewards are summed here).
    mover: u8,
    visits: u64,
    /// Iterations in which `mv` was legal at the parent.
    available: u64,
    /// The sum of `mover`'s rewards.
    sum: f64,
    first_child: u32,
    next_sibling: u32,
}

const NONE: u32 = u32::MAX;

/// A search in progress: the tree and what it needs. A driver makes it from the root
/// ([`Ismcts::new`]), then while [`Ismcts::running`], gives [`Ismcts::iterate`] a
/// position sampled at the root with the seed [`Ismcts::sample_seed`] (a game of its
/// own, played on and dropped), and at the end reads [`Ismcts::result`]. [`search`] is the driver for a game that clones.
pub struct Ismcts {
    opts: IsmctsOptions,
    convert: Convert,
    rng: Rng,
    nodes: Vec<Node>,
    path: Vec<u32>,
    moves: Vec<Move>,
    /// The legal moves a node has no child for yet.
    untried: Vec<Move>,
    outcomes: Vec<(Move, f64)>,
    /// Each tree's root: one tree (node 0), or one a player (multi-observer).
    roots: [u32; MAX_PLAYERS],
    trees: usize,
    /// The player to move at the root, whose tree answers.
    root_mover: usize,
    /// Whether the game is over at the root.
    over: bool,
    /// The root's legal moves, which every sample must list ([`GameError::BadSample`]).
    root_moves: Vec<Move>,
    iterations: u64,
    start: Instant,
}

/// Searches `game` (unchanged on return) from the root player's view with SO-ISMCTS,
/// each iteration on a copy of it redealt by [`Game::sample`]. A game that cannot
/// sample is [`GameError::NoSample`], a sample with other moves at the root or over
/// where the game is not [`GameError::BadSample`]; a chance step at the root is
/// [`GameError::ChanceRoot`].
pub fn search<G: Game + Clone>(game: &G, opts: &IsmctsOptions) -> Result<IsmctsResult, GameError> {
    let mut root = game.clone();
    search_with(&mut root, opts, None, |g, seed| {
        let mut copy = g.clone();
        if copy.sample(seed) {
            Ok(copy)
        } else {
            Err(GameError::NoSample)
        }
    })
}

/// Searches from `root` with each iteration on the position `sample(root, seed)` makes
/// (a game of its own, dropped after), until the options' limits or a non-zero `stop`.
pub fn search_with<G: Game, S: Game>(
    root: &mut G,
    opts: &IsmctsOptions,
    stop: Option<&AtomicI32>,
    mut sample: impl FnMut(&mut G, u64) -> Result<S, GameError>,
) -> Result<IsmctsResult, GameError> {
    let mut run = Ismcts::new(root, opts)?;
    while run.running() && stop.is_none_or(|s| s.load(Relaxed) == 0) {
        let mut g = sample(root, run.sample_seed())?;
        run.iterate(&mut g)?;
    }
    run.result(root)
}

impl Ismcts {
    /// A search from `root`, left as it was. A chance step at the root is
    /// [`GameError::ChanceRoot`]; a bad exploration constant
    /// [`GameError::BadExploration`].
    pub fn new<G: Game>(root: &mut G, opts: &IsmctsOptions) -> Result<Ismcts, GameError> {
        let start = Instant::now();
        if !(opts.exploration >= 0.0 && opts.exploration.is_finite()) {
            return Err(GameError::BadExploration);
        }
        if root.is_chance() {
            return Err(GameError::ChanceRoot);
        }
        let convert = Convert::of(root, opts.reward)?;
        let mut scores = [0; MAX_PLAYERS];
        let over = convert.scoring.final_scores(root, 0, &mut scores)?;
        let (trees, root_mover) = match (opts.multi_observer, over) {
            (true, false) => (convert.scoring.players, convert.scoring.mover(root, 0)?),
            _ => (1, 0),
        };
        let mut root_moves = Vec::new();
        if !over {
            room(&mut root_moves, 32)?;
            root.moves(&mut root_moves)?;
        }
        let mut run = Ismcts {
            opts: *opts,
            convert,
            rng: Rng::new(opts.seed),
            nodes: Vec::new(),
            path: Vec::new(),
            moves: Vec::new(),
            untried: Vec::new(),
            outcomes: Vec::new(),
            roots: [0; MAX_PLAYERS],
            trees,
            root_mover,
            over,
            root_moves,
            iterations: 0,
            start,
        };
        room(&mut run.nodes, trees)?;
        for t in 0..trees {
            run.roots[t] = t as u32;
            run.nodes.push(Node {
                mv: 0,
                mover: 0,
                visits: 0,
                available: 0,
                sum: 0.0,
                first_child: NONE,
                next_sibling: NONE,
            });
        }
        Ok(run)
    }

    /// Whether the limits leave room for another iteration (none when the game is over
    /// at the root, or when neither iterations nor time were given).
    pub fn running(&self) -> bool {
        let o = &self.opts;
        if self.over || (o.iterations == 0 && o.time_limit.is_none()) {
            return false;
        }
        if o.iterations > 0 && self.iterations >= o.iterations {
            return false;
        }
        o.time_limit.is_none_or(|t| self.start.elapsed() < t)
    }

    /// The seed for the next iteration's sample: the options' seed and the iteration's
    /// number, so that the same seed gives the same search.
    pub fn sample_seed(&self) -> u64 {
        Rng::new(self.opts.seed ^ self.iterations.wrapping_mul(0x2545_F491_4F6C_DD1D)).next_u64()
    }

    /// What the search found; `root` is the position it was made from (the first legal
    /// move is the answer of a search that made no iteration).
    pub fn result<G: Game>(&self, root: &mut G) -> Result<IsmctsResult, GameError> {
        let mut result = IsmctsResult {
            best_move: None,
            root: Vec::new(),
            iterations: self.iterations,
            nodes: self.nodes.len(),
            elapsed: Duration::ZERO,
        };
        if self.over {
            result.elapsed = self.start.elapsed();
            return Ok(result);
        }
        let mut c = self.nodes[self.roots[self.root_mover] as usize].first_child;
        let mut best: Option<(u64, Move)> = None;
        while c != NONE {
            let n = self.nodes[c as usize];
            room(&mut result.root, 1)?;
            result.root.push(IsmctsMove {
                mv: n.mv,
                visits: n.visits,
                mean: if n.visits > 0 {
                    n.sum / n.visits as f64
                } else {
                    0.0
                },
            });
            if best.is_none_or(|(v, _)| n.visits > v) {
                best = Some((n.visits, n.mv));
            }
            c = n.next_sibling;
        }
        result.best_move = match best {
            Some((_, mv)) => Some(mv),
            None => Some(crate::search::game::first_move(root)?),
        };
        result.elapsed = self.start.elapsed();
        Ok(result)
    }

    /// One iteration on `g`, a position sampled at the root, which it plays on to its
    /// end (the caller drops it); a sample with other moves than the root's, or over
    /// where the root is not, is [`GameError::BadSample`].
    pub fn iterate<G: Game>(&mut self, g: &mut G) -> Result<(), GameError> {
        self.iterations += 1;
        self.path.clear();
        // Moves played this iteration, chance outcomes too.
        let mut steps = 0usize;
        // Each tree's node on this iteration's line, and whether the line is still in
        // that tree (a tree adds one node an iteration, then the line leaves it).
        let mut at = self.roots;
        let mut inside = [true; MAX_PLAYERS];
        let mut ply = 0u32;
        let mut scores = [0; MAX_PLAYERS];
        let mut reward: Rewards = [0.0; MAX_PLAYERS];
        let mut own_playout = !self.convert.scoring.is_two();
        loop {
            if steps >= MAX_PLY as usize {
                return Err(GameError::TooDeep);
            }
            // Out of every tree: the game may play out itself (`Game::playout`).
            if own_playout && !inside[..self.trees].contains(&true) {
                own_playout = false;
                let players = self.convert.scoring.players;
                scores[..players].fill(0);
                // The generator moves on only for a game that plays out itself, so that
                // the others' searches are as before under a seed.
                if g.playout(self.rng.clone().next_u64(), &mut scores[..players]) {
                    self.rng.next_u64();
                    self.convert.scoring.check(&scores)?;
                    self.convert.rewards(&scores, &mut reward);
                    break;
                }
            }
            // The sample's root, checked where it is read anyway: one with other moves
            // than the position's, or over, would grow moves the position does not have,
            // or none.
            let at_root = steps == 0 && !self.over;
            if g.is_chance() {
                if at_root {
                    return Err(GameError::BadSample);
                }
                let mv = self.draw(g)?;
                g.play(mv);
                steps += 1;
                continue;
            }
            if self.convert.scoring.final_scores(g, ply, &mut scores)? {
                if at_root {
                    return Err(GameError::BadSample);
                }
                self.convert.rewards(&scores, &mut reward);
                break;
            }
            let mover = self.convert.scoring.mover(g, ply)?;
            self.moves.clear();
            room(&mut self.moves, 32)?;
            g.moves(&mut self.moves)?;
            if at_root {
                same_moves(&self.moves, &self.root_moves)?;
            }
            if self.moves.is_empty() {
                return Err(GameError::NoMovesNotOver);
            }
            // The mover chooses in its own tree (the one tree, single-observer).
            let t = if self.trees > 1 { mover } else { 0 };
            let mv = if inside[t] {
                match self.select(at[t])? {
                    Some(c) => {
                        at[t] = c;
                        room(&mut self.path, 1)?;
                        self.path.push(c);
                        self.nodes[c as usize].mv
                    }
                    None => {
                        // Expand: an untried legal move, at random.
                        inside[t] = false;
                        let mv = self.untried[self.rng.below(self.untried.len())];
                        self.grow(at[t], mv, mover);
                        mv
                    }
                }
            } else {
                self.moves[self.rng.below(self.moves.len())]
            };
            // The other trees follow the move as their players see it.
            for p in 0..self.trees {
                if p == t || !inside[p] {
                    continue;
                }
                let seen = g.observed_move(mv, p);
                match self.child(at[p], seen) {
                    Some(c) => {
                        at[p] = c;
                        room(&mut self.path, 1)?;
                        self.path.push(c);
                    }
                    None => {
                        inside[p] = false;
                        self.grow(at[p], seen, mover);
                    }
                }
            }
            g.play(mv);
            steps += 1;
            ply += 1;
        }
        for &c in &self.path {
            let n = &mut self.nodes[c as usize];
            n.visits += 1;
            n.sum += reward[n.mover as usize];
        }
        for t in 0..self.trees {
            self.nodes[self.roots[t] as usize].visits += 1;
        }
        Ok(())
    }

    /// Adds a child of `k` for `mv`, made by `mover`, to the line's path, unless the tree
    /// is at `max_nodes` or memory is short (the tree then stops growing).
    fn grow(&mut self, k: u32, mv: Move, mover: usize) {
        if self.nodes.len() < self.opts.max_nodes {
            if let Some(c) = self.add_child(k, mv, mover) {
                if room(&mut self.path, 1).is_ok() {
                    self.path.push(c);
                }
            }
        }
    }

    /// The child of `k` for `mv`, if there is one.
    fn child(&self, k: u32, mv: Move) -> Option<u32> {
        let mut c = self.nodes[k as usize].first_child;
        while c != NONE {
            if self.nodes[c as usize].mv == mv {
                return Some(c);
            }
            c = self.nodes[c as usize].next_sibling;
        }
        None
    }

    /// At node `k` with `self.moves` legal: if every legal move has a child, the child
    /// UCB picks (and every legal child's availability counted); else `None`.
    fn select(&mut self, k: u32) -> Result<Option<u32>, GameError> {
        let set = small_set(&self.moves);
        self.find_untried(k, set)?;
        if !self.untried.is_empty() {
            return Ok(None);
        }
        let mut best: Option<(f64, u32)> = None;
        let mut c = self.nodes[k as usize].first_child;
        while c != NONE {
            let n = &mut self.nodes[c as usize];
            let legal = match set {
                Some(s) => n.mv < 128 && s >> n.mv & 1 == 1,
                None => self.moves.contains(&n.mv),
            };
            if legal {
                n.available += 1;
                let mean = n.sum / n.visits.max(1) as f64;
                let explore = ((n.available as f64).ln() / n.visits.max(1) as f64).sqrt();
                let score = mean + self.opts.exploration * explore;
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, c));
                }
            }
            c = n.next_sibling;
        }
        Ok(best.map(|(_, c)| c))
    }

    /// The legal moves (`self.moves`, as the set `set` where they are all below 128)
    /// that node `k` has no child for, into `self.untried`.
    fn find_untried(&mut self, k: u32, set: Option<u128>) -> Result<(), GameError> {
        self.untried.clear();
        room(&mut self.untried, self.moves.len())?;
        let mut c = self.nodes[k as usize].first_child;
        if set.is_some() {
            let mut have = 0u128;
            while c != NONE {
                let n = &self.nodes[c as usize];
                if n.mv < 128 {
                    have |= 1 << n.mv;
                }
                c = n.next_sibling;
            }
            let untried = self.moves.iter().filter(|&&m| have >> m & 1 == 0);
            self.untried.extend(untried);
            return Ok(());
        }
        self.untried.extend_from_slice(&self.moves);
        while c != NONE {
            let n = &self.nodes[c as usize];
            self.untried.retain(|&m| m != n.mv);
            c = n.next_sibling;
        }
        Ok(())
    }

    /// A new child of `k` for `mv`, made by `mover`, last among its siblings (they stay
    /// in the order first tried); it counts as available once (this iteration).
    /// `None` where memory for it cannot be had.
    fn add_child(&mut self, k: u32, mv: Move, mover: usize) -> Option<u32> {
        room(&mut self.nodes, 1).ok()?;
        let c = self.nodes.len() as u32;
        self.nodes.push(Node {
            mv,
            mover: mover as u8,
            visits: 0,
            available: 1,
            sum: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        });
        let mut last = self.nodes[k as usize].first_child;
        if last == NONE {
            self.nodes[k as usize].first_child = c;
        } else {
            while self.nodes[last as usize].next_sibling != NONE {
                last = self.nodes[last as usize].next_sibling;
            }
            self.nodes[last as usize].next_sibling = c;
        }
        Some(c)
    }

    /// An outcome of the chance step here, drawn by its weight.
    fn draw<G: Game>(&mut self, g: &mut G) -> Result<Move, GameError> {
        self.outcomes.clear();
        room(&mut self.outcomes, 8)?;
        g.outcomes(&mut self.outcomes)?;
        if self.outcomes.is_empty() {
            return Err(GameError::NoOutcomes);
        }
        let total = weights_total(self.outcomes.iter().map(|o| o.1))?;
        let u = self.rng.unit() * total;
        let i = pick(self.outcomes.iter().map(|o| o.1), u).unwrap_or(0);
        Ok(self.outcomes[i].0)
    }
}

/// `moves` as a set of bits, if every one is below 128 (most games' moves are).
fn small_set(moves: &[Move]) -> Option<u128> {
    let mut set = 0u128;
    for &m in moves {
        if m >= 128 {
            return None;
        }
        set |= 1 << m;
    }
    Some(set)
}
