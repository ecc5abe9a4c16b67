"""The textbook functions against the textbook algorithms written in Python."""

import array
import random

import pytest

import libminimax


def ref_minimax(depth, node, is_max, scores, h):
    """The first document's minimax, as it wrote it."""
    if depth == h:
        return scores[node]
    a = ref_minimax(depth + 1, node * 2, not is_max, scores, h)
    b = ref_minimax(depth + 1, node * 2 + 1, not is_max, scores, h)
    return max(a, b) if is_max else min(a, b)


def ref_alphabeta(height, depth, node, max_player, values, alpha, beta):
    """The second document's fail-soft alpha-beta, children left to right."""
    if depth == height:
        return values[node]
    best = -(2**31) if max_player else 2**31 - 1
    for i in range(2):
        v = ref_alphabeta(height, depth + 1, node * 2 + i, not max_player, values, alpha, beta)
        if max_player:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if beta <= alpha:
            break
    return best


def test_the_documents_examples():
    assert libminimax.minimax(0, 0, True, [3, 5, 2, 9, 12, 5, 23, 23], 3) == 12
    assert libminimax.alphabeta(3, 0, 0, True, [3, 5, 6, 9, 1, 2, 0, -1], -1000, 1000) == 5


@pytest.mark.parametrize("seed", range(30))
def test_random_trees_agree_with_the_reference(seed):
    rng = random.Random(seed)
    h = rng.randint(0, 8)
    scores = [rng.randint(-100, 100) for _ in range(2**h)]
    depth = rng.randint(0, h)
    node = rng.randrange(2**depth)
    is_max = rng.random() < 0.5
    assert libminimax.minimax(depth, node, is_max, scores, h) == ref_minimax(depth, node, is_max, scores, h)
    alpha, beta = sorted(rng.randint(-120, 120) for _ in range(2))
    got = libminimax.alphabeta(h, depth, node, is_max, scores, alpha, beta)
    assert got == ref_alphabeta(h, depth, node, is_max, scores, alpha, beta)
    full = libminimax.alphabeta(h, depth, node, is_max, scores)
    assert full == ref_minimax(depth, node, is_max, scores, h)


def test_buffers_and_sequences_give_the_same_values():
    values = [3, 5, 2, 9, 12, 5, 23, 23]
    for scores in (values, tuple(values), array.array("i", values), array.array("q", values), range(8)):
        expect = ref_minimax(0, 0, True, list(scores), 3)
        assert libminimax.minimax(0, 0, True, scores, 3) == expect


def test_numpy_arrays():
    np = pytest.importorskip("numpy")
    values = np.array([3, 5, 2, 9, 12, 5, 23, 23], dtype=np.int32)
    assert libminimax.minimax(0, 0, True, values, 3) == 12
    assert libminimax.minimax(0, 0, True, values.astype(np.int64), 3) == 12
    assert libminimax.minimax(0, 0, True, values[::-1], 3) == ref_minimax(0, 0, True, list(values[::-1]), 3)
    big = np.arange(2**16, dtype=np.int32)
    assert libminimax.minimax(0, 0, True, big, 16) == ref_minimax(0, 0, True, list(range(2**16)), 16)


@pytest.mark.parametrize(
    "args, words",
    [
        ((0, 0, True, [1, 2], -1), "height is negative"),
        ((0, 0, True, [1, 2], 31), "above 30"),
        ((-1, 0, True, [1, 2], 1), "depth is negative"),
        ((2, 0, True, [1, 2], 1), "greater than the tree height"),
        ((1, 2, True, [1, 2], 1), "node index 2 is outside"),
        ((0, -1, True, [1, 2], 1), "node index -1 is outside"),
        ((0, 0, True, [1, 2, 3], 1), "hold 3 values"),
        ((0, 0, True, [], 0), "hold 0 values"),
    ],
)
def test_the_c_checks_raise_value_error(args, words):
    with pytest.raises(ValueError, match=words):
        libminimax.minimax(*args)
    depth, node, is_max, scores, h = args
    with pytest.raises(ValueError, match=words):
        libminimax.alphabeta(h, depth, node, is_max, scores)


def test_leaves_that_are_not_ints():
    with pytest.raises(TypeError):
        libminimax.minimax(0, 0, True, ["a", "b"], 1)
    with pytest.raises(OverflowError):
        libminimax.minimax(0, 0, True, [2**40, 1], 1)
