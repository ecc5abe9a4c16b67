//! Parallel search: the caller's thread and helpers from the pool each run the whole
//! search on their own copy of the game, sharing one transposition table (lock-free) and
//! a set of "being searched" marks by which a thread puts off the moves another thread is
//! on (ABDADA). The first thread to finish gives the answer and halts the others.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use crate::search::game::{Fork, Game, GameError};
use crate::search::limits::{Plan, Team};
use crate::search::options::{Options, Progress, SearchResult, search_table};
use crate::search::pool;
use crate::search::team::{gather, seats, sit};
use crate::search::twoplayer::engine::{Outcome, run_thread};

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
