//! Batched search on several threads: the games are cut into shares, one a thread asked
//! for; at each step every thread takes shares in turn (expanding the leaves the last call
//! valued, gathering the next) until none is left, and the calling thread then puts the
//! shares' leaves in one batch and makes the one evaluator call. The evaluator is only
//! ever called on the caller's thread. Each game draws from its own seeded stream, so the
//! result is the same on any number of threads wherever a step's batch has room for every
//! game's leaves (`batch_size` at least the games times `leaves_per_tree`).

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::search::{Share, shape};
use super::tree::Tree;
use super::{BatchedOptions, BatchedResult, Encode, Evaluator};
use crate::search::game::GameError;
use crate::search::options::FewerThreads;
use crate::search::pool;

/// Where a step stands, shared by the threads.
#[derive(Default)]
struct Round {
    /// Counts the steps; a helper works once for each it sees.
    step: u64,
    /// The next share to take, and the shares done, in this step.
    next: usize,
    done: usize,
    /// Set once the search is over (or failed): the helpers return.
    quit: bool,
    /// A share's error, or a panic raised in a helper.
    error: Option<GameError>,
    panic: Option<Box<dyn Any + Send>>,
}

struct Control {
    round: Mutex<Round>,
    /// A new step, or the end.
    started: Condvar,
    /// Every share of the step done.
    finished: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock held only plain state: carry on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Control {
    /// Takes shares of the step until none is left, stepping each; a panic is kept for
    /// the caller's thread.
    fn work<G: Encode>(&self, shares: &[Mutex<Share<'_, G>>], opts: &BatchedOptions) {
        loop {
            let i = {
                let mut r = lock(&self.round);
                if r.next >= shares.len() || r.quit {
                    return;
                }
                r.next += 1;
                r.next - 1
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| lock(&shares[i]).step(opts)));
            let mut r = lock(&self.round);
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    r.error.get_or_insert(e);
                }
                Err(panic) => {
                    r.panic.get_or_insert(panic);
                }
            }
            r.done += 1;
            if r.done == shares.len() {
                self.finished.notify_all();
            }
        }
    }

    /// A helper's life: a turn at each step, until the end.
    fn help<G: Encode>(&self, shares: &[Mutex<Share<'_, G>>], opts: &BatchedOptions) {
        let mut seen = 0;
        loop {
            {
                let mut r = lock(&self.round);
                while r.step == seen && !r.quit {
                    r = self.started.wait(r).unwrap_or_else(|e| e.into_inner());
                }
                if r.quit {
                    return;
                }
                seen = r.step;
            }
            self.work(shares, opts);
        }
    }

    /// One step on every share: started, worked on here too, and waited for. Its error,
    /// or a helper's panic, ends the search.
    fn step<G: Encode>(
        &self,
        shares: &[Mutex<Share<'_, G>>],
        opts: &BatchedOptions,
    ) -> Result<(), GameError> {
        {
            let mut r = lock(&self.round);
            (r.step, r.next, r.done) = (r.step + 1, 0, 0);
        }
        self.started.notify_all();
        self.work(shares, opts);
        let mut r = lock(&self.round);
        while r.done < shares.len() {
            r = self.finished.wait(r).unwrap_or_else(|e| e.into_inner());
        }
        if r.panic.is_some() {
            return Err(GameError::OutOfMemory); // (replaced by the panic once all stop)
        }
        r.error.take().map_or(Ok(()), Err)
    }

    /// Tells the helpers to return.
    fn end(&self) {
        lock(&self.round).quit = true;
        self.started.notify_all();
    }
}

/// What a search on threads gives back: the results, the evaluator calls and positions
/// sent, the threads that ran and why fewer than asked.
pub(super) type Outcome = (Vec<BatchedResult>, u64, u64, usize, Option<FewerThreads>);

/// Searches every game on `threads` threads (at most one a game).
pub(super) fn run<G: Encode + Send, E: Evaluator + ?Sized>(
    trees: &mut [Tree],
    games: &mut [G],
    evaluator: &mut E,
    opts: &BatchedOptions,
    threads: usize,
) -> Result<Outcome, GameError> {
    let n = games.len();
    let room = opts.batch_room(n);
    let parts = threads.min(n).min(room);
    evaluator.share_threads(parts.max(1));
    if parts <= 1 {
        let (results, calls, positions) = super::search::run(trees, games, evaluator, opts)?;
        return Ok((results, calls, positions, 1, None));
    }
    let (obs_size, actions) = shape(games)?;
    // Share j holds games [n * j / parts, n * (j + 1) / parts) and its part of the batch.
    let caps = batch_parts(room, n, parts)?;
    let mut shares = Vec::new();
    shares
        .try_reserve_exact(parts)
        .map_err(|_| GameError::OutOfMemory)?;
    let (mut trees, mut games) = (trees, games);
    for (j, &cap) in caps.iter().enumerate() {
        let (from, to) = (n * j / parts, n * (j + 1) / parts);
        let (t, rest_t) = std::mem::take(&mut trees).split_at_mut(to - from);
        let (g, rest_g) = std::mem::take(&mut games).split_at_mut(to - from);
        (trees, games) = (rest_t, rest_g);
        shares.push(Mutex::new(Share::new(
            t,
            g,
            from,
            (obs_size, actions),
            cap,
            opts,
        )?));
    }
    let mut merged = Merged::new(room, obs_size, actions)?;
    let control = Control {
        round: Mutex::new(Round::default()),
        started: Condvar::new(),
        finished: Condvar::new(),
    };
    let helper = |_: usize| control.help(&shares, opts);
    let (here, ran, fewer) = pool::with_helpers(parts - 1, &helper, || {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            drive(&control, &shares, &mut merged, evaluator, opts)
        }));
        control.end();
        outcome
    });
    if let Some(panic) = lock(&control.round).panic.take() {
        resume_unwind(panic);
    }
    let (calls, positions) = here.unwrap_or_else(|panic| resume_unwind(panic))?;
    let mut results = Vec::new();
    results
        .try_reserve_exact(n)
        .map_err(|_| GameError::OutOfMemory)?;
    for share in &shares {
        lock(share).answers(opts, &mut results)?;
    }
    Ok((results, calls, positions, ran + 1, fewer))
}

