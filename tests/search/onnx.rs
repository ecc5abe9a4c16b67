//! ONNX models as batched MCTS's evaluator (issue 70; the `onnx` feature): model files
//! written here, apart from the loader (`tests/common/onnx_model.rs`), give what their
//! weights compute (in f64, here) within 1e-5 on 1,000 random observations, with a
//! dynamic batch and a fixed one; the outputs are found by name or by shape; a model
//! that breaks the contract is an error naming the input or output at fault; and an
//! oracle written as a network (exact tic-tac-toe values, uniform priors) leads the
//! search as the oracle does, never to a losing move where another holds.

use crate::batched::{losing_choices_with, positions};
use crate::shared::games::TicTacToe;
use crate::shared::onnx_model::{
    Dim, FLOAT, INT64, Message, Mlp, model, node, tic_tac_toe_oracle, value_info,
};
use minimax::search::GameError;
use minimax::search::batched::{BatchedOptions, Evaluator, OnnxError, OnnxEvaluator};

/// Observations of `n` positions of `size` floats, each 0 or 1 mostly, some in between.
fn observations(n: usize, size: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n * size)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            match (s >> 33) % 4 {
                0 | 1 => 0.0,
                2 => 1.0,
                _ => ((s >> 40) % 1000) as f32 / 1000.0,
            }
        })
        .collect()
}

/// Checks `evaluator`'s outputs against `mlp`'s on 1,000 observations, in batches of
/// sizes that vary (1 to 256).
fn matches_weights(evaluator: &mut OnnxEvaluator, mlp: &Mlp) {
    let obs = observations(1000, mlp.inputs, 7);
    let mut at = 0;
    let mut worst = 0.0f64;
    for size in [1, 7, 64, 256, 3, 100, 256, 200, 113].into_iter().cycle() {
        if at == 1000 {
            break;
        }
        let n = size.min(1000 - at);
        let mut values = vec![0.0; n];
        let mut logits = vec![0.0; n * mlp.actions];
        evaluator
            .evaluate(
                &obs[at * mlp.inputs..(at + n) * mlp.inputs],
                &mut values,
                &mut logits,
            )
            .unwrap();
        for k in 0..n {
            let (v, l) = mlp.eval(&obs[(at + k) * mlp.inputs..(at + k + 1) * mlp.inputs]);
            worst = worst.max((values[k] as f64 - v).abs());
            for (c, want) in l.iter().enumerate() {
                worst = worst.max((logits[k * mlp.actions + c] as f64 - want).abs());
            }
        }
        at += n;
    }
    assert!(
        worst <= 1e-5,
        "the largest difference from the weights' outputs is {worst}"
    );
}

#[test]
fn a_dynamic_batch_model_gives_what_its_weights_compute() {
    let mlp = Mlp::random(84, 128, 7, 1);
    let mut e =
        OnnxEvaluator::from_bytes(&mlp.onnx(Dim::Param("batch"), ("value", "logits"), false))
            .unwrap();
    assert_eq!(
        (e.observation_size(), e.action_count(), e.fixed_batch()),
        (84, 7, None)
    );
    matches_weights(&mut e, &mlp);
}

#[test]
fn a_model_whose_inner_shapes_name_the_batch_runs_at_every_batch_size() {
    // Exporters write the batch's name in the inner values' shapes too: a plan that
    // fixed the input alone would contradict them (jax2onnx's models failed so).
    let mlp = Mlp::random(84, 32, 7, 5);
    let mut e = OnnxEvaluator::from_bytes(&mlp.onnx_with_inner_shapes(Dim::Param("B"))).unwrap();
    matches_weights(&mut e, &mlp);
}

