"""The game protocol's values held to their types (issue 49, point 2): `hash()` is an
int or None, `outcome()` and `evaluate()` give ints (a bool is not a score), a depth
limit needs `evaluate()`; the options' ranges; a kept MCTS tree answers only for its own
position, and forgets its moves when cleared."""

import gc
import weakref

import pytest

import libminimax


class Nim:
    """Take 1 to 3 sticks; who takes the last wins. MAX moves first; a pile that is a
    multiple of 4 is lost for the side to move."""

    def __init__(self, sticks, hashed=True):
        self.left, self.max_turn = sticks, True
        if not hashed:
            self.hash = None

    def moves(self):
        return [n for n in (1, 2, 3) if n <= self.left]

    def play(self, n):
        self.left -= n
        self.max_turn = not self.max_turn

    def undo(self, n):
        self.left += n
        self.max_turn = not self.max_turn

    def outcome(self):
        if self.left == 0:
            return -1 if self.max_turn else 1
        return None

    def evaluate(self):
        return 0

    def hash(self):
        return self.left * 2 + self.max_turn

    def max_to_move(self):
        return self.max_turn


def nim_value(sticks):
    return -1 if sticks % 4 == 0 else 1


def test_hash_none_is_no_hash():
    # hash() returning None was hashed as hash(None), one key for every position: the
    # table merged them and Nim 6 and 10 came out proven lost.
    class NoneHash(Nim):
        def hash(self):
            return None

    for sticks in range(1, 13):
        r = libminimax.search(NoneHash(sticks))
        assert (r.value, r.proven) == (nim_value(sticks), True), sticks


@pytest.mark.parametrize("bad", [1.5, "six", (1, 2), True])
def test_hash_that_is_not_an_int_is_a_type_error(bad):
    class Odd(Nim):
        def hash(self):
            return bad

    game = Odd(7)
    with pytest.raises(TypeError, match="hash"):
        libminimax.search(game)
    assert (game.left, game.max_turn) == (7, True)


def test_hash_of_any_size_is_taken():
    class Big(Nim):
        def hash(self):
            return (self.left * 2 + self.max_turn) << 70 | self.left * 2 + self.max_turn

    class Negative(Nim):
        def hash(self):
            return -(self.left * 2 + self.max_turn) - 1

    for cls in (Big, Negative):
        for sticks in (6, 8, 10):
            assert libminimax.search(cls(sticks)).value == nim_value(sticks)


def test_an_outcome_of_false_is_a_type_error():
    # outcome() returning False while the game goes on was a final draw.
    class Falsy(Nim):
        def outcome(self):
            o = super().outcome()
            return False if o is None else o

    with pytest.raises(TypeError, match="a score is an int"):
        libminimax.search(Falsy(6))


def test_a_depth_limit_without_evaluate_is_a_type_error():
    class Unevaluated(Nim):
        evaluate = None

    # Without a limit the search proves the value; iterations that met the depth do
    # not matter then.
    assert libminimax.search(Unevaluated(10)).value == 1
    assert libminimax.search(Unevaluated(10), depth=20).value == 1
    with pytest.raises(TypeError, match="evaluate"):
        libminimax.search(Unevaluated(30), depth=3)
    with pytest.raises(TypeError, match="evaluate"):
        libminimax.Mcts(playout_depth=2).search(Unevaluated(30), playouts=50)


def test_option_ranges():
    game = Nim(6)
    with pytest.raises(ValueError, match="threads=300 is more than 256"):
        libminimax.search(game, threads=300)
    with pytest.raises(ValueError, match="threads=257"):
        libminimax.Mcts().search(game, threads=257)
    assert libminimax.search(game, threads=256).value == 1
    assert libminimax.search(game, nodes=2**63).value == 1
    assert libminimax.search(game, nodes=2**64 - 1).value == 1
    for bad in (0, -1, 2**64):
        with pytest.raises(ValueError, match="nodes="):
            libminimax.search(game, nodes=bad)
    # A time past what a duration holds is no limit; its message is short where it is an
    # error.
    assert libminimax.search(game, time=1e300).value == 1
    assert libminimax.search(game, time=float("inf")).value == 1
    with pytest.raises(ValueError) as e:
        libminimax.search(game, time=-1e300)
    assert "time=-1e300 " in str(e.value) and len(str(e.value)) < 80


