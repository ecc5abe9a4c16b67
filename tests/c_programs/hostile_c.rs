//! The C API against a hostile or careless caller (tests/c/hostile.c): NULL everywhere,
//! sizes near SIZE_MAX, absurd options, searches from inside callbacks, a table freed
//! during its search, and one table on two threads. Also run under the sanitizers and
//! valgrind by .ci/run.

use crate::common;

#[test]
fn a_hostile_caller_gets_statuses() {
    let summary = common::run_c_test("hostile");
    assert!(summary.starts_with("hostile: "), "{summary}");
}
