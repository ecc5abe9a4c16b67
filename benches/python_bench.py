"""The Python package's figures (issue 42), each a ratio against a reference run in the
same process: easyAI's Negamax, OpenSpiel's Python alpha-beta and MCTS, OpenSpiel's C++
MCTS, and the Rust example's exact solve. Not a test: it prints the figures and, per
target, met or NOT MET (`make python-bench`, after `make python-test`).

    python benches/python_bench.py [--data ../shared/data/connect4] [--quick]

The Python Connect Four is python/tests/pygames.py's (scores from the side to move,
stones weighted by column as in benches/peer, a win 1000), given easyAI's method names
here so that both libraries search the same object.
"""

import argparse
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))

import libminimax  # noqa: E402
from libminimax.games import ConnectFour as NativeConnectFour  # noqa: E402
from pygames import ConnectFour as PyConnectFour  # noqa: E402


class Bench(PyConnectFour):
    """The Python Connect Four under easyAI's names too (its Negamax calls
    ``switch_player`` after each move; turns are in the position here)."""

    possible_moves = PyConnectFour.moves
    make_move = PyConnectFour.play
    unmake_move = PyConnectFour.undo
    ttentry = PyConnectFour.hash

    def switch_player(self):
        pass

    def is_over(self):
        return self.outcome() is not None

    def scoring(self):
        o = self.outcome()
        return self.evaluate() if o is None else o


def lines(data, name, n):
    with open(os.path.join(data, name)) as f:
        return [line.split()[0] for line in f][:n]


def timed(f):
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def target(name, value, wanted, met):
    print(f"TARGET {name}: {value} (wanted {wanted}): {'met' if met else 'NOT MET'}")


def easyai_vs_ours(positions, depth):
    from easyAI import Negamax
    from easyAI.AI import TranspositionTable

    theirs_t = ours_t = native_t = 0.0
    agree = 0
    for line in positions:
        g = Bench(line)
        ai = Negamax(depth, tt=TranspositionTable())
        _, t = timed(lambda: ai(g))
        theirs_t += t
        theirs = ai.alpha  # scoring times (1 + 0.001 * plies left) at a won or lost end
        theirs = round(theirs) if abs(theirs) < 1000 else (1000 if theirs > 0 else -1000)
        # Killer moves: the Python game orders its moves centre first only (docs/engine.md).
        r, t = timed(lambda: libminimax.search(Bench(line), depth=depth, view="side", method="pvs", killers=True))
        ours_t += t
        # The game has no max_to_move(): MAX is the side to move at the root, as in theirs.
        ours = r.value
        agree += ours == theirs
        _, t = timed(lambda: libminimax.search(NativeConnectFour(line), depth=depth, method="pvs"))
        native_t += t
    n = len(positions)
    print(f"Connect Four at depth {depth}, {n} positions of Test_L2_R1: easyAI Negamax with its "
          f"table {theirs_t:.2f} s, ours on the Python game {ours_t:.2f} s "
          f"({ours_t / theirs_t:.3f}x), the native game {native_t:.3f} s "
          f"({theirs_t / native_t:.0f}x easyAI's speed); values agree on {agree} of {n}")
    target("Python game's time over easyAI's", f"{ours_t / theirs_t:.3f}x", "at most 0.5x, same values",
           ours_t / theirs_t <= 0.5 and agree == n)
    target("native game's speed over easyAI's", f"{theirs_t / native_t:.0f}x", "at least 50x",
           theirs_t / native_t >= 50)


