"""Games written the way a newcomer writes them for easyAI, with libminimax's names
bridged onto easyAI's in the most direct way (issue 49, point 3): nothing here is tuned
to either library. Used by benches/newcomer_bench.py, and by the tests that check the
bench's values against a brute force (python/tests/test_newcomer.py).

Each class but the last has easyAI's methods (`possible_moves`, `make_move`, `unmake_move`,
`switch_player`, `is_over`, `scoring`, `ttentry`, `current_player` in 1 and 2) and gets
libminimax's from `Bridge`: `play` is easyAI's move and switch, `outcome()` is
`scoring()` once `is_over()`, `evaluate()` is `scoring()`, and `hash()` Python's hash of
`ttentry()`. Scores are from the side to move's view (easyAI's negamax), so libminimax
searches them with `view="side"`. The last, `Connect3Direct`, is written for both
libraries method by method (libminimax's `outcome()` asks for a line and a full board
itself; its `hash()` is Python's hash of the board's text), as the issue's newcomer wrote
it.
"""


class Bridge:
    """libminimax's protocol on top of easyAI's methods."""

    current_player = 1

    @property
    def opponent_index(self):
        return 2 if self.current_player == 1 else 1

    def switch_player(self):
        self.current_player = self.opponent_index

    def moves(self):
        return self.possible_moves()

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

    def hash(self):
        return hash(self.ttentry())


def _lines(rows, cols, k):
    """Every k-in-a-row of a rows x cols board, as lists of cell indices."""
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    out.append([a * cols + b for a, b in cells])
    return out


class TicTacToe(Bridge):
    """Noughts and crosses; a loss for the side to move is -100."""

    LINES = _lines(3, 3, 3)

    def __init__(self):
        self.board = [0] * 9
        self.current_player = 1

    def possible_moves(self):
        return [i for i in range(9) if self.board[i] == 0]

    def make_move(self, i):
        self.board[i] = self.current_player

    def unmake_move(self, i):
        self.board[i] = 0

    def lose(self):
        them = self.opponent_index
        return any(all(self.board[i] == them for i in line) for line in self.LINES)

    def is_over(self):
        return self.lose() or not self.possible_moves()

    def scoring(self):
        return -100 if self.lose() else 0

    def ttentry(self):
        return tuple(self.board)


class DropGame(Bridge):
    """k in a row on a rows x cols board where stones drop down the columns (Connect
    Four's rules); the evaluation counts the lines each side can still complete."""

    def __init__(self, rows, cols, k):
        self.rows, self.cols = rows, cols
        self.lines = _lines(rows, cols, k)
        self.board = [0] * (rows * cols)
        self.current_player = 1
        self.history = []

    def possible_moves(self):
        top = (self.rows - 1) * self.cols
        return [c for c in range(self.cols) if self.board[top + c] == 0]

    def make_move(self, c):
        for r in range(self.rows):
            if self.board[r * self.cols + c] == 0:
                self.board[r * self.cols + c] = self.current_player
                self.history.append(r * self.cols + c)
                return

    def unmake_move(self, c):
        self.board[self.history.pop()] = 0

    def lose(self):
        them = self.opponent_index
        return any(all(self.board[i] == them for i in line) for line in self.lines)

    def is_over(self):
        return self.lose() or not self.possible_moves()

    def scoring(self):
        if self.lose():
            return -1000
        me, them = self.current_player, self.opponent_index
        score = 0
        for line in self.lines:
            cells = [self.board[i] for i in line]
            if them not in cells:
                score += cells.count(me)
            if me not in cells:
                score -= cells.count(them)
        return score

    def ttentry(self):
        return (tuple(self.board), self.current_player)


class Connect3(DropGame):
    """Three in a row on a 4x4 board."""

    def __init__(self):
        super().__init__(4, 4, 3)


class ConnectFour(DropGame):
    """Four in a row on Connect Four's 6x7 board."""

    def __init__(self):
        super().__init__(6, 7, 4)


class Nim(Bridge):
    """Take any number of stones from one pile; who takes the last stone wins."""

    def __init__(self, piles=(3, 4, 5)):
        self.piles = list(piles)
        self.current_player = 1

    def possible_moves(self):
        return [(p, n) for p in range(len(self.piles)) for n in range(1, self.piles[p] + 1)]

    def make_move(self, m):
        self.piles[m[0]] -= m[1]

    def unmake_move(self, m):
        self.piles[m[0]] += m[1]

    def is_over(self):
        return sum(self.piles) == 0

    def scoring(self):
        # The side to move with no stones left has lost.
        return -100 if self.is_over() else 0

    def ttentry(self):
        return tuple(self.piles)


class Domineering(Bridge):
    """Player 1 places vertical dominoes, player 2 horizontal ones; who cannot move
    loses. The evaluation is the difference in moves available."""

    def __init__(self, n=5):
        self.n = n
        self.board = [0] * (n * n)
        self.current_player = 1

    def moves_of(self, player):
        n, b = self.n, self.board
        if player == 1:
            return [i for i in range(n * (n - 1)) if b[i] == 0 and b[i + n] == 0]
        return [i for i in range(n * n) if i % n < n - 1 and b[i] == 0 and b[i + 1] == 0]

    def possible_moves(self):
        return self.moves_of(self.current_player)

    def other(self, i):
        return i + self.n if self.current_player == 1 else i + 1

    def make_move(self, i):
        self.board[i] = self.board[self.other(i)] = self.current_player

    def unmake_move(self, i):
        self.board[i] = self.board[self.other(i)] = 0

    def is_over(self):
        return not self.possible_moves()

    def scoring(self):
        if self.is_over():
            return -100
        return len(self.possible_moves()) - len(self.moves_of(self.opponent_index))

    def ttentry(self):
        return (tuple(self.board), self.current_player)


class Connect3Direct:
    """Connect-3 on a 4x4 board with each library's methods written out."""

    LINES = _lines(4, 4, 3)

    def __init__(self):
        self.board = [[0] * 4 for _ in range(4)]
        self.current_player = 1
        self.history = []

    @property
    def opponent_index(self):
        return 2 if self.current_player == 1 else 1

    def switch_player(self):
        self.current_player = self.opponent_index

    # easyAI's names
    def possible_moves(self):
        return [c for c in range(4) if self.board[3][c] == 0]

    def make_move(self, c):
        for r in range(4):
            if self.board[r][c] == 0:
                self.board[r][c] = self.current_player
                self.history.append((r, c))
                return

    def unmake_move(self, c):
        r, c = self.history.pop()
        self.board[r][c] = 0

    def winner(self):
        for line in self.LINES:
            v = self.board[line[0] // 4][line[0] % 4]
            if v and all(self.board[i // 4][i % 4] == v for i in line):
                return v
        return 0

    def lose(self):
        return self.winner() == self.opponent_index

    def is_over(self):
        return self.lose() or not self.possible_moves()

    def scoring(self):
        return -100 if self.lose() else 0

    def ttentry(self):
        return str(self.board) + str(self.current_player)

    # libminimax's names
    def moves(self):
        return self.possible_moves()

    def play(self, m):
        self.make_move(m)
        self.switch_player()

    def undo(self, m):
        self.switch_player()
        self.unmake_move(m)

    def outcome(self):
        if self.lose():
            return -100
        if not self.possible_moves():
            return 0
        return None

    def evaluate(self):
        return 0

    def hash(self):
        return hash(self.ttentry())
