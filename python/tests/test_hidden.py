"""Hidden information (issue 52): libminimax.ismcts over Python games whose sample(rng)
gives a new position, over OpenSpiel games through resample_from_infostate, and over the
native Oh Hell, checked move by move against OpenSpiel's oh_hell (written apart)."""

import random

import pytest

import libminimax
from libminimax.games import Hearts, OhHell


class Guess:
    """Player 0 names a side, "a" or "b", of a coin it cannot see (heads with probability
    `p` as far as it knows); naming the side up wins 1, else -1. Two players: player 1
    never moves."""

    def __init__(self, p=0.7, heads=True):
        self.p, self.heads = p, heads
        self.named = None
        self.plays = 0

    def moves(self):
        return [] if self.named else ["a", "b"]

    def play(self, m):
        self.plays += 1
        self.named = m

    def undo(self, m):
        self.named = None

    def outcome(self):
        if self.named is None:
            return None
        return 1 if (self.named == "a") == self.heads else -1

    def evaluate(self):
        return 0

    def sample(self, rng):
        return Guess(self.p, rng.random() < self.p)

    def information_key(self):
        return 0 if self.named is None else 1


def test_ismcts_takes_the_better_guess_by_the_samples_odds():
    for p, best in ((0.7, "a"), (0.3, "b")):
        g = Guess(p)
        r = libminimax.ismcts(g, iterations=2000, seed=1)
        assert r.best_move == best
        means = {s.move: s.mean for s in r.root}
        # Each mean is the share of samples its side won (independent of the search):
        # p for "a", 1 - p for "b", within sampling noise.
        assert abs(means["a"] - p) < 0.06 and abs(means["b"] - (1 - p)) < 0.06
        assert g.plays == 0  # only the samples are played on
        assert r.playouts == 2000


def test_ismcts_is_the_same_search_under_the_same_seed():
    a = libminimax.ismcts(Guess(0.5), iterations=300, seed=9)
    b = libminimax.ismcts(Guess(0.5), iterations=300, seed=9)
    assert [(s.move, s.visits) for s in a.root] == [(s.move, s.visits) for s in b.root]


def test_ismcts_errors_name_what_the_caller_did():
    class NoSample(Guess):
        sample = None

    # engine.md's status for a game that cannot sample (issue 68: it was a TypeError).
    with pytest.raises(libminimax.NoSampleError, match="has no sample"):
        libminimax.ismcts(NoSample(), iterations=10)
    with pytest.raises(ValueError, match="iterations=0"):
        libminimax.ismcts(Guess(), iterations=0)
    with pytest.raises(ValueError, match="reward='best'"):
        libminimax.ismcts(Guess(), iterations=10, reward="best")
    with pytest.raises(ValueError, match="exploration"):
        libminimax.ismcts(Guess(), iterations=10, exploration=-1.0)


def test_a_sample_that_is_the_game_itself_is_refused():
    class Same(Guess):
        def sample(self, rng):
            return self

    with pytest.raises(ValueError, match="new game"):
        libminimax.ismcts(Same(), iterations=10)


def test_an_exception_in_sample_comes_back_as_itself():
    class Broken(Guess):
        def sample(self, rng):
            raise KeyError("no deal")

    with pytest.raises(KeyError, match="no deal"):
        libminimax.ismcts(Broken(), iterations=10)


class HiddenPile:
    """Take 1 to 3 sticks, who takes the last wins (MAX, who moves first, scores 1 for
    it, else -1); MAX does not know the pile, 3 to 8 sticks. Each sample is kept."""

    def __init__(self, pile=None, drawn=None):
        self.pile, self.turn, self.plays = pile, 0, 0
        self.drawn = [] if drawn is None else drawn

    def moves(self):
        return [t for t in (1, 2, 3) if t <= self.pile]

    def play(self, t):
        self.plays += 1
        self.pile -= t
        self.turn ^= 1

    def undo(self, t):
        self.pile += t
        self.turn ^= 1

    def outcome(self):
        if self.pile > 0:
            return None
        return 1 if self.turn == 1 else -1  # the side that just moved took the last

    def evaluate(self):
        return 0

    def max_to_move(self):
        return self.turn == 0

    def sample(self, rng):
        pile = rng.randint(3, 8)
        self.drawn.append(pile)
        return HiddenPile(pile, self.drawn)


