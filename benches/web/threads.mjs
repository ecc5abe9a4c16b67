// What threads give the npm package (issue 69, point 2), run by `make web-bench`: in
// Node, whose Workers may always share memory, engines of the package's Engine class
// solve the same Connect Four positions, in 5 rounds, each round every way in turn:
//   1 thread, the one-thread module (what a page that is not isolated gets);
//   1 thread, the threaded module (what atomics and a shared memory cost);
//   2 threads, the threaded module (its Worker and a helper Worker: what threads give);
//   two one-thread engines at once, each solving all of them (the machine's two-process
//     factor: how much two cores give two independent searches).
// Alpha-beta: exact solves of Test_L1_R2's first 10 positions (about 6 s on one thread) (the table of 64 MiB, as
// the page's default); MCTS: random playouts a second from 10 early positions, 200,000
// playouts each. Each figure is the median of the rounds; each ratio the median of the
// rounds' ratios. Values are checked: every way must give each position Pons' score.
import { readFileSync } from 'node:fs';
import { Engine } from '../../web/js/index.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DATA = process.env.MM_C4_DATA ?? `${ROOT}../shared/data/connect4`;
const rows = (set) => readFileSync(`${DATA}/${set}`, 'utf8').trim().split('\n').map((l) => l.split(' '));
const SOLVE = rows('Test_L1_R2').slice(0, 10);
const MCTS = rows('Test_L1_R1').slice(0, 10).map(([line]) => line);
const PLAYOUTS = 200000;
const ROUNDS = 5;

const single = await Engine.create();
const threaded = await Engine.create({ threads: 2 });
const other = await Engine.create();
if (threaded.threads !== 2) throw new Error(`the threaded engine has ${threaded.threads} threads`);

let wrong = 0;
async function solveAll(engine, threads) {
  const t0 = performance.now();
  for (const [line, score] of SOLVE) {
    const r = await engine.search({ name: 'connect_four', position: line }, { method: 'exact', threads });
    const mover = (line.length % 2 === 0 ? r.value : -r.value) || 0;
    if (mover !== Number(score) || r.threads !== threads) {
      wrong++;
      console.log(`WRONG: ${line}: ${mover} on ${r.threads} threads, Pons ${score}`);
    }
  }
  return performance.now() - t0;
}
/** The playouts MCTS ran on `engine` from every MCTS position (a root proven stops early). */
async function playouts(engine, threads) {
  let n = 0;
  for (const line of MCTS) {
    const r = await engine.search({ name: 'connect_four', position: line }, { method: 'mcts', playouts: PLAYOUTS, threads });
    n += r.playouts;
  }
  return n;
}
/** Playouts a second of `runs`, started together. */
async function rate(...runs) {
  const t0 = performance.now();
  const counts = await Promise.all(runs.map((run) => run()));
  return counts.reduce((a, b) => a + b, 0) / ((performance.now() - t0) / 1000);
}

const rounds = [];
for (let k = 0; k < ROUNDS; k++) {
  const r = {};
  r.single = await solveAll(single, 1);
  r.threaded1 = await solveAll(threaded, 1);
  r.threaded2 = await solveAll(threaded, 2);
  const t0 = performance.now();
  await Promise.all([solveAll(single, 1), solveAll(other, 1)]);
  r.pair = performance.now() - t0;
  r.mSingle = await rate(() => playouts(single, 1));
  r.mThreaded1 = await rate(() => playouts(threaded, 1));
  r.mThreaded2 = await rate(() => playouts(threaded, 2));
  r.mPair = await rate(() => playouts(single, 1), () => playouts(other, 1));
  rounds.push(r);
}
for (const e of [single, threaded, other]) e.terminate();

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = (f) => median(rounds.map(f));
const f = (x, d = 2) => x.toFixed(d);
console.log(`threads in Node (${ROUNDS} rounds, medians; Test_L1_R2 1-${SOLVE.length} exact; MCTS ${MCTS.length} positions x ${PLAYOUTS.toLocaleString('en')} playouts):`);
console.log(`  values: ${wrong === 0 ? "all Pons' scores, every way" : `${wrong} WRONG`}`);
console.log(`  alpha-beta: one-thread module ${Math.round(m((r) => r.single))} ms; threaded module, 1 thread ${Math.round(m((r) => r.threaded1))} ms (${f(m((r) => r.threaded1 / r.single))}x the time: the cost of atomics), 2 threads ${Math.round(m((r) => r.threaded2))} ms (speed-up ${f(m((r) => r.threaded1 / r.threaded2))}x over its 1 thread, ${f(m((r) => r.single / r.threaded2))}x over the one-thread module)`);
console.log(`  MCTS playouts a second: one-thread module ${Math.round(m((r) => r.mSingle)).toLocaleString('en')}; threaded, 1 thread ${Math.round(m((r) => r.mThreaded1)).toLocaleString('en')} (${f(m((r) => r.mThreaded1 / r.mSingle))}x), 2 threads ${Math.round(m((r) => r.mThreaded2)).toLocaleString('en')} (${f(m((r) => r.mThreaded2 / r.mThreaded1))}x its 1 thread)`);
console.log(`  the machine's two-process factor: two one-thread engines at once do ${f(m((r) => (2 * r.single) / r.pair))}x the alpha-beta work of one a second, ${f(m((r) => r.mPair / r.mSingle))}x the MCTS playouts`);
process.exit(wrong === 0 ? 0 : 1);
