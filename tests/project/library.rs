//! The built shared library: its soname, and exactly the committed list of exported symbols.

use crate::common;

use std::process::Command;

fn tool_output(tool: &str, args: &[&str]) -> String {
    let lib = common::lib_dir().join(common::SONAME);
    let out = Command::new(tool)
        .args(args)
        .arg(&lib)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert!(
        out.status.success(),
        "{tool} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn shared_library_has_the_soname() {
    let dynamic = tool_output("readelf", &["-d"]);
    assert!(
        dynamic.contains(&format!("Library soname: [{}]", common::SONAME)),
        "{dynamic}"
    );
}

#[test]
fn exports_exactly_the_committed_symbols() {
    let nm = tool_output("nm", &["-D", "--defined-only"]);
    let mut exported: Vec<&str> = nm
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    exported.sort();
    let mut committed = std::fs::read_to_string(common::root().join("abi/symbols.txt")).unwrap();
    if cfg!(feature = "onnx") {
        // What the feature adds, listed apart.
        let onnx = common::root().join("abi/symbols_onnx.txt");
        committed.push_str(&std::fs::read_to_string(onnx).unwrap());
    }
    let mut committed: Vec<&str> = committed.lines().collect();
    committed.sort();
    assert_eq!(
        exported, committed,
        "exported symbols changed: update abi/symbols.txt if that is intended"
    );
    for name in exported {
        assert!(
            name.starts_with("mm_") || name == "minimax" || name == "alphabeta",
            "{name} lacks the mm_ prefix"
        );
    }
}
