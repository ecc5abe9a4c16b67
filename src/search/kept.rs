//! The table a search makes for itself, kept for the next search. A fresh table costs a
//! page fault for every page a search first writes (about 3,200 of a 16 MiB table's 4,096
//! for tic-tac-toe from the empty board: 4 ms on one thread, 12 ms on two, where the search
//! itself takes under a millisecond), while starting a kept one afresh is one counter's
//! increment (its entries then read as empty). One table is kept, of the size last asked
//! for; a search that finds it in use, or of another size, makes its own. The memory kept
//! is the pages the searches wrote, at most the table's size: a program that wants none
//! kept lends its own table (`Options::table`, `mm_table`) or asks for none.
//!
//! A kept table of 2 MiB or more that has served searches long enough moves to memory on
//! huge pages (`Table::settle`), as a lent `mm_table` is when made: its probes then stop
//! missing the TLB, a few percent of a table-bound search. The move costs a fresh zeroing
//! of each huge page as it is first written, which on this VM took 2-4 ms for 16 MiB and
//! at times 32-44 ms (2.6 ns a byte: fresh memory the host had to back), so it waits, as
//! in renting before buying, until the searches on the table have taken
//! `SETTLE_NS_PER_BYTE` ns per byte of it: the move then costs at most about 5% of the
//! time already spent, and a program that makes a few small searches never pays for it.

use crate::search::clock::Instant;
use std::ops::Deref;
use std::sync::Mutex;
use std::time::Duration;

use super::table::Table;

/// The search time a kept table serves, per byte of it, before it settles on huge pages:
/// the move's cost is then at most about 5% of that time (see above).
const SETTLE_NS_PER_BYTE: u128 = 50;

/// The kept table, the size it was asked for, and the time searches have spent on it.
static KEPT: Mutex<Option<(usize, Table, Duration)>> = Mutex::new(None);

/// Whether a table of `bytes` on which searches have spent `spent` is due to settle.
fn settle_due(bytes: usize, spent: Duration) -> bool {
    spent.as_nanos() >= bytes as u128 * SETTLE_NS_PER_BYTE
}

/// A search's own table: kept again when the search drops it.
pub(crate) struct OwnTable {
    bytes: usize,
    table: Option<Table>,
    /// The time earlier searches spent on the table, and when this one took it.
    spent: Duration,
    since: Instant,
}

impl OwnTable {
    /// The kept table started afresh if it is free and of `bytes`, else a new one; `None`
    /// if `bytes` is too small for a table or its memory could not be had.
    pub(crate) fn new(bytes: usize) -> Option<OwnTable> {
        // (A poisoned lock, which no code here can cause, only makes a new table.)
        let kept = KEPT.lock().map(|mut k| k.take()).unwrap_or(None);
        let (table, spent) = match kept {
            Some((b, mut t, spent)) if b == bytes => {
                if settle_due(bytes, spent) {
                    t.settle();
                } else {
                    t.clear();
                }
                (t, spent)
            }
            other => {
                drop(other); // one table at a time: the old size's memory goes first
                (Table::new(bytes)?, Duration::ZERO)
            }
        };
        Some(OwnTable {
            bytes,
            table: Some(table),
            spent,
            since: Instant::now(),
        })
    }
}

impl Deref for OwnTable {
    type Target = Table;
    fn deref(&self) -> &Table {
        self.table.as_ref().expect("held until dropped")
    }
}

impl Drop for OwnTable {
    fn drop(&mut self) {
        let spent = self.spent.saturating_add(self.since.elapsed());
        if let (Some(t), Ok(mut kept)) = (self.table.take(), KEPT.lock()) {
            *kept = Some((self.bytes, t, spent)); // another search's kept table, if any, goes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::table::{Bound, Entry};

    #[test]
    fn a_kept_table_settles_only_once_searches_have_spent_50_ns_a_byte_on_it() {
        // 16 MiB at 50 ns a byte: 838.9 ms; 64 MiB: 3,355.4 ms.
        assert!(!settle_due(16 << 20, Duration::from_millis(838)));
        assert!(settle_due(16 << 20, Duration::from_millis(839)));
        assert!(!settle_due(64 << 20, Duration::from_millis(3355)));
        assert!(settle_due(64 << 20, Duration::from_millis(3356)));
    }

    #[test]
    fn a_kept_table_comes_back_empty_and_only_at_its_size() {
        let entry = |key| Entry {
            key,
            value: 7,
            best: 2,
            depth: 3,
            bound: Bound::Exact,
            proven: false,
            max_side: true,
            expected: false,
        };
        // A size no other test asks for; other tests' searches may still take the kept
        // table between two of these steps, so the step is tried until it finds its own.
        const BYTES: usize = 3 << 16;
        let mut reused = 0;
        for key in 1..=50u64 {
            let first = OwnTable::new(BYTES).unwrap();
            let base = first.base();
            first.store(entry(key));
            assert!(first.probe(key, true, false).is_some());
            drop(first);
            let again = OwnTable::new(BYTES).unwrap();
            if again.base() == base {
                reused += 1;
                assert!(again.probe(key, true, false).is_none(), "started afresh");
                again.store(entry(key + 1000));
                assert!(again.probe(key + 1000, true, false).is_some(), "and usable");
            }
            drop(again);
            let other = OwnTable::new(BYTES * 2).unwrap();
            assert_ne!(other.base(), base, "another size makes its own");
        }
        assert!(reused > 0, "the table was kept");
    }
}
