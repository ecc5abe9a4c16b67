"""Games written in Python for the tests and the benchmark, and the references the tests
compare against: plain minimax and expectimax, written here apart from the engine."""

import random

WIN = 1000


class TicTacToe:
    """Tic-tac-toe with moves named like "b2" (column a-c, row 1-3): moves that are not
    ints. X is MAX and moves first; 1 a win for X, -1 for O, 0 a draw (MAX's view)."""

    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    NAMES = [c + r for r in "123" for c in "abc"]

    def __init__(self, cells="........."):
        self.cells = list(cells)
        self.calls = 0

    def to_move(self):
        return "X" if self.cells.count("X") == self.cells.count("O") else "O"

    def winner(self):
        for a, b, c in self.LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def moves(self):
        if self.outcome() is not None:
            return []
        return [self.NAMES[i] for i in range(9) if self.cells[i] == "."]

    def play(self, m):
        self.calls += 1
        i = self.NAMES.index(m)
        assert self.cells[i] == "."
        self.cells[i] = self.to_move()

    def undo(self, m):
        i = self.NAMES.index(m)
        assert self.cells[i] != "."
        self.cells[i] = "."

    def outcome(self):
        w = self.winner()
        if w is not None:
            return 1 if w == "X" else -1
        return 0 if "." not in self.cells else None

    def evaluate(self):
        return 0

    def hash(self):
        return hash("".join(self.cells))

    def max_to_move(self):
        return self.to_move() == "X"


class ConnectFour:
    """Connect Four, 7 x 6, scored from the side to move (negamax's view, ``view="side"``)
    with the plain evaluation of benches/peer: stones weighted by column (3 in the centre,
    2 and 1 beside it), the side to move's minus the other's; a win is 1000. Moves are
    columns 0-6, centre first."""

    ORDER = [3, 2, 4, 1, 5, 0, 6]
    WEIGHT = [0, 1, 2, 3, 2, 1, 0]

    def __init__(self, line=""):
        self.heights = [0] * 7
        self.grid = [[0] * 6 for _ in range(7)]  # 1 first player, 2 second
        self.stones = 0
        self.won = False
        self.history = []
        for ch in line:
            self.play(int(ch) - 1)

    def moves(self):
        if self.won or self.stones == 42:
            return []
        return [c for c in self.ORDER if self.heights[c] < 6]

    def play(self, c):
        who = 1 + self.stones % 2
        r = self.heights[c]
        self.grid[c][r] = who
        self.heights[c] += 1
        self.stones += 1
        self.history.append(self.won)
        self.won = self._four(c, r, who)

    def undo(self, c):
        self.heights[c] -= 1
        self.grid[c][self.heights[c]] = 0
        self.stones -= 1
        self.won = self.history.pop()

    def _four(self, c, r, who):
        g = self.grid
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                cc, rr = c + s * dc, r + s * dr
                while 0 <= cc < 7 and 0 <= rr < 6 and g[cc][rr] == who:
                    n += 1
                    cc, rr = cc + s * dc, rr + s * dr
            if n >= 4:
                return True
        return False

    def outcome(self):
        if self.won:
            return -WIN  # the side to move has lost
        return 0 if self.stones == 42 else None

    def evaluate(self):
        me = 1 + self.stones % 2
        total = 0
        for c in range(7):
            for r in range(self.heights[c]):
                total += self.WEIGHT[c] if self.grid[c][r] == me else -self.WEIGHT[c]
        return total

    def hash(self):
        return hash((tuple(map(tuple, self.grid)), self.stones % 2))


class DiceRace:
    """A chance game: at each turn the player to move (MAX first) picks 1 or 2, then a die
    (1-3, weights 1, 2, 3) is thrown; MAX's pick and the die after it add to the total,
    MIN's pick and the die after it subtract. The value is the total after ``turns``
    turns (MAX's view)."""

    def __init__(self, turns=2):
        self.total = 0
        self.turns = turns
        self.steps = []  # ("move" | "die", value, player)
        self.plies = 0

    def _phase(self):
        return self.plies % 2  # 0: a player's choice, 1: the die

    def player_is_max(self):
        return (self.plies // 2) % 2 == 0

    def moves(self):
        if self.outcome() is not None or self._phase() == 1:
            return []
        return [1, 2]

    def is_chance(self):
        return self._phase() == 1

    def outcomes(self):
        return [(1, 1.0), (2, 2.0), (3, 3.0)]

    def play(self, m):
        sign = 1 if self.player_is_max() else -1
        self.total += sign * m
        self.steps.append(sign * m)
        self.plies += 1

    def undo(self, m):
        self.total -= self.steps.pop()
        self.plies -= 1

    def outcome(self):
        return self.total if self.plies == 4 * self.turns else None

    def evaluate(self):
        return self.total

    def max_to_move(self):
        return self.player_is_max()


def minimax_value(game, depth=None, view="max", max_to_move=None):
    """Plain minimax (MAX's view) to ``depth`` plies (None: to the end), written apart
    from the engine: the reference. Chance positions average their outcomes. MAX is to
    move where the game's ``max_to_move()`` says, else where ``max_to_move`` says (at the
    root; default True), the sides alternating."""
    if max_to_move is None:
        max_to_move = _mover(game, True)
    out = game.outcome()
    if out is not None:
        return _max_view(game, out, view, max_to_move)
    if depth == 0:
        return _max_view(game, game.evaluate(), view, max_to_move)
    is_chance = getattr(game, "is_chance", lambda: False)()
    nxt = None if depth is None else depth - 1
    if is_chance:
        pairs = game.outcomes()
        total = sum(w for _, w in pairs)
        value = 0.0
        for m, w in pairs:
            game.play(m)
            value += w / total * minimax_value(game, nxt, view, _mover(game, not max_to_move))
            game.undo(m)
        return value
    values = []
    for m in game.moves():
        game.play(m)
        values.append(minimax_value(game, nxt, view, _mover(game, not max_to_move)))
        game.undo(m)
    return max(values) if max_to_move else min(values)


def _mover(game, alternate):
    """Whether MAX is to move: the game's word (``max_to_move()`` giving True or False),
    else ``alternate``."""
    f = getattr(game, "max_to_move", None)
    said = f() if f is not None else None
    return alternate if said is None else said


def _max_view(game, score, view, max_to_move):
    return score if view == "max" or max_to_move else -score


class RandomTree:
    """A random game tree as nested lists: a node is a list of children or an int leaf.
    Moves are child indices; MAX moves at even depths; ``evaluate`` at an inner node is a
    fixed pseudo-random number."""

    def __init__(self, seed, depth=5, width=(1, 4)):
        rng = random.Random(seed)

        def make(d):
            if d == 0 or (d < depth and rng.random() < 0.15):
                return rng.randint(-50, 50)
            return [make(d - 1) for _ in range(rng.randint(*width))]

        self.root = make(depth)
        self.path = []

    def node(self):
        n = self.root
        for i in self.path:
            n = n[i]
        return n

    def moves(self):
        n = self.node()
        return list(range(len(n))) if isinstance(n, list) else []

    def play(self, m):
        self.path.append(m)

    def undo(self, m):
        assert self.path.pop() == m

    def outcome(self):
        n = self.node()
        return n if isinstance(n, int) else None

    def evaluate(self):
        return hash(tuple(self.path)) % 41 - 20

    def hash(self):
        return hash(tuple(self.path))

    def max_to_move(self):
        return len(self.path) % 2 == 0
