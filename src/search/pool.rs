//! The search threads: started on first use and kept for later searches, so that a
//! parallel search pays a wake-up rather than a thread start. A thread takes one job at a
//! time and goes back to the idle list when it is done, unless `MOST_IDLE` threads are
//! idle already: then it ends. Many callers searching on many threads at once start as
//! many threads as they need, and afterwards at most `MOST_IDLE` stay.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{Sender, channel};

pub(crate) type Job = Box<dyn FnOnce() + Send>;

/// The threads waiting for a job, each as the sending end of its queue.
static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

/// The most threads kept idle between searches.
pub(crate) const MOST_IDLE: usize = 64;

/// Runs `job` on an idle pool thread, starting one if none is idle. Gives the job back if
/// no thread could be started (the system's limit): the caller then runs with fewer.
pub(crate) fn run(job: Job) -> Result<(), Job> {
    let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let worker = match idle {
        Some(w) => w,
        None => match start() {
            Some(w) => w,
            None => return Err(job),
        },
    };
    // A pool thread never ends while its sender exists, so the send cannot fail.
    worker.send(job).map_err(|e| e.0)
}

fn start() -> Option<Sender<Job>> {
    let (tx, rx) = channel::<Job>();
    let me = tx.clone();
    std::thread::Builder::new()
        .name("minimax-search".into())
        .spawn(move || {
            for job in rx {
                // A job reports its own panics to its search; the thread lives on.
                let _ = catch_unwind(AssertUnwindSafe(job));
                let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
                if idle.len() >= MOST_IDLE {
                    break; // enough are idle: this one ends
                }
                idle.push(me.clone());
            }
        })
        .ok()?;
    Some(tx)
}
