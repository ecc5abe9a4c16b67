//! Parallel search: the caller's thread and helpers from the pool each run the whole
//! search on their own copy of the game, sharing one transposition table (lock-free) and
//! a set of "being searched" marks by which a thread puts off the moves another thread is
//! on (ABDADA). The first thread to finish gives the answer and halts the others.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::channel;

use super::engine::{Outcome, Plan, run_thread, search, search_table};
use super::pool;
use super::{Game, GameError, Method, Options, Progress, SearchResult};

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

/// What the threads of one search share besides the table.
pub(crate) struct Team {
    halt: AtomicBool,
    nodes: AtomicU64,
}

impl Team {
    /// Adds a thread's new nodes to the count; returns the total.
    pub(crate) fn add_nodes(&self, n: u64) -> u64 {
        self.nodes.fetch_add(n, Relaxed) + n
    }
    pub(crate) fn halted(&self) -> bool {
        self.halt.load(Relaxed)
    }
    pub(crate) fn halt(&self) {
        self.halt.store(true, Relaxed);
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

/// Halts a team when dropped: when the caller's search ends, and while it unwinds.
struct HaltOnDrop<'a>(&'a Team);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        self.0.halt();
    }
}

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
    let threads = resolve_threads(opts.threads);
    let shares_nothing = opts.method == Method::Minimax || opts.method.is_chance();
    if threads <= 1 || shares_nothing || game.hash().is_none() {
        return search(game, opts);
    }
    let (mut lent, mut own) = (opts.table.take(), None);
    let Some(table) = search_table(opts.method, &mut lent, &mut own, opts.table_bytes) else {
        opts.table = lent;
        return search(game, opts);
    };
    let plan = Plan::new(opts);
    let team = Arc::new(Team {
        halt: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
    });

    // The helpers: each owns its copy and sends it back with its outcome, so that the
    // copies are dropped here, on the caller's thread.
    let (tx, rx) = channel();
    let mut helpers = 0;
    for _ in 1..threads {
        let Some(mut copy) = game.fork() else { break };
        let (shared, team, tx) = (table.share(), Arc::clone(&team), tx.clone());
        let job: pool::Job = Box::new(move || {
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                run_thread(&mut copy, plan, None, None, Some(&shared), Some(&team))
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
            break;
        }
        helpers += 1;
    }

    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    let halt_helpers = HaltOnDrop(&team); // also if this thread's search panics
    let first = run_thread(game, plan, opts.stop, progress, Some(table), Some(&team));
    drop(halt_helpers);
    // Every helper is waited for, a panicking one too, so that every copy is dropped here
    // and the lent table is handed back before a helper's panic goes on.
    let mut outcomes = vec![first];
    let mut panicked = None;
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
    let reported = outcomes[0].as_ref().map_or(0, |o| o.result.depth);
    let result = combine(outcomes, plan)?;
    // A helper's answer: its iteration is reported too, so that progress always ends with
    // the iteration that answered (deeper than any the caller's thread reported).
    if let (Some(report), true) = (opts.progress.as_mut(), result.depth > reported) {
        report(&Progress {
            depth: result.depth,
            value: result.value,
            expected: result.expected,
            nodes: result.stats.nodes,
            elapsed: result.stats.elapsed,
            pv: &result.pv,
        });
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
