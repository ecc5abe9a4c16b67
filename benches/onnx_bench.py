"""The onnx feature's targets (issue 70, point 3), ratios from one run:

1. Batched MCTS on Connect Four, 64 games at once, 128 simulations a move, with the MLP
   of issue 50's benchmark (84-128-128-8, random weights): the network as an ONNX file
   evaluated by the library (`OnnxEvaluator`, no Python in the search) against the same
   network called from Python as one jitted JAX function (padded to the batch size, so
   that it compiles once). One thread each; then the native search on two threads
   against one, beside the machine's two-process factor (two one-thread searches in two
   processes at once against one alone). And the native search with an 84-8 network
   instead, whose evaluation costs little: the search's own cost, which bounds what a
   faster network could give against JAX.
2. The native evaluator alone on a batch of 256, against onnxruntime (from PyPI) on the
   same model file, one thread each: the MLP, and a residual convolutional network as
   AlphaZero's (6 blocks of 64 channels on the 6x7 board, a policy and a value head),
   with the arithmetic each reaches.

The models are written here with the `onnx` package's helpers, from one set of numpy
weights that the JAX function also uses. Rounds alternate the contenders; each figure is
a median over the rounds. Run by `make onnx-bench`; docs/batched.md has the last run.

    python benches/onnx_bench.py [--rounds 5] [--seconds 3]"""

import argparse
import multiprocessing
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np

GAMES, SIMULATIONS, LEAVES = 64, 128, 8


def mlp_weights(seed=0, sizes=(84, 128, 128, 8)):
    rng = np.random.default_rng(seed)
    return [(rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), np.zeros(b, np.float32))
            for a, b in zip(sizes, sizes[1:])]


def mlp_onnx(weights):
    """The MLP as ONNX: the last layer's 8 outputs split into 7 logits and a value (tanh),
    as the JAX function computes them."""
    from onnx import helper, numpy_helper

    nodes, inits, x = [], [], "observations"
    for i, (w, b) in enumerate(weights):
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes.append(helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [f"g{i}"]))
        if i < len(weights) - 1:
            nodes.append(helper.make_node("Relu", [f"g{i}"], [f"h{i}"]))
            x = f"h{i}"
    last = f"g{len(weights) - 1}"
    inits += [numpy_helper.from_array(np.array(v, np.int64), n)
              for v, n in [([0], "zero"), ([7], "seven"), ([8], "eight"), ([1], "one")]]
    nodes += [helper.make_node("Slice", [last, "zero", "seven", "one"], ["logits"]),
              helper.make_node("Slice", [last, "seven", "eight", "one"], ["v"]),
              helper.make_node("Tanh", ["v"], ["value"])]
    return finish(nodes, inits, "mlp", 84)