def native_vs_rust_example(data, positions, rounds=5):
    example = ROOT / "target" / "release" / "examples" / "connect4"
    if not example.exists():
        print("the Rust example is not built (cargo build --release --example connect4): skipped")
        return
    # 50 solves take about 1 ms in all. Unpinned, the example's runs here took 1.08 ms or
    # 1.8 ms (a move to the other core costs the caches): this process and the example,
    # which inherits it, are pinned to one core. The two sides alternate, a run of the
    # example (ten passes over the positions in order) and then ten passes here, `rounds`
    # times, and each side's figure is the sum over the positions of its fastest solve.
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
    if allowed:
        os.sched_setaffinity(0, {min(allowed)})
    text = "\n".join(positions * 10) + "\n"
    n = len(positions)
    table = 64  # the example's table, which it allocates and touches before its timing:
    # so is ours (the library keeps a search's table for the next of its size)
    # The library moves a kept table onto huge pages, as the example's is, once searches
    # have spent 50 ns a byte on it (3.4 s for 64 MiB): these searches spend that.
    spent = 0.0
    while spent < 3.6:
        spent += libminimax.search(NativeConnectFour(), method="exact", deepening=False,
                                   refine_distance=False, table_mb=table, nodes=5_000_000).elapsed
    games = [NativeConnectFour(line) for line in positions]
    rust_best = [float("inf")] * n
    ours_best = [float("inf")] * n
    for _ in range(rounds):
        out = subprocess.run([str(example)], input=text, capture_output=True, text=True, check=True).stdout
        for i, line in enumerate(out.splitlines()):
            rust_best[i % n] = min(rust_best[i % n], int(line.split()[3]) / 1e6)
        for _ in range(10):
            for i, g in enumerate(games):
                _, t = timed(lambda: libminimax.search(g, method="exact", deepening=False,
                                                       refine_distance=False, table_mb=table))
                ours_best[i] = min(ours_best[i], t)
    if allowed:
        os.sched_setaffinity(0, allowed)
    rust_t, ours_t = sum(rust_best), sum(ours_best)
    ratio = ours_t / rust_t
    print(f"Exact solves of {n} positions of Test_L2_R1, each the fastest of {10 * rounds} in "
          f"{rounds} alternating rounds: the Rust example {rust_t * 1e3:.2f} ms (its own timing), the "
          f"native game from Python {ours_t * 1e3:.2f} ms (the calls' time) = {ratio:.2f}x")
    target("native exact solves against the Rust example", f"{ratio:.2f}x", "at most 1.1x", ratio <= 1.1)


def openspiel_figures(data, quick):
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as spiel_mcts
    from open_spiel.python.algorithms import minimax as spiel_minimax

    from libminimax.openspiel import SpielGame

    ttt = pyspiel.load_game("tic_tac_toe")
    (theirs, _), t_theirs = timed(lambda: spiel_minimax.alpha_beta_search(ttt))
    # The exact solve with a table (the adapter's hash of the state's string) of 1 MiB:
    # tic-tac-toe has 5,478 positions, and a larger table costs its first page faults.
    ours, t_ours = timed(lambda: libminimax.search(SpielGame(ttt.new_initial_state(), hash=True),
                                                   method="exact", table_mb=1))
    print(f"OpenSpiel tic_tac_toe solved: their alpha_beta_search {t_theirs:.3f} s (value {theirs}), "
          f"ours through the adapter {t_ours:.3f} s (value {ours.value}) = {t_ours / t_theirs:.2f}x")
    target("tic_tac_toe solve over OpenSpiel's", f"{t_ours / t_theirs:.2f}x", "at most 1.0x, same value",
           t_ours <= t_theirs and ours.value == theirs)

    nim = pyspiel.load_game("nim")
    (theirs, _), t_theirs = timed(lambda: spiel_minimax.alpha_beta_search(nim))
    # The adapter's defaults: its table on (a hash of the state's string, player and move
    # number), and the engine's defaults for a Python game.
    ours, t_ours = timed(lambda: libminimax.search(SpielGame(nim.new_initial_state()), method="exact"))
    print(f"OpenSpiel nim solved: their alpha_beta_search {t_theirs:.1f} s (value {theirs}), "
          f"ours through the adapter {t_ours:.2f} s (value {ours.value}) = {t_ours / t_theirs:.3f}x")
    target("nim solve over OpenSpiel's", f"{t_ours / t_theirs:.3f}x", "at most 0.5x, same value",
           t_ours <= 0.5 * t_theirs and ours.value == theirs)

    c4 = pyspiel.load_game("connect_four")
    weight = [0, 1, 2, 3, 2, 1, 0]

    def value(state):
        total = 0
        for row in str(state).split("\n"):
            for c, ch in enumerate(row[:7]):
                total += weight[c] if ch == "x" else -weight[c] if ch == "o" else 0
        return total

    def spiel_state(line):
        s = c4.new_initial_state()
        for ch in line:
            s.apply_action(int(ch) - 1)
        return s

    positions = lines(data, "Test_L2_R1", 5 if quick else 20)
    t_theirs = t_ours = 0.0
    agree = 0
    for line in positions:
        s = spiel_state(line)
        (theirs, _), t = timed(lambda: spiel_minimax.alpha_beta_search(
            c4, state=s.clone(), value_function=value, maximum_depth=7, maximizing_player_id=0))
        t_theirs += t
        # PVS with a table and killer moves (Connect Four's moves come in column order).
        r, t = timed(lambda: libminimax.search(SpielGame(s, value, hash=True), depth=7, method="pvs", killers=True))
        t_ours += t
        agree += r.value == theirs
    print(f"OpenSpiel connect_four at depth 7, {len(positions)} positions: theirs {t_theirs:.2f} s, "
          f"ours {t_ours:.2f} s = {t_ours / t_theirs:.3f}x; values agree on {agree}")
    target("connect_four depth 7 over OpenSpiel's", f"{t_ours / t_theirs:.3f}x", "at most 0.5x, same values",
           t_ours / t_theirs <= 0.5 and agree == len(positions))

    sims = 300 if quick else 1000
    mcts_positions = positions[:5]
    t_py = t_ours = t_cpp = t_native = 0.0
    for i, line in enumerate(mcts_positions):
        s = spiel_state(line)
        bot = spiel_mcts.MCTSBot(c4, 2.0, sims, spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(i)))
        _, t = timed(lambda: bot.step(s.clone()))
        t_py += t
        _, t = timed(lambda: libminimax.Mcts(seed=i).search(SpielGame(s), playouts=sims))
        t_ours += t
        cpp = pyspiel.MCTSBot(c4, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 20 * sims, 1000, True, i, False)
        _, t = timed(lambda: cpp.step(s.clone()))
        t_cpp += t
        _, t = timed(lambda: libminimax.Mcts(seed=i).search(NativeConnectFour(line), playouts=20 * sims))
        t_native += t
    n = len(mcts_positions)
    py_rate, ours_rate = n * sims / t_py, n * sims / t_ours
    cpp_rate, native_rate = n * 20 * sims / t_cpp, n * 20 * sims / t_native
    print(f"MCTS over pyspiel connect_four states, {n} positions: OpenSpiel's Python MCTSBot "
          f"{py_rate:,.0f} simulations/s, ours through the adapter {ours_rate:,.0f} "
          f"= {ours_rate / py_rate:.2f}x")
    print(f"MCTS on the native Connect Four {native_rate:,.0f} playouts/s against OpenSpiel's C++ "
          f"MCTSBot from Python {cpp_rate:,.0f} = {native_rate / cpp_rate:.2f}x")
    target("MCTS over pyspiel states over OpenSpiel's Python MCTSBot", f"{ours_rate / py_rate:.2f}x",
           "at least 2x", ours_rate >= 2 * py_rate)
    target("native MCTS over OpenSpiel's C++ MCTSBot", f"{native_rate / cpp_rate:.2f}x", "at least 5x",
           native_rate >= 5 * cpp_rate)


