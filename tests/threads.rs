//! The library from 8 pthreads (tests/c/threads.c): tree solves and game searches on each
//! thread's own data equal a sequential run, each thread sees only its own
//! `mm_last_error`, and a search stopped from another thread returns promptly with a
//! legal move.

mod common;

use common::{compile, run, scratch, stderr, stdout};

#[test]
fn eight_threads_agree_with_a_sequential_run() {
    let exe = scratch("bin").join("threads");
    compile(
        &["tests/c/threads.c"],
        &exe,
        false,
        &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread"],
        true,
    );
    let out = run(&exe, &[], "");
    let summary = stdout(&out);
    println!("{summary}");
    assert!(out.status.success(), "{summary}{}", stderr(&out));
    assert!(
        summary.starts_with("threads 8:") && summary.contains("failures 0"),
        "{summary}"
    );
}
