"""Games written in Rust, searched natively: the search releases the GIL and never calls
into Python. Each also plays through the game protocol (``moves()``, ``play(m)``,
``undo(m)``, ``outcome()``, ...), checked: an illegal move raises ``ValueError``.
Moves are ints (see each class)."""

from typing import Optional, Sequence

from ._native import NativeGame

__all__ = [
    "NativeGame",
    "TicTacToe",
    "ConnectFour",
    "Othello",
    "Hex",
    "Game2048",
    "Rolit",
    "ChineseCheckers",
    "Take",
    "Pig",
    "Quoridor",
    "OhHell",
    "Hearts",
]


class TicTacToe(NativeGame):
    """Tic-tac-toe. Moves are cells 0-8, row by row; X (MAX) moves first; 1 a win for X."""

    def __new__(cls) -> "TicTacToe":
        return super().__new__(cls, "tic_tac_toe")


class ConnectFour(NativeGame):
    """Connect Four, 7 x 6, with threat ordering and Pons' score bounds; moves are
    columns 0-6. ``moves`` is a line of column digits 1-7 from the empty board (Pons'
    notation). A win scores ``(43 - n) // 2`` for the winner, ``n`` the stones after it."""

    def __new__(cls, moves: str = "") -> "ConnectFour":
        return super().__new__(cls, "connect_four", moves)


class Othello(NativeGame):
    """Othello 8x8: moves are squares 0-63 (8 * row + column) and 64 to pass; scores are
    the side to move's (``view()`` is "side"): a disc-square table plus mobility, and
    +-10,000 for a won or lost game."""

    def __new__(cls) -> "Othello":
        return super().__new__(cls, "othello")


class Hex(NativeGame):
    """Hex on a ``size`` x ``size`` board; moves are cells ``size * row + column``. Black
    (MAX, first) joins the top and bottom rows; no evaluation (0)."""

    def __new__(cls, size: int = 7) -> "Hex":
        return super().__new__(cls, "hex", size)


class Game2048(NativeGame):
    """2048: the player (MAX) slides (0 left, 1 right, 2 up, 3 down), then a tile appears
    (a chance step: outcome ``2 * cell`` a 2 with weight 9, ``2 * cell + 1`` a 4 with
    weight 1). ``cells`` holds 16 tile exponents row by row (0 empty, 1 a 2, 11 2048);
    by default one tile."""

    def __new__(cls, cells: Optional[Sequence[int]] = None) -> "Game2048":
        return super().__new__(cls, "game2048", None if cells is None else list(cells))


class Rolit(NativeGame):
    """Rolit: Othello for 3 or 4 players on a ``size`` x ``size`` board (4, 6 or 8). The
    centre starts with a disc of each of four colours (with three players the fourth is
    nobody's); a player turns the discs of other colours it encloses, or where it can turn
    none places its disc next to any disc. Moves are squares ``8 * row + column``;
    ``outcome()`` gives each player's discs once the board is full, ``evaluate()`` each
    player's discs weighted 1, 2 on an edge, 5 in a corner."""

    def __new__(cls, size: int = 8, players: int = 3) -> "Rolit":
        return super().__new__(cls, "rolit", (size, players))


class ChineseCheckers(NativeGame):
    """Chinese Checkers for three players on the 73-cell star, 6 pieces each, racing to
    the opposite point; a move steps or jumps (on and on) and is ``from * 128 + to``.
    Each player scores its progress (0 to 56), and the first home 57 more; the game ends
    there or after 300 plies. ``evaluate()`` is the progress."""

    def __new__(cls) -> "ChineseCheckers":
        return super().__new__(cls, "chinese_checkers")


class Take(NativeGame):
    """Take, an n-player Nim with points (2 to 8 players): a move takes 1 to 3 sticks
    from a pile (``4 * pile + n``), a point a stick, 3 more for the last stick of all;
    emptying a pile (not the last) gives its taker another turn."""

    def __new__(cls, piles: Sequence[int] = (3, 4, 5), players: int = 3) -> "Take":
        return super().__new__(cls, "take", (list(piles), players))


class Pig(NativeGame):
    """Pig for 3 to 8 players with OpenSpiel's rules and defaults (win at 100, a horizon
    of 1000 moves and rolls, a six-sided die): roll (0) or stop (1); a roll is a chance
    step whose outcome is the face less one. The winner scores ``players - 1``, the
    others -1 (OpenSpiel's returns times ``players - 1``); all 0 at the horizon."""

    def __new__(cls, players: int = 3) -> "Pig":
        return super().__new__(cls, "pig", players)


class Quoridor(NativeGame):
    """Quoridor for 3 or 4 players with OpenSpiel's rules, defaults and move numbers
    (``quoridor``: a 9 x 9 board, 10 walls each, a draw after 324 turns): a move is a
    point of OpenSpiel's grid of 17 a side, a pawn's direction around point (2, 2) (north
    ``2``, a jump named as its step) or the point where a wall starts. The winner scores
    ``players - 1``, the others -1 (OpenSpiel's returns times ``players - 1``)."""

    def __new__(cls, players: int = 3) -> "Quoridor":
        return super().__new__(cls, "quoridor", players)


class OhHell(NativeGame):
    """Oh Hell for 3 to 7 players with OpenSpiel's rules, defaults and move numbers
    (``oh_hell``), hidden hands and all: chance picks the tricks and the dealer, deals and
    turns up the trump card (outcomes are the numbers and cards); a bid of ``b`` is
    ``52 + b``, a card ``4 * rank + suit``. A point a trick, 10 more for making the bid.
    Searched by ``libminimax.ismcts``, each iteration on a copy redealt from what the
    player to move has seen: every card it has not seen (``sampling="unseen"``), or
    only the cards the others hold (``"dealt"``), which is how OpenSpiel's ``oh_hell``
    resamples, for comparisons with its bots on equal terms."""

    def __new__(cls, players: int = 3, sampling: str = "unseen") -> "OhHell":
        return super().__new__(cls, "oh_hell", (players, sampling))


class Hearts(NativeGame):
    """Hearts for four with OpenSpiel's rules, defaults and move numbers (``hearts``),
    hidden hands and all: chance draws the pass direction (0 none, 1 left, 2 across, 3
    right) and deals (outcomes are the numbers and cards); each player picks three cards
    to pass, one at a time; then the tricks, a card ``4 * rank + suit`` (clubs, diamonds,
    hearts, spades). Each player scores 26 less its points (a heart 1, the queen of spades
    13; a moon shot gives the others 26 each). Searched by ``libminimax.ismcts``, each
    iteration on a copy redealt from what the player to move has seen."""

    def __new__(cls) -> "Hearts":
        return super().__new__(cls, "hearts")
