//! A transposition table from C: `mm_table`, which many searches can reuse one at a time,
//! and the lease by which a search holds it.

use std::sync::atomic::{AtomicU8, Ordering};

use super::args::non_null;
use super::boundary::status_call;
use super::status::mm_status::{self, *};
use crate::search::Table;

/// A transposition table that many searches can reuse (opaque).
pub struct mm_table {
    table: Table,
    /// `IDLE`, `IN_USE` by a search, or `FREE_WHEN_DONE` (freed during its search).
    state: AtomicU8,
}

const IDLE: u8 = 0;
const IN_USE: u8 = 1;
const FREE_WHEN_DONE: u8 = 2;
const FREED: u8 = 3;

/// A search's hold on a caller's table: taken only if no other search holds it, given
/// back when the search ends, and then the table is freed if `mm_table_free` asked for
/// that meanwhile.
pub(crate) struct Lease(*mut mm_table);

impl Lease {
    /// # Safety
    /// `table` must be a live table from `mm_table_new`.
    pub(crate) unsafe fn take(table: *mut mm_table) -> Result<Lease, mm_status> {
        // SAFETY: live (caller's guarantee); only the atomic field is borrowed, so a
        // search that holds the table's other field is not aliased.
        let state = unsafe { &*std::ptr::addr_of!((*table).state) };
        state
            .compare_exchange(IDLE, IN_USE, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| MM_ERR_TABLE_BUSY)?;
        Ok(Lease(table))
    }

    pub(crate) fn table(&mut self) -> &mut Table {
        // SAFETY: this lease is the only holder of the table (the state machine says so)
        // and the table lives until the lease ends; only the `table` field is borrowed.
        unsafe { &mut *std::ptr::addr_of_mut!((*self.0).table) }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        // SAFETY: the table lives while leased (mm_table_free defers to us).
        let state = unsafe { &*std::ptr::addr_of!((*self.0).state) };
        if state
            .compare_exchange(IN_USE, IDLE, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            // FREE_WHEN_DONE: mm_table_free was called during the search.
            // SAFETY: made by Box::into_raw in mm_table_new; mm_table_free left the
            // freeing to this lease, and nothing else holds it now.
            drop(unsafe { Box::from_raw(self.0) });
        }
    }
}

/// Makes a transposition table of at most `bytes` bytes for `mm_search_options.table`.
/// Entries take 32 bytes, in buckets of two. Returns `MM_ERR_TABLE_TOO_SMALL` if `bytes` is
/// under 64 (one bucket), and `MM_ERR_OUT_OF_MEMORY` if the memory cannot be had.
///
/// A table serves one `mm_search` at a time (which may run on many threads): two
/// searches at once must each have their own. It keeps its entries from one search to
/// the next, so that a program playing a game finds the previous move's work (the
/// entries of earlier searches are the first to be replaced); `mm_table_clear` forgets
/// them, before a table searches another game.
/// Its memory is all mapped and cleared here, on Linux on 2 MiB pages where the system
/// gives them (a probe lands anywhere in the table: small pages would add a TLB miss).
///
/// # Safety
/// `out` must be writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_table_new(bytes: usize, out: *mut *mut mm_table) -> mm_status {
    status_call(|| {
        let out = non_null(out)?;
        if bytes < Table::MIN_BYTES {
            return Err(MM_ERR_TABLE_TOO_SMALL);
        }
        let mut table = Table::new(bytes).ok_or(MM_ERR_OUT_OF_MEMORY)?;
        table.prefault();
        let table = mm_table {
            table,
            state: AtomicU8::new(IDLE),
        };
        // SAFETY: non-NULL and writable (caller's guarantee).
        unsafe { out.write(Box::into_raw(Box::new(table))) };
        Ok(())
    })
}

/// Forgets every entry of a table from `mm_table_new`, in constant time: the next search
/// starts as with a new table. `MM_ERR_TABLE_BUSY` while a search uses it.
///
/// # Safety
/// `table` must be a live table from `mm_table_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_table_clear(table: *mut mm_table) -> mm_status {
    status_call(|| {
        let table = non_null(table)?;
        // SAFETY: a live table (caller's guarantee).
        let mut lease = unsafe { Lease::take(table) }?;
        lease.table().clear();
        Ok(())
    })
}

/// Frees a table from `mm_table_new`. NULL is allowed and does nothing. A table freed
/// while a search uses it (from one of its callbacks, or another thread) is freed when
/// that search ends; the search itself is not disturbed.
///
/// # Safety
/// `table` must be NULL or a table not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mm_table_free(table: *mut mm_table) {
    let _ = status_call(|| {
        if table.is_null() {
            return Ok(());
        }
        // SAFETY: a live table (caller's guarantee); only its atomic field is borrowed.
        let state = unsafe { &*std::ptr::addr_of!((*table).state) };
        loop {
            let next = match state.load(Ordering::Acquire) {
                IDLE => FREED,
                IN_USE => FREE_WHEN_DONE,
                _ => return Ok(()), // already freed, or to be: a second free is ignored
            };
            let now = if next == FREED { IDLE } else { IN_USE };
            if state
                .compare_exchange(now, next, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                if next == FREED {
                    // SAFETY: made by Box::into_raw in mm_table_new; no search holds it.
                    drop(unsafe { Box::from_raw(table) });
                }
                return Ok(());
            }
        }
    });
}
