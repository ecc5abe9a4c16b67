//! Hidden information through the C API (tests/c/hidden.c): mm_ismcts_search on a coin
//! the mover cannot see, against the odds worked out by hand, and the statuses of games
//! that break the hidden-information contract; mm_pimc_search on the coin against the
//! samples it handed out, valued apart, and its statuses. Also run under the sanitizers and
//! valgrind by .ci/run.

use crate::common;

#[test]
fn hidden_from_c() {
    let summary = common::run_c_test("hidden");
    assert!(summary.starts_with("hidden: 22 searches"), "{summary}");
}
