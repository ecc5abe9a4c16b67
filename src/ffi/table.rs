//! A transposition table from C: `mm_table`, which many searches can reuse one at a time
//! (each leases it: see `lease`).

use std::sync::atomic::AtomicU8;

use super::args::non_null;
use super::boundary::status_call;
use super::lease::{IDLE, Lease, Leased, free};
use super::status::mm_status::{self, *};
use crate::search::Table;

/// A transposition table that many searches can reuse (opaque).
pub struct mm_table {
    table: Table,
    /// Its lease state (see `lease`).
    state: AtomicU8,
}

impl Leased for mm_table {
    unsafe fn state<'a>(this: *const Self) -> &'a AtomicU8 {
        // SAFETY: live (caller's guarantee); only the atomic field is borrowed, so a
        // search that holds the table's other field is not aliased.
        unsafe { &*std::ptr::addr_of!((*this).state) }
    }
}

impl Lease<mm_table> {
    pub(crate) fn table(&mut self) -> &mut Table {
        // SAFETY: this lease is the only holder of the table (the state machine says so)
        // and the table lives until the lease ends; only the `table` field is borrowed.
        unsafe { &mut *std::ptr::addr_of_mut!((*self.ptr()).table) }
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
        let mut lease = unsafe { Lease::take(table, MM_ERR_TABLE_BUSY) }?;
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
        // SAFETY: from mm_table_new's Box::into_raw, not yet freed (caller's guarantee).
        unsafe { free(table) };
        Ok(())
    });
}
