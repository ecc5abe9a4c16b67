# libminimax: build the library, the C examples, and run the documents' demos.
#   make demo          build everything in release mode and run the demos
#   make lib           the release libraries, and the libminimax.so.0.4 link programs start with
#   make examples      build the examples without running them (also `make all`)
#   make header        regenerate include/minimax.h from the Rust sources
#   make test          cargo test (the README's test command)
#   make proofs        a million random (game, options) pairs, each proof checked (by hand)
#   make python-test   the Python package's tests in a fresh virtual environment
#   make python-wheel  its first half (the environment and the wheel); make python-pytest its second
#   make python-bench  the Python package's figures against easyAI, OpenSpiel, the Rust example
#   make newcomer-bench  a newcomer's Python games: easyAI's time against the package's defaults
#   make batched-bench  batched MCTS's own cost: Connect Four leaves a second, constant evaluator
#   make python-batched-bench  a Python game's batched MCTS: per-move against batch protocol
#   make mctx-bench    batched MCTS from Python against mctx and OpenSpiel, one network (jax)
#   make onnx-bench    an ONNX model evaluated by the library: against JAX from Python in
#                      a search, against onnxruntime alone (the onnx feature's targets)
#   make onnx-profile  where those models' time goes: tract node by node, and rten
#                      (after onnx-bench, which writes the model files)
#   make players-bench n-player MCTS against OpenSpiel's MCTSBot (after python-test)
#   make players-match round robins of the n-player searches (PLAYERS_GAME, MATCH_MS)
#   make hidden-bench  ISMCTS against OpenSpiel's ISMCTSBot on Oh Hell and Hearts (an hour)
#   make onnx-play     Connect Four against a trained network on the terminal, from C
#                      (c_examples/connect4_onnx.c; the library with the onnx feature;
#                      NET=build/alphazero/net.onnx, which the AlphaZero example writes)
#   make web           the npm package (web/): its WebAssembly module, then serve the page
#                      that plays against it (examples/web/) at http://127.0.0.1:8080/
#   make web-test      the package's Node tests and the page's test in headless Chromium
#   make web-bench     the WebAssembly build against native on Pons' sets, in Node and
#                      Chromium (exactness, speed, MCTS playouts), what threads give
#                      in Node, then against
#                      boardgame.io's MCTSBot (iterations a second, a 200-game match)
#   make samples       rerun every dated sample of the docs and compare it (hours; by hand)
#   make bench         the speed benchmarks: textbook C code beside the library (ratios), then
#                      the game engine (tic-tac-toe on 1 and 2 threads; 20 seeded games of 2048;
#                      Star1 and Star2 against plain expectimax; Connect Four on Pons' sets
#                      against a same-run reference, in C and Rust, and on 1, 2 and 4 threads)
#   make match         a match at a clock against minimax-rs (MATCH_MS, MATCH_GAME, ...)
#   make tsan          the multi-thread tests under ThreadSanitizer (nightly)
#   make miri          the unit tests and the tests that call the C API under Miri (nightly)
#   make miri-targets  `make miri` as a big-endian and a 32-bit machine (by hand)
#   make miri-seeds    the tests where threads meet under 16 Miri schedules (by hand)
#   make fuzz          every fuzz target for FUZZ_SECONDS each (nightly and cargo-fuzz)
#   make fuzz-smoke    CI's short fuzzing run
#   make install       the libraries, header and minimax.pc under PREFIX (DESTDIR honoured);
#                      make uninstall removes exactly those files
#   make clean         removes build/ and cargo's target/

CARGO  ?= cargo
CC     ?= cc
CXX    ?= c++
CFLAGS ?= -O2 -std=c99 -Wall -Wextra -Werror
CXXFLAGS ?= -O2 -Wall -Wextra -Werror

LIBDIR := $(CURDIR)/target/release
BUILD  := build
LDLIBS := -L$(LIBDIR) -lminimax -Wl,-rpath,$(LIBDIR)

C_EXAMPLES   := minimax_demo alphabeta_demo tree_solver tictactoe connect4 2048 hex othello
CPP_EXAMPLES := alphabeta_demo_cpp
EXAMPLES     := $(addprefix $(BUILD)/,$(C_EXAMPLES) $(CPP_EXAMPLES))

