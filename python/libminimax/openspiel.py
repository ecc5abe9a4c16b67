"""OpenSpiel games searched by libminimax: any two-player zero-sum perfect-information
``pyspiel`` state, by alpha-beta, exact solving and MCTS, and with chance steps by the
chance methods (expectimax, Star1, Star2) and MCTS; and any sequential
perfect-information game of 3 to 8 players (zero-sum, constant-sum or general-sum), by
max^n, paranoid and best-reply search and by MCTS with max^n backups (with chance
steps: max^n and MCTS).

``SpielGame(state)`` is a game for ``libminimax.search`` and ``libminimax.Mcts``. It plays
on its own clone of ``state``, with ``apply_action`` and ``undo_action`` where the game
has ``undo_action`` (found by trying it once on another clone), and on a stack of
children where it does not. Player 0 is MAX; scores are player 0's returns times
``scale``, rounded to ints, and the game's utility range (times ``scale``) bounds them.
``evaluate`` (a function of a state, player 0's view, an int) scores positions at a
depth limit (and the bounds are then not given: an evaluation may lie outside them);
without it they score 0. With more than two players, ``outcome`` and ``evaluate`` give
every player's score (``evaluate`` then returns a tuple, one a player), ``to_move`` is
the current player and ``player_bounds`` the utility range's (times ``scale``). ``hash`` (default True) gives the table a hash of the state's
string, player and move number, the table that makes an exact solve of OpenSpiel's
``nim`` quick (docs/python.md has the figures); ``hash=False`` saves the string's cost a
position on a game without transpositions, or one whose string and move number do not
tell its positions apart.

A game with hidden information (``kuhn_poker``, ``leduc_poker``, ``hearts``, ``oh_hell``,
any whose states implement ``resample_from_infostate``) is searched by
``libminimax.ismcts``: ``sample(rng)`` is a ``SpielGame`` of a state resampled from the
player to move's information state, and ``information_key()`` a hash of that
information state's string. A game without ``resample_from_infostate`` (``liars_dice``,
``phantom_ttt``, ``dark_hex``) is a ``ValueError`` that says so. The other searches would
read the hidden state, so ``search`` here refuses such a game.

Written from OpenSpiel's documented Python API (``pyspiel.State``); it imports nothing
of OpenSpiel's own algorithms.
"""

import contextlib
import os
import random
import types
from typing import Any, Callable, List, Optional, Tuple

import libminimax

__all__ = ["SpielGame", "ismcts", "search"]