#[test]
fn a_batch_split_among_the_searchs_threads_gives_what_its_weights_compute() {
    // Batches of 64 rows and more are cut into parts run on the pool's threads: each
    // part's rows must land where they belong, with a dynamic and with a fixed batch.
    for (threads, batch) in [
        (2, Dim::Param("batch")),
        (3, Dim::Param("batch")),
        (3, Dim::Value(16)),
    ] {
        let mlp = Mlp::random(84, 32, 7, 8);
        let mut e =
            OnnxEvaluator::from_bytes(&mlp.onnx(batch, ("value", "logits"), false)).unwrap();
        e.share_threads(threads);
        matches_weights(&mut e, &mlp);
    }
}

#[test]
fn a_fixed_batch_model_is_cut_and_padded_to_its_batch() {
    let mlp = Mlp::random(18, 16, 9, 2);
    let mut e =
        OnnxEvaluator::from_bytes(&mlp.onnx(Dim::Value(16), ("value", "logits"), false)).unwrap();
    assert_eq!(e.fixed_batch(), Some(16));
    matches_weights(&mut e, &mlp);
}

#[test]
fn the_outputs_are_found_by_name_in_any_order_or_else_by_shape() {
    let mlp = Mlp::random(10, 8, 4, 3);
    for (names, logits_first) in [
        (("value", "logits"), true),
        (("v", "logits"), false),
        (("value", "p"), true),
        (("out_a", "out_b"), false),
        (("out_a", "out_b"), true),
    ] {
        let mut e = OnnxEvaluator::from_path({
            let path =
                std::env::temp_dir().join(format!("mm_onnx_{}_{}.onnx", names.0, logits_first));
            std::fs::write(&path, mlp.onnx(Dim::Param("n"), names, logits_first)).unwrap();
            path
        })
        .unwrap();
        assert_eq!(e.action_count(), 4, "{names:?}");
        let obs = observations(5, 10, 11);
        let (mut values, mut logits) = (vec![0.0; 5], vec![0.0; 20]);
        e.evaluate(&obs, &mut values, &mut logits).unwrap();
        let (v, l) = mlp.eval(&obs[10..20]);
        assert!(
            (values[1] as f64 - v).abs() < 1e-5 && (logits[5] as f64 - l[1]).abs() < 1e-5,
            "{names:?}"
        );
    }
}

/// The message of a load that must fail.
fn refused(bytes: &[u8]) -> OnnxError {
    OnnxEvaluator::from_bytes(bytes).unwrap_err()
}

