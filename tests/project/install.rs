//! `make install` into a temporary prefix, then a C program built from outside the
//! source tree the two usual ways: `pkg-config --cflags --libs minimax` (the shared
//! library, found at run time through its soname) and `pkg-config --static` (the archive).
//! `make uninstall` then removes exactly the installed files.

use crate::common;

use common::{files, root, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn make(args: &[&str]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new("make")
        .arg("-C")
        .arg(root())
        .arg(format!("CARGO={cargo}"))
        .args(args)
        .output()
        .expect("make runs");
    assert!(
        out.status.success(),
        "make {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn sh(script: &str, dir: &Path, env: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script).current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("sh runs")
}

fn needed(exe: &Path) -> String {
    let out = Command::new("readelf")
        .arg("-d")
        .arg(exe)
        .output()
        .expect("readelf runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn install_then_build_with_pkg_config_dynamic_and_static_then_uninstall() {
    let _installing = common::INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let base = scratch("install");
    let prefix = base.join("prefix");
    let _ = std::fs::remove_dir_all(&prefix);
    let prefix_arg = format!("PREFIX={}", prefix.display());
    make(&["install", &prefix_arg]);
    let installed = files(&prefix);
    assert_eq!(
        installed,
        [
            "include/minimax.h",
            "lib/libminimax.a",
            "lib/libminimax.so",
            format!("lib/{}", common::SONAME).as_str(),
            format!("lib/libminimax.so.{}", env!("CARGO_PKG_VERSION")).as_str(),
            "lib/pkgconfig/minimax.pc",
        ]
    );
    let lib = prefix.join("lib");
    assert_eq!(
        std::fs::read_link(lib.join("libminimax.so")).unwrap(),
        PathBuf::from(format!("libminimax.so.{}", env!("CARGO_PKG_VERSION")))
    );
    assert_eq!(
        std::fs::read_link(lib.join(common::SONAME)).unwrap(),
        PathBuf::from(format!("libminimax.so.{}", env!("CARGO_PKG_VERSION")))
    );

    // A program outside the source tree (the first document's demo as app.c), built by
    // the install guide's own lines, with PREFIX set as a user would.
    let app = base.join("app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::copy(root().join("c_examples/minimax_demo.c"), app.join("app.c")).unwrap();
    std::fs::copy(
        root().join("c_examples/read_input.h"),
        app.join("read_input.h"),
    )
    .unwrap();
    let guide = std::fs::read_to_string(root().join("docs/c-api.md")).unwrap();
    let section = guide.split("## Installing").nth(1).unwrap();
    let block = section
        .split("```sh")
        .nth(2)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let export = block.lines().find(|l| l.starts_with("export ")).unwrap();
    let builds: Vec<&str> = block.lines().filter(|l| l.starts_with("cc ")).collect();
    assert_eq!(builds.len(), 2, "{block}");
    for (i, line) in builds.iter().enumerate() {
        let script = format!("{}\n{}", export, line);
        let out = sh(&script, &app, &[("PREFIX", prefix.as_path())]);
        assert!(
            out.status.success(),
            "{script}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let exe = app.join("app");
        let needs = needed(&exe);
        if i == 0 {
            // Linked by the soname, found through the rpath the guide gives.
            assert!(needs.contains(&format!("[{}]", common::SONAME)), "{needs}");
        } else {
            assert!(!needs.contains("libminimax"), "{needs}");
        }
        // No LD_LIBRARY_PATH: the program starts as the guide says it does.
        let mut child = Command::new(&exe)
            .env_remove("LD_LIBRARY_PATH")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"8\n3 5 6 9 1 2 0 -1\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{line}");
        assert!(
            String::from_utf8_lossy(&out.stdout).ends_with("The optimal value is :5"),
            "{line}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        std::fs::remove_file(&exe).unwrap();
    }

    make(&["uninstall", &prefix_arg]);
    assert_eq!(
        files(&prefix),
        Vec::<String>::new(),
        "uninstall leaves no file"
    );

    // DESTDIR stages the same files under another root, and the .pc still names PREFIX.
    let stage = base.join("stage");
    let _ = std::fs::remove_dir_all(&stage);
    let destdir = format!("DESTDIR={}", stage.display());
    make(&["install", "PREFIX=/opt/minimax", &destdir]);
    let staged = files(&stage.join("opt/minimax"));
    assert_eq!(staged, installed);
    let pc_text =
        std::fs::read_to_string(stage.join("opt/minimax/lib/pkgconfig/minimax.pc")).unwrap();
    assert!(pc_text.contains("prefix=/opt/minimax\n"), "{pc_text}");
    assert!(
        pc_text.contains("Libs.private: -Wl,-Bdynamic -l"),
        "{pc_text}"
    );
    make(&["uninstall", "PREFIX=/opt/minimax", &destdir]);
    assert_eq!(files(&stage), Vec::<String>::new());
}
