//! Parallel search: the caller's thread and helpers from the pool each run the whole
//! search on their own copy of the game, sharing one transposition table (lock-free) and
//! a set of "being searched" marks by which a thread puts off the moves another thread is
//! on (ABDADA). The first thread to finish gives the answer and halts the others.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::AtomicI32;
use std::sync::mpsc::{Receiver, channel};

use super::engine::{Outcome, run_thread};
use super::game::{Fork, Game, GameError};
use super::limits::{Plan, Team};
use super::options::{FewerThreads, Options, Progress, SearchResult, search_table};
use super::pool;

/// The most threads one search runs on: each needs a copy of the game and a pool thread.
pub const MAX_THREADS: usize = 256;

/// The caller's stop flag, lent to the helper threads.
#[derive(Clone, Copy)]
pub(crate) struct StopFlag(pub *const AtomicI32);

// SAFETY: the flag is an atomic, read by any thread; `search_parallel` waits for every
// helper to report before it returns (also when its own thread's search panics), so the
// flag, borrowed for that call, outlives every helper's use of it.
unsafe impl Send for StopFlag {}

/// The number of threads `threads` asks for: 0 is one per available core; at most
/// [`MAX_THREADS`].
pub(crate) fn resolve_threads(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(MAX_THREADS)
}

/// A deterministic method's search by a team of `threads` threads sharing a table: the
/// answer, or `None` (the lent table handed back) when there is no table to share.
pub(crate) fn team_search<G: Game + Fork + Send + 'static>(
    game: &mut G,
    opts: &mut Options<'_>,
    plan: Plan,
    threads: usize,
) -> Option<Result<SearchResult, GameError>> {
    let (mut lent, mut own) = (opts.table.take(), None);
    let Some(table) = search_table(opts.method, &mut lent, &mut own, opts.table_bytes) else {
        opts.table = lent;
        return None;
    };
    let team = Arc::new(Team::default());
    let stop = opts.stop.map(|s| StopFlag(s));

    // The helpers: each owns its copy and sends it back with its outcome, so that the
    // copies are dropped here, on the caller's thread.
    let (tx, rx) = channel();
    let (mut helpers, mut shortfall) = (0, None);
    for _ in 1..threads {
        let Some(mut copy) = game.fork() else {
            shortfall = Some(FewerThreads::NoCopy);
            break;
        };
        let (shared, team, tx) = (table.share(), Arc::clone(&team), tx.clone());
        let job: pool::Job = Box::new(move || {
            // SAFETY: see `StopFlag`: the flag outlives this job, which reports (below)
            // before `search_parallel` returns.
            let stop = stop.map(|s| unsafe { &*s.0 });
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                run_thread(&mut copy, plan, stop, None, Some(&shared), Some(&team))
            }));
            if !matches!(
                outcome,
                Ok(Ok(Outcome {
                    completed: false,
                    ..
                }))
            ) {
                team.halt(); // finished, failed or panicked: the others stop
            }
            let _ = tx.send((outcome, copy));
        });
        if pool::run(job).is_err() {
            shortfall = Some(FewerThreads::NoSystemThread);
            break;
        }
        helpers += 1;
    }

    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    // This thread's panic is caught too, so that the helpers are halted and waited for
    // before it goes on: no callback of this search runs after it has returned.
    let first = catch_unwind(AssertUnwindSafe(|| {
        run_thread(game, plan, opts.stop, progress, Some(table), Some(&team))
    }));
    team.halt();
    // The lent table is handed back before a panic goes on.
    let outcomes = gather(first, &rx, helpers);
    opts.table = lent;
    let outcomes = outcomes.unwrap_or_else(|panic| resume_unwind(panic));
    let mut result = match combine(outcomes, plan) {
        Ok(result) => result,
        Err(e) => return Some(Err(e)),
    };
    result.fewer_threads = shortfall;
    // The iterations the helpers completed after the caller's thread last reported, in
    // order, then the one that answered, so that progress always ends with it.
    if let Some(report) = opts.progress.as_mut() {
        team.report_upto(result.depth.saturating_sub(1), *report);
        if result.depth > team.reported() {
            report(&Progress {
                depth: result.depth,
                value: result.value,
                expected: result.expected,
                nodes: result.stats.nodes,
                elapsed: result.stats.elapsed,
                pv: &result.pv,
            });
        }
    }
    Some(Ok(result))
}

/// Waits for every one of `helpers` helpers to report on `rx` (a panicking one too), and
/// drops each one's copy of the game here, on the caller's thread. The outcomes, the
/// caller's thread's (`first`) first; or the first panic, for the caller to resume once
/// it has put back what it lent.
pub(crate) fn gather<T, G>(
    first: std::thread::Result<T>,
    rx: &Receiver<(std::thread::Result<T>, G)>,
    helpers: usize,
) -> std::thread::Result<Vec<T>> {
    let (mut outcomes, mut panicked) = (Vec::new(), None);
    match first {
        Ok(o) => outcomes.push(o),
        Err(panic) => panicked = Some(panic),
    }
    for _ in 0..helpers {
        let (outcome, copy) = rx.recv().expect("a helper always reports");
        drop(copy);
        match outcome {
            Ok(o) => outcomes.push(o),
            Err(panic) => panicked = panicked.or(Some(panic)),
        }
    }
    match panicked {
        Some(panic) => Err(panic),
        None => Ok(outcomes),
    }
}

/// The team's answer: a game error if any thread met one; else the first thread's answer
/// if it finished, else another's that did; else (a limit) the deepest completed
/// iteration. Statistics are the sum.
fn combine(
    outcomes: Vec<Result<Outcome, GameError>>,
    plan: Plan,
) -> Result<SearchResult, GameError> {
    let outcomes = outcomes.into_iter().collect::<Result<Vec<_>, _>>()?;
    let threads = outcomes.len();
    let mut total = outcomes[0].result.stats;
    for o in &outcomes[1..] {
        let s = o.result.stats;
        total.nodes += s.nodes;
        total.leaves += s.leaves;
        total.cutoffs += s.cutoffs;
        total.table_probes += s.table_probes;
        total.table_hits += s.table_hits;
    }
    total.elapsed = plan.start.elapsed();
    let chosen = outcomes
        .iter()
        .position(|o| o.completed)
        .unwrap_or_else(|| {
            // The deepest, the first thread's among equals.
            let deepest = outcomes.iter().map(|o| o.result.depth).max().unwrap_or(0);
            outcomes
                .iter()
                .position(|o| o.result.depth == deepest)
                .unwrap_or(0)
        });
    let mut result = outcomes
        .into_iter()
        .nth(chosen)
        .expect("chosen exists")
        .result;
    result.stats = total;
    result.threads = threads;
    Ok(result)
}
