"""Batched MCTS from Python (issue 50): the evaluator is a Python callable taking a
float32 array of observations and giving (values, logits). Checked against a tic-tac-toe
brute force written here: with exact values the search never plays a losing move where
another holds; proofs agree; the evaluator's exceptions and bad answers come back as
errors; the games are left as they were."""

import functools

import numpy as np
import pytest

import libminimax
from libminimax.games import ConnectFour, TicTacToe

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@functools.lru_cache(maxsize=None)
def brute(mine, theirs):
    """The value for the side to move of a board given as two tuples of 0/1 cells."""
    if any(all(theirs[c] for c in line) for line in LINES):
        return -1
    empty = [c for c in range(9) if not mine[c] and not theirs[c]]
    if not empty:
        return 0
    best = -1
    for c in empty:
        after = tuple(1 if i == c else x for i, x in enumerate(mine))
        best = max(best, -brute(theirs, after))
    return best


def oracle(obs):
    values = np.array(
        [brute(tuple(int(x) for x in o[:9]), tuple(int(x) for x in o[9:18])) for o in obs],
        dtype=np.float32,
    )
    return values, np.zeros((len(obs), 9), dtype=np.float32)


def positions():
    """Every position reachable by legal play that is not over, as move lines."""
    seen, out = set(), []

    def walk(game, line):
        key = tuple(game.observation())
        if game.outcome() is not None or key in seen:
            return
        seen.add(key)
        out.append(list(line))
        for m in game.moves():
            game.play(m)
            walk(game, line + [m])
            game.undo(m)

    walk(TicTacToe(), [])
    return out


def game_after(line):
    g = TicTacToe()
    for m in line:
        g.play(m)
    return g


def value_after(line, move):
    g = game_after(line + [move])
    if g.outcome() is not None:
        return abs(g.outcome())  # the mover won (1) or drew (0)
    o = g.observation()
    return -brute(tuple(int(x) for x in o[:9]), tuple(int(x) for x in o[9:]))


def test_with_exact_values_no_losing_move_where_another_holds():
    lines = positions()[::7]
    games = [game_after(line) for line in lines]
    before = [g.observation() for g in games]
    mcts = libminimax.BatchedMcts(simulations=32, leaves_per_tree=4)
    results = mcts.search(games, oracle)
    assert [g.observation() for g in games] == before, "the games are left as they were"
    for line, r in zip(lines, results):
        values = {m: value_after(line, m) for m in game_after(line).moves()}
        if max(values.values()) >= 0:
            assert values[r.best_move] >= 0, (line, values, r)
        assert abs(float(r.policy.sum()) - 1.0) < 1e-5
        assert r.policy.dtype == np.float32 and r.policy.shape == (9,)


def test_proofs_agree_with_the_brute_force():
    lines = [line for line in positions()[::31] if len(line) >= 3]
    know_nothing = lambda obs: (np.zeros(len(obs)), np.zeros((len(obs), 9)))
    results = libminimax.BatchedMcts(simulations=20_000).search(
        [game_after(line) for line in lines], know_nothing
    )
    for line, r in zip(lines, results):
        o = game_after(line).observation()
        exact = brute(tuple(int(x) for x in o[:9]), tuple(int(x) for x in o[9:]))
        assert r.proven == exact, (line, r)


