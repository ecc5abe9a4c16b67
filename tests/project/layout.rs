//! The search modules' imports run one way (issue 21): `search/mod.rs` declares the
//! modules and chooses the method; no module under `src/search/` imports from `mod.rs`
//! itself, and no two import each other, directly or around a circle. A reader can then
//! take the modules in order, each built only on the ones before it.

use std::collections::{BTreeMap, BTreeSet};

use crate::common;

/// The sibling modules each module of `src/search/` names (as `super::module` from a file
/// of the top level or a directory's `mod.rs`, or as `crate::search::module`), read from
/// its code: comments and the unit tests at a file's end left out. A module in a
/// directory is all of its files. A name that is not a module is an import from
/// `mod.rs`, returned as "mod".
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let dir = common::root().join("src/search");
    // Each module's name and files, with whether `super::` in that file names a sibling.
    let mut modules: BTreeMap<String, Vec<(std::path::PathBuf, bool)>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            for inner in std::fs::read_dir(&path).unwrap() {
                let inner = inner.unwrap().path();
                let top = inner.file_stem().is_some_and(|s| s == "mod");
                files.push((inner, top));
            }
            modules.insert(name, files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "mod" {
            modules.insert(name, vec![(path, true)]);
        }
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (name, files) in &modules {
        let mut uses = BTreeSet::new();
        for (file, super_is_search) in files {
            let text = std::fs::read_to_string(file).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            for line in code.lines() {
                let line = line.split("//").next().unwrap();
                let group = (*super_is_search && line.contains("super::{"))
                    || line.contains("crate::search::{");
                assert!(
                    !group,
                    "{}: a `{{..}}` group hides which modules it imports: name each",
                    file.display()
                );
                let mut prefixes = vec!["crate::search::"];
                if *super_is_search {
                    prefixes.push("super::");
                }
                for prefix in prefixes {
                    for (i, _) in line.match_indices(prefix) {
                        if prefix == "super::" && line[..i].ends_with("search::") {
                            continue; // counted as crate::search::
                        }
                        let rest = &line[i + prefix.len()..];
                        let ident: String = rest
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        uses.insert(if names.contains(&ident) {
                            ident
                        } else {
                            "mod".to_string()
                        });
                    }
                }
            }
        }
        uses.remove(name);
        graph.insert(name.clone(), uses);
    }
    graph
}

/// A circle of imports starting at `from`, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        start: &str,
    ) -> Option<Vec<String>> {
        let last = path.last().unwrap().clone();
        for next in graph.get(&last).into_iter().flatten() {
            if next == start {
                let mut found = path.clone();
                found.push(next.clone());
                return Some(found);
            }
            if !path.contains(next) {
                path.push(next.clone());
                if let Some(c) = walk(graph, path, start) {
                    return Some(c);
                }
                path.pop();
            }
        }
        None
    }
    walk(graph, &mut vec![from.to_string()], from)
}

#[test]
fn search_modules_import_one_way() {
    let graph = imports();
    assert!(graph.contains_key("engine") && graph.contains_key("parallel"));
    for (name, uses) in &graph {
        assert!(
            !uses.contains("mod"),
            "{name}.rs imports from search/mod.rs, which imports it: import the module \
             that defines the item"
        );
    }
    for name in graph.keys() {
        if let Some(c) = circle(&graph, name) {
            panic!("the search modules import each other: {}", c.join(" -> "));
        }
    }
}

#[test]
fn the_checker_sees_a_circle() {
    // The test above must be able to fail: a made-up circle is found.
    let mut graph = imports();
    graph.get_mut("value").unwrap().insert("engine".to_string());
    let found = circle(&graph, "engine").expect("engine -> value -> engine");
    assert_eq!(found.first(), found.last());
}

/// Every source file under `src/`, every example and every top-level folder is named in
/// docs/layout.md, and its list of the files under `src/search/` with `unsafe` is the
/// true one (issue 40 found both out of date).
#[test]
fn the_layout_guide_names_every_file_and_the_unsafe_ones() {
    let root = common::root();
    let guide = std::fs::read_to_string(root.join("docs/layout.md")).unwrap();
    let named =
        |name: &str| guide.contains(&format!("`{name}")) || guide.contains(&format!("/{name}`"));
    let mut missing = Vec::new();
    let mut stack = vec![root.join("src")];
    let mut with_unsafe = BTreeSet::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !named(&name) {
                missing.push(path.strip_prefix(&root).unwrap().display().to_string());
            }
            let rel = path.strip_prefix(root.join("src/search")).ok();
            let text = std::fs::read_to_string(&path).unwrap();
            if let Some(rel) = rel.filter(|_| text.contains("unsafe ")) {
                with_unsafe.insert(rel.display().to_string());
            }
        }
    }
    for dir in ["examples", "."] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let skip =
                name.starts_with('.') && name != ".ci" || name == "target" || name == "build";
            if path.is_dir() && !skip && !named(&name) {
                missing.push(format!("{dir}/{name}"));
            }
        }
    }
    // And by path: every file at the top, in c_examples/ and benches/ (but build output),
    // and in tests/ other than the test files themselves (issue 49's audit found
    // cbindgen.toml, tests/common/, tests/valgrind.supp, three of benches/peer/src/ and
    // c_examples/othello.c unnamed while the test passed on bare names).
    let tracked = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(&root)
        .output()
        .expect("git");
    for path in String::from_utf8_lossy(&tracked.stdout).split('\0') {
        let top = !path.contains('/') && !path.is_empty() && path != ".gitignore";
        let listed = path.starts_with("c_examples/")
            || path.starts_with("benches/")
            || (path.starts_with("tests/")
                && !path.starts_with("tests/c/")
                && !(path.matches('/').count() <= 2
                    && path.ends_with(".rs")
                    && !path.ends_with("/main.rs")));
        if (top || listed) && !guide.contains(&format!("`{path}`")) {
            missing.push(path.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "not named in docs/layout.md: {missing:?}"
    );
    // The guide's sentence on `unsafe` names exactly these.
    let at = guide
        .find("The only `unsafe` under `src/search/`")
        .expect("the sentence");
    let sentence = &guide[at..at + guide[at..].find("\n- ").unwrap()];
    for file in &with_unsafe {
        assert!(
            sentence.contains(&format!("`{file}`")),
            "{file} has unsafe: {sentence}"
        );
    }
    let listed =
        sentence.matches(".rs`").count() - sentence.matches("tests/project/layout.rs`").count();
    assert_eq!(
        listed,
        with_unsafe.len(),
        "{with_unsafe:?} against: {sentence}"
    );
}
