"""libminimax: game-tree search on a Rust engine.

- ``minimax`` and ``alphabeta``: the textbook functions over a complete binary tree of
  leaf scores, with the C library's names, arguments and checks.
- ``search``: alpha-beta, PVS, exact solving and the chance methods over any Python
  object that plays a game (``moves()``, ``play(m)``, ``undo(m)``, ``outcome()``,
  ``evaluate()``), or natively over the games of ``libminimax.games``.
- ``ismcts``: information-set MCTS over a game with hidden information, whose
  ``sample(rng)`` gives a position consistent with what the player to move has seen;
  ``pimc``: perfect-information Monte Carlo over such a game of two players.
- ``calibrate_probcut`` and ``ProbCut``: a Multi-ProbCut fit for a game, made by
  self-play or on the program's positions, kept as text, given to ``search(probcut=)``.
- ``Mcts``: Monte Carlo tree search with a solver, keeping its tree between moves.
- ``BatchedMcts``: AlphaZero's search over many native games at once, leaves evaluated
  in batches by a network (any callable taking and giving numpy arrays).
- ``OnnxEvaluator``: a network saved as ONNX, evaluated by the library itself: handed
  to ``BatchedMcts.search``, no Python runs until the search ends.
- ``CGame``: a game written in C (an ``mm_game`` by its address), searched natively.
- ``libminimax.openspiel``: OpenSpiel's games (``pyspiel`` states).

Errors: an exception raised by a game's method comes back as itself, the game in its
position; a game that breaks the contract raises a ``GameError`` subclass; Ctrl-C stops a
search and raises ``KeyboardInterrupt``. The library prints nothing.
"""

from ._native import (
    BatchedMcts,
    BatchedMove,
    BatchedResult,
    BadBoundsError,
    BadPriorsError,
    BadWeightError,
    CGame,
    ChanceNodeError,
    ChanceRootError,
    GameError,
    Mcts,
    MctsResult,
    MoveStats,
    NeedsBoundsError,
    NegativeMoveCountError,
    NoMovesNotOverError,
    NoOutcomesError,
    OnnxEvaluator,
    ScoreOutOfRangeError,
    ScoreOutsideBoundsError,
    SearchResult,
    TooDeepError,
    TooManyMovesError,
    BadActionIndexError,
    BadEvaluationError,
    BadPlayerError,
    NoPassError,
    NoSampleError,
    BadSampleError,
    WeightSumOverflowError,
    ZeroWeightsError,
    __version__,
    alphabeta,
    ismcts,
    minimax,
    pimc,
    PimcMove,
    PimcResult,
    ProbCut,
    ProbCutPair,
    calibrate_probcut,
    search,
)
from . import games

__all__ = [
    "BatchedMcts",
    "BatchedMove",
    "BatchedResult",
    "BadBoundsError",
    "BadPriorsError",
    "BadWeightError",
    "CGame",
    "ChanceNodeError",
    "ChanceRootError",
    "GameError",
    "Mcts",
    "MctsResult",
    "MoveStats",
    "PimcMove",
    "PimcResult",
    "ProbCut",
    "ProbCutPair",
    "NeedsBoundsError",
    "NegativeMoveCountError",
    "NoMovesNotOverError",
    "NoOutcomesError",
    "OnnxEvaluator",
    "ScoreOutOfRangeError",
    "ScoreOutsideBoundsError",
    "SearchResult",
    "TooDeepError",
    "TooManyMovesError",
    "BadActionIndexError",
    "BadEvaluationError",
    "BadPlayerError",
    "NoPassError",
    "NoSampleError",
    "BadSampleError",
    "WeightSumOverflowError",
    "ZeroWeightsError",
    "__version__",
    "alphabeta",
    "calibrate_probcut",
    "games",
    "ismcts",
    "minimax",
    "pimc",
    "search",
]