def test_evaluator_errors_and_bad_answers():
    games = [ConnectFour("44"), ConnectFour()]
    before = [g.line for g in games]
    mcts = libminimax.BatchedMcts(simulations=50)

    def boom(obs):
        raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError, match="boom"):
        mcts.search(games, boom)
    assert [g.line for g in games] == before
    with pytest.raises(TypeError, match="pair"):
        mcts.search(games, lambda obs: np.zeros(len(obs)))
    with pytest.raises(ValueError, match=r"logits of shape \(2, 6\): expected \(2, 7\).*action_count = 7"):
        mcts.search(games, lambda obs: (np.zeros(len(obs)), np.zeros((len(obs), 6))))
    with pytest.raises(libminimax.BadEvaluationError):
        mcts.search(games, lambda obs: (np.full(len(obs), 2.0), np.zeros((len(obs), 7))))
    with pytest.raises(libminimax.BadEvaluationError):
        mcts.search(games, lambda obs: (np.zeros(len(obs)), np.full((len(obs), 7), np.nan)))
    with pytest.raises(TypeError, match="has no observation"):
        mcts.search([object()], boom)
    with pytest.raises(TypeError, match="not a native game"):
        mcts.search([ConnectFour(), object()], boom)
    with pytest.raises(TypeError, match="one kind"):
        mcts.search([TicTacToe(), ConnectFour()], boom)
    with pytest.raises(TypeError, match="no encoding"):
        mcts.search([libminimax.games.Othello()], boom)
    with pytest.raises(TypeError, match="callable"):
        mcts.search(games, 3)
    assert mcts.search([], boom) == []


def test_bad_options_are_value_errors():
    for kwargs in [
        dict(simulations=0),
        dict(batch_size=0),
        dict(root="alphago"),
        dict(root="gumbel", noise=(0.3, 0.25)),
        dict(noise=(0.0, 0.25)),
        dict(temperature=-1.0),
        dict(root="gumbel", considered=0),
        dict(threads=-1),
        dict(threads=10_000),
    ]:
        with pytest.raises(ValueError):
            libminimax.BatchedMcts(**kwargs)


def test_self_play_with_advance_gumbel_and_the_arrays_the_evaluator_sees():
    seen = []

    def uniform(obs):
        assert obs.dtype == np.float32 and obs.ndim == 2 and obs.shape[1] == 84
        seen.append(obs.shape[0])
        return np.zeros(len(obs), np.float32), np.zeros((len(obs), 7), np.float32)

    for root in ["puct", "gumbel"]:
        mcts = libminimax.BatchedMcts(simulations=32, batch_size=64, root=root, temperature=1.0)
        games = [ConnectFour() for _ in range(8)]
        for ply in range(10):
            results = mcts.search(games, uniform, seed=ply)
            for i, r in enumerate(results):
                if games[i].outcome() is not None:
                    assert r.best_move is None
                    continue
                assert r.simulations == 32 or r.proven is not None
                games[i].play(r.best_move)
                mcts.advance(i, r.best_move)
        assert max(seen) <= 64
        calls, sent = mcts.evaluator_calls
        assert sent > calls > 0
    assert "BatchedResult(best_move=" in repr(results[0])


