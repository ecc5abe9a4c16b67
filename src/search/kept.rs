//! The table a search makes for itself, kept for the next search. A fresh table costs a
//! page fault for every page a search first writes (about 3,200 of a 16 MiB table's 4,096
//! for tic-tac-toe from the empty board: 4 ms on one thread, 12 ms on two, where the search
//! itself takes under a millisecond), while starting a kept one afresh is one counter's
//! increment (its entries then read as empty). The first time a table of 2 MiB or more is
//! taken again, it also moves to memory on huge pages (`Table::settle`): a table that
//! serves search after search gains what a lent, prefaulted one has, a probe without a
//! TLB miss. One table is kept, of the size last asked for; a search that finds it in
//! use, or of another size, makes its own. The memory kept is the pages the searches
//! wrote (whole huge pages once it has moved), at most the table's size: a program that
//! wants none kept lends its own table (`Options::table`, `mm_table`) or asks for none.

use std::ops::Deref;
use std::sync::Mutex;

use super::table::Table;

/// The kept table and the size it was asked for.
static KEPT: Mutex<Option<(usize, Table)>> = Mutex::new(None);

/// A search's own table: kept again when the search drops it.
pub(crate) struct OwnTable {
    bytes: usize,
    table: Option<Table>,
}

impl OwnTable {
    /// The kept table started afresh if it is free and of `bytes`, else a new one; `None`
    /// if `bytes` is too small for a table or its memory could not be had.
    pub(crate) fn new(bytes: usize) -> Option<OwnTable> {
        // (A poisoned lock, which no code here can cause, only makes a new table.)
        let kept = KEPT.lock().map(|mut k| k.take()).unwrap_or(None);
        let table = match kept {
            Some((b, mut t)) if b == bytes => {
                t.settle();
                t
            }
            other => {
                drop(other); // one table at a time: the old size's memory goes first
                Table::new(bytes)?
            }
        };
        Some(OwnTable {
            bytes,
            table: Some(table),
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
        if let (Some(t), Ok(mut kept)) = (self.table.take(), KEPT.lock()) {
            *kept = Some((self.bytes, t)); // another search's kept table, if any, goes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::table::{Bound, Entry};

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