@contextlib.contextmanager
def _quiet_stderr():
    """OpenSpiel's C++ prints to the process's stderr when a game has no undo_action;
    the probe below is not worth a line there."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _has_resample(state) -> bool:
    """Whether the game of ``state`` resamples a state from an information state."""
    probe = state.clone()
    while probe.is_chance_node():
        probe.apply_action(probe.chance_outcomes()[0][0])
    if probe.is_terminal():
        return False
    try:
        with _quiet_stderr():
            # (A constant sampler can loop forever: hearts' resampling retries deals.)
            probe.resample_from_infostate(probe.current_player(), random.Random(0).random)
    except Exception:  # pyspiel.SpielError: "ResampleFromInfostate() not implemented."
        return False
    return True


def _has_undo(state) -> bool:
    """Whether the game of ``state`` takes back a move with ``undo_action``."""
    probe = state.clone()
    while probe.is_chance_node():
        probe.apply_action(probe.chance_outcomes()[0][0])
    if probe.is_terminal():
        return False
    player, action = probe.current_player(), probe.legal_actions()[0]
    before = probe.history()
    probe.apply_action(action)
    try:
        with _quiet_stderr():
            probe.undo_action(player, action)
    except Exception:  # pyspiel.SpielError: "UndoAction function is not overridden"
        return False
    return probe.history() == before


class SpielGame:
    """A ``pyspiel`` state as a game for ``libminimax.search`` and ``Mcts``."""

    def __init__(
        self,
        state: Any,
        evaluate: Optional[Callable[[Any], int]] = None,
        scale: int = 1,
        undo: Optional[bool] = None,
        hash: bool = True,
    ):
        game = state.get_game()
        kind = game.get_type()
        import pyspiel  # type: ignore[import-not-found]

        n = game.num_players()
        if not 2 <= n <= 8:
            raise ValueError(f"{kind.short_name} has {n} players: libminimax searches 2 to 8")
        sums = (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)
        if n == 2 and kind.utility not in sums:
            raise ValueError(f"{kind.short_name} is not zero-sum (with two players it must be)")
        self.hidden = kind.information != pyspiel.GameType.Information.PERFECT_INFORMATION
        if self.hidden and not _has_resample(state):
            raise ValueError(
                f"{kind.short_name} has hidden information and its states do not implement "
                "resample_from_infostate, which libminimax.ismcts needs to sample them"
            )
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError(f"{kind.short_name} is not sequential")
        self.state = state.clone()
        self.scale = scale
        self.value_function = evaluate
        self.use_undo = _has_undo(state) if undo is None else undo
        self._undo: List[Any] = []  # the movers (undo_action) or the parents (clones)
        self._lo = round(game.min_utility() * scale)
        self._hi = round(game.max_utility() * scale)
        self._players = n
        if n > 2:
            # Every player's scores; the two-player methods are not for this game.
            setattr(self, "outcome", self._scores)
            setattr(self, "evaluate", self._evaluations)
            setattr(self, "max_to_move", None)
            setattr(self, "bounds", None)
            if kind.utility in sums:
                total = game.utility_sum() if kind.utility != sums[0] else 0.0
                self._sum = round(total * scale) + n  # room for the rounding
            else:
                self._sum = n * self._hi
            if evaluate is not None:
                setattr(self, "player_bounds", None)
        else:
            setattr(self, "players", None)
            setattr(self, "to_move", None)
            setattr(self, "player_bounds", None)
        if not hash:
            setattr(self, "hash", None)  # no table: the search finds no hash()
        if not self.hidden:
            setattr(self, "sample", None)
            setattr(self, "information_key", None)
        if evaluate is not None:
            # The returns' range bounds final scores only; an evaluation may lie outside
            # it, and bounds would then cut off what it says.
            setattr(self, "bounds", None)
        self._chance = kind.chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC
        if not self._chance:
            # Fewer calls a node: no chance steps to ask about.
            setattr(self, "is_chance", None)
            setattr(self, "outcomes", None)
            if self.use_undo:
                # One state throughout: its own method lists the moves, without a frame here.
                setattr(self, "moves", self.state.legal_actions)

    def moves(self) -> List[int]:
        s = self.state
        if self._chance and s.is_chance_node():
            return []
        return s.legal_actions()  # none at the end

    def play(self, action: int) -> None:
        if self.use_undo:
            self._undo.append(self.state.current_player())
            self.state.apply_action(action)
        else:
            self._undo.append(self.state)
            self.state = self.state.child(action)

    def undo(self, action: int) -> None:
        if self.use_undo:
            self.state.undo_action(self._undo.pop(), action)
        else:
            self.state = self._undo.pop()

    def outcome(self) -> Optional[int]:
        if not self.state.is_terminal():
            return None
        return round(self.state.returns()[0] * self.scale)

    def evaluate(self) -> int:
        return 0 if self.value_function is None else self.value_function(self.state)

    def players(self) -> int:  # replaced by None with two players
        return self._players

    def to_move(self) -> int:  # replaced by None with two players
        return self.state.current_player()

    def _scores(self) -> Optional[Tuple[int, ...]]:
        if not self.state.is_terminal():
            return None
        return tuple(round(r * self.scale) for r in self.state.returns())

    def _evaluations(self) -> Tuple[int, ...]:
        if self.value_function is None:
            return (0,) * self._players
        return tuple(self.value_function(self.state))

    def player_bounds(self) -> Tuple[int, int]:  # replaced by None with two players
        return (self._lo, self._sum)

    def max_to_move(self) -> Optional[bool]:
        player = self.state.current_player()
        return player == 0 if player in (0, 1) else None

    def bounds(self) -> Tuple[int, int]:
        return (self._lo, self._hi)

    def is_chance(self) -> bool:
        return self.state.is_chance_node()

    def outcomes(self) -> List[Tuple[int, float]]:
        return self.state.chance_outcomes()

    def sample(self, rng: Any) -> "SpielGame":  # replaced by None without hidden information
        """A game at a state consistent with what the player to move has seen, drawn by
        ``rng`` (a ``random.Random``)."""
        copy = object.__new__(SpielGame)
        copy.__dict__.update(self.__dict__)
        copy.state = self.state.resample_from_infostate(self.state.current_player(), rng.random)
        copy._undo = []
        if not self.use_undo:
            # Moves played in place, and taken back by replaying the rest from a copy of
            # the sample: a search of a sample (ISMCTS's) mostly only plays forward,
            # where a stack of children would copy the state at every move.
            copy._sampled = copy.state.clone()
            copy.play = copy._play_in_place
            copy.undo = copy._undo_by_replay
        for name, f in self.__dict__.items():
            # The methods set per game in __init__ are bound to self or its state.
            owner = getattr(f, "__self__", None)
            if owner is self:
                setattr(copy, name, types.MethodType(f.__func__, copy))
            elif owner is self.state:
                setattr(copy, name, getattr(copy.state, f.__name__))
        return copy

    def _play_in_place(self, action: int) -> None:
        self._undo.append(action)
        self.state.apply_action(action)

    def _undo_by_replay(self, action: int) -> None:
        self._undo.pop()
        state = self._sampled.clone()
        for a in self._undo:
            state.apply_action(a)
        self.state = state

    def information_key(self) -> int:  # replaced by None without hidden information
        return hash(self.state.information_state_string())

    def hash(self) -> int:  # replaced by None with hash=False
        # The string with the player and the move number: pig's string leaves out the
        # turns played, which its horizon counts, and a hash of the string and player
        # alone merged positions of different values (expectimax gave 0.0 for 0.296).
        return hash((str(self.state), self.state.current_player(), self.state.move_number()))


def search(
    state: Any,
    evaluate: Optional[Callable[[Any], int]] = None,
    scale: int = 1,
    undo: Optional[bool] = None,
    hash: bool = True,
    **options: Any,
):
    """``libminimax.search`` of a ``pyspiel`` state (player 0 is MAX): ``evaluate``,
    ``scale``, ``undo`` and ``hash`` are ``SpielGame``'s, the other options the search's.
    A game with hidden information is a ``ValueError``: search it with ``ismcts``."""
    game = SpielGame(state, evaluate, scale, undo, hash)
    if game.hidden:
        name = state.get_game().get_type().short_name
        raise ValueError(
            f"{name} has hidden information, which search() would read: search it with "
            "libminimax.openspiel.ismcts"
        )
    return libminimax.search(game, **options)


def ismcts(state: Any, scale: int = 1, undo: Optional[bool] = None, **options: Any):
    """``libminimax.ismcts`` of a ``pyspiel`` state with hidden information from the view
    of the player to move; ``options`` are ``ismcts``'s (``reward="scaled"`` ranks by the
    returns, scaled into [0, 1] by the game's utility range)."""
    return libminimax.ismcts(SpielGame(state, None, scale, undo, hash=False), **options)
