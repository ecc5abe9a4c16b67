// libminimax for JavaScript: game-tree search compiled to WebAssembly, run in a Worker
// so that the calling thread never waits. See index.d.ts for the API and ../README.md.

import { MinimaxError, errorFromData } from './errors.js';
import { IN_NODE, wasmModule } from './load.js';

export { MinimaxError };
export { NativeGame, searchGame, init, version } from './sync.js';

const WORKER = new URL('./worker.js', import.meta.url);

/** How long a cancelled search may take to stop before its Worker is restarted. */
const STOP_WAIT_MS = 2000;

/** Whether this thread may share memory with a Worker (a cross-origin isolated page, or Node). */
export function canShareMemory() {
  return typeof SharedArrayBuffer === 'function' && (IN_NODE || globalThis.crossOriginIsolated === true);
}

async function startWorker() {
  if (IN_NODE) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(WORKER);
    w.unref();
    return {
      post: (m) => w.postMessage(m),
      listen: (f) => w.on('message', f),
      onCrash: (f) => w.on('error', f),
      kill: () => w.terminate(),
    };
  }
  const w = new Worker(WORKER, { type: 'module' });
  return {
    post: (m) => w.postMessage(m),
    listen: (f) => w.addEventListener('message', (e) => f(e.data)),
    onCrash: (f) => w.addEventListener('error', (e) => f(e.error ?? new Error(e.message))),
    kill: () => w.terminate(),
  };
}

function abortReason(signal) {
  return signal.reason ?? new DOMException('The search was cancelled', 'AbortError');
}

/** A search engine in a Worker of its own: searches run one after another, off this thread. */
export class Engine {
  #worker = null;
  #ready = null;
  #pending = new Map();
  #next = 1;
  #tail = Promise.resolve();
  #closed = false;
  #shares = false;
  #asked = 1;
  #threads = 1;

  /**
   * An engine, its Worker started and its module loaded. `shareMemory: false` cancels
   * searches by restarting the Worker even where memory could be shared. `threads` above
   * 1 searches games compiled in on that many threads (helper Workers sharing the
   * module's memory) where memory can be shared, and on one thread elsewhere, with no
   * error: `engine.threads` says how many it has.
   */
  static async create(options = {}) {
    const e = new Engine();
    const wanted = options.shareMemory ?? canShareMemory();
    if (wanted && !canShareMemory()) {
      throw new MinimaxError('BAD_OPTION', 'shareMemory: true needs SharedArrayBuffer: a cross-origin isolated page (the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)');
    }
    const threads = options.threads ?? 1;
    if (!(Number.isInteger(threads) && threads >= 1 && threads <= 256)) {
      throw new MinimaxError('BAD_OPTION', `the option threads is ${String(threads)}: it takes an integer from 1 to 256`);
    }
    e.#shares = wanted;
    // Threads share the module's memory, which only a page that may share memory has.
    e.#asked = canShareMemory() ? threads : 1;
    await e.#start();
    return e;
  }

  /** The threads searches run on: 1, or the helpers that started and this engine's Worker. */
  get threads() {
    return this.#threads;
  }

  /** Whether a cancelled search is stopped in place (memory shared) rather than by restarting the Worker. */
  get sharesMemory() {
    return this.#shares;
  }

  #start() {
    this.#ready = (async () => {
      const threaded = this.#asked > 1;
      const module = await wasmModule(threaded ? 'threads' : 'single');
      const w = await startWorker();
      await new Promise((resolve, reject) => {
        w.listen((m) => {
          if (m.type === 'ready') {
            this.#threads = m.threads;
            resolve();
          } else this.#receive(w, m, reject);
        });
        w.onCrash((err) => {
          reject(err);
          this.#lost(w, err);
        });
        w.post({ type: 'init', module, threads: this.#asked });
      });
      this.#worker = w;
      return w;
    })();
    return this.#ready;
  }

  #receive(w, m, initFailed) {
    if (m.type === 'failed' && m.id === -1) {
      initFailed(errorFromData(m.error));
      return;
    }
    const p = this.#pending.get(m.id);
    if (!p) return;
    if (m.type === 'progress') {
      if (p.onProgress) {
        try {
          p.onProgress(m.report);
        } catch {
          // A listener's error is its own: the search goes on.
        }
      }
      return;
    }
    this.#pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === 'done') {
      if (p.signal && p.signal.aborted) p.reject(abortReason(p.signal));
      else p.resolve(m.result);
    } else {
      p.reject(errorFromData(m.error));
      if (m.error.code === 'CRASHED') this.#restart(w);
    }
  }

  /** A Worker that died: its searches fail, and the next search starts another. */
  #lost(w, err) {
    if (this.#worker !== w) return;
    this.#worker = null;
    this.#ready = null;
    for (const [id, p] of this.#pending) {
      this.#pending.delete(id);
      p.reject(new MinimaxError('CRASHED', `the Worker stopped: ${err && err.message}`));
    }
  }

  #restart(w) {
    if (this.#worker === w) {
      w.kill();
      this.#worker = null;
      this.#ready = null;
    }
  }

  /**
   * Searches `game` ({name, position} for a game compiled in, {module, export, setup} for
   * one of your own) with `options`; resolves to the result. Searches queue.
   */
  search(game, options = {}) {
    if (this.#closed) return Promise.reject(new MinimaxError('CLOSED', 'the engine was terminated'));
    const { signal, onProgress, ...rest } = options;
    const run = () => this.#run(game, rest, signal, onProgress);
    const result = this.#tail.then(run, run);
    this.#tail = result.catch(() => {});
    return result;
  }

  async #run(game, options, signal, onProgress) {
    if (signal && signal.aborted) throw abortReason(signal);
    if (typeof options.onProgress === 'function' || typeof options.shouldStop === 'function') {
      throw new MinimaxError('BAD_OPTION', 'functions cannot cross to the Worker: pass onProgress beside the other options, as search(game, {onProgress})');
    }
    const spec = game && typeof game === 'object' && game.module !== undefined
      ? { module: String(game.module), export: game.export, setup: game.setup }
      : game;
    const w = this.#worker ?? (await (this.#ready ?? this.#start()));
    const id = this.#next++;
    const stop = this.#shares ? new Int32Array(new SharedArrayBuffer(4)) : null;
    return new Promise((resolve, reject) => {
      const p = { resolve, reject, onProgress, signal };
      this.#pending.set(id, p);
      if (signal) {
        signal.addEventListener('abort', () => {
          if (!this.#pending.has(id)) return;
          if (stop) {
            // The search stops at its next beat; its answer is then dropped. A Worker
            // that does not answer soon after (a helper Worker that trapped, which the
            // search waits for) is restarted.
            Atomics.store(stop, 0, 1);
            p.timer = setTimeout(() => {
              if (!this.#pending.has(id)) return;
              this.#pending.delete(id);
              this.#restart(w);
              reject(abortReason(signal));
            }, STOP_WAIT_MS);
          } else {
            // No shared memory: the Worker cannot hear us until the search ends.
            this.#pending.delete(id);
            this.#restart(w);
            reject(abortReason(signal));
          }
        }, { once: true });
      }
      try {
        w.post({ type: 'search', id, game: spec, options, stop });
      } catch (e) {
        this.#pending.delete(id);
        reject(new MinimaxError('BAD_OPTION', `the game or options cannot be sent to the Worker: ${e.message}`));
      }
    });
  }

  /** Stops the Worker; searches under way are rejected. */
  terminate() {
    this.#closed = true;
    const w = this.#worker;
    if (w) {
      this.#lost(w, new Error('the engine was terminated'));
      w.kill();
    }
  }
}
