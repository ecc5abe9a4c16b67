"""The AlphaZero example (examples/python/alphazero) in a smoke run of about 20 seconds:
self-play, training on JAX, flax and optax, matches against UCT, the curve as PNG and
CSV, the network saved and exported to ONNX, and the export loaded by the library to play
a move; the export computes what the framework computes. Skipped where the example's
requirements (requirements.txt beside it) are not installed."""

import pathlib
import sys

import numpy as np
import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "alphazero"
sys.path.insert(0, str(EXAMPLE))
for requirement in ("jax", "flax", "optax", "jax2onnx", "matplotlib"):
    pytest.importorskip(requirement)

import net as net_module  # noqa: E402
import play  # noqa: E402
import train  # noqa: E402


def test_a_smoke_run_learns_saves_draws_and_plays(tmp_path, capsys):
    assert train.main(["--smoke", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "RESULT score" in out
    png = (tmp_path / "curve.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0] == "minutes,score" and len(rows) >= 3
    assert png[12:16] == b"IHDR"
    assert play.main(["--net", str(tmp_path / "net.onnx"), "--line", "4453", "--simulations", "64"]) == 0
    assert "play column" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        play.main(["--net", str(tmp_path / "missing.onnx")])
    assert e.value.code == 2
    (tmp_path / "broken.onnx").write_bytes(b"not a model")
    with pytest.raises(SystemExit) as e:
        play.main(["--net", str(tmp_path / "broken.onnx")])
    assert e.value.code == 2
    again = net_module.Net.load(str(tmp_path / "net.msgpack"))
    assert again.sizes == (84, 256, 256, 8)
    with pytest.raises(SystemExit) as e:
        train.main(["--minutes", "-1"])
    assert e.value.code == 2


def test_the_onnx_export_computes_what_the_framework_computes(tmp_path):
    import libminimax

    n = net_module.Net((84, 32, 32, 8), seed=1)
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2, (300, 84)).astype(np.float32)
    for _ in range(5):  # trained a little, so that no weight is as initialised
        n.step(x[:64], rng.dirichlet(np.ones(7), 64).astype(np.float32),
               rng.uniform(-1, 1, 64).astype(np.float32), lr=1e-2)
    n.export_onnx(str(tmp_path / "n.onnx"))
    exported = libminimax.OnnxEvaluator(tmp_path / "n.onnx")
    assert (exported.observation_size, exported.action_count) == (84, 7)
    for rows in (1, 13, 300):
        v, logits = n(x[:rows])
        ev, elogits = exported(x[:rows])
        assert np.abs(v - ev).max() < 1e-5 and np.abs(logits - elogits).max() < 1e-5


def test_training_lowers_the_loss_on_what_it_trains_on():
    n = net_module.Net((84, 32, 32, 8), seed=2)
    rng = np.random.default_rng(4)
    x = rng.integers(0, 2, (256, 84)).astype(np.float32)
    pi = rng.dirichlet(np.ones(7), 256).astype(np.float32)
    z = rng.uniform(-1, 1, 256).astype(np.float32)
    first = sum(n.step(x, pi, z, lr=1e-3))
    for _ in range(200):
        last = sum(n.step(x, pi, z, lr=1e-3))
    assert last < 0.8 * first


def test_a_mirrored_observation_is_the_mirrored_games():
    # Checked against the game itself: the line with every column c played as 6 - c.
    from libminimax.games import ConnectFour

    for line in ["", "4453", "1234567", "776651", "3332221"]:
        mirror = "".join(str(8 - int(c)) for c in line)
        obs = np.array([ConnectFour(line).observation()], np.float32)
        assert np.array_equal(train.mirrored(obs)[0], np.array(ConnectFour(mirror).observation(), np.float32))


def test_the_replay_buffer_keeps_the_last_samples():
    buf = train.Replay(5)
    for k in range(3):
        n = 3
        buf.add(np.full((n, 84), k, np.float32), np.full((n, 7), k, np.float32), np.arange(n, dtype=np.float32) + 10 * k)
    assert buf.size == 5
    assert sorted(buf.arrays[2].tolist()) == [11.0, 12.0, 20.0, 21.0, 22.0]
