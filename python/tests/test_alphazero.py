"""The AlphaZero example (examples/python/alphazero) in a smoke run of about 20 seconds:
self-play, training, matches against UCT, the curve as PNG and CSV, the network saved and
loaded to play a move; and its network's gradients against finite differences (a check
written apart from the code it checks)."""

import pathlib
import sys

import numpy as np
import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "alphazero"
sys.path.insert(0, str(EXAMPLE))

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
    assert play.main(["--net", str(tmp_path / "net.npz"), "--line", "4453", "--simulations", "64"]) == 0
    assert "play column" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        play.main(["--net", str(tmp_path / "missing.npz")])
    assert e.value.code == 2
    with pytest.raises(SystemExit) as e:
        train.main(["--minutes", "-1"])
    assert e.value.code == 2


def test_the_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    n = net_module.Net((84, 16, 16, 8), seed=1)
    x = rng.random((5, 84)).astype(np.float32)
    pi = rng.dirichlet(np.ones(7), 5).astype(np.float32)
    z = rng.uniform(-1, 1, 5).astype(np.float32)

    def loss():
        pl, vl, _, _ = n.loss_and_gradients(x, pi, z, l2=0.0)
        return float(pl + vl)

    _, _, gw, _ = n.loss_and_gradients(x, pi, z, l2=0.0)
    for layer, (i, j) in [(0, (3, 2)), (1, (5, 7)), (2, (4, 7)), (2, (1, 0))]:
        w = n.w[layer].astype(np.float64)
        n.w[layer] = w
        eps = 1e-5
        w[i, j] += eps
        up = loss()
        w[i, j] -= 2 * eps
        down = loss()
        w[i, j] += eps
        assert abs((up - down) / (2 * eps) - gw[layer][i, j]) < 1e-4


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
