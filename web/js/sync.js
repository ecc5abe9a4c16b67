// The searches on the calling thread, for code that already runs in a Worker (or a Node
// script): no Promise per search, and a search blocks this thread until it ends. Pages
// use `Engine` (index.js), which runs these in a Worker.

import { MinimaxError, toMinimaxError } from './errors.js';
import { wasmModule } from './load.js';

let ready;
/** The loaded module's bindings (wasm-bindgen's glue), and its memory. */
let wasm;
let memory;

/**
 * Loads the module on this thread; `module`, a compiled `WebAssembly.Module`, saves
 * compiling it. `threaded: true` loads the module that shares its memory with helper
 * Workers (a Worker of `Engine` does this). The first call decides.
 */
export function init(module, { threaded = false } = {}) {
  if (!ready) {
    ready = (async () => {
      const glue = threaded ? await import('../pkg/minimax_threads.js') : await import('../pkg/minimax.js');
      const m = module ?? (await wasmModule(threaded ? 'threads' : 'single'));
      const exports = await glue.default({ module_or_path: m });
      wasm = glue;
      memory = exports.memory;
    })();
    ready.catch(() => { ready = undefined; });
  }
  return ready;
}

/** The loaded module's bindings, for the package's own Workers. */
export function bindings() {
  if (!wasm) throw new MinimaxError('BAD_OPTION', 'the module is not loaded yet: await init() first');
  return wasm;
}

/** The loaded module's memory (shared, in the threaded module), for helper Workers. */
export function wasmMemory() {
  bindings();
  return memory;
}

/** The library's version (after init). */
export function version() {
  return bindings().version();
}

function checked(f) {
  try {
    return f();
  } catch (e) {
    throw toMinimaxError(e);
  }
}

/** A game compiled in, at a position: see index.d.ts. */
const WRAP = Symbol('a copy');

export class NativeGame {
  #raw;
  constructor(name, position) {
    this.#raw = name === WRAP ? position : checked(() => new (bindings().NativeGame)(name, position ?? ''));
  }
  get name() { return this.#raw.name; }
  get position() { return this.#raw.position; }
  get line() { return Array.from(this.#raw.line); }
  get width() { return this.#raw.width; }
  get height() { return this.#raw.height; }
  get toMove() { return this.#raw.toMove; }
  legalMoves() { return Array.from(this.#raw.legalMoves()); }
  play(move) { checked(() => this.#raw.play(move)); return this; }
  undo() { return this.#raw.undo(); }
  winner() { return this.#raw.winner() ?? null; }
  board() { return Array.from(this.#raw.board()); }
  clone() { return new NativeGame(WRAP, this.#raw.clone()); }
  search(options) { return checked(() => this.#raw.search(options)); }
  free() { this.#raw.free(); }
}

/** Searches a user's own game object on this thread. */
export function searchGame(game, options) {
  return checked(() => bindings().searchGame(game, options));
}

export { MinimaxError };
