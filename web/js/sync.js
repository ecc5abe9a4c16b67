// The searches on the calling thread, for code that already runs in a Worker (or a Node
// script): no Promise per search, and a search blocks this thread until it ends. Pages
// use `Engine` (index.js), which runs these in a Worker.

import initWasm, { NativeGame as RawGame, searchGame as rawSearchGame, version } from '../pkg/minimax.js';
import { MinimaxError, toMinimaxError } from './errors.js';
import { wasmModule } from './load.js';

let ready;

/** Loads the module on this thread; `module`, a compiled `WebAssembly.Module`, saves compiling it. */
export function init(module) {
  if (!ready) {
    ready = (async () => {
      await initWasm({ module_or_path: module ?? (await wasmModule()) });
    })();
  }
  return ready;
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
    this.#raw = name === WRAP ? position : checked(() => new RawGame(name, position ?? ''));
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
  return checked(() => rawSearchGame(game, options));
}

export { MinimaxError, version };
