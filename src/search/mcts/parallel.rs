//! MCTS on several threads (tree parallelisation with virtual loss, Chaslot, Winands and
//! van den Herik 2008): the caller's thread and helpers from the pool each iterate on
//! their own copy of the game, in one shared tree. Each helper has its own generator,
//! seeded from the search's seed and its number, so that runs on threads vary with the
//! order in which the threads meet.

use crate::search::clock::Instant;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::AtomicI32;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use super::iterate::{Run, Team};
use super::shared::{self, SharedTree};
use super::tree::{NONE, Tree};
use super::{Convert, MctsOptions, Reward};
use crate::search::game::{Fork, Game, GameError};
use crate::search::options::FewerThreads;
use crate::search::pool;
use crate::search::rng::Rng;
use crate::search::team::{gather, seats, sit};

/// What the threads did.
pub(super) struct Outcome {
    /// Playouts, summed over the threads.
    pub playouts: u64,
    /// Whether the tree filled up.
    pub full: bool,
    /// Threads that searched.
    pub threads: usize,
    /// Why fewer than asked for.
    pub fewer: Option<FewerThreads>,
}

/// The options a helper thread searches with: the caller's, without its progress.
#[derive(Clone, Copy)]
struct Settings {
    playouts: u64,
    max_nodes: usize,
    time_limit: Option<Duration>,
    exploration: f64,
    reward: Reward,
    playout_depth: u32,
    max_at_root: bool,
    seed: u64,
    open_loop: bool,
}

impl Settings {
    fn of(o: &MctsOptions<'_>) -> Settings {
        Settings {
            playouts: o.playouts,
            max_nodes: o.max_nodes,
            time_limit: o.time_limit,
            exploration: o.exploration,
            reward: o.reward,
            playout_depth: o.playout_depth,
            max_at_root: o.max_at_root,
            seed: o.seed,
            open_loop: o.open_loop,
        }
    }

    fn options(self, stop: Option<&AtomicI32>, seed: u64) -> MctsOptions<'_> {
        MctsOptions {
            playouts: self.playouts,
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            stop,
            exploration: self.exploration,
            reward: self.reward,
            playout_depth: self.playout_depth,
            max_at_root: self.max_at_root,
            seed,
            progress: None,
            report_every: 0,
            threads: 1,
            open_loop: self.open_loop,
        }
    }
}

/// The seed of helper `i` (the caller's thread is 0 and uses the search's seed).
fn seed_of(seed: u64, i: usize) -> u64 {
    seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The places the shared tree needs: at most `max_nodes`; with a playout limit, no more
/// than one new node a playout, and the places each thread may take and leave unused.
fn room(tree: &Tree, opts: &MctsOptions<'_>, threads: usize) -> usize {
    let grown = match opts.playouts {
        0 => usize::MAX,
        p => usize::try_from(p)
            .unwrap_or(usize::MAX)
            .saturating_add(threads * (shared::RESERVE as usize + 1)),
    };
    opts.max_nodes.min(tree.nodes.len().saturating_add(grown))
}

/// The shared tree for `tree`, with `room` places or, where the system will not give
/// that much, the most it gives of half as many, a quarter, ...; `None` below the room a
/// search on `threads` threads needs to grow at all.
fn shared_tree(tree: &Tree, room: usize, threads: usize) -> Option<SharedTree> {
    let least = tree.nodes.len() + threads * (shared::RESERVE as usize + 1);
    let mut room = room.min(NONE as usize - 1);
    loop {
        if let Some(shared) = SharedTree::copy_of(tree, room) {
            return Some(shared);
        }
        if room <= least {
            return None;
        }
        room = (room / 2).max(least);
    }
}

/// What one thread's search gives back: its playouts and whether the tree filled (or its
/// error), and the places it took and left unused.
type ThreadOutcome = (Result<(u64, bool), GameError>, (u32, u32));

/// Searches `tree` on `threads` threads, or on one when no copy of the game, no system
/// thread or no memory for the shared tree can be had (the reason in the outcome). On an
/// error, the tree is cleared (its counts carry the unfinished paths' virtual losses).
pub(super) fn search<G: Game + Fork + Send>(
    tree: &mut Tree,
    game: &mut G,
    opts: &mut MctsOptions<'_>,
    threads: usize,
    convert: Convert,
    start: Instant,
) -> Result<Outcome, GameError> {
    let team_of = |game: &mut G| {
        let (seats, outcomes, mut fewer) =
            seats::<G, ThreadOutcome>(game, threads - 1).ok_or(Some(FewerThreads::NoMemory))?;
        if seats.is_empty() {
            return Err(fewer);
        }
        match shared_tree(tree, room(tree, opts, seats.len() + 1), seats.len() + 1) {
            Some(shared) => Ok((seats, outcomes, fewer, shared)),
            None => {
                fewer = Some(FewerThreads::NoMemory);
                Err(fewer)
            }
        }
    };
    let (seats, mut outcomes, fewer, shared) = match team_of(game) {
        Ok(team) => team,
        Err(fewer) => {
            let (playouts, full) = super::alone(tree, game, opts, convert, start)?;
            return Ok(Outcome {
                playouts,
                full,
                threads: 1,
                fewer,
            });
        }
    };
    *tree = Tree::default(); // the shared tree holds it now
    let team = Team::default();
    let settings = Settings::of(opts);
    let stop = opts.stop;

    let helper = |i: usize| {
        let work = |copy: &mut G| {
            let mut o = settings.options(stop, seed_of(settings.seed, i));
            let mut rng = Rng::new(o.seed);
            let mut t = shared.local();
            let r = Run::new(copy, &mut t, Some(&team), &mut rng, &mut o, convert).search(start);
            (r, t.unused())
        };
        sit(&seats, i, work, |outcome| {
            if outcome.is_err() {
                team.done.store(true, Relaxed); // a panic: the others stop
            }
        });
    };
    // This thread's panic is caught too, so that the helpers are stopped and waited for
    // before it goes on: no callback of this search runs after it has returned.
    let (first, helpers, fewer_helpers) = pool::with_helpers(seats.len(), &helper, || {
        let first = catch_unwind(AssertUnwindSafe(|| {
            let mut rng = Rng::new(opts.seed);
            let mut t = shared.local();
            let r = Run::new(game, &mut t, Some(&team), &mut rng, opts, convert).search(start);
            (r, t.unused())
        }));
        if first.is_err() {
            team.done.store(true, Relaxed); // a panic: the others stop
        }
        first
    });
    gather(first, seats, &mut outcomes).unwrap_or_else(|panic| resume_unwind(panic));
    let (mut playouts, mut full) = (0, shared.is_full());
    for (o, _) in &outcomes {
        let (p, f) = (*o)?;
        playouts += p;
        full |= f;
    }
    // Back to a plain tree; without memory for all of it, the root and its children,
    // which the answer needs.
    *tree = shared
        .to_tree(outcomes.iter().map(|o| o.1))
        .or_else(|| shared.root_and_children())
        .ok_or(GameError::OutOfMemory)?;
    Ok(Outcome {
        playouts,
        full,
        threads: helpers + 1,
        fewer: fewer_helpers.or(fewer),
    })
}
