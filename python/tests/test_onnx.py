"""`OnnxEvaluator` (issue 70): a network saved as ONNX, evaluated by the library itself.
Its models are made here with the `onnx` package's helpers and computed apart in numpy
(float64); onnxruntime, from PyPI, is the framework's reference. A search handed the
evaluator runs with the GIL released, and finds what the same evaluator called from
Python finds."""

import sys
import threading

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import libminimax  # noqa: E402
from libminimax.games import ConnectFour, TicTacToe  # noqa: E402


def mlp(sizes=(84, 128, 128), actions=7, seed=0, batch="batch", names=("value", "logits")):
    """A perceptron with a value head (tanh) and a policy head, its ONNX bytes and a
    function computing it in float64."""
    rng = np.random.default_rng(seed)
    weights = [(rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32))
               for a, b in zip(sizes, sizes[1:])]
    wv = rng.normal(0, 0.1, (sizes[-1], 1)).astype(np.float32)
    bv = rng.normal(0, 0.1, 1).astype(np.float32)
    wp = rng.normal(0, 0.1, (sizes[-1], actions)).astype(np.float32)
    bp = rng.normal(0, 0.1, actions).astype(np.float32)
    nodes, inits, x = [], [], "observations"
    for i, (w, b) in enumerate(weights):
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes += [helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [f"g{i}"]),
                  helper.make_node("Relu", [f"g{i}"], [f"h{i}"])]
        x = f"h{i}"
    inits += [numpy_helper.from_array(a, n) for a, n in [(wv, "wv"), (bv, "bv"), (wp, "wp"), (bp, "bp")]]
    nodes += [helper.make_node("Gemm", [x, "wv", "bv"], ["v"]),
              helper.make_node("Tanh", ["v"], [names[0]]),
              helper.make_node("Gemm", [x, "wp", "bp"], [names[1]])]
    graph = helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("observations", TensorProto.FLOAT, [batch, sizes[0]])],
        [helper.make_tensor_value_info(names[0], TensorProto.FLOAT, [batch, 1]),
         helper.make_tensor_value_info(names[1], TensorProto.FLOAT, [batch, actions])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)

    def compute(obs):
        h = obs.astype(np.float64)
        for w, b in weights:
            h = np.maximum(h @ w + b, 0)
        return np.tanh(h @ wv + bv)[:, 0], h @ wp + bp

    return model.SerializeToString(), compute


def test_outputs_equal_onnxruntimes_and_the_weights_on_1000_observations(tmp_path):
    data, compute = mlp()
    path = tmp_path / "mlp.onnx"
    path.write_bytes(data)
    native = libminimax.OnnxEvaluator(path)
    assert (native.observation_size, native.action_count, native.fixed_batch) == (84, 7, None)
    runtime = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(1)
    obs = rng.integers(0, 2, (1000, 84)).astype(np.float32)
    at, worst = 0, 0.0
    for n in [1, 3, 7, 64, 100, 256, 569]:  # 1,000 in all, in batches of many sizes
        x = obs[at:at + n]
        values, logits = native(x)
        assert values.shape == (n,) and logits.shape == (n, 7) and values.dtype == np.float32
        ref_v, ref_l = runtime.run(["value", "logits"], {"observations": x})
        exact_v, exact_l = compute(x)
        worst = max(worst, np.abs(values - ref_v[:, 0]).max(), np.abs(logits - ref_l).max())
        assert np.abs(values - exact_v).max() < 1e-5 and np.abs(logits - exact_l).max() < 1e-5
        at += n
    assert at == 1000 and worst < 1e-5


def test_a_model_that_does_not_fit_is_an_error_naming_what_is_wrong(tmp_path):
    with pytest.raises(OSError, match="missing.onnx"):
        libminimax.OnnxEvaluator(tmp_path / "missing.onnx")
    with pytest.raises(ValueError, match="not an ONNX model"):
        libminimax.OnnxEvaluator(data=b"not a model")
    with pytest.raises(TypeError, match="a path or data"):
        libminimax.OnnxEvaluator()
    one_output = onnx.load_from_string(mlp()[0])
    del one_output.graph.output[1]
    with pytest.raises(ValueError, match="1 outputs"):
        libminimax.OnnxEvaluator(data=one_output.SerializeToString())
    ten_inputs = mlp(sizes=(10, 16))[0]
    model = libminimax.OnnxEvaluator(data=ten_inputs)
    with pytest.raises(ValueError, match="observations of 10 floats and gives 7 logits; the games have 84 and 7"):
        libminimax.BatchedMcts(simulations=8).search([ConnectFour()], model)
    with pytest.raises(ValueError, match=r"observations of shape \(2, 84\): the model takes \(batch, 10\)"):
        model(np.zeros((2, 84), np.float32))


def test_a_search_finds_what_the_same_model_called_from_python_finds():
    model = libminimax.OnnxEvaluator(data=mlp(seed=4)[0])
    games = [ConnectFour(line) for line in ["", "4453", "3344", "71", "444"]]
    mcts = libminimax.BatchedMcts(simulations=200, root="gumbel")
    native = mcts.search(games, model)
    mcts.clear()
    through_python = mcts.search(games, lambda x: model(x))
    for a, b in zip(native, through_python):
        assert a.best_move == b.best_move
        assert [m.visits for m in a.root] == [m.visits for m in b.root]
        assert a.value == pytest.approx(b.value, abs=1e-6)


def test_python_games_are_evaluated_through_the_call():
    from test_batched import PyTicTacToe

    model = libminimax.OnnxEvaluator(data=mlp(sizes=(18, 32), actions=9)[0])
    # A Python game is searched with the GIL held, the model called as any callable; the
    # native game of the same encoding is searched alike.
    native = libminimax.BatchedMcts(simulations=50, decisive=False).search([TicTacToe()], model)[0]
    python = libminimax.BatchedMcts(simulations=50, decisive=False).search([PyTicTacToe()], model)[0]
    assert native.simulations == python.simulations == 50
    assert sorted((m.action, m.visits) for m in native.root) == sorted((m.action, m.visits) for m in python.root)


def test_the_search_runs_with_the_gil_released():
    # A search of native games with the native model calls no Python: the main thread
    # runs all along. The switch interval is made long, so that a thread holding the GIL
    # is never made to yield it: were the search holding it, the main thread's loop would
    # start only once the search had ended, and count nothing (checked by hand with a
    # busy Python loop in its place: 0 against 241 for a 0.3 s sleep).
    model = libminimax.OnnxEvaluator(data=mlp(sizes=(84, 256, 256), seed=2)[0])
    games = [ConnectFour() for _ in range(64)]
    started, done = threading.Event(), threading.Event()
    found = []

    def search():
        started.set()
        found.extend(libminimax.BatchedMcts(simulations=400).search(games, model))
        done.set()

    worker = threading.Thread(target=search)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    spins = 0
    try:
        worker.start()
        started.wait()
        while not done.wait(0.001):  # each wait lets the GIL go
            spins += 1
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(found) == 64
    assert spins >= 5
