//! The committed header: it matches what build.rs generates (the same recipe,
//! `header.rs`, run here from cbindgen as a dev-dependency), and C and C++ programs
//! written for the textbook code compile against it without warnings.

use crate::common;
#[path = "../../header.rs"]
mod recipe;

use std::path::Path;
use std::sync::LazyLock;

static GENERATED: LazyLock<String> = LazyLock::new(|| {
    recipe::generate(
        &common::root(),
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    )
});

#[test]
fn committed_header_is_fresh() {
    let committed_path = common::root().join("include/minimax.h");
    if std::env::var_os("MM_BLESS").is_some() {
        std::fs::write(&committed_path, &*GENERATED).unwrap();
    }
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        committed == *GENERATED,
        "include/minimax.h differs from the header the build generates; run `make header` and commit it"
    );
}

#[test]
fn header_declares_version_macros_that_match_the_library() {
    let version = env!("CARGO_PKG_VERSION");
    assert!(GENERATED.contains(&format!("#define MM_VERSION_STRING \"{version}\"")));
    let major = env!("CARGO_PKG_VERSION_MAJOR");
    assert!(GENERATED.contains(&format!("#define MM_VERSION_MAJOR {major}\n")));
    let lib = minimax::ffi::version::mm_version();
    // SAFETY: mm_version returns a static NUL-terminated string.
    let lib = unsafe { std::ffi::CStr::from_ptr(lib) };
    assert_eq!(lib.to_str().unwrap(), version);
}

/// Everything the header defines carries the library's prefix, but for the documents'
/// two functions and the include guard: a C program's own names never collide.
#[test]
fn every_public_name_is_prefixed() {
    let allowed = |name: &str| {
        name.starts_with("mm_")
            || name.starts_with("MM_")
            || ["minimax", "alphabeta", "MINIMAX_H"].contains(&name)
    };
    let mut bad = Vec::new();
    for line in GENERATED.lines().map(str::trim) {
        let name = if let Some(rest) = line.strip_prefix("#define ") {
            rest.split([' ', '(']).next()
        } else if let Some(rest) = line.strip_prefix("typedef ") {
            rest.trim_end_matches([';', '{', ' '])
                .rsplit([' ', '*'])
                .next()
        } else if line.starts_with("enum ") || line.starts_with("struct ") {
            line.split(['(', ' ', '{', ';']).nth(1)
        } else {
            None
        };
        if let Some(name) = name.filter(|n| !n.is_empty() && !allowed(n)) {
            bad.push(name.to_owned());
        }
    }
    // Declarations at file scope (comments and struct bodies left out): the word before
    // the parameter list.
    let mut code = String::new();
    let mut rest = GENERATED.as_str();
    while let Some(open) = rest.find("/*") {
        code.push_str(&rest[..open]);
        rest = rest[open..].split_once("*/").map_or("", |(_, after)| after);
    }
    code.push_str(rest);
    let (mut depth, mut statement) = (0, String::new());
    for c in code
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.chars().chain(['\n']))
    {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ';' if depth == 0 => {
                if let Some(open) = statement.find('(') {
                    let name = statement[..open].trim_end().rsplit([' ', '*', '\n']).next();
                    if let Some(name) = name.filter(|n| !n.is_empty() && !allowed(n)) {
                        bad.push(name.to_owned());
                    }
                }
                statement.clear();
            }
            _ if depth == 0 => statement.push(c),
            _ => {}
        }
    }
    assert!(bad.is_empty(), "names without the mm_/MM_ prefix: {bad:?}");
    compile_only(
        "tests/c/own_names.c",
        false,
        &["-std=c99", "-Wall", "-Wextra", "-Werror", "-Iinclude"],
    );
}

fn compile_only(source: &str, cpp: bool, flags: &[&str]) {
    let out = common::scratch("obj")
        .join(Path::new(source).file_name().unwrap())
        .with_extension("o");
    let mut all = flags.to_vec();
    all.push("-c");
    common::compile(&[source], &out, cpp, &all, false);
}

#[test]
fn document_style_c_compiles_as_c99_without_warnings() {
    // The first document's own program, its minimax removed, passes `int scores[16]`.
    compile_only(
        "tests/c/document_minimax_linked.c",
        false,
        &["-std=c99", "-Wall", "-Wextra", "-Werror"],
    );
    compile_only(
        "c_examples/minimax_demo.c",
        false,
        &["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"],
    );
}

#[test]
fn cpp_compiles_without_warnings() {
    compile_only(
        "c_examples/alphabeta_demo.cpp",
        true,
        &["-Wall", "-Wextra", "-Werror"],
    );
    compile_only(
        "c_examples/alphabeta_demo.cpp",
        true,
        &["-std=c++11", "-pedantic", "-Wall", "-Wextra", "-Werror"],
    );
}
