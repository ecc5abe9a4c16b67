"""An exact solve split at a ply into Ray tasks (issue 42): each position ``split`` plies
below the root is solved by a native search in a task of its own, and the values are
combined by minimax over those plies; the answer is checked against the solve of the
whole position on one machine.

    python examples/python/ray_solve.py [--line 21733137] [--split 2] [--address auto]

Without ``--address`` it starts a local Ray instance; with ``--address auto`` (or a
head's address) it joins a cluster (docs/python.md, "More than one machine").
"""

import argparse

import ray

import libminimax
from libminimax.games import ConnectFour


@ray.remote
def solve(line):
    """The exact value (MAX's view) of the Connect Four position after ``line``."""
    return libminimax.search(ConnectFour(line), method="exact").value


def frontier(game, line, split):
    """The lines ``split`` plies below ``line`` (``game``'s position), where the game goes
    on, and the lines whose game ended before, with their scores. Positions are reached
    by ``play`` and ``undo``: a line that ends in a win is no setup the game takes."""
    if game.outcome() is not None:
        return [], {line: game.outcome()}
    if split == 0:
        return [line], {}
    open_lines, ended = [], {}
    for column in game.moves():
        game.play(column)
        o, e = frontier(game, line + str(column + 1), split - 1)
        game.undo(column)
        open_lines += o
        ended.update(e)
    return open_lines, ended


def combine(game, line, values):
    """Minimax over the plies above the frontier, the frontier's values given."""
    if line in values:
        return values[line]
    children = []
    for column in game.moves():
        game.play(column)
        children.append(combine(game, line + str(column + 1), values))
        game.undo(column)
    return max(children) if len(line) % 2 == 0 else min(children)


def split_solve(line, split):
    """The value of ``line``, solved as ``split``-ply tasks on Ray."""
    open_lines, ended = frontier(ConnectFour(line), line, split)
    values = dict(zip(open_lines, ray.get([solve.remote(l) for l in open_lines])))
    values.update(ended)
    return combine(ConnectFour(line), line, values), len(open_lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--line", default="21733137")
    p.add_argument("--split", type=int, default=2)
    p.add_argument("--address", default=None)
    a = p.parse_args(argv)
    if a.split < 0:
        p.error(f"--split {a.split}: a number of plies, at least 0")
    try:
        ConnectFour(a.line)
    except ValueError as e:
        p.error(f"--line {a.line!r}: {e}")
    if not ray.is_initialized():
        ray.init(address=a.address, include_dashboard=False, log_to_driver=False)
    value, tasks = split_solve(a.line, a.split)
    alone = libminimax.search(ConnectFour(a.line), method="exact").value
    print(f"line {a.line!r}: value {value} from {tasks} tasks at ply {a.split}; "
          f"one machine: {alone}; {'agree' if value == alone else 'DISAGREE'}")
    return value, alone


if __name__ == "__main__":
    main()
