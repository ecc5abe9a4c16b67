// The Worker that searches: it loads the module once, then takes one search at a time.
// Messages in: {type: 'init', module, threads}, {type: 'search', id, game, options, stop}.
// Messages out: {type: 'ready', threads}, {type: 'progress', id, report}, {type: 'done',
// id, result} and {type: 'failed', id, error}. `stop`, where the page can share memory,
// is an Int32Array over a SharedArrayBuffer that the page sets to 1 to cancel. With
// `threads` above 1, `module` is the threaded one, and this Worker starts threads - 1
// helper Workers on its memory before it is ready.

import { bindings, init, NativeGame, searchGame, wasmMemory } from './sync.js';
import { errorToData, MinimaxError } from './errors.js';

const port = typeof self === 'object' && typeof self.postMessage === 'function' && typeof window === 'undefined'
  ? self
  : (await import('node:worker_threads')).parentPort;
const send = (m) => port.postMessage(m);
const listen = (f) => {
  if (port === globalThis.self) port.onmessage = (e) => f(e.data);
  else port.on('message', f);
};

const HELPER = new URL('./helper.js', import.meta.url);

/** How long helpers may take to start before the engine goes on with those that did. */
const HELPERS_WAIT_MS = 10000;

/** Helpers that said they could not load: the engine goes on with fewer threads. */
let failedHelpers = 0;

async function startHelper(module, memory) {
  const failed = (m) => {
    if (m.type === 'failed') failedHelpers++;
  };
  let w;
  if (port === globalThis.self) {
    w = new Worker(HELPER, { type: 'module' });
    w.onmessage = (e) => failed(e.data);
  } else {
    const { Worker } = await import('node:worker_threads');
    w = new Worker(HELPER);
    w.on('message', failed);
    w.unref();
  }
  w.postMessage({ module, memory });
}

/** Threads the engine searches on: this one and the helpers that joined the pool. */
let threads = 1;

async function load(m) {
  if (!(m.threads > 1)) {
    await init(m.module);
    return;
  }
  await init(m.module, { threaded: true });
  const wasm = bindings();
  const memory = wasmMemory();
  for (let i = 1; i < m.threads; i++) {
    try {
      await startHelper(m.module, memory);
    } catch {
      // No Worker to be had here (nested Workers unsupported): fewer threads.
      failedHelpers += m.threads - i;
      break;
    }
  }
  // Each helper is counted once it waits in the pool (blocked there, it cannot say so).
  const start = performance.now();
  while (wasm.idleHelpers() + failedHelpers < m.threads - 1 && performance.now() - start < HELPERS_WAIT_MS) {
    await new Promise((r) => setTimeout(r, 2));
  }
  threads = 1 + wasm.idleHelpers();
}

/** User games' modules, by URL, imported once. */
const modules = new Map();

async function makeGame(spec) {
  if (typeof spec.name === 'string') return new NativeGame(spec.name, spec.position ?? '');
  const url = String(spec.module);
  if (!modules.has(url)) modules.set(url, import(url));
  let mod;
  try {
    mod = await modules.get(url);
  } catch (e) {
    modules.delete(url);
    throw new MinimaxError('BAD_GAME', `the game's module ${url} could not be imported: ${e && e.message}`);
  }
  const name = spec.export ?? 'default';
  const make = mod[name];
  if (typeof make !== 'function') {
    throw new MinimaxError('BAD_GAME', `the module ${url} has no export ${JSON.stringify(name)} that makes a game (a class or a function)`);
  }
  // A class is constructed, any other function called.
  const isClass = /^class[\s{]/.test(Function.prototype.toString.call(make));
  return isClass ? new make(spec.setup) : make(spec.setup);
}

async function search(m) {
  const options = { ...m.options };
  const every = options.progressMs ?? 100;
  let last = -Infinity;
  options.progressMs = m.stop ? Math.min(every, 25) : every;
  options.onProgress = (report) => {
    const now = performance.now();
    if (report.kind !== 'depth' && now - last < every) return;
    last = now;
    send({ type: 'progress', id: m.id, report });
  };
  if (m.stop) options.shouldStop = () => Atomics.load(m.stop, 0) !== 0;
  options.threads ??= threads;
  const game = await makeGame(m.game);
  if (game instanceof NativeGame) {
    try {
      return game.search(options);
    } finally {
      game.free();
    }
  }
  return searchGame(game, options);
}

let queue = Promise.resolve();
listen((m) => {
  if (m.type === 'init') {
    queue = queue.then(() => load(m)).then(
      () => send({ type: 'ready', threads }),
      (e) => send({ type: 'failed', id: -1, error: errorToData(e) }),
    );
  } else if (m.type === 'search') {
    queue = queue.then(() => search(m)).then(
      (result) => send({ type: 'done', id: m.id, result }),
      (e) => send({ type: 'failed', id: m.id, error: errorToData(e), trapped: e instanceof WebAssembly.RuntimeError }),
    );
  }
});
