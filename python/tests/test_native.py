"""The native games: searched without Python, checked against the references written in
Python (pygames.py) walking the same games through their Python methods, and against
published facts."""

import random

import pytest

import libminimax
from libminimax.games import ConnectFour, Game2048, Hex, Othello, TicTacToe
from pygames import ConnectFour as PyConnectFour
from pygames import minimax_value


def test_tic_tac_toe_every_reply_against_brute_force():
    game = TicTacToe()
    assert libminimax.search(game, method="exact").value == 0
    for first in game.moves():
        game.play(first)
        r = libminimax.search(game, method="exact")
        assert r.proven and r.value == minimax_value(game), first
        game.undo(first)
    assert game.line == []


def late_positions(n, stones, seed):
    """``n`` Connect Four lines of ``stones`` random moves, nobody having won."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        g = PyConnectFour()
        line = ""
        while g.stones < stones and not g.won:
            c = rng.choice(g.moves())
            g.play(c)
            line += str(c + 1)
        if not g.won and g.moves():
            out.append(line)
    return out


@pytest.mark.parametrize("line", late_positions(12, 33, seed=7))
def test_connect_four_exact_values_against_brute_force(line):
    native = ConnectFour(line)
    r = libminimax.search(native, method="exact")
    # The brute force plays the Python game to the end: the sign of the result (MAX's view).
    ref = minimax_value(PyConnectFour(line), view="side", max_to_move=len(line) % 2 == 0)
    assert r.proven and (r.value > 0) - (r.value < 0) == (ref > 0) - (ref < 0)
    two = libminimax.search(native, method="exact", threads=2)
    assert two.value == r.value and two.threads == 2


def test_othello_perft_matches_the_published_counts():
    def perft(g, depth):
        if depth == 0:
            return 1
        moves = g.moves()
        if not moves:
            return 1
        total = 0
        for m in moves:
            g.play(m)
            total += perft(g, depth - 1)
            g.undo(m)
        return total

    assert [perft(Othello(), d) for d in range(1, 6)] == [4, 12, 56, 244, 1396]


def test_othello_depth_limited_against_minimax():
    game = Othello()
    for m in (19, 18, 17):  # a few plies in
        game.play(m)
    for depth in (1, 2, 3):
        # Othello has no max_to_move(): MAX is whoever moves at the root (max_at_root).
        r = libminimax.search(game, depth=depth, method="pvs")
        assert r.value == minimax_value(game, depth, view="side", max_to_move=True), depth
        r = libminimax.search(game, depth=depth, method="pvs", max_at_root=False)
        assert r.value == minimax_value(game, depth, view="side", max_to_move=False), depth


@pytest.mark.parametrize("size", [2, 3])
def test_hex_the_first_player_wins(size):
    r = libminimax.search(Hex(size), method="exact")
    assert r.proven and r.value == 1  # Nash's strategy-stealing argument


def test_2048_expectimax_against_the_reference():
    game = Game2048([1, 1, 2, 0, 0, 0, 3, 0, 0, 1, 0, 0, 0, 0, 0, 2])
    for depth in (1, 2, 3):
        r = libminimax.search(game, method="expectimax", depth=depth)
        assert r.expected == pytest.approx(minimax_value(game, depth)), depth
        star = libminimax.search(game, method="star2", depth=depth)
        assert star.expected == pytest.approx(r.expected)


def test_moves_are_checked():
    game = ConnectFour("1111")
    with pytest.raises(ValueError, match="not a legal move"):
        game.play(7)
    game.play(0)
    game.play(0)
    with pytest.raises(ValueError, match="not a legal move"):
        game.play(0)  # the column is full
    with pytest.raises(ValueError, match="not the last move"):
        game.undo(3)
    game.undo(0)
    assert game.line == [0]
    with pytest.raises(ValueError, match="sizes are"):
        Hex(0)
    with pytest.raises(ValueError, match="not a column digit"):
        ConnectFour("48x")


def test_mcts_on_native_tic_tac_toe_proves_the_draw():
    mcts = libminimax.Mcts()
    game = TicTacToe()
    r = mcts.search(game, playouts=200_000)
    assert r.proven and r.proven_reward == 0.5 and r.proven_score == 0
    assert sum(s.visits for s in r.root) == r.playouts - 1 or r.playouts > 0
    assert {s.move for s in r.root} == set(range(9))
    game.play(r.best_move)
    kept = mcts.nodes
    mcts.advance(r.best_move)
    assert 0 < mcts.nodes < kept
    assert mcts.search(game, playouts=1000).best_move in game.moves()


def test_mcts_threads_on_a_native_game():
    r = libminimax.Mcts().search(ConnectFour("4444"), playouts=4000, threads=2)
    assert r.threads == 2 and r.best_move in range(7)