def test_a_kept_mcts_tree_answers_only_for_its_position():
    # Nim 9 then Nim 4 without hash(): the tree kept from 9 proved 4 won with 0
    # playouts. Now a tree is kept only where the position is known to be its root.
    mcts = libminimax.Mcts()
    r9 = mcts.search(Nim(9, hashed=False), playouts=2000)
    assert r9.proven and r9.best_move == 1
    r4 = mcts.search(Nim(4, hashed=False), playouts=2000)
    assert r4.playouts > 0
    assert r4.proven and r4.proven_reward == 0.0  # lost for the side to move
    # After advance(), the position is known: the tree is kept, without a hash too.
    game = Nim(9, hashed=False)
    r = mcts.search(game, playouts=500)
    nodes = mcts.nodes
    game.play(r.best_move)
    mcts.advance(r.best_move)
    assert 0 < mcts.nodes < nodes
    kept = mcts.nodes
    mcts.search(game, playouts=1)
    assert mcts.nodes >= kept
    # With a hash, the tree's root is checked by it.
    hashed = libminimax.Mcts()
    hashed.search(Nim(9), playouts=500)
    r = hashed.search(Nim(4), playouts=500)
    assert r.proven and r.proven_reward == 0.0


class Move:
    """A move object with a weak reference, to see whether the search still holds it."""

    def __init__(self, n):
        self.n = n

    def __hash__(self):
        return hash(self.n)

    def __eq__(self, other):
        return isinstance(other, Move) and other.n == self.n


class ObjectNim(Nim):
    """Nim whose moves are fresh objects at each call."""

    made = []

    def moves(self):
        out = [Move(n) for n in super().moves()]
        ObjectNim.made += [weakref.ref(m) for m in out]
        return out

    def play(self, m):
        super().play(m.n)

    def undo(self, m):
        super().undo(m.n)


def test_mcts_clear_forgets_the_moves_it_saw():
    ObjectNim.made = []
    mcts = libminimax.Mcts()
    for _ in range(20):
        mcts.search(ObjectNim(11), playouts=200)
    mcts.clear()
    gc.collect()
    alive = sum(r() is not None for r in ObjectNim.made)
    assert alive == 0, f"{alive} of {len(ObjectNim.made)} moves still held"


def test_a_given_depth_without_a_limit_does_not_deepen():
    # Issue 49's new user: at a given depth with no limit, deepening's shallower
    # iterations only added nodes (1.2x easyAI's time on a connect-3 written for both).
    from pygames import ConnectFour

    plain = libminimax.search(ConnectFour(), depth=5, view="side", deepening=False)
    default = libminimax.search(ConnectFour(), depth=5, view="side")
    deepened = libminimax.search(ConnectFour(), depth=5, view="side", deepening=True)
    assert default.nodes == plain.nodes < deepened.nodes
    assert default.value == plain.value == deepened.value
    # A limit that can stop the search deepens, so that it answers from a whole depth.
    limited = libminimax.search(ConnectFour(), depth=5, view="side", nodes=10**9)
    assert limited.nodes == deepened.nodes


def test_a_game_written_for_easyai_searches_as_a_two_player_game():
    # Issue 68: every easyAI game keeps its players in a list, self.players, which the
    # n-player protocol read as its players() method ("'list' object is not callable").
    from easyAI import TwoPlayerGame, solve_with_iterative_deepening

    class Nim(TwoPlayerGame):
        """easyAI's own example: take 1 to 3 sticks; who takes the last loses. Beside
        easyAI's methods, libminimax's (easyAI's play(nmoves) is its game loop)."""

        def __init__(self, players=None, pile=5):
            self.players = players
            self.pile = pile
            self.current_player = 1

        def possible_moves(self):
            return [str(i) for i in (1, 2, 3) if i <= self.pile]

        def make_move(self, m):
            self.pile -= int(m)

        def unmake_move(self, m):
            self.pile += int(m)

        def is_over(self):
            return self.pile <= 0

        def scoring(self):
            return 100 if self.pile <= 0 else 0  # the side to move: the other took the last

        def moves(self):
            return [] if self.is_over() else self.possible_moves()

        def play(self, m):
            self.make_move(m)
            self.switch_player()

        def undo(self, m):
            self.switch_player()
            self.unmake_move(m)

        def outcome(self):
            return self.scoring() if self.is_over() else None

        def evaluate(self):
            return self.scoring()

    for pile in range(1, 10):
        game = Nim([None, None], pile)
        r = libminimax.search(game, method="exact", view="side")
        assert game.pile == pile and r.proven
        # easyAI's own answer: 1 if the first player wins, -1 if it loses.
        result, _, _ = solve_with_iterative_deepening(
            Nim([None, None], pile), ai_depths=range(2, 14), win_score=90, verbose=False
        )
        assert (1 if r.value > 0 else -1) == result, (pile, r)
        assert (r.value > 0) == (pile % 4 != 1)
