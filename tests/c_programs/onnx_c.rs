//! ONNX models from C (tests/c/onnx.c; the `onnx` feature): tic-tac-toe's exact values
//! as a network, written here (tests/common/onnx_model.rs), loaded by the C program from
//! a file and from a buffer and searched with by `mm_batched_search`; errors, NULLs and
//! short buffers. Built with `MM_ONNX` defined, as a program against a library with the
//! feature is.

use crate::common;
use crate::onnx_model::tic_tac_toe_oracle;

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
