//! Parallel search: the caller's thread and helpers from the pool each run the whole
//! search on their own copy of the game, sharing one transposition table (lock-free) and
//! a set of "being searched" marks by which a thread puts off the moves another thread is
//! on (ABDADA). The first thread to finish gives the answer and halts the others.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::channel;

use super::engine::{Outcome, run_thread};
use super::limits::{Plan, Team};
use super::pool;
use super::table::search_table;
use super::{FewerThreads, Game, GameError, Method, Options, Progress, SearchResult, search};

/// A game whose position can be copied for another search thread. Every `Clone` game
/// is one; a game whose copy can fail (a C game's copy callback) says `None`.
pub trait Fork: Sized {
    /// A copy of the game in its current position, or `None` if none can be made.
    fn fork(&self) -> Option<Self>;
}

impl<T: Clone> Fork for T {
    fn fork(&self) -> Option<Self> {
        Some(self.clone())
    }
}

/// The fewest plies left below a node for its moves to be marked and put off: below it,
/// a subtree costs less than the marking.
pub(crate) const SHARE_DEPTH: u32 = 2;

/// Only nodes this close to the root mark their moves: every mark is a store to a line
/// the other threads read, and deeper subtrees are too small to be worth sharing. On the
/// first 40 positions of Test_L1_R2, 2 threads: 1.76x faster than one with 12 plies,
/// 1.61-1.70x marking at every ply, 1.68-1.70x with 6 or 8, 1.70x with 16.
pub(crate) const SHARE_PLIES: u32 = 12;

/// Whether a node's moves are marked and may be put off.
pub(crate) fn shares(depth: u32, ply: u32) -> bool {
    depth >= SHARE_DEPTH && ply < SHARE_PLIES
}

/// The positions being searched now, by any thread of any search, as hashes in a small
/// direct-mapped array: a mark may be lost or overwritten, which costs only some
/// duplicated work, never a wrong answer.
static BUSY: [AtomicU64; 1 << 15] = [const { AtomicU64::new(0) }; 1 << 15];

fn busy_slot(key: u64) -> &'static AtomicU64 {
    &BUSY[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 49) as usize]
}

/// Whether some thread is searching the position of hash `key` now.
pub(crate) fn is_busy(key: u64) -> bool {
    key != 0 && busy_slot(key).load(Relaxed) == key
}

/// A mark that a position is being searched, removed when dropped.
pub(crate) struct Claim(u64);

impl Claim {
    pub(crate) fn new(key: u64) -> Claim {
        busy_slot(key).store(key, Relaxed);
        Claim(key)
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        let _ = busy_slot(self.0).compare_exchange(self.0, 0, Relaxed, Relaxed);
    }
}

/// The most threads one search runs on: each needs a copy of the game and a pool thread.
pub const MAX_THREADS: usize = 256;

/// The caller's stop flag, lent to the helper threads.
#[derive(Clone, Copy)]
struct StopFlag(*const AtomicI32);

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

/// Searches `game` on `opts.threads` threads (0: one per core; at most [`MAX_THREADS`]),
/// each with its own copy of the game. Runs on one thread, as [`search`] does, when one
/// is asked for, for plain minimax (which shares nothing), for the chance methods (not
/// parallel yet), without a table (no `hash`,
/// or `table_bytes` 0), or when the game gives no copy; `SearchResult::threads` says how
/// many ran.
///
/// An exact solve gives the same proven value as on one thread, and a best move that is
/// optimal. A completed depth-limited iteration gives the same value as one thread at
/// that depth, and a move of that value; which iteration a limit stops at may differ.
/// Statistics are summed over the threads. Progress is reported on the caller's thread, in
/// order of depth, and its last report is the iteration that gave the answer.
pub fn search_parallel<G: Game + Fork + Send + 'static>(
    game: &mut G,
    opts: &mut Options<'_>,
) -> Result<SearchResult, GameError> {
    let plan = Plan::of(game, opts); // the clock starts before the table is set up
    let threads = resolve_threads(opts.threads);
    let alone = |game: &mut G, opts: &mut Options<'_>, why| {
        let mut result = search(game, opts)?;
        result.fewer_threads = (threads > 1).then_some(why);
        Ok(result)
    };
    if opts.method == Method::Minimax {
        return alone(game, opts, FewerThreads::Minimax);
    }
    if opts.method.is_chance() {
        return alone(game, opts, FewerThreads::ChanceMethod);
    }
    if threads <= 1 || game.hash().is_none() {
        return alone(game, opts, FewerThreads::NoHash);
    }
    let (mut lent, mut own) = (opts.table.take(), None);
    let Some(table) = search_table(opts.method, &mut lent, &mut own, opts.table_bytes) else {
        opts.table = lent;
        return alone(game, opts, FewerThreads::NoTable);
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
    // Every helper is waited for, a panicking one too, so that every copy is dropped here
    // and the lent table is handed back before a panic goes on.
    let (mut outcomes, mut panicked) = (Vec::new(), None);
    match first {
        Ok(o) => outcomes.push(o), // the caller's thread's first
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
    opts.table = lent;
    if let Some(panic) = panicked {
        resume_unwind(panic);
    }
    let mut result = combine(outcomes, plan)?;
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
    Ok(result)
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
