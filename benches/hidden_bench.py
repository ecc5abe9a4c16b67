"""Information-set MCTS against OpenSpiel's own ISMCTSBot (C++, called through pyspiel),
in one run (issue 52): simulations a second on oh_hell and hearts, through the adapter
(libminimax.openspiel) beside the adapter's floor, and on the games written in Rust
(libminimax.games.OhHell and Hearts, OpenSpiel's rules); then matches at equal
simulations a move, one libminimax seat against ISMCTSBots in the others, seats
rotated, each side's points a game (OpenSpiel's returns; hearts' passing played at
random by every seat, see `passing`); and at equal time, ours on the Rust games: Oh
Hell twice, sampling as OpenSpiel's oh_hell resamples (its samples deal the others
only the cards they hold: it knows which cards were dealt; ISMCTSBot and the adapter
search with those) and sampling every card the mover has not seen, then Hearts.

Both sides: one random playout a leaf, the most visited move played (ISMCTSBot's
MAX_VISIT_COUNT), the same exploration relative to the rewards: ours are the returns
over the range the adapter gives a general-sum game (each player at least the least
utility, the sum at most the players times the most), with 0.7; ISMCTSBot takes raw
returns, so its uct_c is 0.7 times that range. Figures go in docs/performance.md.

    python benches/hidden_bench.py [--positions 5] [--games 300] [--sims 300] [--match oh_hell,hearts]
        [--speed oh_hell,hearts] [--ms 20] [--timed oh_hell,hearts] [--ms-games 1000]
"""

import argparse
import random
import time

import pyspiel

import libminimax
import libminimax.openspiel
from libminimax.openspiel import SpielGame

C = 0.7


def passing(state):
    """Whether `state` is in hearts' passing phase (its first 12 moves after the deal,
    where a pass direction was drawn), which every seat plays at random here: there,
    OpenSpiel's resample_from_infostate deals hands of the wrong sizes (a sample's player
    may be left with no moves before the end), and ISMCTSBot crashed the process
    (a segmentation fault, in pyspiel 2026-11-28)."""
    h = state.history()
    return state.get_game().get_type().short_name == "hearts" and h[0] != 0 and len(h) - 53 < 12


