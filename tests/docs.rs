//! Every C and C++ code block of the README and the guides in docs/ compiles (as C99 or
//! C++ with warnings as errors); a block with a `main` is also linked against the library
//! and run, and must exit 0 (each asserts its own answer). The Rust blocks are doctests
//! (src/lib.rs includes the same files under `cfg(doctest)`).

mod common;

use common::{compile, root, run, scratch, stderr, stdout};

/// The fenced blocks of a Markdown text, as (language, code).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some((_, code)), None) => {
                code.push_str(line);
                code.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

#[test]
fn every_c_block_of_the_docs_compiles_and_runs() {
    let mut files = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files.sort();
    let dir = scratch("docs");
    let (mut compiled, mut ran) = (0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        for (k, (lang, code)) in blocks(&text).into_iter().enumerate() {
            assert!(!lang.is_empty(), "{name}: block {k} has no language tag");
            let cpp = match lang.as_str() {
                "c" => false,
                "cpp" | "c++" => true,
                _ => continue,
            };
            let source = dir.join(format!("{name}_{k}.{}", if cpp { "cpp" } else { "c" }));
            std::fs::write(&source, &code).unwrap();
            let exe = dir.join(format!("{name}_{k}"));
            let std = if cpp { "-std=c++11" } else { "-std=c99" };
            let has_main = code.contains("int main(");
            let mut flags = vec![std, "-Wall", "-Wextra", "-Werror"];
            if !has_main {
                flags.push("-c");
            }
            compile(&[source.to_str().unwrap()], &exe, cpp, &flags, has_main);
            compiled += 1;
            if has_main {
                let out = run(&exe, &[], "");
                assert!(
                    out.status.success(),
                    "{name} block {k} failed:\n{code}\n{}{}",
                    stdout(&out),
                    stderr(&out)
                );
                ran += 1;
            }
        }
    }
    println!("{compiled} C/C++ blocks compiled, {ran} run");
    assert!(compiled >= 9 && ran >= 7, "{compiled} compiled, {ran} run");
}
