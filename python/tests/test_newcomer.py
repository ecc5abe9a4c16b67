"""The newcomer's games of benches/newcomer_bench.py (issue 49, point 3): their values
against a plain negamax written here, with the defaults a Python game gets (PVS, killer
moves, the table read first and at the leaves) and without them; and the table's use at
the depth limit, counted in calls to the game."""

import collections
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "benches"))

import libminimax  # noqa: E402
import newcomer_games as games  # noqa: E402


def negamax(g, depth):
    """The textbook: every line to `depth` plies, scores from the side to move's view,
    through the game's libminimax methods."""
    o = g.outcome()
    if o is not None:
        return o
    if depth == 0:
        return g.evaluate()
    best = None
    for m in g.moves():
        g.play(m)
        v = -negamax(g, depth - 1)
        g.undo(m)
        best = v if best is None else max(best, v)
    return best


def played(make, moves):
    g = make()
    for m in moves:
        g.play(m)
    return g


# (game, moves played first, depth): small enough for the plain negamax.
CASES = [
    (games.TicTacToe, [4, 0], 7),
    (games.TicTacToe, [0, 1, 4], 6),
    (games.Connect3, [], 5),
    (games.Connect3, [1, 2, 1], 6),
    (games.ConnectFour, [], 3),
    (games.ConnectFour, [3, 3, 2], 4),
    (games.Nim, [(0, 1)], 11),
    (games.Domineering, [], 3),
    (games.Connect3Direct, [], 6),
]

OPTIONS = [
    {},
    {"method": "alphabeta", "killers": False},
    {"method": "pvs", "killers": False, "history": True},
    {"method": "alphabeta", "table_mb": 0},
    {"deepening": True},
    {"method": "minimax"},
]


@pytest.mark.parametrize("make,moves,depth", CASES)
def test_values_match_a_plain_negamax(make, moves, depth):
    expected = negamax(played(make, moves), depth)
    for options in OPTIONS:
        r = libminimax.search(played(make, moves), depth=depth, view="side", **options)
        # `value` is in MAX's view: MAX is the side to move at the root (max_at_root).
        assert r.value == expected, (make.__name__, moves, depth, options)


def test_nim_is_proven_with_the_textbook_distance():
    # 3-4-5 is a win in 11 plies for the side to move (its xor is not 0).
    r = libminimax.search(games.Nim(), view="side")
    assert (r.value, r.proven, r.plies_to_end) == (100, True, 11)


def test_a_position_at_the_depth_limit_is_evaluated_once():
    # The leaves read the table first: a position met again at the depth limit (Connect
    # Four's transpositions) is not evaluated again. Without it, 1,774 calls for 1,770
    # positions at depth 5 with plain alpha-beta... and more with deepening.
    calls = collections.Counter()

    class Counted(games.ConnectFour):
        def evaluate(self):
            calls[tuple(self.board)] += 1
            return super().evaluate()

    for options in ({}, {"deepening": False, "method": "alphabeta", "killers": False}):
        calls.clear()
        libminimax.search(Counted(), depth=5, view="side", **options)
        assert sum(calls.values()) <= 1.01 * len(calls), (options, sum(calls.values()), len(calls))


def test_the_defaults_for_a_python_game_are_pvs_with_killer_moves():
    # Fewer nodes than plain alpha-beta on tic-tac-toe: 2,718 against 5,535.
    default = libminimax.search(games.TicTacToe(), depth=9, view="side")
    plain = libminimax.search(games.TicTacToe(), depth=9, view="side", method="alphabeta", killers=False)
    pvs = libminimax.search(games.TicTacToe(), depth=9, view="side", method="pvs", killers=True)
    assert default.nodes == pvs.nodes < plain.nodes
    assert default.value == plain.value == 0