.PHONY: all lib onnx-lib onnx-play onnx-bench onnx-profile examples demo header test proofs python-test python-wheel python-pytest python-bench newcomer-bench batched-bench python-batched-bench mctx-bench players-bench hidden-bench players-match web web-package web-test web-bench samples tsan miri miri-targets miri-seeds bench match fuzz fuzz-smoke install uninstall clean FORCE

all: examples

# Cargo decides whether anything changed; the soname link lets the examples start.
lib: FORCE
	$(CARGO) build --release
	ln -sf libminimax.so $(LIBDIR)/$(SONAME)

$(BUILD):
	mkdir -p $@

$(BUILD)/%: c_examples/%.c $(wildcard c_examples/*.h) include/minimax.h lib | $(BUILD)
	$(CC) $(CFLAGS) -Iinclude $< -o $@ $(LDLIBS)

$(BUILD)/alphabeta_demo_cpp: c_examples/alphabeta_demo.cpp include/minimax.h lib | $(BUILD)
	$(CXX) $(CXXFLAGS) -Iinclude $< -o $@ $(LDLIBS)

examples: $(EXAMPLES)

# The library with the onnx feature (tract), built by its own profile (Cargo.toml: thin
# LTO) into target/onnx, so that `make lib` and this do not rebuild each other; the C
# program that plays with it.
ONNX_LIBDIR := $(CURDIR)/target/onnx
NET ?= build/alphazero/net.onnx
onnx-lib: FORCE
	$(CARGO) build --profile onnx --features onnx
	ln -sf libminimax.so $(ONNX_LIBDIR)/$(SONAME)

$(BUILD)/connect4_onnx: c_examples/connect4_onnx.c c_examples/connect4_game.h include/minimax.h onnx-lib | $(BUILD)
	$(CC) $(CFLAGS) -Iinclude $< -o $@ -L$(ONNX_LIBDIR) -lminimax -Wl,-rpath,$(ONNX_LIBDIR)

onnx-play: $(BUILD)/connect4_onnx
	$(BUILD)/connect4_onnx $(NET)

demo: examples
	@echo '== minimax_demo (first document), leaves 3 5 6 9 1 2 0 -1 =='
	@printf '8\n3 5 6 9 1 2 0 -1\n' | $(BUILD)/minimax_demo; echo
	@echo
	@echo '== alphabeta_demo_cpp (second document) =='
	@$(BUILD)/alphabeta_demo_cpp
	@echo
	@echo '== alphabeta_demo (C), leaves 13 8 24 -5 23 15 -14 -20 =='
	@printf '8\n13 8 24 -5 23 15 -14 -20\n' | $(BUILD)/alphabeta_demo
	@echo
	@echo '== tree_solver c_examples/exercise.tree --dot build/exercise.dot =='
	@$(BUILD)/tree_solver --dot $(BUILD)/exercise.dot c_examples/exercise.tree
	@echo
	@echo '== tree_solver c_examples/chance.tree --dot build/chance.dot (MAX, a coin, MAX) =='
	@$(BUILD)/tree_solver --dot $(BUILD)/chance.dot c_examples/chance.tree
	@echo
	@echo '== 2048 --moves 3 --show (the engine'"'"'s expectimax over chance nodes) =='
	@$(BUILD)/2048 --moves 3 --show

# The benchmark is built with -O2 like the textbook code it measures against.
$(BUILD)/bench: benches/bench.c benches/textbook.h include/minimax.h lib | $(BUILD)
	$(CC) -O2 -std=c99 -Wall -Wextra -Iinclude -Ibenches $< -o $@ $(LDLIBS)

# Pons' Connect Four sets are read where they are (C4_DATA), never copied in.
C4_DATA ?= ../shared/data/connect4
bench: $(BUILD)/bench $(BUILD)/connect4_bench $(BUILD)/tictactoe $(BUILD)/2048
	$(CARGO) build --release --example connect4 --example star --example overhead --example dots --example limits
	$(BUILD)/bench $(BENCH_ARGS)
	$(BUILD)/tictactoe --solve --threads 2 --timing
	rm -f $(BUILD)/bench-*.log
	$(BUILD)/2048 --games 20 --seed 1 | tee $(BUILD)/bench-2048.log
	$(CURDIR)/target/release/examples/star | tee $(BUILD)/bench-star.log
	$(CURDIR)/target/release/examples/overhead | tee $(BUILD)/bench-overhead.log
	$(CURDIR)/target/release/examples/dots | tee $(BUILD)/bench-dots.log
	$(CURDIR)/target/release/examples/limits | tee $(BUILD)/bench-limits.log
	$(BUILD)/connect4_bench --data $(C4_DATA) --rust $(CURDIR)/target/release/examples/connect4 \
	  | tee $(BUILD)/bench-connect4.log
	@# Against minimax-rs 0.6: a crate of its own (benches/peer), so that the library never
	@# depends on it.
	$(CARGO) run --release --quiet --manifest-path benches/peer/Cargo.toml -- --data $(abspath $(C4_DATA)) \
	  | tee $(BUILD)/bench-peer.log
	@# One SUMMARY line of every program's figures, last; a program that failed left none.
	@for f in 2048 star overhead dots limits connect4 peer; do grep -q '^SUMMARY' $(BUILD)/bench-$$f.log || \
	  { echo "bench: $$f gave no SUMMARY"; exit 1; }; done
	@echo "SUMMARY $$(sed -n 's/^SUMMARY //p' $(BUILD)/bench-2048.log $(BUILD)/bench-star.log $(BUILD)/bench-overhead.log \
	  $(BUILD)/bench-dots.log $(BUILD)/bench-limits.log $(BUILD)/bench-connect4.log $(BUILD)/bench-peer.log | tr '\n' ' ')"

# Matches at a clock against minimax-rs 0.6 (issue 41), by hand: minutes, not a test.
# MATCH_GAME is connect4 or othello; MATCH_FIRST and MATCH_SECOND name the players.
MATCH_MS ?= 20
MATCH_GAMES ?= 400
MATCH_GAME ?= connect4
MATCH_FIRST ?= today
MATCH_SECOND ?= minimax-rs
match:
	$(CARGO) run --release --quiet --manifest-path benches/peer/Cargo.toml -- \
	  --match $(MATCH_MS) --games $(MATCH_GAMES) --seed 1 --game $(MATCH_GAME) \
	  --first $(MATCH_FIRST) --second $(MATCH_SECOND)

# -O3, as Pons builds his solver (the reference it carries); the engine is the library's.
$(BUILD)/connect4_bench: benches/connect4_bench.c benches/pons_solver.h c_examples/connect4_game.h include/minimax.h lib | $(BUILD)
	$(CC) -O3 -std=c99 -Wall -Wextra -Iinclude $< -o $@ $(LDLIBS)

header:
	MM_BLESS=1 $(CARGO) test --test project header::

# Each target runs on its committed corpus (fuzz/corpus/<target>) and adds what it finds;
# a crash stops the run and leaves the input in fuzz/artifacts/<target>/.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := tree_text checked_leaves textbook game_engine
FUZZ_LIMIT   ?= -max_total_time=$(FUZZ_SECONDS)
fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz $$t ($(FUZZ_LIMIT))"; \
	  (cd fuzz && $(CARGO) +nightly fuzz run $$t -- $(FUZZ_LIMIT) -print_final_stats=1) || exit 1; \
	done

# CI's short run: a few thousand inputs per target from the committed corpus, with what
# it finds kept in a scratch directory (the committed corpus stays as it is).
FUZZ_SMOKE_RUNS ?= 3000
fuzz-smoke:
	@for t in $(FUZZ_TARGETS); do \
	  tmp=$$(mktemp -d) || exit 1; \
	  echo "== fuzz $$t: $(FUZZ_SMOKE_RUNS) runs"; \
	  (cd fuzz && $(CARGO) +nightly fuzz run $$t $$tmp corpus/$$t -- \
	     -runs=$(FUZZ_SMOKE_RUNS) -print_final_stats=1 > $$tmp.log 2>&1); status=$$?; \
	  grep -E 'Done [0-9]+ runs|executed_units' $$tmp.log; \
	  [ $$status -eq 0 ] || tail -40 $$tmp.log; \
	  rm -rf $$tmp $$tmp.log; \
	  [ $$status -eq 0 ] || exit 1; \
	done

test:
	$(CARGO) test

# The Python package (python/, issue 42): its wheel built by maturin, installed into a
# fresh virtual environment under build/, and its tests run there by pytest (from the
# top folder, so that the installed package is the one imported), OpenSpiel's, Ray's and
# easyAI's with their packages (the library itself is for the test of a C game by address;
# easyAI for a game written for it).
PYTHON ?= python3
PYENV = $(BUILD)/pyenv
# The wheel's cargo profile: release, as a user's `pip install ./python`; CI says
# WHEEL_PROFILE=wheel-test (python/Cargo.toml: the same code, built in less time).
WHEEL_PROFILE ?= release
WHEEL_FLAGS = $(if $(filter release,$(WHEEL_PROFILE)),--release,--profile $(WHEEL_PROFILE))
# Its two halves can run apart (CI builds the wheel beside the library's tests):
# python-wheel makes the environment and the wheel, python-pytest installs it and tests.
python-test:
	$(MAKE) python-wheel
	$(MAKE) python-pytest

python-wheel:
	rm -rf $(PYENV) $(BUILD)/wheels
	$(PYTHON) -m venv $(PYENV)
	$(PYENV)/bin/pip install --quiet 'maturin>=1.7,<2' 'pytest>=7' numpy open_spiel ray easyAI \
	  onnx onnxruntime -r examples/python/alphazero/requirements.txt
	cd python && $(CURDIR)/$(PYENV)/bin/maturin build $(WHEEL_FLAGS) --quiet \
	  --interpreter $(CURDIR)/$(PYENV)/bin/python --out $(CURDIR)/$(BUILD)/wheels

python-pytest: lib
	$(PYENV)/bin/pip install --quiet --force-reinstall --no-deps $(BUILD)/wheels/libminimax-*.whl
	$(PYENV)/bin/pytest -q python/tests

# The Python package's figures against easyAI, OpenSpiel and the Rust example, in one
# run (after python-test, whose environment it uses; docs/python.md has the last one).
python-bench: examples
	$(CARGO) build --release --quiet --example connect4
	$(PYENV)/bin/pip install --quiet easyAI
	$(PYENV)/bin/python benches/python_bench.py --data $(C4_DATA)

# A newcomer's Python games (benches/newcomer_games.py) searched by easyAI and by the
# package's defaults, each a median of alternated runs (after python-test; docs/python.md
# has the last run).
newcomer-bench:
	$(PYENV)/bin/pip install --quiet easyAI
	$(PYENV)/bin/python benches/newcomer_bench.py

# n-player MCTS against OpenSpiel's MCTSBot (issue 51): simulations a second on Pig and
# Quoridor for three, and a Pig match at equal simulations; a few minutes.
players-bench:
	$(PYENV)/bin/pip install --quiet open_spiel
	$(PYENV)/bin/python benches/players_bench.py --games 300

# ISMCTS against OpenSpiel's ISMCTSBot (issue 52): simulations a second on Oh Hell and
# Hearts (through the adapter, its floor, and the Rust Oh Hell), 300-game matches at
# equal simulations a move on each, 1,000-game matches at equal time on Oh Hell and
# Hearts, 300-game sampler checks, and Hearts' strength matches (ISMCTS against random
# and against PIMC, 300 games); about an hour.
hidden-bench:
	$(PYENV)/bin/pip install --quiet open_spiel
	$(PYENV)/bin/python benches/hidden_bench.py --games 300 --samplers 300 --strength 300

# Round robins of max^n, paranoid and best-reply search (PLAYERS_PAIRS=mcts: MCTS
# against each) for three players, 300 games a pairing: 15-20 minutes at 20 ms.
PLAYERS_GAME ?= rolit
PLAYERS_PAIRS ?= ab
players-match:
	$(CARGO) build --release --example players
	target/release/examples/players --game $(PLAYERS_GAME) --ms $(MATCH_MS) --games 300 \
	  --pairs $(PLAYERS_PAIRS)

# Batched MCTS with an evaluator of constants (issue 50: at least 1M leaves a second on
# one core from Rust): 64 Connect Four games at once, PUCT and Gumbel, 64 and 256
# simulations a move; 20 seconds.
batched-bench:
	$(CARGO) build --release --example batched
	$(CURDIR)/target/release/examples/batched 20

# A Python Gomoku's batched MCTS, the per-move protocol against the batch-friendly one
# (issue 68; after python-test, whose environment it uses; docs/batched.md has the last).
python-batched-bench:
	$(PYENV)/bin/python benches/python_batched_bench.py

# Batched MCTS from Python against mctx (pgx's Connect Four) and OpenSpiel's MCTSBot with
# one jitted network (issue 50's speed targets), in build/mlenv (jax, mctx, pgx,
# open_spiel and this package's wheel: a few hundred MB, downloaded once); 5 s a line.
MLENV := $(BUILD)/mlenv
mctx-bench: lib
	test -x $(MLENV)/bin/python || $(PYTHON) -m venv $(MLENV)
	$(MLENV)/bin/pip install --quiet 'maturin>=1.7,<2' numpy jax mctx pgx open_spiel
	cd python && $(CURDIR)/$(MLENV)/bin/maturin build --release --quiet \
	  --interpreter $(CURDIR)/$(MLENV)/bin/python --out $(CURDIR)/$(BUILD)/mlwheels
	$(MLENV)/bin/pip install --quiet --force-reinstall --no-deps $(BUILD)/mlwheels/libminimax-*.whl
	$(MLENV)/bin/python benches/mctx_bench.py 5

# The onnx feature's targets (issue 70): batched MCTS with an ONNX model evaluated by the
# library against the network called from Python (jitted JAX), on one and two threads;
# the evaluator alone against onnxruntime on an MLP and a residual network; in build/mlenv.
onnx-bench: lib
	test -x $(MLENV)/bin/python || $(PYTHON) -m venv $(MLENV)
	$(MLENV)/bin/pip install --quiet 'maturin>=1.7,<2' numpy jax onnx onnxruntime
	cd python && $(CURDIR)/$(MLENV)/bin/maturin build --release --quiet \
	  --interpreter $(CURDIR)/$(MLENV)/bin/python --out $(CURDIR)/$(BUILD)/mlwheels
	$(MLENV)/bin/pip install --quiet --force-reinstall --no-deps $(BUILD)/mlwheels/libminimax-*.whl
	$(MLENV)/bin/python benches/onnx_bench.py

# Where the time of onnx-bench's models goes (their files are its own): the library's
# evaluator, tract's plan timed node by node, and rten on the same files, one thread.
onnx-profile:
	$(CARGO) run --release --quiet --manifest-path benches/onnx_profile/Cargo.toml -- \
	  $(BUILD)/onnx_bench/mlp.onnx 28160
	$(CARGO) run --release --quiet --manifest-path benches/onnx_profile/Cargo.toml -- \
	  $(BUILD)/onnx_bench/resnet.onnx 18639244

# Every dated sample of the README and docs/ rerun by its command, each of its lines
# printed again with only its numbers changed (tests/c_programs/docs.rs): the benchmarks, the
# matches and the Python figures, so hours, by hand (after python-test); `cargo test`
# reruns the samples marked "under a minute".
# The npm package: the module (web/build.sh checks the tools and says how to get them),
# then its Node dependencies (playwright-core, for the browser test only).
web-package:
	sh web/build.sh
	cd web && npm install --no-audit --no-fund

web: web-package
	cd web && node serve.js

web-test: web-package
	cd web && node --test test/*.test.js
	cd web && node test/browser.mjs

web-bench: web-package
	$(CARGO) build --release --example connect4
	node benches/web/bench.mjs
	node benches/web/threads.mjs
	cd benches/web && npm install --no-audit --no-fund
	node benches/web/boardgameio.mjs

samples: examples
	$(CARGO) build --release --quiet --examples
	$(CARGO) build --release --quiet --manifest-path benches/peer/Cargo.toml
	$(CARGO) test --release --test c_programs -- --ignored docs::every_sample

# The tests that run threads, under ThreadSanitizer (nightly; std rebuilt instrumented so
# that its channels and locks are seen): the table's concurrent stores and probes, and
# every parallel search test, MCTS's shared tree too. The C programs' threads run under
# ASan and valgrind.
TSAN_TARGET ?= $(shell rustc -vV | sed -n 's/^host: //p')
tsan:
	RUSTFLAGS=-Zsanitizer=thread TSAN_OPTIONS=halt_on_error=1 $(CARGO) +nightly test -Zbuild-std \
	  --target $(TSAN_TARGET) --target-dir target/tsan --lib
	RUSTFLAGS=-Zsanitizer=thread TSAN_OPTIONS=halt_on_error=1 $(CARGO) +nightly test -Zbuild-std \
	  --target $(TSAN_TARGET) --target-dir target/tsan --test search -- parallel:: mcts_threads:: mcts_limits:: callbacks::
	@# Batched MCTS's thread tests but the oracle's 4,520 positions (its others are
	@# one-thread, and all are long under TSan).
	RUSTFLAGS=-Zsanitizer=thread TSAN_OPTIONS=halt_on_error=1 $(CARGO) +nightly test -Zbuild-std \
	  --target $(TSAN_TARGET) --target-dir target/tsan --test search -- batched::on_threads batched::a_panic_or_an_error
	@# n-player MCTS on two threads (a tree each, the team's stop flag).
	RUSTFLAGS=-Zsanitizer=thread TSAN_OPTIONS=halt_on_error=1 $(CARGO) +nightly test -Zbuild-std \
	  --target $(TSAN_TARGET) --target-dir target/tsan --test search -- maxn_mcts::two_threads maxn_mcts::one_seed

# The library's unit tests and the tests that call the C interface from Rust (the game
# callbacks in tests/search/callbacks.rs: every search method, tables, threads, chance nodes,
# MCTS; the textbook functions, the checked and tree APIs, the panic boundary) under
# Miri, which reports undefined behaviour in the unsafe code that runs: the C boundary's
# pointers, buffers and out-parameters, the tables' memory, the shared trees. Isolation
# is off for the clock (time limits) and the core count; leaks are not checked, since
# the thread pool's idle threads outlive the tests by design (valgrind checks the C
# programs for leaks). Tests too heavy for the interpreter are ignored under Miri.
# MIRI_TARGET runs them as another machine would (Miri interprets any target);
# `make miri-targets` runs s390x-unknown-linux-gnu (big-endian) and i686-unknown-linux-gnu
# (32-bit), by hand (about 12 minutes).
MIRI_TARGET ?=
MIRI_FLAGS  := -Zmiri-disable-isolation -Zmiri-ignore-leaks
miri:
	MIRIFLAGS="$(MIRI_FLAGS)" $(CARGO) +nightly miri test \
	  $(if $(MIRI_TARGET),--target $(MIRI_TARGET)) --lib
	MIRIFLAGS="$(MIRI_FLAGS)" $(CARGO) +nightly miri test $(if $(MIRI_TARGET),--target $(MIRI_TARGET)) \
	  --test search -- callbacks:: textbook:: checked_leaves:: chance_trees::
	MIRIFLAGS="$(MIRI_FLAGS)" $(CARGO) +nightly miri test $(if $(MIRI_TARGET),--target $(MIRI_TARGET)) \
	  --test c_programs -- trees::
	MIRIFLAGS="$(MIRI_FLAGS)" $(CARGO) +nightly miri test $(if $(MIRI_TARGET),--target $(MIRI_TARGET)) \
	  --test project -- panic_boundary::

miri-targets:
	$(MAKE) miri MIRI_TARGET=s390x-unknown-linux-gnu
	$(MAKE) miri MIRI_TARGET=i686-unknown-linux-gnu

# The tests where threads meet (the table's concurrent stores, MCTS's shared tree growing
# under a waiting thread and under one reading its bounds, every search method and MCTS
# on 2 threads through the C callbacks) under Miri with 16 schedules each (its scheduler and weak-memory choices
# seeded 0 to 15), where `make miri` tries one. About 17 minutes here: run by hand.
miri-seeds:
	MIRIFLAGS="$(MIRI_FLAGS) -Zmiri-many-seeds=0..16" $(CARGO) +nightly miri test --lib -- concurrent_stores a_thread_that_finds a_growing_node
	MIRIFLAGS="$(MIRI_FLAGS) -Zmiri-many-seeds=0..16" $(CARGO) +nightly miri test --test search -- callbacks::every_method callbacks::mcts_proves

# Every proof true (issue 49): a million (game, combination of options) pairs of
# tests/search/proofs.rs, each proven value checked against a brute force; `cargo test` runs
# 20,000. About 35 minutes here on two cores: run by hand (docs/safety.md has the last).
PROOF_PAIRS ?= 1000000
proofs:
	MM_PROOF_PAIRS=$(PROOF_PAIRS) $(CARGO) test --release --test search -- --nocapture proofs::proven_values_are_true_shard

# ---- install ----
PREFIX     ?= /usr/local
libdir     ?= $(PREFIX)/lib
includedir ?= $(PREFIX)/include
pcdir      ?= $(libdir)/pkgconfig
VERSION    := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
MAJOR      := $(word 1,$(subst ., ,$(VERSION)))
MINOR      := $(word 2,$(subst ., ,$(VERSION)))
# As build.rs sets it: while 0.x each minor version is its own ABI (libminimax.so.0.4),
# from 1.0 on the major version alone.
SONAME     := libminimax.so.$(if $(filter 0,$(MAJOR)),0.$(MINOR),$(MAJOR))
# What a program linking libminimax.a needs besides it, as rustc reports for a static
# library of this target (the library's dependencies, libc and stacker's, add nothing
# to the list).
NATIVE_STATIC_LIBS = $(shell echo '' | rustc --crate-type staticlib --crate-name native_probe \
  --print native-static-libs -o $(BUILD)/native_probe.a - 2>&1 | sed -n 's/.*native-static-libs: //p')

INSTALLED := $(libdir)/libminimax.so.$(VERSION) $(libdir)/$(SONAME) $(libdir)/libminimax.so \
             $(libdir)/libminimax.a $(includedir)/minimax.h $(pcdir)/minimax.pc

# -Wl,-Bdynamic first in Libs.private, so that a static link can say
# `-Wl,-Bstatic $(pkg-config --static --libs minimax)`: the archive is taken for
# -lminimax and the system libraries stay shared.
$(BUILD)/minimax.pc: Cargo.toml Makefile FORCE | $(BUILD)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(libdir)' 'includedir=$(includedir)' '' \
	  'Name: minimax' \
	  'Description: game-tree search (minimax, alpha-beta, a game engine) with a C ABI' \
	  'Version: $(VERSION)' \
	  'Libs: -L$${libdir} -lminimax' \
	  'Libs.private: -Wl,-Bdynamic $(NATIVE_STATIC_LIBS)' \
	  'Cflags: -I$${includedir}' > $@

install: lib $(BUILD)/minimax.pc
	install -d $(DESTDIR)$(libdir) $(DESTDIR)$(includedir) $(DESTDIR)$(pcdir)
	install -m 755 $(LIBDIR)/libminimax.so $(DESTDIR)$(libdir)/libminimax.so.$(VERSION)
	ln -sf libminimax.so.$(VERSION) $(DESTDIR)$(libdir)/$(SONAME)
	ln -sf libminimax.so.$(VERSION) $(DESTDIR)$(libdir)/libminimax.so
	install -m 644 $(LIBDIR)/libminimax.a $(DESTDIR)$(libdir)/libminimax.a
	install -m 644 include/minimax.h $(DESTDIR)$(includedir)/minimax.h
	install -m 644 $(BUILD)/minimax.pc $(DESTDIR)$(pcdir)/minimax.pc

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

clean:
	rm -rf $(BUILD)
	$(CARGO) clean

FORCE:
