//! The C and C++ examples, built against the freshly built library and run with piped
//! input: valid input byte for byte against the document's own program or the reference,
//! bad input by message and exit status.

use crate::common;

use common::{Rng, build_example, compile, run, scratch, stderr, stdout};
use minimax::tree::reference;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The first document's program, built as it was written, as the oracle.
fn document_program() -> PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| {
        let out = scratch("bin").join("document_minimax");
        compile(
            &["tests/c/document_minimax.c"],
            &out,
            false,
            &["-w", "-lm"],
            false,
        );
        out
    })
    .clone()
}

fn input(leaves: &[i32]) -> String {
    let values: Vec<String> = leaves.iter().map(i32::to_string).collect();
    format!("{}\n{}\n", leaves.len(), values.join(" "))
}

/// What the first document's program prints for these leaves, its value from the reference.
fn expected_minimax_output(leaves: &[i32]) -> String {
    let h = leaves.len().trailing_zeros();
    let mut s = String::from("Enter no of leaf nodes :\nENter terminal utility\n");
    for i in 0..leaves.len() {
        s += &format!("Utility {i} :\n");
    }
    s + &format!(
        "The optimal value is :{}",
        reference::minimax(0, 0, true, leaves, h)
    )
}

#[test]
fn minimax_demo_prints_what_the_document_prints() {
    let demo = build_example("minimax_demo.c");
    let doc = document_program();
    let mut rng = Rng::new(7);
    let mut cases: Vec<Vec<i32>> = vec![
        vec![3, 5, 6, 9, 1, 2, 0, -1],
        vec![i32::MIN],
        vec![i32::MAX, i32::MIN],
    ];
    for count in [1, 2, 4, 8, 16] {
        for _ in 0..5 {
            cases.push((0..count).map(|_| rng.leaf()).collect());
        }
    }
    for leaves in cases {
        let ours = run(&demo, &[], &input(&leaves));
        let theirs = run(&doc, &[], &input(&leaves));
        assert!(ours.status.success(), "{leaves:?}: {}", stderr(&ours));
        assert_eq!(stdout(&ours), stdout(&theirs), "{leaves:?}");
        assert_eq!(stdout(&ours), expected_minimax_output(&leaves));
        assert_eq!(stderr(&ours), "");
    }
}

#[test]
fn the_document_program_linked_against_the_library_answers_the_same() {
    let out = scratch("bin").join("document_minimax_linked");
    compile(
        &["tests/c/document_minimax_linked.c"],
        &out,
        false,
        &["-std=c99", "-lm"],
        true,
    );
    let mut rng = Rng::new(11);
    for count in [1, 2, 4, 8, 16] {
        let leaves: Vec<i32> = (0..count).map(|_| rng.leaf()).collect();
        assert_eq!(
            stdout(&run(&out, &[], &input(&leaves))),
            stdout(&run(&document_program(), &[], &input(&leaves)))
        );
    }
}

#[test]
fn minimax_demo_takes_larger_trees_than_the_document() {
    let demo = build_example("minimax_demo.c");
    let mut rng = Rng::new(8);
    for count in [32, 1024, 1 << 16] {
        let leaves: Vec<i32> = (0..count).map(|_| rng.leaf()).collect();
        let o = run(&demo, &[], &input(&leaves));
        assert!(o.status.success(), "{count}: {}", stderr(&o));
        assert_eq!(stdout(&o), expected_minimax_output(&leaves));
    }
}

/// Bad inputs shared by both scanf-style demos, with a part of the expected message.
const BAD_INPUTS: &[(&str, &str)] = &[
    ("", "end of input while reading the number of leaf nodes"),
    ("eight\n", "the number of leaf nodes is not a whole number"),
    ("8x\n", "the number of leaf nodes is not a whole number"),
    ("0\n", "must be a power of two"),
    ("-8\n", "must be a power of two"),
    ("6\n", "must be a power of two"),
    ("33554432\n", "must be a power of two from 1 to 16777216"),
    (
        "99999999999999999999999\n",
        "the number of leaf nodes is out of range",
    ),
    ("4\n1 2 3\n", "end of input while reading a utility"),
    ("4\n1 2 x 4\n", "a utility is not a whole number"),
    ("2\n1 2147483648\n", "a utility is out of range"),
    ("2\n-2147483649 1\n", "a utility is out of range"),
    (
        "2\n1 00000000000000000000000000000000000000000000000000000000000000000001\n",
        "too long",
    ),
];

fn check_bad_inputs(source: &str) {
    let demo = build_example(source);
    for (text, message) in BAD_INPUTS {
        let o = run(&demo, &[], text);
        assert_eq!(o.status.code(), Some(1), "{source} on {text:?}: {o:?}");
        let err = stderr(&o);
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{source} on {text:?}: {err}"
        );
    }
}

#[test]
fn minimax_demo_rejects_bad_input() {
    check_bad_inputs("minimax_demo.c");
}

#[test]
fn alphabeta_demo_rejects_bad_input() {
    check_bad_inputs("alphabeta_demo.c");
}

#[test]
fn alphabeta_demo_reports_value_and_leaves_evaluated() {
    let demo = build_example("alphabeta_demo.c");
    let mut rng = Rng::new(9);
    let mut cases: Vec<Vec<i32>> = vec![vec![13, 8, 24, -5, 23, 15, -14, -20], vec![42]];
    for count in [2, 8, 64, 4096] {
        cases.push((0..count).map(|_| rng.leaf()).collect());
    }
    for leaves in cases {
        let h = leaves.len().trailing_zeros();
        let mut evaluated = 0;
        let value = reference::alphabeta_counting(
            h,
            0,
            0,
            true,
            &leaves,
            i32::MIN,
            i32::MAX,
            &mut evaluated,
        );
        let o = run(&demo, &[], &input(&leaves));
        assert!(o.status.success(), "{}", stderr(&o));
        let expected_tail = format!(
            "The optimal value is :{value}\nAlpha-beta evaluated {evaluated} of {} leaves\n",
            leaves.len()
        );
        let out = stdout(&o);
        assert!(
            out.starts_with("Enter no of leaf nodes :\nENter terminal utility\nUtility 0 :\n"),
            "{out}"
        );
        assert!(out.ends_with(&expected_tail), "{out}");
    }
}

#[test]
fn cpp_demo_prints_result_13_like_the_document() {
    let demo = build_example("alphabeta_demo.cpp");
    let doc = scratch("bin").join("document_alphabeta");
    compile(
        &["tests/c/document_alphabeta.cpp"],
        &doc,
        true,
        &["-w"],
        false,
    );
    let ours = run(&demo, &[], "");
    assert!(ours.status.success());
    assert_eq!(stdout(&ours), "Result : 13\n");
    assert_eq!(stdout(&ours), stdout(&run(&doc, &[], "")));
}
