"""AlphaZero on Connect Four, on this machine (issues 50 and 70): self-play with
libminimax.BatchedMcts and the native Connect Four, a replay buffer, training of a small
network on JAX, flax and optax (net.py), and a match against UCT with 1,000 random
playouts a move at each checkpoint; the learning curve as a chart and CSV, the network
saved (net.msgpack, to train on) and exported to ONNX (net.onnx: play.py, the C and the
Rust players load it).

    python examples/python/alphazero/train.py [--minutes 60] [--out build/alphazero]
    python examples/python/alphazero/train.py --smoke      # about 20 s, as CI runs it

The clock counts self-play and training; the checkpoint matches are timed apart.
Self-play runs in `--workers` processes beside the trainer's own (one a core); each
position is also learned mirrored (Connect Four is symmetric left to right), and the
value target mixes the game's result with the search's value there (`--value-mix`);
self-play games start after up to `--openings` random moves, as the matches do, so that
the games do not all follow the network's one line."""

import argparse
import multiprocessing
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


class Replay:
    """The last `capacity` training samples (observation, policy, value), in a ring."""

    def __init__(self, capacity):
        self.arrays = [np.zeros((capacity, 84), np.float32), np.zeros((capacity, 7), np.float32),
                       np.zeros(capacity, np.float32)]
        self.capacity, self.size, self.next = capacity, 0, 0

    def add(self, *columns):
        n = len(columns[0])
        at = (self.next + np.arange(n)) % self.capacity
        for array, column in zip(self.arrays, columns):
            array[at] = column
        self.next = (self.next + n) % self.capacity
        self.size = min(self.capacity, self.size + n)

    def sample(self, rng, n):
        idx = rng.integers(0, self.size, n)
        return [array[idx] for array in self.arrays]


def mirrored(obs):
    """Observations seen in a mirror: each plane's columns (6 cells each) in reverse."""
    return np.ascontiguousarray(obs.reshape(-1, 2, 7, 6)[:, :, ::-1, :].reshape(-1, 84))


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
    p.add_argument("--hidden", type=positive(int), default=256)
    p.add_argument("--layers", type=positive(int), default=2, help="hidden layers")
    p.add_argument("--lr", type=positive(float), default=1e-3, help="Adam's, at the start")
    p.add_argument("--lr-end", type=positive(float), default=0.1, help="the last rate, as a fraction of the first")
    p.add_argument("--buffer", type=positive(int), default=500_000, help="positions kept")
    p.add_argument("--value-mix", type=float, default=0.5, help="the search value's share of the value target")
    p.add_argument("--reuse", type=positive(float), default=4.0, help="times a new position is trained on, in expectation")
    p.add_argument("--openings", type=int, default=4, help="self-play starts after up to this many random moves")
    p.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--workers", type=int, default=1, help="self-play processes beside the trainer")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="a run of about 20 s")
    a = p.parse_args(argv)
    if not 0.0 <= a.value_mix <= 1.0:
        p.error(f"--value-mix {a.value_mix}: between 0 and 1")
    if a.openings < 0:
        p.error(f"--openings {a.openings}: 0 or more")
    if a.workers < 0:
        p.error(f"--workers {a.workers}: 0 or more")
    if a.smoke:
        a.minutes, a.games, a.simulations, a.checkpoint = 0.3, 16, 32, 0.15
        a.match_games, a.final_games, a.playouts = 4, 4, 100
    os.makedirs(a.out, exist_ok=True)

    net = Net((84,) + (a.hidden,) * a.layers + (8,), seed=a.seed)
    rng = np.random.default_rng(a.seed)
    buffer = Replay(a.buffer)
    spawn = multiprocessing.get_context("spawn")
    pipes = []
    for _ in range(a.workers):
        mine, theirs = spawn.Pipe()
        spawn.Process(target=selfplay.worker, args=(theirs,), daemon=True).start()
        pipes.append(mine)
    trained, points, round_ = 0.0, [], 0
    next_check = a.checkpoint
    score = arena.match(net, a.match_games, a.simulations, a.playouts, seed=a.seed)
    points.append((0.0, score))
    print(f"0.0 min: score {score:.3f} against UCT-{a.playouts} ({a.match_games} games)", flush=True)
    while trained < a.minutes:
        start = time.perf_counter()
        seeds = [(a.seed * 100_000 + round_) * (a.workers + 1) + k for k in range(a.workers + 1)]
        for pipe, seed in zip(pipes, seeds[1:]):
            pipe.send((net, a.games, a.simulations, seed, a.openings))
        rounds = [selfplay.play(net, a.games, a.simulations, seed=seeds[0], opening_plies=a.openings)]
        rounds += [pipe.recv() for pipe in pipes]
        results = [r for _, found in rounds for r in found]
        obs, pis, zs, qs = (np.concatenate(x) for x in zip(*(arrays for arrays, _ in rounds)))
        vs = (1.0 - a.value_mix) * zs + a.value_mix * qs
        if a.mirror:
            obs = np.concatenate([obs, mirrored(obs)])
            pis = np.concatenate([pis, pis[:, ::-1]])
            vs = np.concatenate([vs, vs])
        buffer.add(obs, pis, vs)
        played = time.perf_counter()
        steps = max(1, int(a.reuse * len(obs) / 256))
        lr = a.lr * a.lr_end ** min(1.0, trained / a.minutes)
        losses = [net.step(*buffer.sample(rng, 256), lr=lr) for _ in range(steps)]
        trained += (time.perf_counter() - start) / 60
        round_ += 1
        pl, vl = np.mean(losses, axis=0)
        firsts = sum(r > 0 for r in results) / len(results)
        print(f"{trained:.1f} min: round {round_}, {len(obs)} positions, buffer {buffer.size}, "
              f"loss {pl:.3f} + {vl:.3f}, first player won {firsts:.2f}, "
              f"self-play {played - start:.2f} s, training {time.perf_counter() - played:.2f} s", flush=True)
        if trained >= next_check or trained >= a.minutes:
            next_check += a.checkpoint
            games = a.final_games if trained >= a.minutes else a.match_games
            score = arena.match(net, games, a.simulations, a.playouts, seed=a.seed + round_)
            points.append((trained, score))
            print(f"{trained:.1f} min: score {score:.3f} against UCT-{a.playouts} ({games} games)", flush=True)
            net.save(os.path.join(a.out, "net.msgpack"))
            net.export_onnx(os.path.join(a.out, "net.onnx"))
            curve.save(points, os.path.join(a.out, "curve.png"), playouts=a.playouts)
    for pipe in pipes:
        pipe.send(None)
    print(f"RESULT score {points[-1][1]:.3f} against UCT-{a.playouts} over {a.final_games} games "
          f"after {trained:.1f} minutes of training")
    return 0


if __name__ == "__main__":
    sys.exit(main())
