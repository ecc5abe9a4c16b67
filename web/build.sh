#!/bin/sh
# Builds the npm package's WebAssembly module into pkg/: the crate for
# wasm32-unknown-unknown, wasm-bindgen's glue (its CLI must be the crate's version), and
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
"$CARGO" build --release --target wasm32-unknown-unknown
wasm-bindgen --target web --out-dir pkg --out-name minimax \
    target/wasm32-unknown-unknown/release/libminimax_web.wasm
opt=$(wasm-opt --version 2>/dev/null | sed -n 's/^wasm-opt version \([0-9]*\).*/\1/p' || true)
if [ "${opt:-0}" -ge 116 ]; then
    wasm-opt -O3 pkg/minimax_bg.wasm -o pkg/minimax_bg.wasm.opt
    mv pkg/minimax_bg.wasm.opt pkg/minimax_bg.wasm
else
    echo "web/build.sh: no wasm-opt of binaryen 116 or later (found: ${opt:-none}): the module is as rustc made it" >&2
fi
