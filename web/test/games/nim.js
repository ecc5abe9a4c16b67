// Nim on piles: take any number from one pile; whoever takes the last stone wins. A move
// is 100 * pile + count. MAX moves first. The user's-own-game fixture of the tests.
export default class Nim {
  constructor(piles = [3, 4, 5]) {
    this.piles = [...piles];
    this.maxMoves = true;
  }
  moves() {
    const out = [];
    this.piles.forEach((n, p) => {
      for (let k = 1; k <= n; k++) out.push(100 * p + k);
    });
    return out;
  }
  play(m) {
    this.piles[Math.floor(m / 100)] -= m % 100;
    this.maxMoves = !this.maxMoves;
  }
  undo(m) {
    this.piles[Math.floor(m / 100)] += m % 100;
    this.maxMoves = !this.maxMoves;
  }
  outcome() {
    if (this.piles.some((n) => n > 0)) return null;
    return this.maxMoves ? -1 : 1; // the player who just moved took the last stone
  }
  evaluate() {
    return 0;
  }
  hash() {
    return this.piles.reduce((h, n) => h * 16 + n, this.maxMoves ? 1 : 2);
  }
  maxToMove() {
    return this.maxMoves;
  }
}

/** The same game from a function, with a bug chosen by name, for the error tests. */
export function broken(kind) {
  const g = new Nim([2, 2]);
  if (kind === 'throws') g.play = () => { throw new TypeError('play exploded'); };
  if (kind === 'string moves') g.moves = () => ['a', 'b'];
  if (kind === 'not an array') g.moves = () => 7;
  if (kind === 'half a point') g.outcome = () => (g.piles.every((n) => n === 0) ? 0.5 : null);
  if (kind === 'no undo') delete g.undo, (g.undo = undefined);
  if (kind === 'stalls') {
    // Its first moves() takes 10 s: no beat, so no stop, until it returns.
    let first = true;
    const moves = g.moves.bind(g);
    g.moves = () => {
      if (first) {
        first = false;
        const until = Date.now() + 10000;
        while (Date.now() < until);
      }
      return moves();
    };
  }
  return g;
}

/** A line of `length` single moves, then a win for MAX: as deep as a game goes. */
export function chain(length) {
  let at = 0;
  return {
    moves: () => (at < length ? [1] : []),
    play: () => { at++; },
    undo: () => { at--; },
    outcome: () => (at === length ? 1 : null),
    evaluate: () => 0,
  };
}
