//! `make install` into a temporary prefix, then a C program built from outside the
//! source tree the two usual ways: `pkg-config --cflags --libs minimax` (the shared
//! library, found at run time through its soname) and `pkg-config --static` (the archive).
//! `make uninstall` then removes exactly the installed files.

mod common;

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
            "lib/libminimax.so.0",
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
        std::fs::read_link(lib.join("libminimax.so.0")).unwrap(),
        PathBuf::from(format!("libminimax.so.{}", env!("CARGO_PKG_VERSION")))
    );

    // A program outside the source tree: the first document's demo.
    let app = base.join("app");
    std::fs::create_dir_all(&app).unwrap();
    for f in ["minimax_demo.c", "read_input.h"] {
        std::fs::copy(root().join("c_examples").join(f), app.join(f)).unwrap();
    }
    let pc = lib.join("pkgconfig");
    let env = [("PKG_CONFIG_PATH", pc.as_path())];
    let builds = [
        (
            "demo_shared",
            "cc -std=c99 minimax_demo.c -o demo_shared $(pkg-config --cflags --libs minimax)",
        ),
        (
            "demo_static",
            "cc -std=c99 minimax_demo.c -o demo_static $(pkg-config --cflags minimax) \
             -Wl,-Bstatic $(pkg-config --static --libs minimax)",
        ),
    ];
    for (name, script) in builds {
        let out = sh(script, &app, &env);
        assert!(
            out.status.success(),
            "{script}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let exe = app.join(name);
        let needs = needed(&exe);
        let mut cmd = Command::new(&exe);
        if name == "demo_shared" {
            // Linked by the soname, found through the loader's path.
            assert!(needs.contains("[libminimax.so.0]"), "{needs}");
            cmd.env("LD_LIBRARY_PATH", &lib);
        } else {
            assert!(!needs.contains("libminimax"), "{needs}");
        }
        let mut child = cmd
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
        assert!(out.status.success(), "{name}");
        assert!(
            String::from_utf8_lossy(&out.stdout).ends_with("The optimal value is :5"),
            "{name}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
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
