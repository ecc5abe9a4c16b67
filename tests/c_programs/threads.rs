//! The library from 8 pthreads (tests/c/threads.c): tree solves and game searches on each
//! thread's own data equal a sequential run, each thread sees only its own
//! `mm_last_error`, and a search stopped from another thread returns promptly with a
//! legal move.

use crate::common;

#[test]
fn eight_threads_agree_with_a_sequential_run() {
    let summary = common::run_c_test("threads");
    assert!(summary.starts_with("threads 8:"), "{summary}");
}
