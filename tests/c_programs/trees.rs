//! Trees of any shape: values and lines against the plain reference, Knuth-Moore counts,
//! the parser's errors and round trips, the DOT picture, CSR arrays, and tree_solver.c.

use crate::common;

use common::{Rng, build_example, run, stderr, stdout};
use minimax::ffi::parse_error::mm_parse_error;
use minimax::ffi::status::mm_status::*;
use minimax::ffi::tree::trees::{mm_tree, mm_tree_free, mm_tree_from_csr, mm_tree_parse};
use minimax::tree::reference::{minimax, minimax_of};
use minimax::tree::{Algorithm, Tree, dot, solve, text};
use std::mem::MaybeUninit;

/// A random tree in CSR form: up to 6 children, up to `max_depth` levels, many ties.
fn random_tree(rng: &mut Rng, max_depth: u32) -> Tree {
    let (mut offsets, mut children, mut values) = (vec![0], vec![], vec![]);
    let mut depth = vec![0u32];
    let mut next = 1;
    let mut i = 0;
    while i < depth.len() {
        let leaf = depth[i] == max_depth || (depth[i] > 0 && rng.range(0, 3) == 0);
        if leaf {
            values.push(rng.range(-4, 4) as i32);
        } else {
            values.push(0);
            for _ in 0..rng.range(1, 6) {
                children.push(next);
                depth.push(depth[i] + 1);
                next += 1;
            }
        }
        offsets.push(children.len());
        i += 1;
    }
    Tree::from_csr(&offsets, &children, &values).unwrap()
}

/// Checks a solution's line step by step against the reference values of the children.
fn check_line(tree: &Tree, max: bool, s: &minimax::tree::Solution) {
    let mut node = 0;
    let mut side = max;
    for &c in &s.line {
        let kids = tree.children(node);
        let values: Vec<i32> = kids.iter().map(|&k| minimax_of(tree, k, !side)).collect();
        let best = if side {
            values.iter().max()
        } else {
            values.iter().min()
        };
        assert_eq!(Some(&values[c]), best, "the chosen child is not optimal");
        assert_eq!(
            c,
            values.iter().position(|v| Some(v) == best).unwrap(),
            "not the leftmost optimal child"
        );
        node = kids[c];
        side = !side;
    }
    assert!(tree.is_leaf(node), "the line ends at an inner node");
    assert_eq!(tree.value(node), s.value);
}

#[test]
fn random_shapes_against_the_reference() {
    let mut rng = Rng::new(0x7ee);
    // (Under Miri, which checks the C API's pointer work, 16 rounds of smaller trees.)
    let (rounds, depths) = if cfg!(miri) { (16, 4) } else { (300, 8) };
    for round in 0..rounds {
        let tree = random_tree(&mut rng, 1 + round % depths);
        for max in [true, false] {
            let expected = minimax_of(&tree, 0, max);
            for algorithm in [Algorithm::Minimax, Algorithm::AlphaBeta, Algorithm::Fastest] {
                let s = solve(&tree, max, algorithm);
                assert_eq!(s.value, expected, "{}", text::print(&tree));
                check_line(&tree, max, &s);
            }
        }
    }
}

#[test]
fn complete_trees_agree_with_the_textbook_functions() {
    let mut rng = Rng::new(5);
    for h in 0..=10u32 {
        let leaves: Vec<i32> = (0..1 << h).map(|_| rng.leaf()).collect();
        let tree = Tree::from_complete(&leaves, 2).unwrap();
        for max in [true, false] {
            assert_eq!(
                solve(&tree, max, Algorithm::AlphaBeta).value,
                minimax(0, 0, max, &leaves, h)
            );
        }
    }
}

/// Distinct leaves of a complete b-ary tree, reordered so that every node's best child
/// comes first (`best`) or so that no bound from the left ever cuts (worst).
fn ordered(b: usize, d: u32, best: bool) -> Vec<i32> {
    fn place(out: &mut [i32], sorted: &[i32], b: usize, is_max: bool, best: bool) {
        if out.len() == 1 {
            out[0] = sorted[0];
            return;
        }
        let part = out.len() / b;
        // Best: the best child gets the best range first. Worst: ranges in the order that
        // makes each later child better than all before it.
        let ascending = is_max != best;
        for (k, chunk) in out.chunks_mut(part).enumerate() {
            let r = if ascending { k } else { b - 1 - k };
            place(chunk, &sorted[r * part..(r + 1) * part], b, !is_max, best);
        }
    }
    let n = b.pow(d);
    let sorted: Vec<i32> = (0..n as i32).collect();
    let mut out = vec![0; n];
    place(&mut out, &sorted, b, true, best);
    out
}

