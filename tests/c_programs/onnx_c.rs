//! ONNX models from C (tests/c/onnx.c; the `onnx` feature): tic-tac-toe's exact values
//! as a network, written here (tests/common/onnx_model.rs), loaded by the C program from
//! a file and from a buffer and searched with by `mm_batched_search`; errors, NULLs and
//! short buffers. Built with `MM_ONNX` defined, as a program against a library with the
//! feature is.

use crate::common;
use crate::onnx_model::{Dim, tic_tac_toe_oracle};

#[test]
fn onnx_models_from_c() {
    let model = common::scratch("onnx").join("tic_tac_toe_oracle.onnx");
    std::fs::write(&model, tic_tac_toe_oracle().0).unwrap();
    let exe = common::scratch("bin").join("onnx");
    common::compile(
        &["tests/c/onnx.c"],
        &exe,
        false,
        &[
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-DMM_ONNX",
            "-pthread",
            "-lm",
        ],
        true,
    );
    let out = common::run(&exe, &[model.to_str().unwrap()], "");
    let summary = common::stdout(&out);
    assert!(out.status.success(), "{summary}{}", common::stderr(&out));
    assert!(
        summary.starts_with("onnx: 24 games") && summary.ends_with("failures 0\n"),
        "{summary}"
    );
}

/// `c_examples/connect4_onnx.c`, the terminal program that plays Connect Four with a
/// network file: with a random perceptron of the encoding's sizes it answers a position
/// with a column that is not full (checked here from the line), plays a game's first
/// moves from stdin, and names a model it cannot load.
#[test]
fn the_terminal_program_plays_legal_columns_with_a_network_file() {
    let model = common::scratch("onnx").join("c4_random.onnx");
    let mlp = crate::onnx_model::Mlp::random(84, 32, 7, 11);
    std::fs::write(
        &model,
        mlp.onnx(Dim::Param("batch"), ("value", "logits"), false),
    )
    .unwrap();
    let model = model.to_str().unwrap();
    let exe = common::scratch("bin").join("connect4_onnx");
    common::compile(
        &["c_examples/connect4_onnx.c"],
        &exe,
        false,
        &["-std=c99", "-Wall", "-Wextra", "-Werror", "-pthread", "-lm"],
        true,
    );
    // Column 4 is full after 444444: whatever the network says, it is not an answer.
    for line in ["", "4453", "444444", "1122336"] {
        let out = common::run(&exe, &[model, "--line", line, "--simulations", "64"], "");
        let text = common::stdout(&out);
        assert!(
            out.status.success(),
            "{line}: {text}{}",
            common::stderr(&out)
        );
        let column: usize = text
            .strip_prefix("play column ")
            .and_then(|t| t.split(':').next())
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("{line}: {text}"));
        let height = line
            .bytes()
            .filter(|&b| (b - b'0') as usize == column)
            .count();
        assert!((1..=7).contains(&column) && height < 6, "{line}: {text}");
        assert!(text.contains("64 simulations"), "{text}");
    }
    let out = common::run(&exe, &[model, "--simulations", "32"], "4\n9\n4\n");
    let text = common::stdout(&out);
    assert!(out.status.success(), "{text}{}", common::stderr(&out));
    assert_eq!(text.matches("I play column").count(), 2, "{text}");
    assert!(text.contains("a column is a digit from 1 to 7"), "{text}");
    let out = common::run(&exe, &["/nonexistent/net.onnx"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(common::stderr(&out).contains("/nonexistent/net.onnx"));
    let out = common::run(&exe, &[model, "--line", "4444444"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("the column is full"));
}