def pile_value(pile, max_moves):
    """The textbook minimax value of an open pile for MAX, written apart from the game."""
    if pile == 0:
        return -1 if max_moves else 1
    values = [pile_value(pile - t, not max_moves) for t in (1, 2, 3) if t <= pile]
    return max(values) if max_moves else min(values)


@pytest.mark.parametrize("combine", ["mean", "votes"])
def test_pimc_combines_each_samples_open_values(combine):
    # The reference: each sample the game handed out, valued apart by textbook minimax.
    for seed in range(5):
        g = HiddenPile(pile=5)
        r = libminimax.pimc(g, samples=40, combine=combine, seed=seed)
        assert len(g.drawn) == 40 and g.plays == 0 and r.samples == 40 and r.proven
        rows = [[pile_value(n - t, False) for t in (1, 2, 3)] for n in g.drawn]
        means = [sum(row[i] for row in rows) / len(rows) for i in range(3)]
        votes = [0.0, 0.0, 0.0]
        for row in rows:
            best = [i for i in range(3) if row[i] == max(row)]
            for i in best:
                votes[i] += 1 / len(best)
        assert [m.move for m in r.root] == [1, 2, 3]
        assert [m.mean for m in r.root] == pytest.approx(means)
        assert [m.votes for m in r.root] == pytest.approx(votes)
        # The best by the mean, or by votes and then the mean (ties to within rounding).
        best = r.best_move - 1
        tied = range(3)
        if combine == "votes":
            assert votes[best] == pytest.approx(max(votes))
            tied = [i for i in range(3) if votes[i] == pytest.approx(max(votes))]
        assert means[best] == pytest.approx(max(means[i] for i in tied))
        assert r.value == pytest.approx(means[r.best_move - 1])
    # The same seed, the same samples.
    a, b = HiddenPile(5), HiddenPile(5)
    libminimax.pimc(a, samples=10, seed=3)
    libminimax.pimc(b, samples=10, seed=3)
    assert a.drawn == b.drawn and len(set(a.drawn)) > 1


def test_pimc_errors_name_what_the_caller_did():
    with pytest.raises(ValueError, match="samples=0"):
        libminimax.pimc(HiddenPile(5), samples=0)
    with pytest.raises(ValueError, match="combine='best'"):
        libminimax.pimc(HiddenPile(5), combine="best")
    class Open(HiddenPile):
        sample = None

    with pytest.raises(libminimax.NoSampleError, match=r"pimc\(\) needs a game with sample"):
        libminimax.pimc(Open(5))

    class Same(HiddenPile):
        def sample(self, rng):
            return self

    with pytest.raises(ValueError, match="new game"):
        libminimax.pimc(Same(5))


