"""Mcts over Python games."""

import pytest

import libminimax
from pygames import TicTacToe, minimax_value


def test_proves_tic_tac_toe_with_named_moves():
    game = TicTacToe("X...O....")
    r = libminimax.Mcts().search(game, playouts=100_000)
    assert r.proven and r.proven_score == minimax_value(TicTacToe("X...O...."))
    assert r.best_move in game.moves() and game.cells == list("X...O....")
    for s in r.root:
        if s.proven is not None:  # a proven move's reward, against brute force
            game.play(s.move)
            value = minimax_value(game)
            game.undo(s.move)
            assert s.proven == {1: 1.0, 0: 0.5, -1: 0.0}[value], s.move


def test_a_seed_gives_one_result():
    a = libminimax.Mcts(seed=3).search(TicTacToe(), playouts=500)
    b = libminimax.Mcts(seed=3).search(TicTacToe(), playouts=500)
    assert [(s.move, s.visits) for s in a.root] == [(s.move, s.visits) for s in b.root]


def test_advance_keeps_the_subtree_across_named_moves():
    mcts = libminimax.Mcts()
    game = TicTacToe()
    r = mcts.search(game, playouts=3000)
    game.play(r.best_move)
    before = mcts.nodes
    mcts.advance(r.best_move)
    assert 0 < mcts.nodes < before
    r2 = mcts.search(game, playouts=100)
    assert r2.best_move in game.moves()
    mcts.clear()
    assert mcts.nodes == 0


def test_priors_are_used_and_checked():
    class Guided(TicTacToe):
        def priors(self, moves):
            return [10.0 if m == "b2" else 1.0 for m in moves]

    r = libminimax.Mcts().search(Guided(), playouts=200)
    assert r.best_move == "b2"

    class Wrong(TicTacToe):
        def priors(self, moves):
            return [1.0]

    with pytest.raises(ValueError, match="priors"):
        libminimax.Mcts().search(Wrong(), playouts=10)

    class Negative(TicTacToe):
        def priors(self, moves):
            return [-1.0] * len(moves)

    with pytest.raises(libminimax.BadPriorsError):
        libminimax.Mcts().search(Negative(), playouts=10)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"exploration": -1.0}, "exploration=-1"),
        ({"reward": "win"}, "reward='win'"),
        ({"eval_scale": 0.0}, "eval_scale=0"),
    ],
)
def test_bad_options(kwargs, words):
    with pytest.raises(ValueError, match=words):
        libminimax.Mcts(**kwargs)
    with pytest.raises(ValueError, match="playouts=0"):
        libminimax.Mcts().search(TicTacToe(), playouts=0)