#[test]
#[cfg_attr(
    miri,
    ignore = "trees of up to 15,625 leaves in safe code: minutes under Miri"
)]
fn knuth_moore_counts_on_perfectly_ordered_trees() {
    for b in 2..=5usize {
        for d in 1..=6u32 {
            let best = Tree::from_complete(&ordered(b, d, true), b).unwrap();
            let leaves = solve(&best, true, Algorithm::AlphaBeta).stats.leaves;
            let floor = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
            assert_eq!(leaves, floor as u64, "b {b} d {d}");
            let worst = Tree::from_complete(&ordered(b, d, false), b).unwrap();
            assert_eq!(
                solve(&worst, true, Algorithm::AlphaBeta).stats.leaves,
                b.pow(d) as u64,
                "b {b} d {d}"
            );
        }
    }
}

fn parse_ffi(
    text: &str,
) -> Result<*mut mm_tree, (minimax::ffi::status::mm_status, usize, usize, String)> {
    let mut out = std::ptr::null_mut();
    let mut err = MaybeUninit::<mm_parse_error>::zeroed();
    // SAFETY: `text` is live for the call; `out` and `err` are writable.
    let status =
        unsafe { mm_tree_parse(text.as_ptr().cast(), text.len(), &mut out, err.as_mut_ptr()) };
    if status == MM_OK {
        return Ok(out);
    }
    assert!(out.is_null(), "out must stay untouched on an error");
    // SAFETY: zero-initialised, and filled by mm_tree_parse on a parse error.
    let err = unsafe { err.assume_init() };
    // SAFETY: the message is NUL-terminated within its array.
    let msg = unsafe { std::ffi::CStr::from_ptr(err.message.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    Err((status, err.line, err.column, msg))
}

#[test]
fn each_malformation_gets_its_status_and_position_through_the_c_api() {
    let cases = [
        ("(3 5", MM_ERR_PARSE_UNBALANCED, 1, 1),
        ("(1\n  (2 3)))", MM_ERR_PARSE_TRAILING_TEXT, 2, 9),
        ("(1 ( ) 2)", MM_ERR_PARSE_EMPTY_LIST, 1, 4),
        ("(1 two)", MM_ERR_PARSE_BAD_TOKEN, 1, 4),
        ("(1 99999999999)", MM_ERR_PARSE_INTEGER_RANGE, 1, 4),
        ("(X:1 X:2)", MM_ERR_PARSE_DUPLICATE_LABEL, 1, 6),
        ("(1 2) (3)", MM_ERR_PARSE_TRAILING_TEXT, 1, 7),
        ("", MM_ERR_PARSE_MISSING_NODE, 1, 1),
        ("(1 \u{e9})", MM_ERR_PARSE_BAD_TOKEN, 1, 4),
    ];
    for (text, status, line, column) in cases {
        let (s, l, c, msg) = parse_ffi(text).unwrap_err();
        assert_eq!((s, l, c), (status, line, column), "{text:?}: {msg}");
        assert!(
            msg.starts_with(&format!("line {line}, column {column}: ")),
            "{msg}"
        );
    }
    // SAFETY: NULL is allowed.
    unsafe { mm_tree_free(std::ptr::null_mut()) };
}

#[test]
#[cfg_attr(miri, ignore = "a million nodes: too slow for Miri")]
fn a_million_nested_parentheses() {
    let n = 1_000_000;
    let deep = format!("{}7{}", "(".repeat(n), ")".repeat(n));
    let tree = text::parse(&deep).unwrap();
    assert_eq!(tree.height(), n);
    assert_eq!(solve(&tree, true, Algorithm::AlphaBeta).value, 7);
    assert_eq!(text::print(&tree), deep);
    // Millions of nodes in one flat list parse, print and solve as well.
    let wide = format!("({})", vec!["-1 2"; n].join(" "));
    let tree = text::parse(&wide).unwrap();
    assert_eq!(
        (tree.node_count(), text::print(&tree) == wide),
        (2 * n + 1, true)
    );
    assert_eq!(solve(&tree, false, Algorithm::AlphaBeta).value, -1);
    let unclosed = "(".repeat(n);
    assert_eq!(parse_ffi(&unclosed).unwrap_err().0, MM_ERR_PARSE_UNBALANCED);
    let tree = parse_ffi(&deep).unwrap();
    // SAFETY: a live handle, freed once.
    unsafe { mm_tree_free(tree) };
}

#[test]
#[cfg_attr(miri, ignore = "65 s under Miri, for the notation's safe code only")]
fn print_then_parse_round_trips() {
    let mut rng = Rng::new(99);
    let (rounds, depths) = if cfg!(miri) { (12, 4) } else { (200, 6) };
    for round in 0..rounds {
        let plain = random_tree(&mut rng, 1 + round % depths);
        let printed = text::print(&plain);
        let again = text::parse(&printed).unwrap();
        assert_eq!(again, plain);
        assert_eq!(text::print(&again), printed);
        // The same tree with labels on some nodes, in the notation with comments and commas.
        let mut labelled = String::new();
        for (k, ch) in printed.chars().enumerate() {
            if (ch == '(' || ch == '-' || ch.is_ascii_digit())
                && rng.range(0, 2) == 0
                && !labelled.ends_with(['-', '0', '1', '2', '3', '4'])
            {
                labelled += &format!("L{k}:");
            }
            labelled.push(if ch == ' ' && k % 2 == 0 { ',' } else { ch });
        }
        let tree = text::parse(&format!("# round {round}\n{labelled}\n")).unwrap();
        assert!(tree.labels_are_unique());
        let reprinted = text::print(&tree);
        assert_eq!(text::parse(&reprinted).unwrap(), tree);
        assert_eq!(tree.node_count(), plain.node_count());
    }
    let labelled = "A:(B:(D:3 5) C:(-6 E:(9)) 2147483647)";
    assert_eq!(text::print(&text::parse(labelled).unwrap()), labelled);
}

#[test]
fn csr_trees_through_the_c_api() {
    let (offsets, children, values) = ([0usize, 2, 2, 3, 3], [1usize, 2, 3], [0, 5, 0, 7]);
    let mut out = std::ptr::null_mut();
    // SAFETY: each array with its length; `out` writable.
    let s = unsafe {
        mm_tree_from_csr(
            offsets.as_ptr(),
            5,
            children.as_ptr(),
            3,
            values.as_ptr(),
            4,
            &mut out,
        )
    };
    assert_eq!(s, MM_OK);
    // SAFETY: a live handle, freed once.
    unsafe { mm_tree_free(out) };
    let bad = [0usize, 2, 2, 3, 3];
    let mut out2 = std::ptr::null_mut();
    // SAFETY: as above; node 2 listed twice.
    let s = unsafe {
        mm_tree_from_csr(
            bad.as_ptr(),
            5,
            [1usize, 2, 2].as_ptr(),
            3,
            values.as_ptr(),
            4,
            &mut out2,
        )
    };
    assert_eq!((s, out2.is_null()), (MM_ERR_CSR_NOT_A_TREE, true));
    // SAFETY: NULL arrays with nonzero lengths are rejected before use.
    let s = unsafe {
        mm_tree_from_csr(
            std::ptr::null(),
            5,
            children.as_ptr(),
            3,
            values.as_ptr(),
            4,
            &mut out2,
        )
    };
    assert_eq!(s, MM_ERR_NULL_ARGUMENT);
}

#[test]
#[cfg_attr(miri, ignore = "may run Graphviz: Miri cannot start processes")]
fn dot_picture_matches_the_reviewed_file() {
    let source = std::fs::read_to_string(common::root().join("c_examples/exercise.tree")).unwrap();
    let tree = text::parse(&source).unwrap();
    let (picture, _) = dot::dot(&tree, true, Algorithm::AlphaBeta);
    let expected =
        std::fs::read_to_string(common::root().join("tests/c/exercise.expected.dot")).unwrap();
    assert_eq!(picture, expected);
    if std::process::Command::new("dot")
        .arg("-V")
        .output()
        .is_err()
    {
        println!(
            "notice: Graphviz `dot` is not installed; skipped checking that the DOT output renders"
        );
        return;
    }
    let path = common::scratch("dot").join("exercise.dot");
    std::fs::write(&path, &picture).unwrap();
    let rendered = std::process::Command::new("dot")
        .arg("-Tsvg")
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        rendered.status.success(),
        "dot rejected the picture: {}",
        String::from_utf8_lossy(&rendered.stderr)
    );
}

#[test]
#[cfg_attr(
    miri,
    ignore = "builds and runs a C program: Miri cannot start processes"
)]
fn tree_solver_answers_the_exercise_and_rejects_bad_trees() {
    let exe = build_example("tree_solver.c");
    let tree = common::root().join("c_examples/exercise.tree");
    let o = run(&exe, &[tree.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let source = std::fs::read_to_string(&tree).unwrap();
    let value = minimax_of(&text::parse(&source).unwrap(), 0, true);
    assert!(out.starts_with(&format!("value: {value}\n")), "{out}");
    assert!(
        out.contains("MAX at A chooses B (child 0)\n  MIN at B chooses D (child 0)\n"),
        "{out}"
    );
    assert!(
        out.contains("leaves evaluated: minimax 8, alpha-beta 5\n"),
        "{out}"
    );
    assert!(out.contains("pruned by alpha-beta: #7 G\n"), "{out}");

    let min = run(&exe, &["--min"], "(3 (1 9) 4)");
    let expected = minimax_of(&text::parse("(3 (1 9) 4)").unwrap(), 0, false);
    assert!(
        stdout(&min).starts_with(&format!("value: {expected}\n")),
        "{}",
        stdout(&min)
    );

    let dot_path = common::scratch("dot").join("solver.dot");
    let o = run(
        &exe,
        &["--dot", dot_path.to_str().unwrap(), tree.to_str().unwrap()],
        "",
    );
    assert!(o.status.success());
    let expected =
        std::fs::read_to_string(common::root().join("tests/c/exercise.expected.dot")).unwrap();
    assert_eq!(std::fs::read_to_string(&dot_path).unwrap(), expected);

    for (bad, message) in [
        ("(1 2", "line 1, column 1: '(' is never closed"),
        ("(1 x)", "line 1, column 4: 'x'"),
    ] {
        let o = run(&exe, &[], bad);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).starts_with(&format!("error: {message}")),
            "{}",
            stderr(&o)
        );
    }
}
