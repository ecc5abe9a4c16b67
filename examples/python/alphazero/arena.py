"""Matches against the baseline the issue names: UCT with random playouts
(libminimax.Mcts, `playouts` a move), the network playing by BatchedMcts (PUCT, no noise,
the most visited move). Colours alternate; games start from the empty board and from
seeded 2-ply openings. A score is wins plus half the draws, for the network."""

import random

import libminimax
from libminimax.games import ConnectFour


def openings(n, seed=0):
    """`n` opening lines: the empty one, then seeded random 2-ply lines."""
    rng = random.Random(seed)
    out = [[]]
    while len(out) < n:
        out.append([rng.randrange(7), rng.randrange(7)])
    return out


def match(net, games=200, simulations=128, playouts=1000, seed=0):
    """The network's score over `games` games (half with each colour) against UCT."""
    lines = openings((games + 1) // 2, seed)
    starts = [(line, net_first) for line in lines for net_first in (True, False)][:games]
    boards = []
    for line, _ in starts:
        b = ConnectFour()
        for m in line:
            b.play(m)
        boards.append(b)
    az = libminimax.BatchedMcts(simulations=simulations, batch_size=len(boards) * 4, leaves_per_tree=4)
    uct = [libminimax.Mcts(seed=seed + i) for i in range(len(boards))]
    points = 0.0
    while any(b.outcome() is None for b in boards):
        live = [i for i, b in enumerate(boards) if b.outcome() is None]
        to_net = [i for i in live if (len(boards[i].line) % 2 == 0) == starts[i][1]]
        if to_net:
            found = az.search([boards[i] for i in to_net], net)
            az.clear()
            for i, r in zip(to_net, found):
                boards[i].play(r.best_move)
        for i in live:
            if i in to_net or boards[i].outcome() is not None:
                continue
            uct[i].clear()
            r = uct[i].search(boards[i], playouts=playouts)
            boards[i].play(r.best_move)
    for b, (_, net_first) in zip(boards, starts):
        score = b.outcome()
        first = (score > 0) - (score < 0)
        mine = first if net_first else -first
        points += {1: 1.0, 0: 0.5, -1: 0.0}[mine]
    return points / len(boards)