def oh_hell_line(state, game, rng):
    """Plays a random game of pyspiel's oh_hell and the native OhHell side by side,
    checking at every step that both agree on chance, the legal moves and the end."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = sorted(a for a, _ in state.chance_outcomes())
            assert game.is_chance()
            assert sorted(m for m, _ in game.outcomes()) == outcomes
            a = rng.choice(outcomes)
        else:
            assert not game.is_chance()
            assert game.to_move() == state.current_player()
            legal = state.legal_actions()
            assert sorted(game.moves()) == legal
            a = rng.choice(legal)
        state.apply_action(a)
        game.play(a)
    assert game.outcome() == tuple(round(r) for r in state.returns())


@pytest.mark.parametrize("players", [3, 4])
def test_native_oh_hell_plays_as_openspiels(players):
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("oh_hell", {"players": players})
    rng = random.Random(players)
    for _ in range(60):
        oh_hell_line(spiel.new_initial_state(), OhHell(players), rng)


def test_native_hearts_plays_as_openspiels():
    """Random games side by side with pyspiel's hearts, every pass direction: the same
    chance outcomes, movers, moves (the passing too) and returns. Half the games play
    each player's highest card, which makes one player take most tricks, so that moons
    are shot."""
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("hearts")
    rng = random.Random(11)
    moons = 0
    for k in range(120):
        state, game = spiel.new_initial_state(), Hearts()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = sorted(a for a, _ in state.chance_outcomes())
                assert game.is_chance() and sorted(m for m, _ in game.outcomes()) == outcomes
                a = outcomes[k % 4] if len(outcomes) == 4 else rng.choice(outcomes)
            else:
                assert not game.is_chance() and game.to_move() == state.current_player()
                legal = state.legal_actions()
                assert sorted(game.moves()) == legal, (k, state.history())
                high = k % 2 and state.current_player() == 0 and len(state.history()) > 64
                a = max(legal) if high else rng.choice(legal)
            state.apply_action(a)
            game.play(a)
        returns = tuple(round(r) for r in state.returns())
        assert game.outcome() == returns, (k, state.history())
        moons += sorted(returns) == [0, 0, 0, 26]
    assert moons > 0


def dealt(players, seed):
    """A native Oh Hell dealt at random, at its first bid."""
    g, rng = OhHell(players), random.Random(seed)
    while g.is_chance():
        moves, weights = zip(*g.outcomes())
        g.play(rng.choices(moves, weights)[0])
    return g


def test_ismcts_searches_the_native_oh_hell():
    g = dealt(3, 4)
    r = libminimax.ismcts(g, iterations=500, reward="scaled", seed=2)
    assert r.best_move in g.moves()
    assert r.playouts == 500 and sum(s.visits for s in r.root) == 500
    again = libminimax.ismcts(g, iterations=500, reward="scaled", seed=2)
    assert [s.visits for s in again.root] == [s.visits for s in r.root]


def test_oh_hell_sampling_as_openspiels_plays_the_same_game():
    # Its samples are checked in tests/search/oh_hell.rs; here, the option and its rules.
    pyspiel = pytest.importorskip("pyspiel")
    spiel = pyspiel.load_game("oh_hell")
    oh_hell_line(spiel.new_initial_state(), OhHell(3, sampling="dealt"), random.Random(8))
    g = OhHell(3, "dealt")
    while g.is_chance():
        g.play(g.outcomes()[0][0])
    assert libminimax.ismcts(g, iterations=200, seed=1).best_move in g.moves()
    with pytest.raises(ValueError, match="'unseen'.*'dealt'"):
        OhHell(3, sampling="known")


def test_openspiel_games_with_hidden_information():
    pyspiel = pytest.importorskip("pyspiel")
    from libminimax import openspiel

    for name in ("kuhn_poker", "oh_hell"):
        state = pyspiel.load_game(name).new_initial_state()
        rng = random.Random(1)
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        r = openspiel.ismcts(state, iterations=200, reward="scaled", seed=1)
        assert r.best_move in state.legal_actions()
        with pytest.raises(ValueError, match="hidden information"):
            openspiel.search(state, depth=2)
    liars = pyspiel.load_game("liars_dice").new_initial_state()
    while liars.is_chance_node():
        liars.apply_action(liars.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="resample_from_infostate"):
        openspiel.SpielGame(liars)


def test_an_openspiel_sample_plays_and_takes_back_in_place():
    pyspiel = pytest.importorskip("pyspiel")
    from libminimax.openspiel import SpielGame

    state = pyspiel.load_game("oh_hell").new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    sample = SpielGame(state, hash=False).sample(random.Random(5))
    key = sample.information_key()
    assert key == SpielGame(state, hash=False).information_key()
    before = str(sample.state)
    line = []
    for _ in range(4):
        m = rng.choice(sample.moves())
        sample.play(m)
        line.append(m)
    for m in reversed(line):
        sample.undo(m)
    assert str(sample.state) == before and sample.information_key() == key


class FaceDown:
    """MAX (player 0) plays safe (2) or on; MIN puts down card "A" or "B" face down, and
    MAX names one: 10 if right, -10 if wrong. Worked out by hand: playing on is worth 0
    to MAX (MIN mixes evenly), so safe is best. MAX sees MIN's card as "hidden"."""

    def __init__(self):
        self.line = []

    def moves(self):
        n = len(self.line)
        if n == 0:
            return ["safe", "play"]
        if n == 1 and self.line[0] == "play":
            return ["A", "B"]
        if n == 2:
            return ["name A", "name B"]
        return []

    def play(self, m):
        self.line.append(m)

    def undo(self, m):
        self.line.pop()

    def outcome(self):
        if self.line == ["safe"]:
            return 2
        if len(self.line) == 3:
            return 10 if self.line[2] == "name " + self.line[1] else -10
        return None

    def max_to_move(self):
        return len(self.line) != 1

    def bounds(self):
        return (-10, 10)

    def sample(self, rng):
        copy = FaceDown()  # nothing is hidden at MAX's first move
        copy.line = list(self.line)
        return copy

    def observed_move(self, m, player):
        return "hidden" if player == 0 and m in ("A", "B") else m


