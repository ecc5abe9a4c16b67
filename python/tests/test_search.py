"""search() over Python games, against plain minimax written apart (pygames.py)."""

import pytest

import libminimax
from pygames import ConnectFour, DiceRace, RandomTree, TicTacToe, minimax_value

METHODS = ["minimax", "alphabeta", "pvs", "exact"]


@pytest.mark.parametrize("method", METHODS)
def test_tic_tac_toe_with_named_moves(method):
    game = TicTacToe("X...O....")
    r = libminimax.search(game, method=method)
    assert r.proven and r.value == minimax_value(TicTacToe("X...O....")) == 0
    assert r.best_move in TicTacToe.NAMES and game.cells == list("X...O....")
    game.play(r.best_move)
    assert minimax_value(game) == r.value  # the move keeps the value
    assert r.pv[0] == r.best_move


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("method", METHODS)
def test_random_trees_to_the_end_and_at_a_depth(seed, method):
    tree = RandomTree(seed)
    assert libminimax.search(tree, method=method).value == minimax_value(tree)
    if method != "exact":
        for depth in (1, 2, 3):
            got = libminimax.search(tree, method=method, depth=depth)
            assert got.value == minimax_value(tree, depth), depth
    assert tree.path == []


def test_side_to_move_view():
    game = ConnectFour("4453")
    ref = minimax_value(ConnectFour("4453"), 4, view="side", max_to_move=True)
    for method in ("alphabeta", "pvs"):
        r = libminimax.search(game, method=method, depth=4, view="side")
        assert r.value == ref
    # The same game seen from MAX's side at MIN's turn: the value flips sign.
    game.play(3)
    ref = minimax_value(game, 3, view="side", max_to_move=False)
    r = libminimax.search(game, depth=3, view="side", max_at_root=False)
    assert r.value == ref


def test_a_win_in_one():
    game = ConnectFour("445566")  # the first player joins four in column 2 or 6 (0-based)
    r = libminimax.search(game, depth=2, view="side")
    assert r.best_move in (2, 6) and r.value == 1000
    assert not r.proven  # the other moves were cut off, and 1000 might not be the most


def test_chance_methods_against_expectimax():
    ref = minimax_value(DiceRace(2))
    for method in ("expectimax", "star1", "star2"):
        game = DiceRace(2)
        game.bounds = lambda: (-20, 20)
        r = libminimax.search(game, method=method)
        assert r.expected == pytest.approx(ref), method
        assert r.proven and game.plies == 0


def test_limits_return_a_legal_move():
    game = ConnectFour()
    r = libminimax.search(game, nodes=500, view="side")
    assert r.best_move in game.moves() and not r.proven and r.nodes <= 2000
    assert game.stones == 0


def test_results_are_immutable():
    r = libminimax.search(TicTacToe())
    with pytest.raises(AttributeError):
        r.value = 3
    assert "SearchResult(" in repr(r)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"method": "negascout"}, "method='negascout'"),
        ({"depth": -1}, "depth=-1"),
        ({"time": -0.5}, "time=-0.5"),
        ({"time": float("nan")}, "time=NaN"),
        ({"nodes": 0}, "nodes=0"),
        ({"threads": -2}, "threads=-2"),
        ({"table_mb": -1.0}, "table_mb=-1"),
        ({"view": "min"}, "view='min'"),
    ],
)
def test_bad_options_raise_value_error(kwargs, words):
    with pytest.raises(ValueError, match=words):
        libminimax.search(TicTacToe(), **kwargs)


def test_an_object_that_is_not_a_game():
    with pytest.raises(TypeError, match="has no moves"):
        libminimax.search(object())


def test_threads_on_a_python_game_say_why_one_searched():
    r = libminimax.search(TicTacToe(), threads=2)
    assert r.threads == 1 and "calling thread" in r.fewer_threads
    assert libminimax.search(TicTacToe()).fewer_threads is None
