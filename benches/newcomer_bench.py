"""A newcomer's games searched by easyAI's Negamax (with its table) and by libminimax's
default search() on the same objects (benches/newcomer_games.py), at the depths a user
picks (issue 49, point 3). Not a test: it prints, per game, the median of the time
ratios of alternated runs in this process, the nodes, whether the values agree, and a
TARGET line (`make newcomer-bench`, after `make python-test`).

Each game also gets a floor: both searches run once more under cProfile, and the time
the game's own methods take under libminimax is divided by easyAI's whole time (the
game's methods and its search): an estimate of the ratio an engine that cost nothing
would reach, the calls to the game that the protocol asks for (`outcome()` at every
position met, `evaluate()` after it at the depth limit) against easyAI's. Rough:
cProfile's cost a call weighs on the two sides differently.

    python benches/newcomer_bench.py [--runs 9] [--variant KEY=VALUE ...]

`--variant` adds keyword arguments to every libminimax search (to try an option).
"""

import argparse
import cProfile
import math
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import libminimax  # noqa: E402
import newcomer_games as games  # noqa: E402

# (name, constructor, depth): the depths a user would pick, each a search of a few
# milliseconds to a second in either library.
CASES = [
    ("tic-tac-toe, full depth", games.TicTacToe, 9),
    ("connect-3 4x4, depth 6", games.Connect3, 6),
    ("connect-3 4x4, depth 8", games.Connect3, 8),
    ("Connect Four, depth 4", games.ConnectFour, 4),
    ("Connect Four, depth 6", games.ConnectFour, 6),
    ("Nim 3-4-5, full depth", games.Nim, 12),
    ("Domineering 5x5, depth 4", games.Domineering, 4),
    ("connect-3 4x4 written out, depth 6", games.Connect3Direct, 6),
    ("connect-3 4x4 written out, depth 8", games.Connect3Direct, 8),
]

WIN = 100  # every game's win is 100 or 1000: a value this large is a won or lost end


def easyai_value(alpha):
    """easyAI's value without its (1 + 0.001 * depth) factor at a won or lost end."""
    if abs(alpha) >= WIN:
        return math.copysign(1, alpha)
    return round(alpha)


def ours_value(v):
    return math.copysign(1, v) if abs(v) >= WIN else v


def profiled(f):
    """(the game's methods' own time, the whole time) of `f()` under cProfile."""
    p = cProfile.Profile()
    p.enable()
    f()
    p.disable()
    p.create_stats()
    game = sum(v[2] for k, v in p.stats.items() if k[0].endswith("newcomer_games.py"))
    return game, sum(v[2] for v in p.stats.values())


def parse_variant(items):
    out = {}
    for item in items:
        key, value = item.split("=", 1)
        try:
            out[key] = eval(value, {})  # a number, True, False, a string in quotes
        except Exception:
            out[key] = value
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=9, help="alternated runs per game (the median is shown)")
    p.add_argument("--only", default="", help="only the games whose name contains this")
    p.add_argument("--variant", nargs="*", default=[], help="KEY=VALUE added to libminimax's search()")
    a = p.parse_args()
    extra = parse_variant(a.variant)
    from easyAI import Negamax
    from easyAI.AI import TranspositionTable

    ratios = []
    for name, make, depth in [c for c in CASES if a.only in c[0]]:
        pairs = []
        for _ in range(a.runs):
            g = make()
            ai = Negamax(depth, tt=TranspositionTable())
            t = time.perf_counter()
            ai(g)
            theirs_t = time.perf_counter() - t
            g = make()
            t = time.perf_counter()
            r = libminimax.search(g, depth=depth, view="side", **extra)
            ours_t = time.perf_counter() - t
            pairs.append((ours_t / theirs_t, theirs_t, ours_t))
        ratio = statistics.median(q for q, _, _ in pairs)
        ratios.append(ratio)
        _, theirs_all = profiled(lambda: Negamax(depth, tt=TranspositionTable())(make()))
        ours_game, _ = profiled(lambda: libminimax.search(make(), depth=depth, view="side", **extra))
        floor = ours_game / theirs_all
        agree = easyai_value(ai.alpha) == ours_value(r.value)
        print(f"{name}: easyAI {statistics.median(t for _, t, _ in pairs) * 1e3:.1f} ms, "
              f"libminimax {statistics.median(t for _, _, t in pairs) * 1e3:.1f} ms ({r.nodes} nodes), "
              f"ratio {ratio:.2f}x (median of {a.runs}), floor {floor:.2f}x; values "
              f"{'agree' if agree else 'DIFFER'} ({easyai_value(ai.alpha)} and {ours_value(r.value)})")
    worst = max(ratios)
    mean = math.exp(statistics.mean(math.log(q) for q in ratios))
    print(f"TARGET newcomer games' time over easyAI's: worst {worst:.2f}x, geometric mean {mean:.2f}x "
          f"(wanted at most 0.8x each): {'met' if worst <= 0.8 else 'NOT MET'}")


if __name__ == "__main__":
    main()
