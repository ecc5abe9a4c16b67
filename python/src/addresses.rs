//! A set of object addresses under a lock, each held while a guard lives: the Python
//! games being searched now (`pygame.rs`), the stop flags of the searches running now
//! (`exit.rs`).

use std::sync::{Mutex, MutexGuard};

/// The addresses held now.
pub struct Addresses(Mutex<Vec<usize>>);

/// An address's place in its set, given back when dropped.
pub struct Held {
    set: &'static Addresses,
    at: usize,
}

impl Addresses {
    pub const fn new() -> Addresses {
        Addresses(Mutex::new(Vec::new()))
    }

    /// Holds `at`; `None` if it is held already.
    pub fn hold(&'static self, at: usize) -> Option<Held> {
        let mut held = self.lock();
        if held.contains(&at) {
            return None;
        }
        held.push(at);
        Some(Held { set: self, at })
    }

    /// The addresses held now (the lock held while the guard lives, so that none is
    /// given back meanwhile).
    pub fn lock(&self) -> MutexGuard<'_, Vec<usize>> {
        // (A poisoned lock, which no code here can cause, still holds the right list.)
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.set.lock();
        if let Some(i) = held.iter().position(|&a| a == self.at) {
            held.swap_remove(i);
        }
    }
}
