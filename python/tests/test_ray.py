"""examples/python's Ray programs on a local Ray instance with 2 CPUs."""

import pathlib
import sys

import pytest

ray = pytest.importorskip("ray")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"))

import ray_selfplay  # noqa: E402
import ray_solve  # noqa: E402

import libminimax  # noqa: E402
from libminimax.games import ConnectFour  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("line, split", [("273143452732", 2), ("355361133132", 1), ("21733137", 3)])
def test_a_split_solve_agrees_with_the_whole(local_ray, line, split):
    value, alone = ray_solve.main(["--line", line, "--split", str(split)])
    assert value == alone == libminimax.search(ConnectFour(line), method="exact").value


def test_self_play_gives_training_data(local_ray):
    games = ray_selfplay.main(["--games", "2", "--playouts", "300"])
    assert len(games) == 2
    for records, result in games:
        assert result in (-1, 0, 1) and records
        for line, visits in records:
            assert len(visits) == 7 and sum(visits) > 0
            game = ConnectFour(line)  # every recorded position is legal
            assert all(visits[c] == 0 for c in range(7) if c not in game.moves())


@pytest.mark.parametrize("line, split", [("112233", 1), ("112233", 2), ("1122334", 0)])
def test_a_split_that_reaches_a_finished_game(local_ray, line, split):
    # "1122334" is over (four in the first row); "112233" split at 1 or 2 reaches it.
    # Before, a line that ends in a win was set up as a position, which the game refuses.
    if line == "1122334":
        with pytest.raises(SystemExit) as e:
            ray_solve.main(["--line", line, "--split", str(split)])
        assert e.value.code == 2
        return
    value, alone = ray_solve.main(["--line", line, "--split", str(split)])
    assert value == alone == libminimax.search(ConnectFour(line), method="exact").value


@pytest.mark.parametrize("program, args", [
    (ray_selfplay, ["--games", "-3"]),
    (ray_selfplay, ["--games", "0"]),
    (ray_selfplay, ["--playouts", "-5"]),
    (ray_selfplay, ["--playouts", "0"]),
    (ray_solve, ["--split", "-1"]),
    (ray_solve, ["--line", "9"]),
])
def test_a_bad_argument_is_a_message_and_status_2(program, args, capsys):
    with pytest.raises(SystemExit) as e:
        program.main(args)
    assert e.value.code == 2
    assert args[0] in capsys.readouterr().err
