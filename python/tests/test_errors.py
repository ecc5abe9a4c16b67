"""What a game that raises or misbehaves gets: its own exception, the game in its
position; a GameError subclass per status, with the library's message."""

import os
import signal
import threading
import time

import pytest

import libminimax
from libminimax.games import ConnectFour as NativeConnectFour
from pygames import ConnectFour, TicTacToe


class Boom(Exception):
    pass


class RaisesAt(ConnectFour):
    """Raises ``Boom`` in ``method`` at its ``at``-th call (before changing anything)."""

    def __init__(self, method, at):
        self.method, self.at, self.count = method, at, 0
        super().__init__("44")
        self.count = 0

    def _tick(self, name):
        if name == self.method:
            self.count += 1
            if self.count == self.at:
                raise Boom(f"{name} call {self.at}")

    def moves(self):
        self._tick("moves")
        return super().moves()

    def play(self, c):
        self._tick("play")
        super().play(c)

    def undo(self, c):
        self._tick("undo")
        super().undo(c)

    def evaluate(self):
        self._tick("evaluate")
        return super().evaluate()

    def outcome(self):
        self._tick("outcome")
        return super().outcome()

    def hash(self):
        self._tick("hash")
        return super().hash()


def snapshot(game):
    return ([list(c) for c in game.grid], list(game.heights), game.stones, game.won, list(game.history))


@pytest.mark.parametrize("method", ["moves", "play", "evaluate", "outcome", "hash"])
@pytest.mark.parametrize("search", ["alphabeta", "pvs", "mcts"])
def test_the_exception_itself_comes_back_and_the_game_is_restored(method, search):
    game = RaisesAt(method, 10_000)
    before = snapshot(game)
    with pytest.raises(Boom, match=f"{method} call 10000"):
        if search == "mcts":
            libminimax.Mcts(playout_depth=4).search(game, playouts=100_000)
        else:
            libminimax.search(game, method=search, depth=20, view="side")
    assert snapshot(game) == before


def test_an_exception_in_undo_comes_back():
    game = RaisesAt("undo", 50)
    with pytest.raises(Boom):
        libminimax.search(game, depth=6, view="side")


class NoMovesNotOver(TicTacToe):
    def moves(self):
        return [] if self.cells.count(".") == 6 else super().moves()


def test_game_errors_are_subclasses_with_the_library_message():
    with pytest.raises(libminimax.NoMovesNotOverError, match="no moves but the game is not over") as e:
        libminimax.search(NoMovesNotOver())
    assert isinstance(e.value, libminimax.GameError)

    class Extreme(TicTacToe):
        def outcome(self):
            o = super().outcome()
            return -(2**31) if o == -1 else o

    with pytest.raises(libminimax.ScoreOutOfRangeError):
        libminimax.search(Extreme())

    class Reversed(TicTacToe):
        def bounds(self):
            return (1, -1)

    with pytest.raises(libminimax.BadBoundsError):
        libminimax.search(Reversed())


def test_a_chance_position_in_a_deterministic_search():
    class Chancy(TicTacToe):
        def is_chance(self):
            return self.cells.count("X") == 1 and self.cells.count("O") == 0

        def outcomes(self):
            return [(m, 1.0) for m in super().moves()]

    with pytest.raises(libminimax.ChanceNodeError):
        libminimax.search(Chancy())


def test_a_score_that_is_not_an_int_keeps_its_type():
    class Floaty(TicTacToe):
        def outcome(self):
            o = super().outcome()
            return None if o is None else o + 0.5

    with pytest.raises(TypeError):
        libminimax.search(Floaty())


def test_an_unhashable_move():
    class Listy(TicTacToe):
        def moves(self):
            return [[m] for m in super().moves()]

    with pytest.raises(TypeError, match="unhashable"):
        libminimax.search(Listy())


def seconds_to_stop(search, after=0.3):
    """Sends SIGINT `after` seconds into `search()`, which must raise KeyboardInterrupt;
    how long after the signal it did. A signal that waits for the search's end instead
    shows as the length of its node budget (a minute here), not as a hung run."""
    sent = []

    def send():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(after, send)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            search()
        raised = time.monotonic()
    finally:
        timer.cancel()
    assert sent, "KeyboardInterrupt before the signal was sent"
    return raised - sent[0]


# Far below either search's budget (about 80 s and 55 s here); a stop takes about 1 ms.
PROMPT = 5.0


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals")
def test_ctrl_c_stops_a_native_search(default_sigint):
    game = NativeConnectFour()
    late = seconds_to_stop(lambda: libminimax.search(game, method="exact", nodes=500_000_000))
    assert late < PROMPT
    assert game.line == [] and game.moves() == [3, 2, 4, 1, 5, 0, 6]


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals")
def test_ctrl_c_stops_a_python_search(default_sigint):
    game = ConnectFour()
    before = snapshot(game)
    late = seconds_to_stop(
        lambda: libminimax.search(game, method="exact", view="side", nodes=10_000_000)
    )
    assert late < PROMPT
    assert snapshot(game) == before