def test_multi_observer_ismcts_does_not_see_a_card_put_down_face_down():
    one = libminimax.ismcts(FaceDown(), iterations=20000, reward="scaled", seed=3)
    assert one.best_move == "play"  # one tree branches on the card MAX cannot see
    many = libminimax.ismcts(
        FaceDown(), iterations=20000, reward="scaled", seed=3, multi_observer=True
    )
    assert many.best_move == "safe"
    assert abs(many.value - 0.6) < 1e-9


class WrongSamples(HiddenPile):
    """A pile whose sampler breaks the contract: `kind` "few" deals piles of 1 (one legal
    move where the position has three), "over" deals empty piles."""

    def __init__(self, pile, kind):
        super().__init__(pile)
        self.kind = kind

    def sample(self, rng):
        return HiddenPile(1 if self.kind == "few" else 0)


def test_samples_that_are_not_the_position_are_errors():
    # Issue 68: moves legal in no position, or no move, came back with no error.
    for kind in ["few", "over"]:
        g = WrongSamples(5, kind)
        with pytest.raises(libminimax.BadSampleError, match="not of the position"):
            libminimax.pimc(g, samples=5)
        for multi_observer in [False, True]:
            with pytest.raises(libminimax.BadSampleError):
                libminimax.ismcts(HiddenObserved(5, kind), iterations=50, multi_observer=multi_observer)
        assert g.plays == 0


class HiddenObserved(WrongSamples):
    def observed_move(self, m, player):
        return m


def test_hidden_searches_say_what_a_game_lacks():
    # pimc() on three players points to ismcts(), not to max^n.
    class Three(HiddenPile):
        def players(self):
            return 3

        def to_move(self):
            return self.turn

    with pytest.raises(TypeError, match=r"pimc\(\) searches games of two players; this one has 3.*ismcts\(\)"):
        libminimax.pimc(Three(5))
    # Multi-observer ISMCTS needs observed_move().
    with pytest.raises(TypeError, match=r"multi_observer=True needs the game's observed_move"):
        libminimax.ismcts(HiddenPile(5), iterations=10, multi_observer=True)
    # search() would read the hidden pile: refused unless asked for.
    with pytest.raises(TypeError, match=r"the game has sample\(\).*pimc\(\) or ismcts\(\).*see_hidden=True"):
        libminimax.search(HiddenPile(5))
    r = libminimax.search(HiddenPile(5), see_hidden=True)
    assert r.value == pile_value(5, True) and r.proven
