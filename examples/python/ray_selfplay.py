"""Self-play on Ray (issue 42): games of native Connect Four played by MCTS against
itself, one Ray task a game, each returning its positions, the root visit counts of
each move (a policy target) and the result (a value target): training data.

    python examples/python/ray_selfplay.py [--games 8] [--playouts 2000] [--address auto]
"""

import argparse
import random

import ray

import libminimax
from libminimax.games import ConnectFour


@ray.remote
def play(seed, playouts):
    """One game: a list of (line, visits per column) and the first player's result."""
    rng = random.Random(seed)
    game, line, records = ConnectFour(), "", []
    mcts = libminimax.Mcts(seed=seed)
    while game.outcome() is None:
        r = mcts.search(game, playouts=playouts)
        visits = [0] * 7
        for s in r.root:
            visits[s.move] = s.visits
        records.append((line, visits))
        # The first two moves are drawn by visits, for varied games; then the best.
        if len(line) < 2:
            move = rng.choices(range(7), weights=[v + 1e-9 for v in visits])[0]
        else:
            move = r.best_move
        game.play(move)
        mcts.advance(move)
        line += str(move + 1)
    score = game.outcome()
    return records, (score > 0) - (score < 0)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--playouts", type=int, default=2000)
    p.add_argument("--address", default=None)
    a = p.parse_args(argv)
    if a.games < 1:
        p.error(f"--games {a.games}: a count of games, at least 1")
    if not 1 <= a.playouts < 2**64:
        p.error(f"--playouts {a.playouts}: a count of playouts a move, at least 1")
    if not ray.is_initialized():
        ray.init(address=a.address, include_dashboard=False, log_to_driver=False)
    games = ray.get([play.remote(seed, a.playouts) for seed in range(a.games)])
    positions = sum(len(records) for records, _ in games)
    results = [result for _, result in games]
    print(f"{a.games} games, {positions} positions; first player "
          f"{results.count(1)} wins, {results.count(0)} draws, {results.count(-1)} losses")
    return games


if __name__ == "__main__":
    main()
