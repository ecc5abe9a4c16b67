"""A Python game's batched MCTS speed (issue 68, point 4): a newcomer's Gomoku on 7x7
(five in a row, 49 actions) written twice, once with the per-move protocol
(`observation()` returning a list, `action_index(move)` for each legal move) and once
with the batch-friendly one (`observe(out)` filling the array the search hands over,
`action_indices()` for all legal moves in one call, `wins_at_once()` for `decisive`),
searched by `BatchedMcts` with an evaluator of constants, so that what is measured is
the game's protocol and the search. Rounds alternate the protocols; each line gives the
median round's simulations a second, and the ratios are from this run.

    python benches/python_batched_bench.py [--seconds S] [--rounds R]

`make python-batched-bench` runs it in the Python package's test environment.
"""

import argparse
import statistics
import time

import numpy as np

import libminimax

SIZE = 7
CELLS = SIZE * SIZE
ROW = 5


def _windows():
    """Every five-in-a-row of the board, as lists of cells."""
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(ROW)]
                if all(0 <= a < SIZE and 0 <= b < SIZE for a, b in cells):
                    out.append([a * SIZE + b for a, b in cells])
    return out


WINDOWS = _windows()
BY_CELL = [[w for w in WINDOWS if cell in w] for cell in range(CELLS)]


class Gomoku:
    """Gomoku on 7x7 as a newcomer writes it: the board a list, the per-move protocol.
    Black (1, MAX) moves first; the first to make five in a row wins; a full board is a
    draw."""

    action_count = CELLS

    def __init__(self):
        self.board = [0] * CELLS
        self.line = []
        self.won = False

    def to_move(self):
        return 1 if len(self.line) % 2 == 0 else -1

    def max_to_move(self):
        return len(self.line) % 2 == 0

    def moves(self):
        if self.won:
            return []
        return [i for i in range(CELLS) if self.board[i] == 0]

    def play(self, m):
        p = self.to_move()
        self.board[m] = p
        self.line.append(m)
        self.won = any(all(self.board[c] == p for c in w) for w in BY_CELL[m])

    def undo(self, m):
        self.board[m] = 0
        self.line.pop()
        self.won = False

    def outcome(self):
        if self.won:
            return 1 if len(self.line) % 2 == 1 else -1  # the side that just moved
        return 0 if len(self.line) == CELLS else None

    def evaluate(self):
        return 0

    def observation(self):
        me = self.to_move()
        return [float(x == me) for x in self.board] + [float(x == -me) for x in self.board]

    def action_index(self, m):
        return m


class BatchGomoku(Gomoku):
    """The same game with the batch-friendly protocol beside it: each side's stones kept
    as float32 arrays, written into the search's array by `observe(out)`; the legal
    moves' indices in one call; and whether the side to move wins at once, by numpy over
    every window, for `decisive`."""

    W = np.array(WINDOWS)

    def __init__(self):
        super().__init__()
        self.stones = {1: np.zeros(CELLS, np.float32), -1: np.zeros(CELLS, np.float32)}

    def play(self, m):
        self.stones[self.to_move()][m] = 1.0
        super().play(m)

    def undo(self, m):
        super().undo(m)
        self.stones[self.to_move()][m] = 0.0

    def observe(self, out):
        me = self.to_move()
        out[:CELLS] = self.stones[me]
        out[CELLS:] = self.stones[-me]

    def action_indices(self):
        return self.moves()

    def wins_at_once(self):
        me = self.to_move()
        mine = self.stones[me][self.W].sum(axis=1)
        theirs = self.stones[-me][self.W].sum(axis=1)
        return bool(np.any((mine == ROW - 1) & (theirs == 0)))


def constant(obs):
    return np.zeros(len(obs), np.float32), np.zeros((len(obs), CELLS), np.float32)


def rate(cls, seconds, decisive, games=16, simulations=128):
    """Simulations a second of self-play: `games` games at once, each move the search's
    choice (temperature 1), a game started again when it ends."""
    mcts = libminimax.BatchedMcts(
        simulations=simulations, batch_size=games * 8, temperature=1.0, decisive=decisive
    )
    boards = [cls() for _ in range(games)]
    sims, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        seed += 1
        for i, r in enumerate(mcts.search(boards, constant, seed=seed)):
            sims += r.simulations
            if r.best_move is None:
                continue
            boards[i].play(r.best_move)
            if boards[i].outcome() is not None:
                boards[i] = cls()  # its tree is made afresh: not advanced
            else:
                mcts.advance(i, r.best_move)
    return sims / (time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds a round and line")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    lines = [
        ("per-move protocol, decisive off", Gomoku, False),
        ("batch protocol, decisive off", BatchGomoku, False),
        ("per-move protocol, decisive on (each move played)", Gomoku, True),
        ("batch protocol, decisive on (wins_at_once)", BatchGomoku, True),
    ]
    runs = {name: [] for name, _, _ in lines}
    for _ in range(a.rounds):
        for name, cls, decisive in lines:
            runs[name].append(rate(cls, a.seconds, decisive))
    print(
        f"BatchedMcts on a Python Gomoku 7x7, 16 games at once, 128 simulations a move, an "
        f"evaluator of constants: median of {a.rounds} rounds of {a.seconds:.1f} s"
    )
    m = [statistics.median(runs[name]) for name, _, _ in lines]
    for (name, _, _), r in zip(lines, m):
        print(f"{name}: {r:,.0f} simulations/s")
    print(f"decisive costs the per-move game {m[0] / m[2]:.2f}x its time, the batch one {m[1] / m[3]:.2f}x")
    ratio = m[1] / m[0]
    verdict = "met" if ratio >= 3 else "NOT met"
    print(f"TARGET batch protocol at least 3x the per-move protocol: {ratio:.2f}x, {verdict}")


if __name__ == "__main__":
    main()
