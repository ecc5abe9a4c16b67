// The package's TypeScript declarations as a user meets them: checked by `tsc` in
// web/test/types.test.js. Each `@ts-expect-error` is a misuse the declarations must
// refuse; tsc fails if one is accepted (an unused directive is an error).
import { Engine, MinimaxError, canShareMemory, type Game, type Move, type MctsResult, type SearchResult } from 'libminimax';
import { init, NativeGame, searchGame, version } from 'libminimax/sync';

class Nim implements Game {
  piles: number[];
  maxMoves = true;
  constructor(piles: number[]) {
    this.piles = [...piles];
  }
  moves(): Move[] {
    return this.piles.flatMap((n, p) => Array.from({ length: n }, (_, k) => 100 * p + k + 1));
  }
  play(m: Move) {
    this.piles[Math.floor(m / 100)] -= m % 100;
    this.maxMoves = !this.maxMoves;
  }
  undo(m: Move) {
    this.piles[Math.floor(m / 100)] += m % 100;
    this.maxMoves = !this.maxMoves;
  }
  outcome() {
    return this.piles.some((n) => n > 0) ? null : this.maxMoves ? -1 : 1;
  }
  maxToMove() {
    return this.maxMoves;
  }
}

export async function engine(): Promise<void> {
  const engine = await Engine.create({ threads: 4, shareMemory: canShareMemory() });
  const threads: number = engine.threads;
  const ab: SearchResult = await engine.search({ name: 'connect_four', position: '4453' }, {
    timeMs: 1000,
    threads,
    onProgress: (p) => console.log(p.kind, p.depth, p.bestMove, p.nodes),
    signal: new AbortController().signal,
  });
  const pv: Move[] = ab.pv;
  const mcts: MctsResult = await engine.search({ name: 'othello' }, { method: 'mcts', playouts: 1000 });
  const visits: number[] = mcts.root.map((r) => r.visits);
  const own = await engine.search({ module: new URL('./nim.js', import.meta.url), setup: [3, 4, 5] });
  console.log(pv, visits, own.value, ab.threads + mcts.threads);
  // @ts-expect-error: a misspelt option
  await engine.search({ name: 'connect_four' }, { timeMS: 1000 });
  // @ts-expect-error: no such method
  await engine.search({ name: 'connect_four' }, { method: 'negamax' });
  // @ts-expect-error: no such game compiled in
  await engine.search({ name: 'chess' });
  // @ts-expect-error: functions cannot cross to the Worker as shouldStop
  await engine.search({ name: 'connect_four' }, { shouldStop: () => false });
  // @ts-expect-error: the thread count is the engine's to say
  engine.threads = 2;
  engine.terminate();
}

export async function sync(): Promise<void> {
  await init();
  const v: string = version();
  const g = new NativeGame('hex:9', '');
  const moves: Move[] = g.play(40).legalMoves();
  const r = g.search({ method: 'exact', depth: 3 });
  const w: 1 | -1 | 0 | null = g.winner();
  g.free();
  const nim = searchGame(new Nim([1, 2, 3]), { method: 'alphabeta' });
  console.log(v, moves, r.value, w, nim.value);
  try {
    new NativeGame('connect_four', '9');
  } catch (e) {
    if (e instanceof MinimaxError && e.code === 'BAD_POSITION') console.log(e.message);
  }
  // @ts-expect-error: a game without outcome()
  searchGame({ moves: () => [], play() {}, undo() {} });
}
