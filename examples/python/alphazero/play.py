"""Plays a move with a trained network, exported to ONNX by train.py (net.onnx) and
evaluated by the library itself (libminimax.OnnxEvaluator: no framework needed, no
Python between the search's batches): the position is a line of columns 1-7 (Pons'
notation), the answer the column to play and the search's view.

    python examples/python/alphazero/play.py [--net build/alphazero/net.onnx] [--line 4453]"""

import argparse
import os
import sys

import libminimax
from libminimax.games import ConnectFour


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--net", default="build/alphazero/net.onnx")
    p.add_argument("--line", default="")
    p.add_argument("--simulations", type=int, default=800)
    a = p.parse_args(argv)
    if a.simulations <= 0:
        p.error(f"--simulations {a.simulations}: at least 1")
    if not os.path.exists(a.net):
        p.error(f"{a.net}: no such file (train.py writes it)")
    try:
        game = ConnectFour(a.line)
    except ValueError as e:
        p.error(str(e))
    if game.outcome() is not None:
        p.error(f"the game after {a.line!r} is over")
    try:
        net = libminimax.OnnxEvaluator(a.net)
    except (OSError, ValueError) as e:
        p.error(str(e))
    r = libminimax.BatchedMcts(simulations=a.simulations).search([game], net)[0]
    print(f"play column {r.best_move + 1}: value {r.value:+.3f} for the side to move, "
          f"visits {[m.visits for m in r.root]} on columns {[m.move + 1 for m in r.root]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
