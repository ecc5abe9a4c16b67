"""n-player MCTS against OpenSpiel's own MCTSBot (C++, called through pyspiel), in one
run: simulations a second on pig(players=3) and quoridor(players=3), through the
adapter (libminimax.openspiel.SpielGame) and on the same games written in Rust
(libminimax.games.Pig and Quoridor, OpenSpiel's rules and defaults, each making its own
playouts); then three-player Pig matches, one libminimax seat against two MCTSBots,
seats rotated, the share of wins (a fair share is 1/3): at equal simulations a move, and
at equal time (ours given as many more simulations as its Rust Pig ran faster above).

Both sides: UCT with c = 2 (ours scaled to its rewards' range in the match), one random
playout a leaf, no solver for MCTSBot (its `solve` off) and ours as it comes (it proves
what it can). Figures go in
docs/performance.md.

    python benches/players_bench.py [--positions 5] [--games 60] [--sims 300]
"""

import argparse
import random
import time

import pyspiel

import libminimax
from libminimax.games import Pig, Quoridor
from libminimax.openspiel import SpielGame

UCT_C = 2.0
# MCTSBot's rewards are OpenSpiel's returns, 1 for Pig's winner and -1/2 for the others
# (a range of 1.5); ours are 1 and 0: the same exploration relative to the range is
# UCT_C / 1.5 here.
OURS_C = UCT_C / 1.5


def positions(game, n, seed):
    """States after 0 to 11 random plies (and outcomes), each at a player's turn, with
    the actions that led there."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s, line = game.new_initial_state(), []
        for _ in range(rng.randrange(0, 12)):
            if s.is_terminal():
                break
            if s.is_chance_node():
                a = rng.choice([o for o, _ in s.chance_outcomes()])
            else:
                a = rng.choice(s.legal_actions())
            s.apply_action(a)
            line.append(a)
        while s.is_chance_node():
            a = s.chance_outcomes()[0][0]
            s.apply_action(a)
            line.append(a)
        if not s.is_terminal():
            out.append((s, line))
    return out


def bot(game, sims, seed):
    return pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, sims, 1000, False, seed, False)


def rate(run, count, sims):
    t = time.perf_counter()
    for i in range(count):
        run(i)
    return count * sims / (time.perf_counter() - t)


def ours(i, state, sims):
    return libminimax.Mcts(exploration=UCT_C, seed=i).search(SpielGame(state), playouts=sims)


def usable(game, ps, sims):
    """The positions both searches (seeded as they are timed) finish: OpenSpiel's
    quoridor for three lists, now and then, a move it then refuses ("known issues", as it
    warns), in either side's random playouts."""
    out = []
    for i, (s, line) in enumerate(ps):
        try:
            bot(game, sims, 7).step(s)
            ours(len(out), s, sims)
            out.append((s, line))
        except (pyspiel.SpielError, UnicodeDecodeError):
            pass
    return out


def floor_playouts(state, seed, use_undo):
    """One random playout through the pyspiel calls a playout through the adapter needs
    at the least (is_terminal, is_chance_node, chance_outcomes or legal_actions, then
    apply_action and undo_action for each step where the game has undo, child where it
    has not, as the adapter does), made from Python with nothing else: the adapter's
    floor."""
    rng = random.Random(seed)
    s, line = state.clone(), []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice(s.chance_outcomes())[0]
        else:
            a = rng.choice(s.legal_actions())
        if use_undo:
            line.append((s.current_player(), a))
            s.apply_action(a)
        else:
            line.append(s)
            s = s.child(a)
    if use_undo:
        for player, a in reversed(line):
            s.undo_action(player, a)


def speeds(name, sims, count):
    game = pyspiel.load_game(name)
    ps = usable(game, positions(game, count, 1), sims)
    # A fresh bot a position, seeded as in `usable`: the same searches, which finished.
    spiel = rate(lambda i: bot(game, sims, 7).step(ps[i][0]), len(ps), sims)
    mine = rate(lambda i: ours(i, ps[i][0], sims), len(ps), sims)
    undo = [SpielGame(s).use_undo for s, _ in ps]
    floor = rate(lambda i: [floor_playouts(ps[i][0], k, undo[i]) for k in range(sims // 10)], len(ps), sims // 10)
    print(
        f"{name} ({len(ps)} positions): MCTSBot {spiel:,.0f} simulations/s; "
        f"libminimax through the adapter {mine:,.0f} ({mine / spiel:.2f}x); the adapter's "
        f"floor, a playout's pyspiel calls from Python alone, {floor:,.0f} ({floor / spiel:.2f}x)"
    )
    rust = Pig if name.startswith("pig") else Quoridor

    def native(i):
        g = rust(3)
        for a in ps[i][1]:
            g.play(a)
        libminimax.Mcts(exploration=UCT_C, seed=i).search(g, playouts=sims * 10)

    mine = rate(native, len(ps), sims * 10)
    print(f"{name}: libminimax on the game written in Rust {mine:,.0f} ({mine / spiel:.1f}x)")
    return mine / spiel


def match(games, sims, ours_sims=None):
    """Pig for three: one seat libminimax (on the Rust Pig, kept in step with the pyspiel
    state), two seats MCTSBot, at `sims` simulations a move (ours `ours_sims`, by default
    as many); our seat goes round."""
    ours_sims = ours_sims or sims
    game = pyspiel.load_game("pig", {"players": 3})
    share, rng = 0.0, random.Random(5)
    t = time.perf_counter()
    for g in range(games):
        ours = g % 3
        bots = {p: bot(game, sims, 100 * g + p) for p in range(3) if p != ours}
        state, mirror, mcts = game.new_initial_state(), Pig(3), libminimax.Mcts(exploration=OURS_C, seed=g)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                a = rng.choices(actions, probs)[0]
            elif state.current_player() == ours:
                a = mcts.search(mirror, playouts=ours_sims).best_move
            else:
                a = bots[state.current_player()].step(state)
            state.apply_action(a)
            mirror.play(a)
            mcts.advance(a)
        returns = state.returns()
        top = max(returns)
        winners = [p for p in range(3) if returns[p] == top]
        if ours in winners:
            share += 1 / len(winners)
    n = games
    mean = share / n
    half = 1.96 * (mean * (1 - mean) / n) ** 0.5
    what = f"{sims} simulations a move" if ours_sims == sims else (
        f"equal time by the rates above, {sims} simulations a move for MCTSBot and {ours_sims:,} for libminimax"
    )
    print(
        f"pig(players=3), {what}: libminimax's share {mean:.3f} ± {half:.3f} "
        f"against two MCTSBots (a fair share 0.333; {n} games, {time.perf_counter() - t:.0f} s)"
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--positions", type=int, default=5)
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--sims", type=int, default=300)
    a = p.parse_args()
    pig = speeds("pig(players=3)", 2000, a.positions)
    speeds("quoridor(players=3)", 300, a.positions)
    match(a.games, a.sims)
    match(a.games, a.sims, round(a.sims * pig))


if __name__ == "__main__":
    main()
