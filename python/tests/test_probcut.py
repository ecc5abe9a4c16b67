"""Multi-ProbCut from Python (issue 53): a calibration on a Python game against a
least-squares line worked out here over plain fixed-depth minimax values (the reference
of pygames.py), a fit's text read back exactly, the values the API refuses, a game's
``stage()`` choosing the pairs, and searches with a fit and with enhanced transposition
cut-offs on native, Python and C games."""

import math

import pytest

import libminimax
from libminimax import ProbCut, calibrate_probcut, search
from libminimax.games import ConnectFour, Othello, TicTacToe
from pygames import ConnectFour as PyConnectFour
from pygames import minimax_value
from test_cgame import c4  # noqa: F401  (the fixture)

MASK = (1 << 64) - 1


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class PathSum:
    """Three moves a position, each adding a drawn amount in [-20, 20] to a running sum
    (MAX's gain); the evaluation is the sum with noise in [-6, 6], so that deeper values
    follow shallower ones, not exactly. ``stage()`` answers ``stage``."""

    def __init__(self, seed, stage=0):
        self.h = mix(seed)
        self.sum = 0
        self.line = []
        self.stage_is = stage

    def moves(self):
        return [0, 1, 2]

    def play(self, m):
        self.line.append((self.h, self.sum))
        self.h = mix(self.h ^ (m + 1))
        self.sum += mix(self.h) % 41 - 20

    def undo(self, m):
        self.h, self.sum = self.line.pop()

    def outcome(self):
        return None

    def evaluate(self):
        return self.sum + mix(self.h ^ 0xE7A1) % 13 - 6

    def hash(self):
        return self.h

    def stage(self):
        return self.stage_is


def least_squares(points):
    n = len(points)
    sx = sum(x for x, _ in points)
    sy = sum(y for _, y in points)
    sxx = sum(x * x for x, _ in points)
    sxy = sum(x * y for x, y in points)
    a = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    b = (sy - a * sx) / n
    rss = sum((y - a * x - b) ** 2 for x, y in points)
    return a, b, math.sqrt(rss / (n - 2))


def test_a_calibration_on_python_positions_fits_fixed_depth_minimax_values():
    positions = [PathSum(i) for i in range(30)]
    fit = calibrate_probcut(positions=positions, pairs=[(4, 2), (5, 1)])
    assert (fit.positions, fit.used) == (30, 30)
    assert [(p.stage, p.deep, p.shallow, p.samples) for p in fit.pairs] == [(0, 4, 2, 30), (0, 5, 1, 30)]
    for p in fit.pairs:
        points = [(minimax_value(g, p.shallow), minimax_value(g, p.deep)) for g in positions]
        a, b, sigma = least_squares(points)
        assert p.a == pytest.approx(a, abs=1e-9)
        assert p.b == pytest.approx(b, abs=1e-9)
        assert p.sigma == pytest.approx(sigma, abs=1e-9)
    assert all(g.line == [] for g in positions)
    assert fit.t == 1.5


def test_a_fit_reads_back_exactly_and_bad_values_are_refused():
    fit = calibrate_probcut(positions=[PathSum(i) for i in range(25)], pairs=[(4, 2)])
    fit.t = 2.25
    back = ProbCut.from_text(fit.to_text())
    assert back == fit and back.to_text() == fit.to_text() and back.t == 2.25
    assert repr(back) == "ProbCut(pairs=1, t=2.25)"
    for t in (-1.0, math.nan, math.inf):
        with pytest.raises(ValueError, match="finite number at least 0"):
            fit.t = t
    assert fit.t == 2.25
    with pytest.raises(ValueError, match="line 3"):
        ProbCut.from_text("libminimax probcut 1\nt 1.5\npair 0 4 2 one 0 1 20\n")
    with pytest.raises(ValueError, match="line 1"):
        ProbCut.from_text("hello")
    hand = ProbCut()
    hand.add(0, 4, 2, 1.0, 0.0, 5.0)
    with pytest.raises(ValueError, match="one pair per two depths"):
        hand.add(0, 4, 2, 1.0, 0.0, 5.0)
    for bad in [(0, 4, 4, 1.0, 0.0, 5.0), (0, 4, 2, 0.0, 0.0, 5.0), (0, 4, 2, 1.0, math.nan, 5.0), (0, 64, 2, 1.0, 0.0, 5.0)]:
        with pytest.raises(ValueError, match="cannot|needs"):
            hand.add(*bad)
    assert len(hand.pairs) == 1 and hand.positions == 0
    with pytest.raises(TypeError, match="not both"):
        calibrate_probcut(PathSum(1), positions=[PathSum(2)])
    with pytest.raises(TypeError, match="not both"):
        calibrate_probcut()
    with pytest.raises(ValueError, match="'alphabeta' or 'pvs'"):
        calibrate_probcut(positions=[PathSum(2)], method="exact")
    with pytest.raises(ValueError, match="max_depth=-1"):
        calibrate_probcut(positions=[PathSum(2)], max_depth=-1)


