// The package's one error class. The module's own errors arrive as plain `Error`s named
// "MinimaxError" with a `code`; a user's game's exception arrives as it was thrown. Both
// become a `MinimaxError` here, the original kept as `cause`.

/** What went wrong in a search, a position or a move: `code` says which. */
export class MinimaxError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'MinimaxError';
    this.code = code;
  }
}

/** `e` as a `MinimaxError`. */
export function toMinimaxError(e) {
  if (e instanceof MinimaxError) return e;
  if (e && e.name === 'MinimaxError' && typeof e.code === 'string') {
    return new MinimaxError(e.code, e.message);
  }
  if (e instanceof WebAssembly.RuntimeError) {
    return new MinimaxError('CRASHED', `the search stopped with a WebAssembly trap (${e.message}): please report it`, { cause: e });
  }
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new MinimaxError('GAME_ERROR', `the game threw ${what}`, { cause: e });
}

/** A plain object that crosses to another thread, and back into a `MinimaxError`. */
export function errorToData(e) {
  const m = toMinimaxError(e);
  return { code: m.code, message: m.message };
}

export function errorFromData(d) {
  return new MinimaxError(d.code, d.message);
}
