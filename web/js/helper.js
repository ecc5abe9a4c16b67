// A helper Worker of a threaded engine: it loads the threaded module over the engine
// Worker's shared memory and lends itself to the library's search pool, where it waits
// (blocked, as Workers may be) for parallel searches' jobs until the engine ends.
// Message in: {module, memory}. Message out, if it cannot load: {type: 'failed',
// message}. (Once lent it is blocked and says nothing: the engine's Worker counts the
// pool's idle threads.)

const port = typeof self === 'object' && typeof self.postMessage === 'function' && typeof window === 'undefined'
  ? self
  : (await import('node:worker_threads')).parentPort;

async function lend({ module, memory }) {
  try {
    const glue = await import('../pkg/minimax_threads.js');
    glue.initSync({ module, memory });
    glue.lendThread();
  } catch (e) {
    port.postMessage({ type: 'failed', message: String(e && e.message) });
  }
}

if (port === globalThis.self) port.onmessage = (e) => lend(e.data);
else port.once('message', lend);
