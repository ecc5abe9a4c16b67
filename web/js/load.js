// Where the WebAssembly modules come from: the package's own files, each compiled once
// per thread that asks (a Worker is handed the compiled module and compiles nothing).
// `minimax` is for one thread; `minimax_threads` shares its memory with helper Workers.

const FILES = {
  single: new URL('../pkg/minimax_bg.wasm', import.meta.url),
  threads: new URL('../pkg/minimax_threads_bg.wasm', import.meta.url),
};
const IN_NODE = typeof process === 'object' && process.versions != null && process.versions.node != null;

const compiled = {};

/** The package's module for one thread (`'single'`) or for threads (`'threads'`), compiled once. */
export function wasmModule(kind = 'single') {
  const url = FILES[kind];
  if (!compiled[kind]) {
    compiled[kind] = (async () => {
      if (IN_NODE) {
        const { readFile } = await import('node:fs/promises');
        return WebAssembly.compile(await readFile(url));
      }
      const response = await fetch(url);
      if (!response.ok) throw new Error(`libminimax: fetching ${url} gave HTTP ${response.status}`);
      return WebAssembly.compileStreaming
        ? WebAssembly.compileStreaming(response)
        : WebAssembly.compile(await response.arrayBuffer());
    })();
    compiled[kind].catch(() => delete compiled[kind]);
  }
  return compiled[kind];
}

export { IN_NODE };
