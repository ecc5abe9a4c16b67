//! MCTS on several threads by root parallelisation (Chaslot, Winands and van den Herik
//! 2008, as that paper describes it): each thread grows a tree of its own from the same
//! root, on its own copy of the game and with its own seed, and at the end the root
//! moves' visits and rewards are added up. Each thread's tree is kept for the next
//! search, as the caller's is. The threads share only the playout count and the stop, a
//! few cache lines touched once in a batch of playouts, so that two threads run about as
//! fast as two searches apart; the price is that each tree learns only from its own
//! thread's playouts.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::channel;
use std::time::Instant;

use super::iterate::{Run, Team};
use super::parallel::{Outcome, Settings, seed_of};
use super::rng::Rng;
use super::tally::Tally;
use super::tree::Tree;
use super::{Convert, MctsOptions};
use crate::search::game::{Fork, Game, GameError};
use crate::search::options::FewerThreads;
use crate::search::parallel::{StopFlag, gather};
use crate::search::pool;

/// Searches on `threads` threads: the caller's thread grows `tree` (its root the game's
/// position), helper `i` `helpers[i]`, kept from the last search if its root is the same
/// position (as `Mcts::prepare` checks the caller's), else started afresh. Returns what
/// the threads did and the helpers' trees' numbers, for the result to add to `tree`'s.
/// Without a copy of the game or a system thread, fewer threads search (the reason in
/// the outcome).
pub(super) fn search<G: Game + Fork + Send + 'static>(
    (tree, helpers): (&mut Tree, &mut Vec<Tree>),
    game: &mut G,
    opts: &mut MctsOptions<'_>,
    threads: usize,
    convert: Convert,
    start: Instant,
) -> Result<(Outcome, Vec<Tally>), GameError> {
    let mut fewer = None;
    let mut copies = Vec::new();
    for _ in 1..threads {
        match game.fork() {
            Some(copy) => copies.push(copy),
            None => {
                fewer = Some(FewerThreads::NoCopy);
                break;
            }
        }
    }
    let root = &tree.nodes[0];
    let (root_max, root_hash) = (root.max_to_move, root.hash);
    helpers.resize_with(copies.len(), Tree::default);
    for own in helpers.iter_mut() {
        let same = own
            .root()
            .is_some_and(|r| r.max_to_move == root_max && (r.open || r.hash == root_hash));
        if !same {
            own.reset(root_max, false, root_hash);
        }
    }
    let team = Arc::new(Team::default());
    let settings = Settings::of(opts);
    let stop = opts.stop.map(|s| StopFlag(s));

    // The helpers: each owns its copy and its tree while it searches, and sends back the
    // copy (dropped here, on the caller's thread) with its outcome, its root's numbers
    // and the tree, to keep. A helper that panics loses its tree (an empty one is kept).
    let (tx, rx) = channel();
    let mut started = 0;
    for (i, mut copy) in copies.into_iter().enumerate() {
        let (team, tx) = (Arc::clone(&team), tx.clone());
        let mut own = std::mem::take(&mut helpers[i]);
        let job: pool::Job = Box::new(move || {
            // SAFETY: see `StopFlag`: the flag outlives this job, which reports (below)
            // before the search returns.
            let stop = stop.map(|s| unsafe { &*s.0 });
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let mut o = settings.options(stop, seed_of(settings.seed, i + 1));
                let mut rng = Rng::new(o.seed);
                let r = Run::new(&mut copy, &mut own, Some(&team), &mut rng, &mut o, convert)
                    .search(start);
                let tally = Tally::of(&own);
                (r, Some((i, tally, own)))
            }));
            if outcome.is_err() {
                team.done.store(true, Relaxed); // a panic: the others stop
            }
            drop(team);
            let _ = tx.send((outcome, copy));
        });
        if pool::run(job).is_err() {
            fewer = Some(FewerThreads::NoSystemThread);
            break; // the copies not yet given to a helper are dropped here
        }
        started += 1;
    }

    // This thread's panic is caught too, so that the helpers are stopped and waited for
    // before it goes on: no callback of this search runs after it has returned.
    let first = catch_unwind(AssertUnwindSafe(|| {
        let mut rng = Rng::new(opts.seed);
        let r = Run::new(game, tree, Some(&team), &mut rng, opts, convert).search(start);
        (r, None)
    }));
    if first.is_err() {
        team.done.store(true, Relaxed); // a panic: the others stop
    }
    let outcomes = gather(first, &rx, started).unwrap_or_else(|panic| resume_unwind(panic));
    helpers.truncate(started); // the trees of helpers that never started are dropped
    let (mut playouts, mut full, mut error, mut tallies) = (0, false, None, Vec::new());
    for (r, helper) in outcomes {
        if let Some((i, tally, own)) = helper {
            helpers[i] = own;
            tallies.push(tally);
        }
        match r {
            Ok((p, f)) => (playouts, full) = (playouts + p, full | f),
            Err(e) => error = error.or(Some(e)),
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    let outcome = Outcome {
        playouts,
        full,
        threads: started + 1,
        fewer,
    };
    Ok((outcome, tallies))
}
