#!/bin/sh
# Builds the npm package's WebAssembly modules into pkg/: the crate for
# wasm32-unknown-unknown, once for one thread (stable Rust: minimax.js and
# minimax_bg.wasm) and once with atomics and a shared memory, for pages that may share
# memory with Workers (nightly Rust rebuilding std with atomics, `-Z build-std`:
# minimax_threads.js and minimax_threads_bg.wasm); wasm-bindgen's glue for each (its CLI
# must be the crate's version); and
# wasm-opt where a binaryen of version 116 or later is installed (it shrinks the module by
# about a sixth). Debian 12's binaryen is 108, which predates the reference types
# wasm-bindgen's glue relies on: its output fails to start ("WebAssembly.Table.set():
# Argument 1 is invalid"), so it is not used.
set -eu
cd "$(dirname "$0")"
CARGO=${CARGO:-cargo}
want=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | sed 's/^wasm-bindgen //; s/ .*//' || true)
if [ "$have" != "$want" ]; then
    echo "web/build.sh: wasm-bindgen $want is needed (found: ${have:-none});" >&2
    echo "  cargo install wasm-bindgen-cli --version $want" >&2
    exit 1
fi
if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    echo "web/build.sh: the wasm32-unknown-unknown target is needed: rustup target add wasm32-unknown-unknown" >&2
    exit 1
fi
if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
    echo "web/build.sh: the threaded module needs nightly Rust with its sources:" >&2
    echo "  rustup toolchain install nightly && rustup component add rust-src --toolchain nightly" >&2
    exit 1
fi
mkdir -p target
# The two builds at once: each links with LTO into one codegen unit, on one core.
# Threads: std itself rebuilt with atomics; a memory imported and shared (1 GiB at most),
# and the thread-local storage's symbols exported, which wasm-bindgen's glue uses to give
# each helper Worker its own stack and thread-locals.
RUSTFLAGS="-C target-feature=+atomics,+bulk-memory,+mutable-globals \
-C link-arg=--shared-memory -C link-arg=--import-memory -C link-arg=--max-memory=1073741824 \
-C link-arg=--export=__wasm_init_tls -C link-arg=--export=__tls_size \
-C link-arg=--export=__tls_align -C link-arg=--export=__tls_base" \
    rustup run nightly cargo build --release --target wasm32-unknown-unknown \
    -Z build-std=panic_abort,std --target-dir target/threads 2>target/threads.log &
threads=$!
"$CARGO" build --release --target wasm32-unknown-unknown
if ! wait "$threads"; then
    cat target/threads.log >&2
    echo "web/build.sh: the threaded module did not build (above)" >&2
    exit 1
fi
wasm-bindgen --target web --out-dir pkg --out-name minimax \
    target/wasm32-unknown-unknown/release/libminimax_web.wasm
wasm-bindgen --target web --out-dir pkg --out-name minimax_threads \
    target/threads/wasm32-unknown-unknown/release/libminimax_web.wasm
opt=$(wasm-opt --version 2>/dev/null | sed -n 's/^wasm-opt version \([0-9]*\).*/\1/p' || true)
for m in minimax minimax_threads; do
    if [ "${opt:-0}" -ge 116 ]; then
        wasm-opt -O3 --enable-threads "pkg/${m}_bg.wasm" -o "pkg/${m}_bg.wasm.opt"
        mv "pkg/${m}_bg.wasm.opt" "pkg/${m}_bg.wasm"
    fi
done
if [ "${opt:-0}" -lt 116 ]; then
    echo "web/build.sh: no wasm-opt of binaryen 116 or later (found: ${opt:-none}): the modules are as rustc made them" >&2
fi
