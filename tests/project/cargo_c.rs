//! cargo-c: `cargo cinstall` installs the same files as `make install` (the library with
//! its soname, the links, the static library, the committed header and minimax.pc), and a
//! program builds against each install through pkg-config and runs. Skipped, saying so,
//! when cargo-c is not installed (`cargo install cargo-c`; Debian's package is too old to
//! read this edition-2024 manifest).

use crate::common;

use common::{files, root, scratch};
use std::path::Path;
use std::process::Command;

fn ok(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The install's files, with each link's target.
fn listing(prefix: &Path) -> Vec<String> {
    files(prefix)
        .into_iter()
        .map(|f| match std::fs::read_link(prefix.join(&f)) {
            Ok(target) => format!("{f} -> {}", target.display()),
            Err(_) => f,
        })
        .collect()
}

#[test]
fn cargo_cinstall_installs_what_make_install_does() {
    let _installing = common::INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let cargo = env!("CARGO");
    if !Command::new(cargo)
        .args(["cinstall", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        println!("skipped: cargo-c is not installed (cargo install cargo-c)");
        return;
    }
    let base = scratch("cargo_c");
    let (by_cargo_c, by_make) = (base.join("cargo-c"), base.join("make"));
    let _ = std::fs::remove_dir_all(&base);
    ok(Command::new(cargo)
        .args(["cinstall", "--release", "--libdir", "lib", "--prefix"])
        .arg(&by_cargo_c)
        .current_dir(root())
        .env_remove("CARGO_TARGET_DIR"));
    ok(Command::new("make")
        .arg("install")
        .arg(format!("PREFIX={}", by_make.display()))
        .current_dir(root()));
    let installed = listing(&by_make);
    assert_eq!(listing(&by_cargo_c), installed);
    let full = format!("libminimax.so.{}", env!("CARGO_PKG_VERSION"));
    assert!(installed.contains(&format!("lib/{} -> {full}", common::SONAME)));
    assert_eq!(
        std::fs::read(by_cargo_c.join("include/minimax.h")).unwrap(),
        std::fs::read(root().join("include/minimax.h")).unwrap()
    );
    let soname = ok(Command::new("readelf")
        .arg("-d")
        .arg(by_cargo_c.join("lib").join(&full)));
    let soname = String::from_utf8_lossy(&soname.stdout);
    assert!(
        soname.contains(&format!("[{}]", common::SONAME)),
        "{soname}"
    );

    // A program built against each install through pkg-config starts and answers.
    for prefix in [&by_cargo_c, &by_make] {
        let exe = prefix.join("demo");
        let script = format!(
            "cc -std=c99 -x c - -o '{}' $(pkg-config --cflags --libs minimax)",
            exe.display()
        );
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(
                b"#include <stdio.h>\n#include \"minimax.h\"\nint main(void) {\n\
                  int s[8] = {3, 5, 6, 9, 1, 2, 0, -1};\n\
                  printf(\"%d\\n\", minimax(0, 0, true, s, 3));\nreturn 0;\n}\n",
            )
            .unwrap();
        assert!(child.wait().unwrap().success(), "{script}");
        let out = ok(Command::new(&exe).env("LD_LIBRARY_PATH", prefix.join("lib")));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "5\n");
    }
}