def test_the_games_stage_chooses_the_pairs():
    # A fit for stage 1 alone, eager (t 0): it cuts only where stage() says 1.
    fit = ProbCut()
    fit.add(1, 4, 2, 1.0, 0.0, 0.0)
    fit.add(1, 5, 1, 1.0, 0.0, 0.0)
    fit.t = 0.0
    plain, at0, at1 = 0, 0, 0
    for seed in range(100, 106):
        p = search(PathSum(seed), depth=6)
        z = search(PathSum(seed, stage=0), depth=6, probcut=fit)
        o = search(PathSum(seed, stage=1), depth=6, probcut=fit)
        assert z.value == p.value and z.nodes == p.nodes
        plain, at0, at1 = plain + p.nodes, at0 + z.nodes, at1 + o.nodes
    assert at1 < plain

    class Broken(PathSum):
        def stage(self):
            raise KeyError("no stage here")

    g = Broken(3)
    with pytest.raises(KeyError, match="no stage here"):
        search(g, depth=6, probcut=fit)
    assert g.line == []


def test_a_fit_may_change_while_a_search_that_took_it_runs():
    # The search copies the fit when it starts: a game's method (or another thread)
    # may change it meanwhile, and the search goes on with the copy.
    fit = ProbCut()
    fit.add(0, 4, 2, 1.0, 0.0, 5.0)

    class Tuning(PathSum):
        def evaluate(self):
            fit.t = 0.5
            return super().evaluate()

    r = search(Tuning(4), depth=5, probcut=fit)
    assert fit.t == 0.5 and r.depth == 5


def test_native_self_play_calibration_and_searches_with_the_fit():
    fit = calibrate_probcut(Othello(), max_depth=6, games=4, random_plies=4)
    assert fit.used >= 20 and fit.positions >= fit.used
    assert len({p.stage for p in fit.pairs}) >= 2  # Othello's stages: discs over 10
    again = calibrate_probcut(Othello(), max_depth=6, games=4, random_plies=4)
    assert again == fit  # seeded: the same fit
    fit.t = 1e12  # no value reaches it: every value as without
    eager = ProbCut.from_text(fit.to_text())
    eager.t = 0.0
    plain_nodes = cut_nodes = 0
    for moves in [[], [19], [19, 18]]:
        g = Othello()
        for m in moves:
            g.play(m)
        base = search(g, depth=6)
        far = search(g, depth=6, probcut=fit)
        cut = search(g, depth=6, probcut=eager)
        etc = search(g, depth=6, etc=True)
        assert far.value == base.value and etc.value == base.value
        plain_nodes, cut_nodes = plain_nodes + base.nodes, cut_nodes + cut.nodes
    assert cut_nodes < plain_nodes


def test_native_positions_are_copied_and_must_be_of_one_kind():
    positions = []
    for n in range(24):  # the line of first legal moves, each position twice
        p = Othello()
        for _ in range(n):
            p.play(p.moves()[0])
        positions += [p, p]
    before = [p.moves() for p in positions]
    fit = calibrate_probcut(positions=positions, pairs=[(4, 2)])
    assert fit.positions == 48 and fit.used == 48
    # Othello's stage is its discs less 4, over 10: 20 samples at stages 0 and 1, 8 at
    # stage 2, too few to fit.
    assert [(p.stage, p.samples) for p in fit.pairs] == [(0, 20), (1, 20)]
    assert [p.moves() for p in positions] == before  # copies were searched
    with pytest.raises(TypeError, match="positions\\[1\\] is not a native game"):
        calibrate_probcut(positions=[ConnectFour(), PathSum(1)])
    with pytest.raises(TypeError, match="positions\\[1\\] is a native game"):
        calibrate_probcut(positions=[PathSum(1), TicTacToe()])
    with pytest.raises(TypeError, match="players"):
        calibrate_probcut(libminimax.games.Rolit())
    # Connect Four's native evaluation is 0 (it is a solver's game): nothing to fit.
    c4 = calibrate_probcut(ConnectFour(), max_depth=6, games=2)
    assert c4.used > 0 and c4.pairs == []


def test_enhanced_transposition_cutoffs_and_internal_deepening_keep_values():
    for line in ["", "4", "43"]:
        g = PyConnectFour(line)
        want = minimax_value(g, 5)
        assert search(g, depth=5, etc=True).value == want
        assert search(g, depth=6, iid=True).value == search(g, depth=6).value
    g = Othello()
    plain = search(g, depth=7)
    ordered = search(g, depth=7, iid=True)
    assert ordered.value == plain.value and ordered.nodes != plain.nodes


def test_a_c_games_calibration_and_search(c4):  # noqa: F811
    address = c4.c4_create(b"4433")
    try:
        game = libminimax.CGame(address)
        # The C example's evaluation is 0 too: positions searched, nothing to fit.
        fit = calibrate_probcut(game, max_depth=6, games=2, random_plies=2)
        assert fit.used >= 20 and fit.pairs == []
        with pytest.raises(TypeError, match="C game"):
            calibrate_probcut(positions=[game])
        hand = ProbCut()
        hand.add(0, 4, 2, 1.0, 0.0, 0.0)
        hand.add(0, 6, 2, 1.0, 0.0, 0.0)
        hand.t = 1e12
        c4.c4_destroy(address)
        address = c4.c4_create(b"")
        game = libminimax.CGame(address)
        base = search(game, depth=8)
        same = search(game, depth=8, probcut=hand, etc=True)
        assert same.value == base.value
        hand.t = 0.0
        cut = search(game, depth=8, probcut=hand)
        assert cut.nodes < base.nodes
    finally:
        c4.c4_destroy(address)
