//! The README's link recipe, exactly as written, in a fresh clone: `make lib`, then the
//! `cc` lines (shared with an rpath, and static), and the programs start and answer. A
//! user who followed an earlier recipe without its `ln -sf` line got "libminimax.so.0:
//! cannot open shared object file"; this pins the recipe that cannot miss it.

use crate::common;

use std::process::Command;

fn sh(dir: &std::path::Path, line: &str) -> std::process::Output {
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "`{line}` failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn the_readme_link_recipe_works_in_a_fresh_clone() {
    let root = common::root();
    if !root.join(".git").exists() {
        println!("skipped: not a git checkout (a packaged source), nothing to clone");
        return;
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let section = &readme[readme.find("## Linking from C and C++").unwrap()..];
    let block = &section[section.find("```sh\n").unwrap() + 6..];
    let block = &block[..block.find("```").unwrap()];
    let lines: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(lines[0], "make lib", "the recipe starts with make lib");
    let shared = lines
        .iter()
        .find(|l| l.starts_with("cc ") && l.contains("-rpath"))
        .unwrap();
    let static_ = lines
        .iter()
        .find(|l| l.starts_with("cc ") && l.contains(".a "))
        .unwrap();

    let clone = common::scratch("recipe").join("clone");
    let _ = std::fs::remove_dir_all(&clone);
    let status = Command::new("git")
        .args(["clone", "--quiet"])
        .arg(&root)
        .arg(&clone)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::write(
        clone.join("prog.c"),
        "#include <stdio.h>\n#include \"minimax.h\"\nint main(void) {\n  \
         int s[8] = {3, 5, 6, 9, 1, 2, 0, -1};\n  printf(\"%d\\n\", minimax(0, 0, true, s, 3));\n  \
         return 0;\n}\n",
    )
    .unwrap();
    sh(&clone, lines[0]);
    for line in [shared, static_] {
        sh(&clone, line);
        let out = sh(&clone, "./prog");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "5\n", "{line}");
    }
    let _ = std::fs::remove_dir_all(&clone);
}
