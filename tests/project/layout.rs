//! The house by family (issues 21 and 68): the modules of each face (`src/search/`,
//! `src/ffi/`, `src/tree/`, the Python package's `python/src/`, the npm package's
//! `web/src/`, and `src/` itself) import
//! one way. A face's root (`mod.rs`, `lib.rs`) declares its modules and chooses among the
//! families; no module under `src/search/` imports from that root, and at every level of
//! folders no two modules import each other, directly or around a circle. A reader can
//! then take a folder's modules in order, each built only on the ones before it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common;

/// One file's module path from its crate's root (`search/players/maxn/node.rs` is
/// `search::players::maxn::node`; a `mod.rs` is its folder's), and the module paths its
/// code names: `crate::a::b` as it is, `super::` from the file's module, a `{..}` group
/// as each of its paths (the unit tests at a file's end, and comments, left out).
fn references(crate_root: &Path, file: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let rel = file.strip_prefix(crate_root).unwrap();
    let mut module: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
        module.pop();
    }
    let text = std::fs::read_to_string(file).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap();
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap();
        for prefix in ["crate::", "super::"] {
            for (at, _) in line.match_indices(prefix) {
                let before = &line[..at];
                if before.ends_with("::")
                    || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    continue; // `super::` inside a longer path, counted from its start
                }
                let mut base = if prefix == "crate::" {
                    Vec::new()
                } else {
                    module[..module.len().saturating_sub(1)].to_vec()
                };
                let mut rest = &line[at + prefix.len()..];
                while let Some(r) = rest.strip_prefix("super::") {
                    base.pop();
                    rest = r;
                }
                // A group names each of its paths (on one line: rustfmt's are).
                let group = rest.strip_prefix('{').map(|g| {
                    let end = g.find('}').unwrap_or_else(|| {
                        panic!("{}: a group over lines: {line}", file.display())
                    });
                    g[..end].split(',').map(str::trim).collect::<Vec<_>>()
                });
                for rest in group.unwrap_or_else(|| vec![rest]) {
                    let mut path = base.clone();
                    for part in rest.split("::") {
                        let ident: String = part
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        let whole = ident.len() == part.len();
                        if !ident.is_empty() {
                            path.push(ident);
                        }
                        if !whole || path.is_empty() {
                            break;
                        }
                    }
                    out.push(path);
                }
            }
        }
    }
    (module, out)
}

/// For each folder of a crate (by its module path, "" for the crate's root), the graph
/// of its modules: which of its direct modules (a file, or a folder with all its files)
/// names which other. A name of the folder's own root (an item of its `mod.rs`) is
/// "mod".
fn graphs(crate_root: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    let mut modules = BTreeSet::new();
    let mut refs = Vec::new();
    for file in common::files(crate_root)
        .iter()
        .filter(|f| f.ends_with(".rs"))
    {
        let (module, names) = references(crate_root, &crate_root.join(file));
        modules.insert(module.clone());
        refs.push((module, names));
    }
    for (module, names) in &refs {
        for folder_len in 0..module.len() {
            let folder = &module[..folder_len];
            let from = &module[folder_len];
            let graph = out.entry(folder.join("::")).or_default();
            let uses = graph.entry(from.clone()).or_default();
            for name in names {
                if name.len() <= folder_len || name[..folder_len] != *folder {
                    continue; // outside this folder
                }
                let to = &name[folder_len];
                let is_module = modules
                    .iter()
                    .any(|m| m.len() > folder_len && m[..=folder_len] == name[..=folder_len]);
                if !is_module {
                    uses.insert("mod".to_string());
                } else if to != from {
                    uses.insert(to.clone());
                }
            }
        }
    }
    out
}

/// A face of a crate: its folder (by module path; the Python package's is its root, ""),
/// the families' folders in it (the same names in every face), and whether its root
/// chooses among them (then nothing under it imports from that root).
struct Face {
    folder: &'static str,
    families: &'static [&'static str],
    chooses: bool,
}

const WITH_CHANCE: &[&str] = &[
    "twoplayer",
    "chance",
    "mcts",
    "batched",
    "players",
    "hidden",
];
const WITH_TREE: &[&str] = &["tree", "twoplayer", "mcts", "batched", "players", "hidden"];
/// The npm package's families so far, as files.
const WEB: &[&str] = &["twoplayer", "mcts"];

/// The crates' roots and their faces.
fn crates() -> Vec<(std::path::PathBuf, Vec<Face>)> {
    let root = common::root();
    let face = |folder, families, chooses| Face {
        folder,
        families,
        chooses,
    };
    vec![
        (
            root.join("src"),
            vec![
                face("search", WITH_CHANCE, true),
                face("ffi", WITH_TREE, false),
                face("tree", &[], false),
            ],
        ),
        (root.join("python/src"), vec![face("", WITH_TREE, false)]),
        (root.join("web/src"), vec![face("", WEB, true)]),
    ]
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
fn every_face_imports_one_way() {
    let mut folders = 0;
    for (crate_root, faces) in crates() {
        let graphs = graphs(&crate_root);
        for (folder, graph) in &graphs {
            folders += 1;
            for name in graph.keys() {
                if let Some(c) = circle(graph, name) {
                    panic!(
                        "{}: the modules of `{folder}` import each other: {}",
                        crate_root.display(),
                        c.join(" -> ")
                    );
                }
            }
        }
        for face in &faces {
            let folder = face.folder;
            let graph = graphs
                .get(folder)
                .unwrap_or_else(|| panic!("{}: no face `{folder}`", crate_root.display()));
            if face.chooses {
                for (name, uses) in graph {
                    assert!(
                        !uses.contains("mod"),
                        "{folder}::{name} imports from {folder}/mod.rs, which chooses among \
                         the families: import the module that defines the item"
                    );
                }
            }
            // The families are there, so that the check reads the folders it should, and
            // none imports another's modules: what two share lies below both.
            for family in face.families {
                let uses = graph.get(*family).unwrap_or_else(|| {
                    panic!("{}: no family {folder}::{family}", crate_root.display())
                });
                for other in uses {
                    assert!(
                        !face.families.contains(&other.as_str()),
                        "{}: {folder}::{family} imports {folder}::{other}: move what they \
                         share below both",
                        crate_root.display()
                    );
                }
            }
        }
    }
    assert!(folders > 10, "{folders} folders read");
}

#[test]
fn the_checker_sees_a_circle() {
    // The test above must be able to fail: a made-up circle is found, and a real import
    // of the other way is seen.
    let graphs = graphs(&common::root().join("src"));
    let mut graph = graphs["search"].clone();
    assert!(graph["players"].contains("game"), "{:?}", graph["players"]);
    graph
        .get_mut("value")
        .unwrap()
        .insert("twoplayer".to_string());
    let found = circle(&graph, "twoplayer").expect("twoplayer -> value -> twoplayer");
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
