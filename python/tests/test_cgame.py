"""A game written in C (c_examples/connect4_game.h, built here into a shared library
linked against libminimax) searched by its address, against the native Connect Four."""

import ctypes
import pathlib
import shutil
import subprocess

import pytest

import libminimax
from libminimax.games import ConnectFour
from test_native import late_positions

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBDIR = ROOT / "target" / "release"


@pytest.fixture(scope="module")
def c4(tmp_path_factory):
    if not (LIBDIR / "libminimax.so").exists() or shutil.which("cc") is None:
        pytest.skip("needs a C compiler and the library (make lib)")
    out = tmp_path_factory.mktemp("c4") / "libc4.so"
    subprocess.run(
        ["cc", "-O2", "-shared", "-fPIC", "-std=c99", "-Wall", "-Wextra", "-Werror",
         f"-I{ROOT / 'include'}", f"-I{ROOT / 'c_examples'}", str(pathlib.Path(__file__).with_name("c4_game.c")),
         "-o", str(out), f"-L{LIBDIR}", "-lminimax", f"-Wl,-rpath,{LIBDIR}"],
        check=True,
    )
    lib = ctypes.CDLL(str(out))
    lib.c4_create.restype = ctypes.c_void_p
    lib.c4_create.argtypes = [ctypes.c_char_p]
    lib.c4_destroy.argtypes = [ctypes.c_void_p]
    return lib


@pytest.mark.parametrize("line", late_positions(6, 14, seed=11))
def test_a_c_game_by_address_agrees_with_the_native_game(c4, line):
    address = c4.c4_create(line.encode())
    try:
        game = libminimax.CGame(address)
        # The C game has no turn callback: who is MAX at the root is an option.
        r = libminimax.search(game, method="exact", max_at_root=len(line) % 2 == 0)
        native = libminimax.search(ConnectFour(line), method="exact")
        assert r.proven and r.value == native.value and r.best_move in range(7)
        two = libminimax.search(game, method="exact", threads=2, max_at_root=len(line) % 2 == 0)
        assert two.value == r.value and two.threads == 2
        limited = libminimax.search(game, depth=3, max_at_root=len(line) % 2 == 0)
        assert limited.depth <= 3 and limited.best_move in ConnectFour(line).moves()
    finally:
        c4.c4_destroy(address)


def test_bad_addresses_and_options():
    with pytest.raises(ValueError, match="NULL"):
        libminimax.CGame(0)
    with pytest.raises(ValueError, match="max_moves=0"):
        libminimax.CGame(8, max_moves=0)


@pytest.mark.parametrize("line", late_positions(4, 30, seed=5))
def test_mcts_on_a_c_game(c4, line):
    address = c4.c4_create(line.encode())
    try:
        game = libminimax.CGame(address)
        mcts = libminimax.Mcts(seed=1)
        mover_is_max = len(line) % 2 == 0
        r = mcts.search(game, playouts=50_000, max_at_root=mover_is_max)
        assert r.best_move in ConnectFour(line).moves()
        assert {s.move for s in r.root} <= set(ConnectFour(line).moves())  # the C game lists fewer
        exact = libminimax.search(ConnectFour(line), method="exact").value
        if r.proven:  # the proof agrees with the exact value, for the side to move
            mover = exact if mover_is_max else -exact
            assert r.proven_reward == (1.0 if mover > 0 else 0.5 if mover == 0 else 0.0)
        mcts.advance(r.best_move)
        mcts.clear()
    finally:
        c4.c4_destroy(address)
