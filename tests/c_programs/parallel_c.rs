//! Parallel search through the C API (tests/c/parallel.c): versioned struct sizes, copy
//! callbacks, the same values on 1, 2 and 8 threads, and the stop flag across threads.

use crate::common;

#[test]
fn parallel_search_from_c() {
    let summary = common::run_c_test("parallel");
    assert!(
        summary.starts_with("parallel: 400 values compared"),
        "{summary}"
    );
}