#[test]
fn a_model_that_breaks_the_contract_is_an_error_naming_what_is_wrong() {
    let b = Dim::Param("batch");
    let identity = |inputs: &[Message], outputs: &[Message], nodes: &[Message]| {
        model(nodes, &[], inputs, outputs)
    };
    // Two inputs.
    let e = refused(&identity(
        &[
            value_info("x", FLOAT, &[b, Dim::Value(4)]),
            value_info("y", FLOAT, &[b, Dim::Value(4)]),
        ],
        &[
            value_info("value", FLOAT, &[b, Dim::Value(4)]),
            value_info("logits", FLOAT, &[b, Dim::Value(4)]),
        ],
        &[
            node("Identity", &["x"], &["value"], &[]),
            node("Identity", &["y"], &["logits"], &[]),
        ],
    ));
    assert!(
        matches!(&e, OnnxError::BadInput(m) if m.contains("2 inputs")),
        "{e}"
    );
    // An input of integers.
    let e = refused(&identity(
        &[value_info("board", INT64, &[b, Dim::Value(4)])],
        &[
            value_info("value", INT64, &[b]),
            value_info("logits", INT64, &[b, Dim::Value(4)]),
        ],
        &[
            node("Identity", &["board"], &["logits"], &[]),
            node("ReduceSum", &["board"], &["value"], &[]),
        ],
    ));
    assert!(
        matches!(&e, OnnxError::BadInput(m) if m.contains("\"board\"") && m.contains("float")),
        "{e}"
    );
    // An input of rank 3 (a board as planes, not flattened).
    let e = refused(&identity(
        &[value_info(
            "planes",
            FLOAT,
            &[b, Dim::Value(2), Dim::Value(9)],
        )],
        &[
            value_info("value", FLOAT, &[b, Dim::Value(2), Dim::Value(9)]),
            value_info("logits", FLOAT, &[b, Dim::Value(2), Dim::Value(9)]),
        ],
        &[
            node("Identity", &["planes"], &["value"], &[]),
            node("Identity", &["planes"], &["logits"], &[]),
        ],
    ));
    assert!(
        matches!(&e, OnnxError::BadInput(m) if m.contains("\"planes\"") && m.contains("[batch, observation_size]")),
        "{e}"
    );
    // One output.
    let e = refused(&identity(
        &[value_info("x", FLOAT, &[b, Dim::Value(4)])],
        &[value_info("logits", FLOAT, &[b, Dim::Value(4)])],
        &[node("Identity", &["x"], &["logits"], &[])],
    ));
    assert!(
        matches!(&e, OnnxError::BadOutput(m) if m.contains("1 outputs")),
        "{e}"
    );
    // A value of two numbers a position.
    let e = refused(&identity(
        &[value_info("x", FLOAT, &[b, Dim::Value(2)])],
        &[
            value_info("value", FLOAT, &[b, Dim::Value(2)]),
            value_info("logits", FLOAT, &[b, Dim::Value(2)]),
        ],
        &[
            node("Identity", &["x"], &["value"], &[]),
            node("Relu", &["x"], &["logits"], &[]),
        ],
    ));
    assert!(
        matches!(&e, OnnxError::BadOutput(m) if m.contains("\"value\"") && m.contains("[1, 2]")),
        "{e}"
    );
    // Two outputs of the same shape, by other names.
    let e = refused(&identity(
        &[value_info("x", FLOAT, &[b, Dim::Value(3)])],
        &[
            value_info("a", FLOAT, &[b, Dim::Value(3)]),
            value_info("c", FLOAT, &[b, Dim::Value(3)]),
        ],
        &[
            node("Identity", &["x"], &["a"], &[]),
            node("Relu", &["x"], &["c"], &[]),
        ],
    ));
    assert!(
        matches!(&e, OnnxError::BadOutput(m) if m.contains("cannot be told apart")),
        "{e}"
    );
    // Not a model; no file.
    assert!(matches!(
        refused(b"not a model at all"),
        OnnxError::NotAModel(_)
    ));
    let e = OnnxEvaluator::from_path("/nonexistent/net.onnx").unwrap_err();
    assert!(
        matches!(&e, OnnxError::Io(m) if m.contains("/nonexistent/net.onnx")),
        "{e}"
    );
}

#[test]
fn a_model_for_another_game_is_named_and_its_batches_refused() {
    let mlp = Mlp::random(84, 8, 7, 4);
    let mut e =
        OnnxEvaluator::from_bytes(&mlp.onnx(Dim::Param("batch"), ("value", "logits"), false))
            .unwrap();
    let err = e.fits(&TicTacToe::new()).unwrap_err();
    assert!(
        matches!(&err, OnnxError::WrongGame(m) if m.contains("84") && m.contains("18")),
        "{err}"
    );
    let (mut values, mut logits) = (vec![0.0; 2], vec![0.0; 18]);
    assert_eq!(
        e.evaluate(&[0.0; 36], &mut values, &mut logits),
        Err(GameError::EvaluatorFailed)
    );
}

#[test]
fn an_oracle_as_an_onnx_model_never_plays_a_losing_move_where_another_holds() {
    let (model, held) = tic_tac_toe_oracle();
    assert_eq!(
        held,
        positions().len(),
        "the network holds every position not over"
    );
    let mut e = OnnxEvaluator::from_bytes(&model).unwrap();
    e.fits(&TicTacToe::new()).unwrap();
    let opts = BatchedOptions {
        simulations: 32,
        leaves_per_tree: 4,
        batch_size: 256,
        ..BatchedOptions::default()
    };
    let (bad, total) = losing_choices_with(positions(), &mut e, &opts, 64);
    assert!(total > 4000, "{total} positions");
    assert_eq!(bad, 0, "{bad} of {total} positions lost");
}