def positions(game, n, seed):
    """States at a player's turn after the deal (and hearts' passing) and 0 to 20
    random moves."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s, line = game.new_initial_state(), []
        plies = rng.randrange(0, 21) + (12 if game.get_type().short_name == "hearts" else 0)
        while not s.is_terminal() and (s.is_chance_node() or plies > 0):
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                a = rng.choices(actions, probs)[0]
            else:
                a = rng.choice(s.legal_actions())
                plies -= 1
            s.apply_action(a)
            line.append(a)
        if not s.is_terminal():
            out.append((s, line))
    return out


def spiel_bot(game, sims, seed, seconds=-1.0):
    span = game.num_players() * (game.max_utility() - game.min_utility())
    return pyspiel.ISMCTSBot(
        seed,
        pyspiel.RandomRolloutEvaluator(1, seed),
        C * span,
        sims,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,
        False,
        seconds,
    )


def ours(state, sims, seed):
    return libminimax.ismcts(
        SpielGame(state, hash=False), iterations=sims, exploration=C, reward="scaled", seed=seed
    )


def interval(diffs):
    """The mean of `diffs` and the half-width of its 95% interval."""
    k = len(diffs)
    mean = sum(diffs) / k
    sd = (sum((d - mean) ** 2 for d in diffs) / (k - 1)) ** 0.5
    return mean, 1.96 * sd / k**0.5


def rate(run, count, sims):
    t = time.perf_counter()
    for i in range(count):
        run(i)
    return count * sims / (time.perf_counter() - t)


def floor_iteration(state, rng):
    """A sample and one random playout on it through the pyspiel calls an iteration
    through the adapter needs at the least, made from Python with nothing else."""
    s = state.resample_from_infostate(state.current_player(), rng.random)
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice(s.chance_outcomes())[0]
        else:
            s.current_player()
            a = rng.choice(s.legal_actions())
        s.apply_action(a)
    s.returns()


def speeds(name, sims, count):
    game = pyspiel.load_game(name)
    ps = positions(game, count, 1)
    spiel = rate(lambda i: spiel_bot(game, sims, i).step(ps[i][0]), len(ps), sims)
    mine = rate(lambda i: ours(ps[i][0], sims, i), len(ps), sims)
    rng = random.Random(3)
    floor = rate(lambda i: [floor_iteration(ps[i][0], rng) for _ in range(sims)], len(ps), sims)
    print(
        f"{name} ({len(ps)} positions): ISMCTSBot {spiel:,.0f} simulations/s; libminimax "
        f"through the adapter {mine:,.0f} ({mine / spiel:.2f}x); the adapter's floor, an "
        f"iteration's pyspiel calls from Python alone, {floor:,.0f} ({floor / spiel:.2f}x)"
    )
    def rust(i):
        g = native(name)
        for a in ps[i][1]:
            g.play(a)
        libminimax.ismcts(g, iterations=sims * 10, exploration=native_c(name), reward="scaled", seed=i)

    mine = rate(rust, len(ps), sims * 10)
    print(f"{name}: libminimax on the game written in Rust {mine:,.0f} ({mine / spiel:.1f}x)")


def native(name, sampling="unseen"):
    """The game written in Rust: Oh Hell sampling as `sampling` says, or Hearts (whose
    cards are all dealt, so both samplings are one)."""
    if name == "oh_hell":
        return libminimax.games.OhHell(3, sampling)
    return libminimax.games.Hearts()


def native_c(name):
    """Our exploration on the Rust game, the same relative to its rewards as C through
    the adapter: Oh Hell's bounds are the adapter's; Hearts' scores sum to 78 at most,
    where the adapter's range is 4 * 36 (OpenSpiel's utility range)."""
    return C if name == "oh_hell" else C * 4 * 36 / 78


def match(name, games, sims, ms=None, sampling="dealt"):
    """One seat libminimax, the others ISMCTSBot, at `sims` simulations a move (or with
    `ms` milliseconds a move each, ours on the Rust Oh Hell kept in step, sampling as
    `sampling` says: "dealt", as OpenSpiel's oh_hell resamples, knowing which cards the
    others hold, or "unseen", from every card the mover has not seen); our seat goes
    round. Points a game: ours against the mean of the bots' seats, game by game."""
    game = pyspiel.load_game(name)
    n = game.num_players()
    rng = random.Random(5)
    diffs, mine = [], []
    t = time.perf_counter()
    for g in range(games):
        seat = g % n
        if ms is None:
            bots = {p: spiel_bot(game, sims, 100 * g + p) for p in range(n) if p != seat}
        else:
            bots = {p: spiel_bot(game, 10**9, 100 * g + p, ms / 1000) for p in range(n) if p != seat}
        state = game.new_initial_state()
        mirror = native(name, sampling) if ms is not None else None
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                a = rng.choices(actions, probs)[0]
            elif passing(state):
                a = rng.choice(state.legal_actions())
            elif state.current_player() == seat and ms is not None:
                r = libminimax.ismcts(mirror, time=ms / 1000, exploration=native_c(name), reward="scaled", seed=g)
                a = r.best_move
            elif state.current_player() == seat:
                a = ours(state, sims, g).best_move
            else:
                a = bots[state.current_player()].step(state)
            state.apply_action(a)
            if mirror is not None:
                mirror.play(a)
        r = state.returns()
        others = [r[p] for p in range(n) if p != seat]
        mine.append(r[seat])
        diffs.append(r[seat] - sum(others) / len(others))
    k = len(diffs)
    mean, half = interval(diffs)
    clock = f"{sims} simulations a move" if ms is None else f"{ms} ms a move (ours on the Rust game, sampling {sampling!r})"
    if ms is not None and name == "hearts":
        clock = f"{ms} ms a move (ours on the Rust game)"
    print(
        f"{name}, {clock}: libminimax {sum(mine) / k:.2f} points a game, "
        f"{mean:+.2f} ± {half:.2f} against the ISMCTSBots' mean ({k} games, "
        f"{time.perf_counter() - t:.0f} s)",
        flush=True,
    )


def hands(state):
    """Each player's cards in a pyspiel oh_hell state, read off its text."""
    out, p = {}, None
    for line in str(state).splitlines():
        if line.startswith("Player: "):
            p = int(line.split()[1])
        elif p is not None and line[:4] == "    " and line[5:6] == ":":
            out.setdefault(p, set()).update(line[4] + r for r in line[6:].strip())
        if line.startswith("Trump"):
            break
    return out


def resample_check(count, samples):
    """OpenSpiel's oh_hell resample_from_infostate, from `count` positions: how many
    cards it deals the other players that none of them holds in the true state."""
    game = pyspiel.load_game("oh_hell")
    outside = total = 0
    for state, _ in positions(game, count, 7):
        me = state.current_player()
        truth = hands(state)
        held = set().union(*(truth[p] for p in truth if p != me))
        rng = random.Random(1)
        for _ in range(samples):
            h = hands(state.resample_from_infostate(me, rng.random))
            dealt = set().union(*(h[p] for p in h if p != me))
            outside += len(dealt - held)
            total += len(dealt)
    print(
        f"oh_hell: OpenSpiel's resample, {samples} samples from each of {count} positions: "
        f"{outside} of the {total} cards dealt to the other players lie outside their true hands"
    )