class PyTicTacToe:
    """Tic-tac-toe written in Python, its moves (row, column) tuples, with the encoding
    batched MCTS asks for: observation() (the side to move's marks, then the other's),
    action_index(move) and action_count."""

    action_count = 9

    def __init__(self, line=()):
        self.cells = [0] * 9
        self.made = 0
        for m in line:
            self.play(m)

    def moves(self):
        return [(c // 3, c % 3) for c in range(9) if self.cells[c] == 0] if self.outcome() is None else []

    def play(self, m):
        self.cells[3 * m[0] + m[1]] = 1 if self.made % 2 == 0 else -1
        self.made += 1

    def undo(self, m):
        self.cells[3 * m[0] + m[1]] = 0
        self.made -= 1

    def outcome(self):
        for a, b, c in LINES:
            if self.cells[a] != 0 and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return 0 if self.made == 9 else None

    def max_to_move(self):
        return self.made % 2 == 0

    def observation(self):
        me = 1 if self.made % 2 == 0 else -1
        return [float(c == me) for c in self.cells] + [float(c == -me) for c in self.cells]

    def action_index(self, m):
        return 3 * m[0] + m[1]


def test_python_games_with_an_encoding_and_object_moves():
    lines = positions()[::11]
    games = [PyTicTacToe([(c // 3, c % 3) for c in line]) for line in lines]
    before = [list(g.cells) for g in games]
    mcts = libminimax.BatchedMcts(simulations=32, leaves_per_tree=4)
    results = mcts.search(games, oracle)
    assert [g.cells for g in games] == before, "the games are left as they were"
    for line, r in zip(lines, results):
        assert isinstance(r.best_move, tuple) and all(isinstance(m.move, tuple) for m in r.root)
        values = {m: value_after(line, m) for m in game_after(line).moves()}
        if max(values.values()) >= 0:
            assert values[3 * r.best_move[0] + r.best_move[1]] >= 0, (line, r)
    # The tree is kept across a move given as the game's own object.
    g = games[0]
    move = results[0].best_move
    g.play(move)
    mcts.advance(0, move)
    calls = mcts.evaluator_calls[0]
    mcts.search([g], oracle, simulations=1)
    assert mcts.evaluator_calls[0] <= calls + 1


def test_a_python_games_errors_come_back_as_themselves():
    class Broken(PyTicTacToe):
        def observation(self):
            if self.made >= 3:
                raise KeyError("observation")
            return super().observation()

    g = Broken([(1, 1)])
    with pytest.raises(KeyError, match="observation"):
        libminimax.BatchedMcts(simulations=200).search([g], oracle)
    assert g.made == 1

    class Short(PyTicTacToe):
        def observation(self):
            return super().observation()[: 18 if self.made < 3 else 5]

    with pytest.raises(ValueError, match="5 floats here and 18"):
        libminimax.BatchedMcts(simulations=200).search([Short([(1, 1)])], oracle)

    class NoEncoding:
        def moves(self):
            return [1]

    with pytest.raises(TypeError, match="observation"):
        libminimax.BatchedMcts().search([NoEncoding()], oracle)
    same = PyTicTacToe()
    with pytest.raises(RuntimeError, match="searched already"):
        libminimax.BatchedMcts().search([same, same], oracle)


def test_threads_give_each_native_game_what_one_thread_gives_it():
    # With room in every call for every game's leaves, a game's search is its own: the
    # same on any number of threads (the one-thread search is checked above against the
    # brute force).
    lines = positions()[::29]
    kwargs = dict(simulations=48, leaves_per_tree=4, batch_size=4 * len(lines),
                  noise=(1.0, 0.25), temperature=1.0, seed=7)
    one = libminimax.BatchedMcts(**kwargs).search([game_after(l) for l in lines], oracle)
    two = libminimax.BatchedMcts(threads=2, **kwargs).search([game_after(l) for l in lines], oracle)
    for a, b in zip(one, two):
        assert (a.best_move, a.value, a.simulations) == (b.best_move, b.value, b.simulations)
        assert np.array_equal(a.policy, b.policy)
        assert a.threads == 1 and (b.threads == 2 or b.fewer_threads)
    # A Python game is searched on the calling thread, and says so.
    r = libminimax.BatchedMcts(threads=2, simulations=8).search([PyTicTacToe([])], oracle)
    assert r[0].threads == 1 and "Python game" in r[0].fewer_threads


def test_answers_of_the_wrong_shape_name_the_shape_expected():
    # Issue 68: logits transposed or flat were read as garbage priors, and too few values
    # or a scalar failed inside numpy's reshape.
    games = [ConnectFour("44"), ConnectFour(), ConnectFour("4")]
    mcts = libminimax.BatchedMcts(simulations=50)
    zeros = lambda *shape: np.zeros(shape, np.float32)
    bad = [
        (lambda obs: (zeros(len(obs)), zeros(7, len(obs))), r"logits of shape \(7, 3\): expected \(3, 7\)"),
        (lambda obs: (zeros(len(obs)), zeros(7 * len(obs))), r"logits of shape \(21,\): expected \(3, 7\)"),
        (lambda obs: (zeros(len(obs) - 1), zeros(len(obs), 7)), r"values of shape \(2,\): expected \(3,\)"),
        (lambda obs: (np.float32(0), zeros(len(obs), 7)), r"values of shape \(\): expected \(3,\)"),
    ]
    for evaluator, message in bad:
        with pytest.raises(ValueError, match=message):
            mcts.search(games, evaluator)
    # Values as a column are fine.
    r = mcts.search(games, lambda obs: (zeros(len(obs), 1), zeros(len(obs), 7)))
    assert all(x.best_move is not None for x in r)


class NoSide(PyTicTacToe):
    """Tic-tac-toe that does not say whose turn it is."""

    max_to_move = None


def test_a_python_game_without_max_to_move_is_refused_not_searched_for_the_wrong_side():
    # Issue 68: O to move was searched as if X were, playing a losing move in 440 of 500
    # positions. X: (0,0), (0,1), (2,2); O: (1,0), (1,1), and O wins at once at (1,2).
    g = NoSide([(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)])
    with pytest.raises(TypeError, match=r"games\[0\] has no max_to_move\(\)"):
        libminimax.BatchedMcts(simulations=64).search([g], oracle)
    # The same position with max_to_move() wins at once.
    r = libminimax.BatchedMcts(simulations=64).search(
        [PyTicTacToe([(0, 0), (1, 0), (0, 1), (1, 1), (2, 2)])], oracle
    )
    assert r[0].best_move == (1, 2) and r[0].proven == 1.0


def test_action_indices_out_of_range_name_the_game_the_move_and_the_index():
    class Wide(PyTicTacToe):
        def action_index(self, m):
            return 9 if m == (2, 2) else super().action_index(m)

    with pytest.raises(libminimax.BadActionIndexError, match=r"games\[1\]\.action_index\(\(2, 2\)\) returned 9.*0 to action_count - 1 = 8"):
        libminimax.BatchedMcts(simulations=8).search([PyTicTacToe(), Wide()], oracle)


def test_games_of_two_shapes_are_named_plainly():
    class Small(PyTicTacToe):
        action_count = 10

    with pytest.raises(ValueError, match=r"games\[1\] has observations of 18 floats and action_count 10, where games\[0\] has 18 and 9"):
        libminimax.BatchedMcts(simulations=8).search([PyTicTacToe(), Small()], oracle)


def test_advance_refuses_a_game_or_a_move_the_trees_do_not_have():
    mcts = libminimax.BatchedMcts(simulations=16)
    games = [ConnectFour(), ConnectFour("4")]
    mcts.search(games, oracle_c4)
    with pytest.raises(IndexError, match=r"advance\(99, \.\.\.\): the last search had 2 games"):
        mcts.advance(99, 3)
    with pytest.raises(IndexError, match=r"advance\(-1"):
        mcts.advance(-1, 3)
    with pytest.raises(ValueError, match=r"advance\(0, 9\): not one of the moves at the root"):
        mcts.advance(0, 9)
    mcts.advance(0, 3)  # a legal move is kept
    # Python games' moves are their own objects.
    mcts = libminimax.BatchedMcts(simulations=16)
    mcts.search([PyTicTacToe()], oracle)
    with pytest.raises(ValueError, match=r"advance\(0, \(5, 5\)\)"):
        mcts.advance(0, (5, 5))
    mcts.advance(0, (1, 1))


def oracle_c4(obs):
    return np.zeros(len(obs), np.float32), np.zeros((len(obs), 7), np.float32)


def test_a_search_inside_its_own_evaluator_says_what_happened():
    mcts = libminimax.BatchedMcts(simulations=8)

    def reenter(obs):
        mcts.search([ConnectFour()], oracle_c4)
        return oracle_c4(obs)

    with pytest.raises(RuntimeError, match=r"BatchedMcts\.search\(\) was called while this object is searching"):
        mcts.search([ConnectFour()], reenter)

    def advance_inside(obs):
        mcts.advance(0, 3)
        return oracle_c4(obs)

    with pytest.raises(RuntimeError, match=r"BatchedMcts\.advance\(\) was called while"):
        mcts.search([ConnectFour()], advance_inside)
    assert mcts.search([ConnectFour()], oracle_c4)[0].best_move is not None


def test_sizes_that_cannot_be_honoured_are_refused_and_a_huge_batch_allocates_nothing_huge():
    # Issue 68: a tree without room for the root's children sent the root to the
    # evaluator forever; batch_size=10**8 was a MemoryError, 2**62 numpy's error.
    calls = []

    def counting(obs):
        calls.append(len(obs))
        return oracle_c4(obs)

    for max_nodes in [1, 7]:
        with pytest.raises(ValueError, match="max_nodes cannot hold a root and its children"):
            libminimax.BatchedMcts(simulations=50, max_nodes=max_nodes).search([ConnectFour()], counting)
    assert calls == []
    for batch_size in [10**8, 2**62]:
        r = libminimax.BatchedMcts(simulations=20, batch_size=batch_size).search(
            [ConnectFour(), ConnectFour("4")], counting
        )
        assert all(x.best_move is not None for x in r)
    assert max(calls) <= 16  # two games of 8 leaves
    with pytest.raises(ValueError, match="considered=1"):
        libminimax.BatchedMcts(root="gumbel", considered=1)


class FastTicTacToe(PyTicTacToe):
    """The same game with the batch-friendly protocol: observe(out) in place, every
    legal move's index in one call, and whether the side to move wins at once."""

    def observe(self, out):
        out[:] = self.observation()

    def action_indices(self):
        return [self.action_index(m) for m in self.moves()]

    def wins_at_once(self):
        me = 1 if self.made % 2 == 0 else -1
        for line in LINES:
            cells = [self.cells[c] for c in line]
            if cells.count(me) == 2 and cells.count(0) == 1:
                return True
        return False


def test_the_batch_protocol_searches_as_the_per_move_one():
    lines = positions()[::13]
    for decisive in [False, True]:
        mcts = dict(simulations=32, leaves_per_tree=4, decisive=decisive)
        slow = libminimax.BatchedMcts(**mcts).search(
            [PyTicTacToe([(c // 3, c % 3) for c in line]) for line in lines], oracle
        )
        fast = libminimax.BatchedMcts(**mcts).search(
            [FastTicTacToe([(c // 3, c % 3) for c in line]) for line in lines], oracle
        )
        for a, b in zip(slow, fast):
            assert (a.best_move, a.value, a.proven) == (b.best_move, b.value, b.proven)
            assert [(m.move, m.visits) for m in a.root] == [(m.move, m.visits) for m in b.root]
    # decisive left as None: on where the game has wins_at_once(), off where it has not.
    game = [(0, 0), (1, 1), (0, 1)]  # O to move must block at (0, 2)
    calls = []

    def counting(obs):
        calls.append(len(obs))
        return oracle(obs)

    libminimax.BatchedMcts(simulations=64).search([FastTicTacToe(game)], counting)
    with_hook = sum(calls)
    calls.clear()
    libminimax.BatchedMcts(simulations=64).search([PyTicTacToe(game)], counting)
    assert with_hook < sum(calls)  # the decisive leaves were never sent


def test_batch_protocol_answers_of_the_wrong_length_or_range_are_named():
    class Short(FastTicTacToe):
        def action_indices(self):
            return super().action_indices()[:-1]

    with pytest.raises(libminimax.BadActionIndexError, match=r"action_indices\(\) gave 8 indices for 9 legal moves"):
        libminimax.BatchedMcts(simulations=8).search([Short()], oracle)

    class Far(FastTicTacToe):
        def action_indices(self):
            return [i + 9 for i in super().action_indices()]

    with pytest.raises(libminimax.BadActionIndexError, match=r"gave 9 for move 0 \(\(0, 0\)\)"):
        libminimax.BatchedMcts(simulations=8).search([Far()], oracle)