class Boom(Exception):
    pass


class RaisesAtPlay(PyConnectFour):
    def __init__(self):
        super().__init__()
        self.plays = 0

    def play(self, c):
        self.plays += 1
        if self.plays == 10_000:
            raise Boom("play call 10000")
        super().play(c)


def errors_and_interrupts():
    game = RaisesAtPlay()
    before = (game.stones, [list(c) for c in game.grid], list(game.heights))
    try:
        libminimax.search(game, depth=20, view="side")
        raised = None
    except Boom as e:
        raised = e
    after = (game.stones, [list(c) for c in game.grid], list(game.heights))
    ok = isinstance(raised, Boom) and before == after
    print(f"An exception in play at its 10,000th call: {type(raised).__name__} reached the caller, "
          f"position {'as before' if before == after else 'CHANGED'}")
    target("exception at the 10,000th play", "same exception, position kept" if ok else "no", "both", ok)

    for kind, game, kwargs in (("native", NativeConnectFour(), {}), ("Python", PyConnectFour(), {"view": "side"})):
        sent = []
        timer = threading.Timer(2.0, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT)))
        timer.start()
        try:
            libminimax.search(game, method="exact", time=10.0, **kwargs)
            latency = None
        except KeyboardInterrupt:
            latency = time.perf_counter() - sent[0]
        timer.cancel()
        shown = "no KeyboardInterrupt" if latency is None else f"{latency * 1000:.1f} ms"
        print(f"Ctrl-C 2 s into a 10-second search of the {kind} Connect Four: KeyboardInterrupt after {shown}")
        target(f"Ctrl-C latency ({kind} game)", shown, "at most 100 ms", latency is not None and latency <= 0.1)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "connect4"))
    p.add_argument("--quick", action="store_true", help="fewer positions (a smoke run)")
    a = p.parse_args()
    positions = lines(a.data, "Test_L2_R1", 10 if a.quick else 50)
    easyai_vs_ours(positions, 8)
    native_vs_rust_example(a.data, positions)
    openspiel_figures(a.data, a.quick)
    errors_and_interrupts()


if __name__ == "__main__":
    main()
