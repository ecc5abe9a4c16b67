//! Every C and C++ code block of the README and the guides in docs/ compiles (as C99 or
//! C++ with warnings as errors); a block with a `main` is also linked against the library
//! and run, and must exit 0 (each asserts its own answer). The Rust blocks are doctests
//! (src/lib.rs includes the same files under `cfg(doctest)`).
//!
//! The `text` blocks that show what a command prints are kept true (issue 40): one that
//! starts with `$ command` is a transcript, which the test runs (the C examples named
//! `build/NAME` built first) and compares line by line, `[..]` in a line matching any
//! text there (a time, say). Any other `text` block must say what it is on the line
//! before it: `<!-- file: PATH -->`, a file's text, compared with the file; or
//! `<!-- sample: DATE, `command` -->`, a dated run of a command whose output varies
//! (timings), with the command that reproduces it. A sample is rerun and each of its
//! lines must be printed again, numbers masked (`make samples` for all of them; `cargo
//! test` for those whose comment says they take "under a minute").

use crate::common;

use common::{build_example, compile, root, run, scratch, stderr, stdout};

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
    let dir = scratch("docs");
    let (mut compiled, mut ran) = (0, 0);
    for (path, text) in docs() {
        let name = std::path::Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
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

/// The README and the guides, as (name, text).
fn docs() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    files.sort();
    let name = |p: &std::path::Path| p.strip_prefix(root()).unwrap().display().to_string();
    files
        .iter()
        .map(|f| (name(f), std::fs::read_to_string(f).unwrap()))
        .collect()
}

