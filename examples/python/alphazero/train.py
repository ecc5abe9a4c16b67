"""AlphaZero on Connect Four, on this machine (issue 50, point 2): self-play with
libminimax.BatchedMcts and the native Connect Four, a replay buffer, training of a small
numpy network, and a match against UCT with 1,000 random playouts a move at each
checkpoint; the learning curve as a PNG, the network saved (play.py loads it).

    python examples/python/alphazero/train.py [--minutes 60] [--out build/alphazero]
    python examples/python/alphazero/train.py --smoke      # about a minute, as CI runs it

The clock counts self-play and training; the checkpoint matches are timed apart."""

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np

import arena
import curve
import selfplay
from net import Net


def positive(kind):
    def parse(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} is not above 0")
        return value

    return parse


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=positive(float), default=60.0)
    p.add_argument("--out", default="build/alphazero")
    p.add_argument("--games", type=positive(int), default=64, help="self-play games at once")
    p.add_argument("--simulations", type=positive(int), default=128)
    p.add_argument("--checkpoint", type=positive(float), default=10.0, help="minutes between matches")
    p.add_argument("--match-games", type=positive(int), default=40)
    p.add_argument("--final-games", type=positive(int), default=200)
    p.add_argument("--playouts", type=positive(int), default=1000, help="the UCT baseline's")
    p.add_argument("--hidden", type=positive(int), default=128)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="a run of about a minute")
    a = p.parse_args(argv)
    if a.smoke:
        a.minutes, a.games, a.simulations, a.checkpoint = 0.3, 16, 32, 0.15
        a.match_games, a.final_games, a.playouts = 4, 4, 100
    os.makedirs(a.out, exist_ok=True)

    net = Net((84, a.hidden, a.hidden, 8), seed=a.seed)
    rng = np.random.default_rng(a.seed)
    buffer = [np.zeros((0, 84), np.float32), np.zeros((0, 7), np.float32), np.zeros(0, np.float32)]
    capacity = 200_000
    trained, points, round_ = 0.0, [], 0
    next_check = a.checkpoint
    score = arena.match(net, a.match_games, a.simulations, a.playouts, seed=a.seed)
    points.append((0.0, score))
    print(f"0.0 min: score {score:.3f} against UCT-{a.playouts} ({a.match_games} games)", flush=True)
    while trained < a.minutes:
        start = time.perf_counter()
        (obs, pis, zs), results = selfplay.play(net, a.games, a.simulations, seed=a.seed * 100_000 + round_)
        buffer = [np.concatenate([b, x])[-capacity:] for b, x in zip(buffer, (obs, pis, zs))]
        steps = max(1, 4 * len(obs) // 256)
        losses = []
        for _ in range(steps):
            idx = rng.integers(0, len(buffer[0]), 256)
            pl, vl, gw, gb = net.loss_and_gradients(buffer[0][idx], buffer[1][idx], buffer[2][idx])
            net.step(gw, gb)
            losses.append((pl, vl))
        trained += (time.perf_counter() - start) / 60
        round_ += 1
        pl, vl = np.mean(losses, axis=0)
        firsts = sum(r > 0 for r in results) / len(results)
        print(f"{trained:.1f} min: round {round_}, {len(obs)} positions, buffer {len(buffer[0])}, "
              f"loss {pl:.3f} + {vl:.3f}, first player won {firsts:.2f}", flush=True)
        if trained >= next_check or trained >= a.minutes:
            next_check += a.checkpoint
            games = a.final_games if trained >= a.minutes else a.match_games
            score = arena.match(net, games, a.simulations, a.playouts, seed=a.seed + round_)
            points.append((trained, score))
            print(f"{trained:.1f} min: score {score:.3f} against UCT-{a.playouts} ({games} games)", flush=True)
            net.save(os.path.join(a.out, "net.npz"))
            curve.save(points, os.path.join(a.out, "curve.png"))
    print(f"RESULT score {points[-1][1]:.3f} against UCT-{a.playouts} over {a.final_games} games "
          f"after {trained:.1f} minutes of training")
    return 0


if __name__ == "__main__":
    sys.exit(main())
