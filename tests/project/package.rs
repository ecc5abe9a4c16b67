//! The published package: `libminimax` (the name `minimax` on crates.io belongs to
//! minimax-rs), with the library still called `minimax`; `cargo package --list` holds what
//! a source release needs and nothing from build output, the benchmarks (one file is
//! AGPL) or the fuzz corpora.

use crate::common;

use std::process::Command;

/// What `cargo ARGS` prints in the repository, which must succeed.
fn cargo(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(common::root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_package_lists_a_source_release_and_nothing_else() {
    let list = cargo(&["package", "--list", "--allow-dirty", "--offline"]);
    let files: Vec<&str> = list.lines().collect();
    for needed in [
        "Cargo.toml",
        "build.rs",
        "cbindgen.toml",
        "header.rs",
        "README.md",
        "Makefile",
        "src/lib.rs",
        "src/search/twoplayer/engine/mod.rs",
        "include/minimax.h",
        "c_examples/minimax_demo.c",
        "tests/c/parallel.c",
        "abi/symbols.txt",
        "abi/symbols_onnx.txt",
    ] {
        assert!(
            files.contains(&needed),
            "{needed} is missing from the package"
        );
    }
    for f in &files {
        for banned in ["target/", "build/", "fuzz/", "benches/", ".ci/"] {
            assert!(!f.starts_with(banned), "{f} should not be packaged");
        }
    }
    assert_eq!(env!("CARGO_PKG_NAME"), "libminimax");
}

/// What a Rust crate that depends on this one builds: no cbindgen (only the `capi`
/// feature, the C face's build, needs it), and with `capi`, cbindgen; no tract but with
/// the `onnx` feature.
#[test]
fn a_rust_dependent_does_not_build_cbindgen() {
    let tree = |features: &[&str]| {
        let mut args = vec![
            "tree",
            "--offline",
            "-e",
            "normal,build",
            "--prefix",
            "none",
        ];
        args.extend_from_slice(features);
        cargo(&args)
    };
    let plain = tree(&[]);
    assert!(
        plain.contains("libminimax") && plain.contains("libc"),
        "{plain}"
    );
    assert!(!plain.contains("cbindgen"), "{plain}");
    assert!(tree(&["--features", "capi"]).contains("cbindgen"));
    // The `onnx` feature's inference (tract) is built only with the feature.
    assert!(!plain.contains("tract"), "{plain}");
    assert!(tree(&["--features", "onnx"]).contains("tract-onnx"));
}

#[test]
fn the_readme_names_every_crate_a_rust_dependent_builds() {
    // Issue 49's audit: the README's list had left out psm's build helpers by name.
    let tree = cargo(&[
        "tree",
        "-e",
        "normal,build",
        "--prefix",
        "none",
        "--offline",
    ]);
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme.find("A Rust dependent builds the library").unwrap();
    let paragraph = &readme[start..start + readme[start..].find("\n\n").unwrap()];
    let mut crates: Vec<&str> = tree.lines().filter_map(|l| l.split(' ').next()).collect();
    crates.sort();
    crates.dedup();
    for name in crates.iter().filter(|&&n| n != "libminimax") {
        assert!(
            paragraph.contains(&format!("`{name}`")),
            "the README's paragraph does not name `{name}`: {paragraph}"
        );
    }
}
