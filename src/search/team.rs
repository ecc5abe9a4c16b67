//! A team of threads, what every family's parallel search shares: how many threads a
//! search asks for, a helper's seat with its copy of the game, and gathering the
//! outcomes on the caller's thread.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;

use super::game::Fork;
use super::options::FewerThreads;
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