def samplers(games, sims):
    """Our own seats at `sims` iterations each: one searching through the adapter (on
    OpenSpiel's samples), the others on the Rust game with each of its samplers; the
    adapter seat's points a game against the others' mean."""
    game = pyspiel.load_game("oh_hell")
    n = game.num_players()
    for sampling in ("unseen", "dealt"):
        rng = random.Random(11)
        diffs = []
        t = time.perf_counter()
        for g in range(games):
            seat = g % n
            state = game.new_initial_state()
            mirror = libminimax.games.OhHell(n, sampling)
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    a = rng.choices(actions, probs)[0]
                elif state.current_player() == seat:
                    a = ours(state, sims, g).best_move
                else:
                    a = libminimax.ismcts(
                        mirror, iterations=sims, exploration=C, reward="scaled", seed=g
                    ).best_move
                state.apply_action(a)
                mirror.play(a)
            r = state.returns()
            diffs.append(r[seat] - sum(r[p] for p in range(n) if p != seat) / (n - 1))
        mean, half = interval(diffs)
        print(
            f"oh_hell, {sims} iterations each: ours through the adapter against ours on the "
            f"Rust game sampling {sampling!r} {mean:+.2f} ± {half:.2f} points "
            f"a game ({len(diffs)} games, {time.perf_counter() - t:.0f} s)",
            flush=True,
        )


def pimc(state, ms, samples, seed):
    """PIMC over n-player MCTS: `samples` states resampled from the mover's information
    state, each searched as if open by libminimax.Mcts (max^n backups) for an equal share
    of `ms`; the move with the best mean reward for the mover over the samples."""
    rng = random.Random(seed)
    root = SpielGame(state, hash=False)
    means = {}
    for k in range(samples):
        sample = root.sample(rng)
        sample.sample = None  # searched as if open
        r = libminimax.Mcts(exploration=C, reward="scaled", seed=seed + k).search(
            sample, time=ms / 1000 / samples
        )
        for m in r.root:
            means[m.move] = means.get(m.move, 0.0) + m.mean
    return max(state.legal_actions(), key=lambda a: means.get(a, -1.0))


def strength(name, games, ms, a, b):
    """Players `a` and `b` ("ismcts", "pimc" or "random") in alternate seats of `name`
    (a, b, a, b, ... shifted by one seat every game) at `ms` a move: a's points a game
    against b's, game by game, with a 95% interval."""
    game = pyspiel.load_game(name)
    n = game.num_players()
    rng = random.Random(9)
    diffs = []
    t = time.perf_counter()
    for g in range(games):
        kinds = [(a, b)[(p + g) % 2] for p in range(n)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                act = rng.choices(actions, probs)[0]
            elif passing(state):
                act = rng.choice(state.legal_actions())
            else:
                kind = kinds[state.current_player()]
                if kind == "ismcts":
                    act = libminimax.openspiel.ismcts(
                        state, time=ms / 1000, exploration=C, reward="scaled", seed=g
                    ).best_move
                elif kind == "pimc":
                    act = pimc(state, ms, 4, g)
                else:
                    act = rng.choice(state.legal_actions())
            state.apply_action(act)
        r = state.returns()
        mine = [r[p] for p in range(n) if kinds[p] == a]
        theirs = [r[p] for p in range(n) if kinds[p] == b]
        diffs.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
    mean, half = interval(diffs)
    print(
        f"{name}, {ms} ms a move: {a} against {b} {mean:+.2f} ± {half:.2f} "
        f"points a game ({len(diffs)} games, {time.perf_counter() - t:.0f} s)",
        flush=True,
    )


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--positions", type=int, default=5)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--sims", type=int, default=300)
    p.add_argument("--match", default="oh_hell,hearts")
    p.add_argument("--speed", default="oh_hell,hearts", help="the games whose speeds to measure")
    p.add_argument("--no-speed", action="store_true")
    p.add_argument("--timed", default="oh_hell,hearts", help="the games of the equal-time matches")
    p.add_argument("--ms", type=int, default=20, help="the equal-time matches (0: none)")
    p.add_argument("--ms-games", type=int, default=1000, help="games of each equal-time match")
    p.add_argument("--samplers", type=int, default=0, help="games of each sampler check (0: none)")
    p.add_argument("--strength", type=int, default=0, help="games of the Hearts strength matches at 50 ms (0: none)")
    a = p.parse_args()
    if not a.no_speed:
        for name in filter(None, a.speed.split(",")):
            speeds(name, a.sims, a.positions)
    for name in filter(None, a.match.split(",")):
        match(name, a.games, a.sims)
    if a.samplers:
        resample_check(a.positions, 2000)
        samplers(a.samplers, a.sims)
    timed = a.timed.split(",") if a.ms else []
    if "oh_hell" in timed:
        match("oh_hell", a.ms_games, 0, a.ms, "dealt")
        match("oh_hell", a.ms_games, 0, a.ms, "unseen")
    if "hearts" in timed:
        match("hearts", a.ms_games, 0, a.ms)
    if a.strength:
        strength("hearts", a.strength, 50, "ismcts", "random")
        strength("hearts", a.strength, 50, "ismcts", "pimc")


if __name__ == "__main__":
    main()