def finish(nodes, inits, name, size):
    import onnx
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("observations", TensorProto.FLOAT, ["batch", size])],
        [helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", 1]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 7])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    return model.SerializeToString()


def resnet_onnx(blocks=6, channels=64, seed=1):
    """AlphaZero's kind of network on the 6x7 board: the 84 floats seen as 2 planes of
    7 columns by 6 rows; a 3x3 convolution to `channels`, `blocks` residual blocks (two
    3x3 convolutions and the skip), a policy head (1x1 convolution to 2, 7 logits) and a
    value head (1x1 convolution to 1, 64 units, tanh). Batch norm folded into the
    convolutions, as exporters do for inference."""
    from onnx import helper, numpy_helper

    rng = np.random.default_rng(seed)
    nodes, inits = [], []

    def param(name, shape, fan_in):
        inits.append(numpy_helper.from_array(rng.normal(0, np.sqrt(2 / fan_in), shape).astype(np.float32), name))
        return name

    def conv(x, out, cin, cout, k, relu=True):
        w = param(f"{out}_w", (cout, cin, k, k), cin * k * k)
        b = param(f"{out}_b", (cout,), 1e6)
        nodes.append(helper.make_node("Conv", [x, w, b], [out + ("_c" if relu else "")],
                                      kernel_shape=[k, k], pads=[k // 2] * 4))
        if relu:
            nodes.append(helper.make_node("Relu", [out + "_c"], [out]))
        return out

    inits.append(numpy_helper.from_array(np.array([-1, 2, 7, 6], np.int64), "board"))
    inits.append(numpy_helper.from_array(np.array([-1, 42], np.int64), "flat42"))
    inits.append(numpy_helper.from_array(np.array([-1, 84], np.int64), "flat84"))
    nodes.append(helper.make_node("Reshape", ["observations", "board"], ["planes"]))
    x = conv("planes", "stem", 2, channels, 3)
    for i in range(blocks):
        h = conv(x, f"r{i}a", channels, channels, 3)
        h = conv(h, f"r{i}b", channels, channels, 3, relu=False)
        nodes.append(helper.make_node("Add", [h, x], [f"r{i}s"]))
        nodes.append(helper.make_node("Relu", [f"r{i}s"], [f"r{i}"]))
        x = f"r{i}"
    p = conv(x, "p", channels, 2, 1)
    nodes.append(helper.make_node("Reshape", [p, "flat84"], ["pf"]))
    nodes.append(helper.make_node("Gemm", ["pf", param("pw", (84, 7), 84), param("pb", (7,), 1e6)], ["logits"]))
    v = conv(x, "v", channels, 1, 1)
    nodes.append(helper.make_node("Reshape", [v, "flat42"], ["vf"]))
    nodes.append(helper.make_node("Gemm", ["vf", param("vw1", (42, 64), 42), param("vb1", (64,), 1e6)], ["v1c"]))
    nodes.append(helper.make_node("Relu", ["v1c"], ["v1"]))
    nodes.append(helper.make_node("Gemm", ["v1", param("vw2", (64, 1), 64), param("vb2", (1,), 1e6)], ["v2"]))
    nodes.append(helper.make_node("Tanh", ["v2"], ["value"]))
    macs = 42 * (2 * channels * 9 + blocks * 2 * channels * channels * 9 + channels * 3) + 84 * 7 + 42 * 64 + 64
    return finish(nodes, inits, "resnet", 84), macs


def positions(seed=0):
    import random

    from libminimax.games import ConnectFour

    rng = random.Random(seed)
    out = []
    while len(out) < GAMES:
        g = ConnectFour()
        for _ in range(rng.randint(0, 6)):
            g.play(rng.choice(g.moves()))
        if g.outcome() is None:
            out.append(g)
    return out


def search_rate(evaluator, threads=1, seconds=3.0):
    """Simulations a second: searches of the 64 positions, each with fresh trees."""
    import libminimax

    mcts = libminimax.BatchedMcts(simulations=SIMULATIONS, batch_size=GAMES * LEAVES,
                                  leaves_per_tree=LEAVES, threads=threads)
    games = positions()
    mcts.search(games, evaluator)  # warm: plans made, jit compiled
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        mcts.clear()
        n += sum(r.simulations for r in mcts.search(games, evaluator))
    return n / (time.perf_counter() - start)


def jax_evaluator(weights):
    import jax
    import jax.numpy as jnp

    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in weights]

    def forward(params, x):
        for w, b in params[:-1]:
            x = jax.nn.relu(x @ w + b)
        w, b = params[-1]
        out = x @ w + b
        return jnp.tanh(out[:, 7]), out[:, :7]

    net = jax.jit(forward)
    buffer = np.zeros((GAMES * LEAVES, 84), np.float32)

    def evaluator(obs):
        k = len(obs)
        buffer[:k] = obs
        v, logits = net(params, buffer)
        return np.asarray(v)[:k], np.asarray(logits)[:k]

    return evaluator


def alone(args):
    """A one-thread native search in a process of its own (the two-process factor)."""
    path, seconds, start_at = args
    import libminimax

    evaluator = libminimax.OnnxEvaluator(path)
    while time.time() < start_at:
        time.sleep(0.001)
    return search_rate(evaluator, 1, seconds)


def throughput(call, x, seconds):
    call(x)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        call(x)
        n += len(x)
    return n / (time.perf_counter() - start)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--out", default="build/onnx_bench")
    a = p.parse_args()
    import onnxruntime as ort

    import libminimax

    os.makedirs(a.out, exist_ok=True)
    weights = mlp_weights()
    mlp_path = os.path.join(a.out, "mlp.onnx")
    with open(mlp_path, "wb") as f:
        f.write(mlp_onnx(weights))
    resnet, resnet_macs = resnet_onnx()
    resnet_path = os.path.join(a.out, "resnet.onnx")
    with open(resnet_path, "wb") as f:
        f.write(resnet)
    tiny_path = os.path.join(a.out, "tiny.onnx")
    with open(tiny_path, "wb") as f:
        f.write(mlp_onnx(mlp_weights(seed=3, sizes=(84, 8))))
    tiny = libminimax.OnnxEvaluator(tiny_path)
    native = libminimax.OnnxEvaluator(mlp_path)
    python = jax_evaluator(weights)
    x = np.random.default_rng(2).integers(0, 2, (256, 84)).astype(np.float32)
    same = np.abs(native(x)[1] - python(x)[1]).max()
    print(f"the ONNX file and the JAX function differ by {same:.1e} at most on 256 observations")

    so = ort.SessionOptions()
    so.intra_op_num_threads = so.inter_op_num_threads = 1
    sessions = {name: ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
                for name, path in [("mlp", mlp_path), ("resnet", resnet_path)]}
    natives = {"mlp": native, "resnet": libminimax.OnnxEvaluator(resnet_path)}
    rows = {k: [] for k in ["native", "python", "tiny", "native2", "pair", "mlp_n", "mlp_o", "res_n", "res_o"]}
    spawn = multiprocessing.get_context("spawn")
    for r in range(a.rounds):
        rows["native"].append(search_rate(native, 1, a.seconds))
        rows["python"].append(search_rate(python, 1, a.seconds))
        rows["tiny"].append(search_rate(tiny, 1, a.seconds))
        rows["native2"].append(search_rate(native, 2, a.seconds))
        with spawn.Pool(2) as pool:
            rates = pool.map(alone, [(mlp_path, a.seconds, time.time() + 3.0)] * 2)
        rows["pair"].append(sum(rates))
        for name, short in [("mlp", "mlp"), ("resnet", "res")]:
            sess = sessions[name]
            rows[f"{short}_n"].append(throughput(natives[name], x, a.seconds / 2))
            rows[f"{short}_o"].append(throughput(lambda x: sess.run(["value", "logits"], {"observations": x}), x, a.seconds / 2))
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:,.0f}" for k, v in rows.items()), flush=True)

    med = {k: statistics.median(v) for k, v in rows.items()}
    ratio = lambda a_, b_: statistics.median(x / y for x, y in zip(rows[a_], rows[b_]))
    print(f"\nmedians of {a.rounds} rounds, {a.seconds:g} s each search figure:")
    print(f"search, one thread: native evaluator {med['native']:,.0f} simulations a second, "
          f"jitted JAX from Python {med['python']:,.0f}: {ratio('native', 'python'):.2f}x")
    print(f"search, one thread, an 84-8 network instead (the search's own cost): {med['tiny']:,.0f} "
          f"simulations a second: {ratio('tiny', 'python'):.2f}x JAX's MLP search, about the most a faster network could give")
    print(f"search, two threads: native {med['native2']:,.0f}: {ratio('native2', 'native'):.2f}x one thread; "
          f"two one-thread searches in two processes: {ratio('pair', 'native'):.2f}x one alone")
    for name, short, macs in [("MLP 84-128-128-8", "mlp", 84 * 128 + 128 * 128 + 128 * 8), ("residual 6x64", "res", resnet_macs)]:
        n, o = med[f"{short}_n"], med[f"{short}_o"]
        print(f"{name}, batch 256, one thread: native {n:,.0f} positions a second ({2 * macs * n / 1e9:.1f} GFLOP/s), "
              f"onnxruntime {o:,.0f} ({2 * macs * o / 1e9:.1f} GFLOP/s): {ratio(short + '_n', short + '_o'):.2f}x")
    targets = [
        ("native evaluator at least 2x jitted JAX from Python, 64 games x 128 simulations", ratio("native", "python"), 2.0),
        ("threads=2 at least 1.3x one thread", ratio("native2", "native"), 1.3),
        ("MLP batch 256 at least 0.8x onnxruntime", ratio("mlp_n", "mlp_o"), 0.8),
        ("residual 6x64 batch 256 at least 0.6x onnxruntime", ratio("res_n", "res_o"), 0.6),
    ]
    for what, got, want in targets:
        print(f"TARGET {what}: {got:.2f}x, {'met' if got >= want else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
