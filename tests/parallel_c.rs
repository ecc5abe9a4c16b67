//! Parallel search through the C API (tests/c/parallel.c): versioned struct sizes, copy
//! callbacks, the same values on 1, 2 and 8 threads, and the stop flag across threads.

mod common;

use common::{compile, run, scratch, stderr, stdout};

#[test]
fn parallel_search_from_c() {
    let exe = scratch("bin").join("parallel");
    compile(
        &["tests/c/parallel.c"],
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
        summary.starts_with("parallel: 400 values compared") && summary.ends_with("failures 0\n"),
        "{summary}"
    );
}
