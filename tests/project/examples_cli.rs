//! Every Rust example answers `--help` with its usage (exit 0), and an argument it does
//! not take or an option without a number with a message and the usage (exit 2), rather
//! than a panic (exit 101) or running on (issue 40: hex and dots panicked on `--help`,
//! star and overhead ignored it and ran).

use crate::common;

use std::process::{Command, Output};

use common::{cargo_lib_dir, root};

/// Each example, and an option of its that takes a number (if any).
const EXAMPLES: [(&str, Option<&str>); 9] = [
    ("connect4", Some("--threads")),
    ("dots", Some("--rows")),
    ("hex", Some("--games")),
    ("star", Some("--trees")),
    ("overhead", None),
    ("dice", Some("--seeds")),
    ("limits", Some("--runs")),
    ("players", Some("--games")),
    ("hidden", Some("--games")),
];

/// Builds example `name` with the profile these tests were (a no-op when it is up to
/// date), and returns a runner for it.
fn built(name: &str) -> impl Fn(&[&str]) -> Output {
    let dir = cargo_lib_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--example", name, "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.parent().unwrap());
    if dir.file_name().is_some_and(|n| n == "release") {
        cmd.arg("--release");
    }
    assert!(
        cmd.status().unwrap().success(),
        "cargo build --example {name}"
    );
    let exe = dir.join("examples").join(name);
    move |args| Command::new(&exe).args(args).output().unwrap()
}

#[test]
fn every_example_answers_help_and_refuses_what_it_does_not_take() {
    for (name, numeric) in EXAMPLES {
        let run = built(name);
        let out = run(&["--help"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{name} --help");
        assert!(
            stdout.starts_with(&format!("usage: {name}")),
            "{name}: {stdout}"
        );

        let out = run(&["--no-such-option"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{name} --no-such-option: {stderr}"
        );
        assert!(
            stderr.contains("unknown argument --no-such-option"),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("usage: {name}")),
            "{name}: {stderr}"
        );

        if let Some(option) = numeric {
            let out = run(&[option, "many"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {option} many: {stderr}");
            assert!(stderr.contains("needs a number"), "{name}: {stderr}");
            let out = run(&[option]);
            assert_eq!(out.status.code(), Some(2), "{name} {option} (no value)");
        }
    }
}