/// Each share's room in a batch of `cap` (`parts <= cap`, `parts <= n`): in proportion to
/// its games (the cumulative `cap * to / n` apart, so that a share whose games' leaves all
/// fit in `cap` has room for them), at least one each, `cap` in all.
fn batch_parts(cap: usize, n: usize, parts: usize) -> Result<Vec<usize>, GameError> {
    let mut caps = Vec::new();
    caps.try_reserve_exact(parts)
        .map_err(|_| GameError::OutOfMemory)?;
    let edge = |j: usize| (cap as u128 * (n * j / parts) as u128 / n as u128) as usize;
    caps.extend((0..parts).map(|j| edge(j + 1) - edge(j)));
    // A share left none takes one from the largest (which has two or more, as the
    // parts sum to `cap` and there are no more parts than `cap`).
    while let Some(empty) = caps.iter().position(|&c| c == 0) {
        let largest = (0..parts).max_by_key(|&j| caps[j]).unwrap_or(0);
        caps[largest] -= 1;
        caps[empty] = 1;
    }
    Ok(caps)
}

/// The one batch sent to the evaluator, made from the shares' batches.
struct Merged {
    obs: Vec<f32>,
    values: Vec<f32>,
    logits: Vec<f32>,
}

impl Merged {
    fn new(cap: usize, obs_size: usize, actions: usize) -> Result<Merged, GameError> {
        let zeros = |len: Option<usize>| {
            let len = len.ok_or(GameError::OutOfMemory)?;
            let mut v = Vec::new();
            v.try_reserve_exact(len)
                .map_err(|_| GameError::OutOfMemory)?;
            v.resize(len, 0.0f32);
            Ok(v)
        };
        Ok(Merged {
            obs: zeros(cap.checked_mul(obs_size))?,
            values: zeros(Some(cap))?,
            logits: zeros(cap.checked_mul(actions))?,
        })
    }
}

/// The caller's loop: a step on every share, then the shares' leaves in one call, its
/// answers handed back to each share; until no share has a leaf or a game that moved on.
fn drive<G: Encode, E: Evaluator + ?Sized>(
    control: &Control,
    shares: &[Mutex<Share<'_, G>>],
    merged: &mut Merged,
    evaluator: &mut E,
    opts: &BatchedOptions,
) -> Result<(u64, u64), GameError> {
    let (mut calls, mut positions) = (0u64, 0u64);
    let mut guards: Vec<MutexGuard<'_, Share<'_, G>>> = Vec::new();
    guards
        .try_reserve_exact(shares.len())
        .map_err(|_| GameError::OutOfMemory)?;
    loop {
        guards.clear(); // (the shares unlocked for the step)
        control.step(shares, opts)?;
        guards.extend(shares.iter().map(lock));
        let k: usize = guards.iter().map(|s| s.leaves()).sum();
        if k == 0 {
            if guards.iter().any(|s| s.active && s.progressed) {
                continue;
            }
            return Ok((calls, positions));
        }
        let (mut o, mut v, mut l) = (0, 0, 0);
        for share in guards.iter_mut() {
            let (obs, values, logits) = share.buffers();
            merged.obs[o..o + obs.len()].copy_from_slice(obs);
            (o, v, l) = (o + obs.len(), v + values.len(), l + logits.len());
        }
        evaluator.evaluate(
            &merged.obs[..o],
            &mut merged.values[..v],
            &mut merged.logits[..l],
        )?;
        (v, l) = (0, 0);
        for share in guards.iter_mut() {
            let (_, values, logits) = share.buffers();
            values.copy_from_slice(&merged.values[v..v + values.len()]);
            logits.copy_from_slice(&merged.logits[l..l + logits.len()]);
            (v, l) = (v + values.len(), l + logits.len());
            share.valued = true;
        }
        calls += 1;
        positions += k as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::batch_parts;

    #[test]
    #[cfg_attr(miri, ignore = "minutes under Miri, for safe arithmetic only")]
    fn the_batch_parts_sum_to_the_batch_and_none_is_empty() {
        for cap in 1..40 {
            for n in 1..40 {
                for parts in 1..=cap.min(n) {
                    let caps = batch_parts(cap, n, parts).unwrap();
                    assert_eq!(caps.iter().sum::<usize>(), cap, "{cap} {n} {parts}");
                    assert!(caps.iter().all(|&c| c >= 1), "{cap} {n} {parts}: {caps:?}");
                    // Room for every game's leaves where the whole batch has it.
                    for lpt in 1..4 {
                        if cap >= n * lpt {
                            for (j, &c) in caps.iter().enumerate() {
                                let games = n * (j + 1) / parts - n * j / parts;
                                assert!(c >= games * lpt, "{cap} {n} {parts} {lpt}: {caps:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}
