//! The check modes must be able to fail: under `MM_CHECK=asan` or `MM_CHECK=valgrind`,
//! running a program with a leak, a heap overflow or (sanitizers only) undefined
//! behaviour must be reported. In the plain mode there is nothing to show.

use crate::common;

use common::{Check, check_mode, compile, run, scratch};

#[test]
fn deliberate_bugs_are_reported() {
    let mode = check_mode();
    if mode == Check::Plain {
        eprintln!("MM_CHECK is not set: nothing to show");
        return;
    }
    let exe = scratch("bin").join("deliberate_bugs");
    compile(
        &["tests/c/deliberate_bugs.c"],
        &exe,
        false,
        &["-std=c99", "-O0"],
        false,
    );
    // A clean run passes the check.
    assert!(run(&exe, &["none"], "").status.success());
    let mut bugs = vec!["leak", "overflow"];
    if mode == Check::Sanitizers {
        bugs.push("ub");
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let caught: Vec<bool> = bugs
        .iter()
        .map(|bug| std::panic::catch_unwind(|| run(&exe, &[bug], "")).is_err())
        .collect();
    std::panic::set_hook(hook);
    assert!(
        caught.iter().all(|&c| c),
        "{mode:?} missed one of {bugs:?}: {caught:?}"
    );
}
