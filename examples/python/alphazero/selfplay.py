"""Self-play: many games of the native Connect Four at once, searched by
libminimax.BatchedMcts with the network as its evaluator (Gumbel at the root, so that
few simulations still improve the policy); each position gives a training sample: its
observation, the search's policy target, the search's value there and, once the game
ends, the result for the side to move there. `worker` runs rounds in a process of its
own, so that self-play can use every core."""

import random

import numpy as np

import libminimax
from libminimax.games import ConnectFour


def opening(rng, most):
    """A board after 0 to `most` random moves (a game that ends there is drawn again),
    so that self-play sees the positions the matches start from, not only its own line."""
    while True:
        board = ConnectFour()
        for _ in range(rng.randint(0, most)):
            board.play(rng.choice(board.moves()))
            if board.outcome() is not None:
                break
        if board.outcome() is None:
            return board


def play(net, games=64, simulations=128, seed=0, leaves_per_tree=8, opening_plies=4):
    """Plays `games` games to the end, each from a seeded random opening of up to
    `opening_plies` moves; returns (observations, policies, results, search values)
    arrays, the last two for the side to move at each searched position, and the first
    player's results."""
    mcts = libminimax.BatchedMcts(
        simulations=simulations,
        root="gumbel",
        batch_size=games * leaves_per_tree,
        leaves_per_tree=leaves_per_tree,
        seed=seed,
    )
    boards = [opening(random.Random(seed * 1000 + i), opening_plies) for i in range(games)]
    history = [[] for _ in range(games)]  # (observation, policy, search value, side to move)
    results = [None] * games
    ply = 0
    while any(r is None for r in results):
        # Every game each time (a finished one costs nothing), so that the i-th tree
        # stays the i-th game's and is kept across its move.
        found = mcts.search(boards, net, seed=seed * 1000 + ply)
        for i, r in enumerate(found):
            if results[i] is not None:
                continue
            board = boards[i]
            history[i].append((board.observation(), r.policy, r.value, len(board.line) % 2))
            board.play(r.best_move)
            mcts.advance(i, r.best_move)
            score = board.outcome()
            if score is not None:
                results[i] = (score > 0) - (score < 0)  # the first player's
        ply += 1
    obs, pis, zs, qs = [], [], [], []
    for i in range(games):
        for o, p, q, side in history[i]:
            obs.append(o)
            pis.append(p)
            zs.append(results[i] if side == 0 else -results[i])
            qs.append(q)
    arrays = (np.array(obs, np.float32), np.array(pis, np.float32),
              np.array(zs, np.float32), np.array(qs, np.float32))
    return arrays, results


def worker(conn):
    """A self-play process: gets (net, games, simulations, seed), sends back what `play`
    returns, until it gets None."""
    while True:
        job = conn.recv()
        if job is None:
            return
        net, games, simulations, seed, plies = job
        conn.send(play(net, games, simulations, seed, opening_plies=plies))
