//! The search threads: started on first use and kept for later searches, so that a
//! parallel search pays a wake-up rather than a thread start. A thread takes one job at a
//! time and goes back to the idle list when it is done, unless `MOST_IDLE` threads are
//! idle already: then it ends. Many callers searching on many threads at once start as
//! many threads as they need, and afterwards at most `MOST_IDLE` stay.
//!
//! A search lends its helpers one borrowed closure and waits for all of them before it
//! returns, so that nothing is boxed, counted or queued for them: handing out work
//! allocates nothing but the list of helpers (had fallibly). A thread's mailbox is had
//! fallibly too, and on Unix the thread is started by the system's `pthread_create`,
//! which allocates nothing through Rust; elsewhere by `std::thread`, whose start
//! allocates infallibly, so it is preceded by a check that the memory can be had.
//! Memory that cannot be had is fewer helpers, never an abort.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::options::FewerThreads;

/// The most threads kept idle between searches.
pub(crate) const MOST_IDLE: usize = 64;

/// The threads waiting for a job.
static IDLE: Mutex<Vec<&'static Worker>> = Mutex::new(Vec::new());

/// The mailboxes of threads that have ended, for the next threads started. A mailbox is
/// had once and never given back, so that a thread's start asks for memory only where no
/// thread has ended before it: there are never more than the most threads alive at once.
static SPARE: Mutex<Vec<&'static Worker>> = Mutex::new(Vec::new());

/// A pool thread's mailbox.
struct Worker {
    state: Mutex<State>,
    changed: Condvar,
}

enum State {
    /// Waiting for a job.
    Idle,
    /// Given a job, not yet taken up.
    Given(Task),
    /// On its job.
    Running,
    /// Its job done: the search that gave it may return.
    Done,
    /// To end (enough threads are idle).
    Quit,
}

