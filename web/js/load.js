// Where the WebAssembly module comes from: the package's own file, compiled once per
// thread that asks (a Worker is handed the compiled module and compiles nothing).

const WASM = new URL('../pkg/minimax_bg.wasm', import.meta.url);
const IN_NODE = typeof process === 'object' && process.versions != null && process.versions.node != null;

let compiled;

/** The package's module, compiled (once). */
export function wasmModule() {
  if (!compiled) {
    compiled = (async () => {
      if (IN_NODE) {
        const { readFile } = await import('node:fs/promises');
        return WebAssembly.compile(await readFile(WASM));
      }
      const response = await fetch(WASM);
      if (!response.ok) throw new Error(`libminimax: fetching ${WASM} gave HTTP ${response.status}`);
      return WebAssembly.compileStreaming
        ? WebAssembly.compileStreaming(response)
        : WebAssembly.compile(await response.arrayBuffer());
    })();
  }
  return compiled;
}

export { IN_NODE };
