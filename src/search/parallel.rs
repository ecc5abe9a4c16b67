//! Parallel search: the caller's thread and helpers from the pool each run the whole
//! search on their own copy of the game, sharing one transposition table (lock-free) and
//! a set of "being searched" marks by which a thread puts off the moves another thread is
//! on (ABDADA). The first thread to finish gives the answer and halts the others.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;

use super::engine::{Outcome, run_thread};
use super::game::{Fork, Game, GameError};
use super::limits::{Plan, Team};
use super::options::{FewerThreads, Options, Progress, SearchResult, search_table};
use super::pool;

/// The most threads one search runs on: each needs a copy of the game and a pool thread.
pub const MAX_THREADS: usize = 256;

/// The number of threads `threads` asks for: 0 is one per available core; at most
/// [`MAX_THREADS`].
pub(crate) fn resolve_threads(threads: usize) -> usize {
    match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(MAX_THREADS)
}

/// A helper's place: its copy of the game and, once it has run, its outcome. Seats
/// stay with the caller, so that every copy is dropped on the caller's thread.
pub(crate) struct Seat<G, T> {
    pub copy: G,
    pub outcome: Option<std::thread::Result<T>>,
}

/// What a team needs before it starts: a seat for each helper, with its copy of the
/// game, and room for every thread's outcome; fewer helpers (the reason) where a copy or
/// memory cannot be had. `None` when not even one thread's room can be had.
#[allow(clippy::type_complexity)]
pub(crate) fn seats<G: Fork, T>(
    game: &mut G,
    helpers: usize,
) -> Option<(Vec<Mutex<Seat<G, T>>>, Vec<T>, Option<FewerThreads>)> {
    let (mut seats, mut room, mut fewer) = (Vec::new(), Vec::new(), None);
    if seats.try_reserve_exact(helpers).is_err() || room.try_reserve_exact(helpers + 1).is_err() {
        (seats, room, fewer) = (Vec::new(), Vec::new(), Some(FewerThreads::NoMemory));
        room.try_reserve_exact(1).ok()?;
    }
    while seats.len() < seats.capacity() {
        match game.fork() {
            Some(copy) => seats.push(Mutex::new(Seat {
                copy,
                outcome: None,
            })),
            None => {
                fewer = Some(FewerThreads::NoCopy);
                break;
            }
        }
    }
    Some((seats, room, fewer))
}

/// Runs `work` on the copy of seat `i` (a helper's number, from 1), its panic caught,
/// and keeps the outcome there once `then` has looked at it.
pub(crate) fn sit<G, T>(
    seats: &[Mutex<Seat<G, T>>],
    i: usize,
    work: impl FnOnce(&mut G) -> T,
    then: impl FnOnce(&std::thread::Result<T>),
) {
    let mut seat = seats[i - 1].lock().unwrap_or_else(|e| e.into_inner());
    let seat = &mut *seat;
    let outcome = catch_unwind(AssertUnwindSafe(|| work(&mut seat.copy)));
    then(&outcome);
    seat.outcome = Some(outcome);
}

/// A deterministic method's search by a team of `threads` threads sharing a table: the
/// answer, or `None` (the lent table handed back) when there is no table to share or no
/// memory for the team's set-up.
pub(crate) fn team_search<G: Game + Fork + Send>(
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
    let Some((seats, mut outcomes, mut shortfall)) = seats(game, threads - 1) else {
        opts.table = lent;
        return None;
    };
    let team = Team::default();
    let stop = opts.stop;
    let helper = |i: usize| {
        let work = |copy: &mut G| run_thread(copy, plan, stop, None, Some(table), Some(&team));
        sit(&seats, i, work, |outcome| {
            if !matches!(
                outcome,
                Ok(Ok(Outcome {
                    completed: false,
                    ..
                }))
            ) {
                team.halt(); // finished, failed or panicked: the others stop
            }
        })
    };
    let progress = opts.progress.as_mut().map(|p| &mut **p as _);
    // This thread's panic is caught too, so that the helpers are halted and waited for
    // before it goes on: no callback of this search runs after it has returned.
    let (first, helpers, fewer) = pool::with_helpers(seats.len(), &helper, || {
        let first = catch_unwind(AssertUnwindSafe(|| {
            run_thread(game, plan, opts.stop, progress, Some(table), Some(&team))
        }));
        team.halt();
        first
    });
    shortfall = fewer.or(shortfall);
    // The lent table is handed back before a panic goes on.
    let gathered = gather(first, seats, &mut outcomes);
    opts.table = lent;
    gathered.unwrap_or_else(|panic| resume_unwind(panic));
    debug_assert_eq!(outcomes.len(), helpers + 1);
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

/// Puts the caller's thread's outcome (`first`) and then each helper's that ran into
/// `outcomes` (whose room was reserved with the seats), and drops each copy of the game
/// here, on the caller's thread; or gives the first panic, for the caller to resume once
/// it has put back what it lent.
pub(crate) fn gather<G, T>(
    first: std::thread::Result<T>,
    seats: Vec<Mutex<Seat<G, T>>>,
    outcomes: &mut Vec<T>,
) -> std::thread::Result<()> {
    let mut panicked = None;
    match first {
        Ok(o) => outcomes.push(o),
        Err(panic) => panicked = Some(panic),
    }
    for seat in seats {
        let seat = seat.into_inner().unwrap_or_else(|e| e.into_inner());
        drop(seat.copy);
        match seat.outcome {
            Some(Ok(o)) => outcomes.push(o),
            Some(Err(panic)) => panicked = panicked.or(Some(panic)),
            None => {} // a seat no helper took
        }
    }
    match panicked {
        Some(panic) => Err(panic),
        None => Ok(()),
    }
}

/// The team's answer: a game error if any thread met one; else the first thread's answer
/// if it finished, else another's that did; else (a limit) the deepest completed
/// iteration. Statistics are the sum.
fn combine(
    mut outcomes: Vec<Result<Outcome, GameError>>,
    plan: Plan,
) -> Result<SearchResult, GameError> {
    // (Looked at in place: collecting the outcomes anew would allocate.)
    if let Some(Err(e)) = outcomes.iter().find(|o| o.is_err()) {
        return Err(*e);
    }
    let threads = outcomes.len();
    let ok = || outcomes.iter().flatten();
    let mut total = ok().next().expect("the caller's thread's").result.stats;
    for o in ok().skip(1) {
        let s = o.result.stats;
        total.nodes += s.nodes;
        total.leaves += s.leaves;
        total.cutoffs += s.cutoffs;
        total.table_probes += s.table_probes;
        total.table_hits += s.table_hits;
    }
    total.elapsed = plan.start.elapsed();
    let chosen = ok().position(|o| o.completed).unwrap_or_else(|| {
        // The deepest, the first thread's among equals.
        let deepest = ok().map(|o| o.result.depth).max().unwrap_or(0);
        ok().position(|o| o.result.depth == deepest).unwrap_or(0)
    });
    let mut result = outcomes.swap_remove(chosen).expect("no error").result;
    result.stats = total;
    result.threads = threads;
    Ok(result)
}
