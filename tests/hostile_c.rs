//! The C API against a hostile or careless caller (tests/c/hostile.c): NULL everywhere,
//! sizes near SIZE_MAX, absurd options, searches from inside callbacks, a table freed
//! during its search, and one table on two threads. Also run under the sanitizers and
//! valgrind by .ci/run.

mod common;

use common::{compile, run, scratch, stderr, stdout};

#[test]
fn a_hostile_caller_gets_statuses() {
    let exe = scratch("bin").join("hostile");
    compile(
        &["tests/c/hostile.c"],
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
        summary.starts_with("hostile: ") && summary.ends_with(" failures 0\n"),
        "{summary}"
    );
}
