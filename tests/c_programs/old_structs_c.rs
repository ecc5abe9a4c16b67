//! Programs compiled against older headers (tests/c/old_structs.c): their smaller structs
//! are never written or read past, the sized init functions take every known size and
//! refuse the others, and the result says why fewer threads searched. Also run under the
//! sanitizers and valgrind by .ci/run, where a write past a struct is a report.

use crate::common;

#[test]
fn older_structs_are_never_written_past() {
    let summary = common::run_c_test("old_structs");
    assert!(summary.starts_with("old_structs: "), "{summary}");
}