/// A helper's job: the search's closure, and the helper's number.
struct Task {
    work: *const (dyn Fn(usize) + Sync + 'static),
    index: usize,
}

// SAFETY: the closure is `Sync`, so calling it from another thread through a shared
// pointer is sound; it lives as long as the `with_helpers` call that lent it, which
// waits for every task it gave out to be `Done` (also when it unwinds) before returning.
unsafe impl Send for Task {}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock held only plain state: carry on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `work(i)` for `i` in `1..=helpers` on pool threads and `here()` on the calling
/// thread, and returns once every helper has returned from `work` (also when `here`
/// panics): `here`'s answer, the number of helpers that ran, and why fewer than asked
/// for (no system thread, or no memory). `work` should catch its own panics; one it does
/// not is caught and dropped on the helper's thread.
pub(crate) fn with_helpers<R>(
    helpers: usize,
    work: &(dyn Fn(usize) + Sync),
    here: impl FnOnce() -> R,
) -> (R, usize, Option<FewerThreads>) {
    let mut crew = Crew(Vec::new());
    let mut fewer = None;
    let mut wanted = helpers;
    if crew.0.try_reserve_exact(helpers).is_err() {
        (wanted, fewer) = (0, Some(FewerThreads::NoMemory));
    }
    // SAFETY: only the closure's lifetime bound is erased (the pointer's layout is the
    // same); `crew`, dropped before this function returns or unwinds, waits for every
    // task holding the pointer to be done, and `work` is borrowed for longer than that.
    let work: *const (dyn Fn(usize) + Sync + 'static) =
        unsafe { std::mem::transmute::<*const (dyn Fn(usize) + Sync + '_), _>(work as *const _) };
    for index in 1..=wanted {
        let worker = match hire() {
            Ok(w) => w,
            Err(why) => {
                fewer = Some(why);
                break;
            }
        };
        *lock(&worker.state) = State::Given(Task { work, index });
        worker.changed.notify_all();
        crew.0.push(worker); // within the room reserved: no allocation
    }
    let ran = crew.0.len();
    let answer = here();
    drop(crew);
    (answer, ran, fewer)
}

/// The helpers a search has given jobs: waited for when dropped.
struct Crew(Vec<&'static Worker>);

impl Drop for Crew {
    fn drop(&mut self) {
        for worker in self.0.drain(..) {
            let mut state = lock(&worker.state);
            while matches!(*state, State::Given(_) | State::Running) {
                state = worker
                    .changed
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
            drop(state);
            retire(worker);
        }
    }
}

/// An idle worker, or a new one.
fn hire() -> Result<&'static Worker, FewerThreads> {
    if let Some(w) = lock(&IDLE).pop() {
        return Ok(w);
    }
    let spare = lock(&SPARE).pop();
    let worker = match spare {
        Some(w) => w,
        None => mailbox().ok_or(FewerThreads::NoMemory)?,
    };
    *lock(&worker.state) = State::Idle;
    if let Err(why) = start(worker) {
        keep_spare(worker);
        return Err(why);
    }
    Ok(worker)
}

/// A new mailbox, had fallibly and never given back (see [`SPARE`]).
fn mailbox() -> Option<&'static Worker> {
    let layout = std::alloc::Layout::new::<Worker>();
    // SAFETY: `Worker` is not zero-sized (a mutex and a condition variable), as `alloc`
    // requires; a null answer is memory that cannot be had.
    let place = unsafe { std::alloc::alloc(layout) }.cast::<Worker>();
    if place.is_null() {
        return None;
    }
    // SAFETY: `place` is a new block of `Worker`'s size and alignment, written once here;
    // it is never freed or written through this pointer again, so a shared reference to
    // it is valid for the rest of the process.
    unsafe {
        place.write(Worker {
            state: Mutex::new(State::Idle),
            changed: Condvar::new(),
        });
        Some(&*place)
    }
}

/// Keeps an ended thread's mailbox for the next thread started (or, with no room in the
/// list, lets it go unused: a few dozen bytes).
fn keep_spare(worker: &'static Worker) {
    let mut spare = lock(&SPARE);
    if spare.try_reserve(1).is_ok() {
        spare.push(worker);
    }
}

/// Back to the idle list with a finished worker, or, with enough idle (or no room in the
/// list), tells it to end.
fn retire(worker: &'static Worker) {
    let mut idle = lock(&IDLE);
    if idle.len() < MOST_IDLE && idle.try_reserve(1).is_ok() {
        *lock(&worker.state) = State::Idle;
        idle.push(worker);
    } else {
        *lock(&worker.state) = State::Quit;
        worker.changed.notify_all();
    }
}

/// Lends the calling thread to the search pool: it takes helpers' jobs as a thread the
/// pool started would, and returns only when the pool has more idle threads than it
/// keeps (`true`), or at once when there is no room or memory for it (`false`). For
/// platforms where the library cannot start threads itself: on WebAssembly, each Web
/// Worker that shares the module's memory calls this, and parallel searches then use it.
pub fn lend_thread() -> bool {
    let spare = lock(&SPARE).pop();
    let Some(worker) = spare.or_else(mailbox) else {
        return false;
    };
    {
        let mut idle = lock(&IDLE);
        if idle.len() >= MOST_IDLE || idle.try_reserve(1).is_err() {
            drop(idle);
            keep_spare(worker);
            return false;
        }
        *lock(&worker.state) = State::Idle;
        idle.push(worker);
    }
    serve(worker);
    true
}

/// How many pool threads are waiting for a job (lent ones included).
pub fn idle_threads() -> usize {
    lock(&IDLE).len()
}

/// A pool thread's life: jobs as they are given, until told to end; then its mailbox is
/// kept for another thread, and not touched again by this one.
fn serve(worker: &'static Worker) {
    loop {
        let task = {
            let mut state = lock(&worker.state);
            loop {
                match std::mem::replace(&mut *state, State::Running) {
                    State::Given(task) => break Some(task),
                    State::Quit => break None,
                    other => *state = other,
                }
                state = worker
                    .changed
                    .wait(state)
                    .unwrap_or_else(|e| e.into_inner());
            }
        };
        let Some(task) = task else { break };
        // SAFETY: see `Task`: the closure is alive until this task is marked done.
        let work = unsafe { &*task.work };
        let _ = catch_unwind(AssertUnwindSafe(|| work(task.index)));
        *lock(&worker.state) = State::Done;
        worker.changed.notify_all();
    }
    keep_spare(worker);
}

/// A pool thread's stack, as `std::thread` gives (the engine grows its own stack on
/// deep lines).
#[cfg(unix)]
const STACK: usize = 2 << 20;

/// Starts a detached thread serving `worker`, by `pthread_create`: nothing is
/// allocated through Rust (the system maps the thread's stack, and a failure is a
/// status), so that a start cannot abort for want of memory.
#[cfg(unix)]
fn start(worker: &'static Worker) -> Result<(), FewerThreads> {
    let arg = std::ptr::from_ref(worker).cast_mut().cast::<libc::c_void>();
    let mut id = std::mem::MaybeUninit::<libc::pthread_t>::uninit();
    // SAFETY: `id` is written by a successful `pthread_create`, and only then read, to
    // detach the thread; `run` takes `arg`, a `&'static Worker`, which outlives it.
    unsafe {
        if create(id.as_mut_ptr(), arg) != 0 {
            return Err(FewerThreads::NoSystemThread);
        }
        libc::pthread_detach(id.assume_init());
    }
    Ok(())
}

/// `pthread_create` with a stack of [`STACK`] bytes.
///
/// # Safety
/// As `pthread_create`'s: `id` is writable, and `arg` is valid for `run`.
#[cfg(all(unix, not(miri)))]
unsafe fn create(id: *mut libc::pthread_t, arg: *mut libc::c_void) -> libc::c_int {
    let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
    // SAFETY: `attr` is initialised by `pthread_attr_init` before any other use, and
    // destroyed once, after `pthread_create` has read it; the rest is the caller's.
    unsafe {
        let failed = libc::pthread_attr_init(attr.as_mut_ptr());
        if failed != 0 {
            return failed;
        }
        let mut attr = attr.assume_init();
        // A stack size the system refuses leaves its default: not an error.
        let _ = libc::pthread_attr_setstacksize(&mut attr, STACK.max(libc::PTHREAD_STACK_MIN));
        let started = libc::pthread_create(id, &attr, run, arg);
        libc::pthread_attr_destroy(&mut attr);
        started
    }
}

/// `pthread_create` with the default attributes: Miri has no thread attributes.
///
/// # Safety
/// As `pthread_create`'s: `id` is writable, and `arg` is valid for `run`.
#[cfg(all(unix, miri))]
unsafe fn create(id: *mut libc::pthread_t, arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the caller's.
    unsafe { libc::pthread_create(id, std::ptr::null(), run, arg) }
}

/// The thread's body. Nothing unwinds out of it (a panic would abort here): the jobs'
/// panics are caught in `serve`, and anything else is caught below.
#[cfg(unix)]
extern "C" fn run(arg: *mut libc::c_void) -> *mut libc::c_void {
    // SAFETY: `arg` is the `&'static Worker` that `start` passed.
    let worker: &'static Worker = unsafe { &*(arg as *const Worker) };
    #[cfg(target_os = "linux")]
    // SAFETY: a NUL-terminated name of 14 bytes (the limit is 15), for this thread.
    unsafe {
        libc::pthread_setname_np(libc::pthread_self(), c"minimax-search".as_ptr());
    }
    let _ = std::panic::catch_unwind(|| serve(worker));
    std::ptr::null_mut()
}

/// Memory that must be free before a thread is started: the system's thread start
/// allocates a few hundred bytes infallibly (its handle, name and closure), so this
/// much is asked for, fallibly, first and given back.
#[cfg(not(unix))]
const START_MARGIN: usize = 64 << 10;

/// Starts a thread serving `worker`, by `std::thread`.
#[cfg(not(unix))]
fn start(worker: &'static Worker) -> Result<(), FewerThreads> {
    let mut margin = Vec::<u8>::new();
    if margin.try_reserve_exact(START_MARGIN).is_err() {
        return Err(FewerThreads::NoMemory);
    }
    drop(margin);
    std::thread::Builder::new()
        .name("minimax-search".into())
        .spawn(move || serve(worker))
        .map(drop)
        .map_err(|_| FewerThreads::NoSystemThread)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    #[test]
    fn every_helper_runs_once_and_is_waited_for() {
        for _ in 0..50 {
            let seen: [AtomicUsize; 5] = Default::default();
            let work = |i: usize| {
                std::thread::sleep(std::time::Duration::from_micros(100));
                seen[i].fetch_add(1, Relaxed);
            };
            let (answer, ran, fewer) = with_helpers(4, &work, || 7);
            assert_eq!((answer, ran, fewer), (7, 4, None));
            let counts: Vec<usize> = seen.iter().map(|s| s.load(Relaxed)).collect();
            assert_eq!(
                counts,
                [0, 1, 1, 1, 1],
                "each helper once, before the return"
            );
        }
    }

    #[test]
    fn a_lent_thread_takes_helpers_jobs() {
        let lent = std::thread::spawn(lend_thread);
        let id = lent.thread().id();
        // Other tests hire and retire pool threads meanwhile: every idle thread is asked
        // for, until the lent one has taken a job.
        let mut seen_lent = false;
        for _ in 0..1000 {
            let ids = Mutex::new(Vec::new());
            let work = |_: usize| lock(&ids).push(std::thread::current().id());
            with_helpers(idle_threads() + 1, &work, || ());
            if lock(&ids).contains(&id) {
                seen_lent = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        assert!(seen_lent, "the lent thread never took a job");
        assert!(!lent.is_finished(), "it went back to waiting");
    }

    #[test]
    fn a_panic_here_still_waits_for_the_helpers() {
        let seen = AtomicUsize::new(0);
        let work = |_: usize| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            seen.fetch_add(1, Relaxed);
        };
        let r = catch_unwind(AssertUnwindSafe(|| {
            with_helpers(2, &work, || panic!("here"));
        }));
        assert!(r.is_err());
        assert_eq!(
            seen.load(Relaxed),
            2,
            "both helpers done before the unwind went on"
        );
    }
}
