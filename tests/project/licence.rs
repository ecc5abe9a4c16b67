//! Licence hygiene: `benches/pons_solver.h` is a translation of AGPL-3.0 code, used only by
//! the benchmark. It must say so, and nothing that is built into the library or shipped as
//! an example may include it.

use crate::common;

use std::path::Path;

fn files_under(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn the_agpl_reference_is_marked_and_stays_in_the_benchmark() {
    let root = common::root();
    let reference = std::fs::read_to_string(root.join("benches/pons_solver.h")).unwrap();
    assert!(reference.contains("SPDX-License-Identifier: AGPL-3.0-or-later"));
    assert!(reference.contains("never compiled into libminimax"));
    let mut files = Vec::new();
    for dir in ["src", "c_examples", "include", "examples"] {
        files_under(&root.join(dir), &mut files);
    }
    files.push(root.join("build.rs"));
    for f in &files {
        let text = std::fs::read(f).unwrap();
        let text = String::from_utf8_lossy(&text);
        assert!(
            !text.contains("pons_solver"),
            "{} mentions the AGPL reference",
            f.display()
        );
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(
        readme.contains("AGPL-3.0-or-later"),
        "the README's licence section names it"
    );
    // The built libraries hold no symbol of it.
    common::lib_dir(); // builds them
    let so = common::cargo_lib_dir().join("libminimax.so");
    let out = std::process::Command::new("nm")
        .arg("-D")
        .arg(&so)
        .output()
        .unwrap();
    let symbols = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && symbols.contains("mm_search"));
    assert!(
        !symbols.contains("pons_"),
        "libminimax.so holds the reference"
    );
    // The static library's bytes, not `nm`'s reading of them: a release build's (LTO)
    // objects may be LLVM bitcode, which the system's `nm` cannot always read; its
    // names are in the bytes either way.
    let archive = std::fs::read(common::cargo_lib_dir().join("libminimax.a")).unwrap();
    let holds = |name: &[u8]| archive.windows(name.len()).any(|w| w == name);
    assert!(holds(b"mm_search"), "libminimax.a names mm_search");
    assert!(!holds(b"pons_"), "libminimax.a holds the reference");
}