/// The `text` blocks of a Markdown text, as (the line before the fence, the block).
fn text_blocks(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("```") {
            let lang = lines[i].trim_start_matches('`').trim();
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].starts_with("```"))
                .unwrap();
            if lang == "text" {
                let before = if i > 0 { lines[i - 1] } else { "" };
                out.push((before.to_string(), lines[i + 1..end].join("\n")));
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `line` matches `pattern`, in which `[..]` matches any text.
fn matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap();
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Runs a transcript's command in the repository, with `build/NAME` standing for the C
/// example `c_examples/NAME.c` (built) and any other `build/` path for a scratch folder.
fn run_transcript(command: &str) -> String {
    let scratch_dir = scratch("transcripts");
    let mut cmd = String::new();
    let mut rest = command;
    while let Some(at) = rest.find("build/") {
        cmd.push_str(&rest[..at]);
        let after = &rest[at + "build/".len()..];
        let end = after
            .find(|c: char| c.is_whitespace())
            .unwrap_or(after.len());
        let word = &after[..end];
        if root().join("c_examples").join(format!("{word}.c")).exists() {
            cmd.push_str(build_example(&format!("{word}.c")).to_str().unwrap());
        } else {
            cmd.push_str(scratch_dir.join(word).to_str().unwrap());
        }
        rest = &after[end..];
    }
    cmd.push_str(rest);
    sh(&cmd)
}

/// What `command` prints, run by `sh` in the repository (it must succeed).
fn sh(command: &str) -> String {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{command}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn every_output_shown_in_the_docs_is_checked_or_a_dated_sample() {
    let (mut transcripts, mut files, mut samples) = (0, 0, 0);
    for (name, text) in docs() {
        for (before, block) in text_blocks(&text) {
            if let Some(command) = block.lines().next().and_then(|l| l.strip_prefix("$ ")) {
                let want: Vec<&str> = block.lines().skip(1).collect();
                let got = run_transcript(command);
                let got: Vec<&str> = got.lines().collect();
                let same =
                    want.len() == got.len() && want.iter().zip(&got).all(|(w, g)| matches(w, g));
                assert!(
                    same,
                    "{name}: `{command}` printed\n{}\nwhere the docs show\n{}",
                    got.join("\n"),
                    want.join("\n")
                );
                transcripts += 1;
            } else if let Some(path) = before.strip_prefix("<!-- file: ") {
                let path = path.trim_end_matches("-->").trim();
                let file = std::fs::read_to_string(root().join(path)).unwrap();
                assert_eq!(
                    block.trim_end(),
                    file.trim_end(),
                    "{name}: the block of {path}"
                );
                files += 1;
            } else if let Some(sample) = before.strip_prefix("<!-- sample: ") {
                // A date, then the command in backquotes.
                let dated = sample.len() > 10
                    && sample[..10].bytes().enumerate().all(|(i, b)| match i {
                        4 | 7 => b == b'-',
                        _ => b.is_ascii_digit(),
                    });
                let command = sample.split('`').nth(1).is_some_and(|c| !c.is_empty());
                assert!(
                    dated && command,
                    "{name}: a sample needs a date and a `command`: {before}"
                );
                samples += 1;
            } else {
                panic!(
                    "{name}: a text block neither a transcript nor marked as a file or a dated sample:\n{block}"
                );
            }
        }
    }
    println!("{transcripts} transcripts run, {files} files compared, {samples} dated samples");
    assert!(transcripts >= 3, "{transcripts} transcripts");
}

/// `line` with each number (a run of digits, with `.` or `,` between digits, and a sign)
/// as `#`, and a target's verdict (`met`, `NOT MET`, `missed`) as `met`: what a rerun of
/// a sample prints again when only its figures moved.
fn masked(line: &str) -> String {
    let line = line.replace("NOT MET", "met").replace("missed", "met");
    let chars: Vec<char> = line.trim_end().chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let signed = (c == '-' || c == '+') && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
        if c.is_ascii_digit() || signed {
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_digit()
                    || (chars[i] == '.' || chars[i] == ',')
                        && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
            {
                i += 1;
            }
            out.push('#');
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The lines of a sample that a rerun's output does not print again, in order, numbers
/// masked: a sample may show part of the output (the lines in between are skipped), but
/// every line it shows must be one the command prints, with only its figures changed.
fn drifted(sample: &str, output: &str) -> Vec<String> {
    let got: Vec<String> = output.lines().map(masked).collect();
    let mut at = 0;
    let mut missing = Vec::new();
    for line in sample.lines().filter(|l| !l.trim().is_empty()) {
        let want = masked(line);
        match got[at..].iter().position(|g| *g == want) {
            Some(k) => at += k + 1,
            None => missing.push(line.to_string()),
        }
    }
    missing
}

/// The samples of the docs: (file, the comment's command, whether the comment says it
/// runs in under a minute, the block).
fn samples() -> Vec<(String, String, bool, String)> {
    let mut out = Vec::new();
    for (name, text) in docs() {
        for (before, block) in text_blocks(&text) {
            if let Some(sample) = before.strip_prefix("<!-- sample: ") {
                let command = sample.split('`').nth(1).unwrap_or_default().to_string();
                out.push((
                    name.clone(),
                    command,
                    sample.contains("under a minute"),
                    block,
                ));
            }
        }
    }
    out
}

/// Reruns a sample's command in the repository: `target/release/examples/NAME ARGS`
/// through cargo (built if need be; a quick sample runs the example `cargo test` built,
/// in its own profile: only numbers differ), a program `make` built in `build/` as it is, any
/// other command as a transcript's.
fn run_sample(command: &str, release: bool) -> String {
    let program = command.split_whitespace().next().unwrap_or_default();
    if let Some(rest) = command.strip_prefix("target/release/examples/") {
        let (name, args) = rest.split_once(' ').unwrap_or((rest, ""));
        // `cargo test` has built the examples in its own profile: that binary, else cargo.
        let built = std::env::current_exe()
            .ok()
            .and_then(|t| Some(t.parent()?.parent()?.join("examples").join(name)))
            .filter(|p| !release && p.exists());
        match built {
            Some(exe) => {
                let args: Vec<&str> = args.split_whitespace().collect();
                let out = run(&exe, &args, "");
                assert!(out.status.success(), "{command}: {}", stderr(&out));
                stdout(&out)
            }
            None => {
                let profile = if release { "--release " } else { "" };
                run_transcript(&format!(
                    "cargo run {profile}--quiet --example {name} -- {args}"
                ))
            }
        }
    } else if program.starts_with("build/") && root().join(program).exists() {
        sh(command)
    } else {
        run_transcript(command)
    }
}

/// Checks each sample (all, or the quick ones) against a rerun of its command.
fn check_samples(all: bool) {
    let mut rerun = 0;
    let mut stale = Vec::new();
    // One run a command (four samples come from `make bench`).
    let mut outputs = std::collections::HashMap::new();
    for (name, command, quick, block) in samples() {
        if !(all || quick) {
            continue;
        }
        let output = outputs
            .entry(command.clone())
            .or_insert_with(|| run_sample(&command, all));
        let missing = drifted(&block, output);
        if !missing.is_empty() {
            stale.push(format!(
                "{name}: `{command}` no longer prints\n{}",
                missing.join("\n")
            ));
        }
        rerun += 1;
    }
    println!("{rerun} samples rerun");
    assert!(stale.is_empty(), "{}", stale.join("\n\n"));
    assert!(rerun >= 1, "{rerun} samples rerun");
}

/// The samples whose comment says they take "under a minute", rerun in every `cargo
/// test` (issue 49): an edited or stale sample fails. Not in the C programs' check modes
/// (tests/common). Only `examples/limits` is marked: the dice and Star1/Star2 examples
/// take 22-44 s here and 2048's games 64 s, and CI runs the tests twice (two toolchains)
/// within its budget; `make samples` reruns them.
#[test]
fn quick_samples_print_what_a_rerun_prints() {
    if std::env::var_os("MM_CHECK").is_some() {
        return;
    }
    check_samples(false);
}

/// Every sample, rerun (`make samples`, by hand: the benchmarks and matches take an hour
/// and more, and the Python ones need `make python-test`'s environment).
#[test]
#[ignore]
fn every_sample_prints_what_a_rerun_prints() {
    check_samples(true);
}

#[test]
fn a_sample_is_stale_when_a_line_is_not_printed_again() {
    let out = "Nodes: 120 in 3.5 ms\nvalue 7 (proven)\nSUMMARY x=1.5\n";
    assert!(drifted("Nodes: 99 in 0.25 ms\nSUMMARY x=-2", out).is_empty());
    assert_eq!(drifted("value 7 (exact)", out), ["value 7 (exact)"]);
    // In order: a line shown before another must be printed before it.
    assert_eq!(
        drifted("SUMMARY x=1\nNodes: 1 in 1 ms", out),
        ["Nodes: 1 in 1 ms"]
    );
    assert_eq!(masked("L3_R1 1,739 moves -0.5x"), "L#_R# # moves #x");
    assert_eq!(masked("TARGET a: NOT MET"), masked("TARGET a: met"));
}

#[test]
fn a_pattern_matches_as_it_should() {
    assert!(matches("4455 18 [..]", "4455 18 10 31"));
    assert!(matches("a [..] c [..]", "a b c d"));
    assert!(!matches("4455 18 2 [..]", "4455 18 10 31"));
    assert!(matches("exact", "exact") && !matches("exact", "exactly"));
}
