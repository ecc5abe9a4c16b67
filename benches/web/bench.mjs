// The npm package's benchmark (issue 69, point 5), run by `make web-bench`: the
// WebAssembly build against the native library in the same run, in Node and in headless
// Chromium (Debian's, through playwright-core). Prints the ratios; exits 1 if a value,
// a best move or a node count differs.
//   exactness: 1,000 of Pons' positions from every set, exact solve (the table of 64 MiB
//     cleared before each, no iterative deepening, no distance refinement: the options
//     of examples/connect4), value, best move and nodes equal to native's;
//   speed: Test_L3_R1 and Test_L2_R1 whole, one thread, the time of the searches alone
//     (the page cross-origin isolated, so that its clock has microseconds: Chromium's is
//     coarsened to 0.1 ms elsewhere);
//   MCTS: random playouts a second from 20 early positions, 20,000 playouts each.
// Speed and MCTS run in 5 rounds, each native, then Node, then Chromium, one after the
// other, and each ratio is the median of the rounds' ratios: this machine's speed drifts
// by up to 30% over minutes, which a ratio of runs minutes apart would take in.
// Native is examples/connect4 (`--best`, `--mcts`), built by the make target.
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { init, NativeGame } from '../../web/js/sync.js';
import { serve } from '../../web/serve.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DATA = process.env.MM_C4_DATA ?? `${ROOT}../shared/data/connect4`;
const NATIVE = `${ROOT}target/release/examples/connect4`;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const SETS = [['Test_L3_R1', 250], ['Test_L2_R1', 250], ['Test_L2_R2', 200], ['Test_L1_R1', 250], ['Test_L1_R2', 45], ['Test_L1_R3', 5]];
const EXACT = { method: 'exact', iterativeDeepening: false, refineDistance: false, tableBytes: 64 << 20 };
const MCTS_PLAYOUTS = 20000;

const lines = (set) => readFileSync(`${DATA}/${set}`, 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
function native(args, positions) {
  const out = execFileSync(NATIVE, args, { input: positions.join('\n') + '\n', maxBuffer: 1 << 26 }).toString();
  return out.trim().split('\n').map((l) => l.split(' '));
}

/** The WebAssembly side, as a function of the sync API, run in Node and in the page. */
async function wasmSide(positions, mctsPositions, exact, playouts, sync) {
  await sync.init();
  const solve = (line) => {
    const g = new sync.NativeGame('connect_four', line);
    const r = g.search(exact);
    const score = (g.toMove === 0 ? r.value : -r.value) || 0;
    g.free();
    return [score, r.nodes, r.elapsedMs, r.bestMove];
  };
  const solved = positions.map(solve);
  const mcts = mctsPositions.map((line) => {
    const g = new sync.NativeGame('connect_four', line);
    const t0 = performance.now();
    const r = g.search({ method: 'mcts', playouts });
    const ms = performance.now() - t0;
    g.free();
    return [r.bestMove, r.playouts, ms];
  });
  return { solved, mcts };
}

/** One round's WebAssembly times: each speed position's search (ms), and the MCTS
 * searches' playouts and milliseconds. */
async function wasmRound(speedPositions, mctsPositions, exact, playouts, sync) {
  await sync.init();
  const times = speedPositions.map((line) => {
    const g = new sync.NativeGame('connect_four', line);
    const ms = g.search(exact).elapsedMs;
    g.free();
    return ms;
  });
  let done = 0;
  let ms = 0;
  for (const line of mctsPositions) {
    const g = new sync.NativeGame('connect_four', line);
    const t0 = performance.now();
    done += g.search({ method: 'mcts', playouts }).playouts;
    ms += performance.now() - t0;
    g.free();
  }
  return { times, rate: done / (ms / 1000) };
}

if (!existsSync(`${DATA}/Test_L3_R1`)) {
  console.error(`bench: Pons' sets not found in ${DATA} (set MM_C4_DATA)`);
  process.exit(2);
}
const exactness = SETS.flatMap(([set, n]) => lines(set).slice(0, n).map((l) => [set, l]));
const speed = ['Test_L3_R1', 'Test_L2_R1'].flatMap((set) => lines(set).map((l) => [set, l]));
const mctsPositions = lines('Test_L1_R1').slice(0, 20);
const all = exactness;

// Exactness: native, then WebAssembly in Node, then in Chromium, on the same positions.
const nat = native(['--best'], all.map(([, l]) => l));
const natMcts = native(['--mcts', String(MCTS_PLAYOUTS)], mctsPositions);
const sync = await import('../../web/js/sync.js');
const inNode = await wasmSide(all.map(([, l]) => l), mctsPositions, EXACT, MCTS_PLAYOUTS, sync);

let page = null;
let closeAll = () => {};
if (existsSync(CHROMIUM)) {
  const { chromium } = await import('../../web/node_modules/playwright-core/index.mjs');
  const server = await serve({ port: 0, isolated: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/examples/web/blank.html`);
  closeAll = async () => {
    await browser.close();
    server.close();
  };
} else {
  console.log(`(no chromium at ${CHROMIUM}: Node only)`);
}
const inPage = (f, ...args) =>
  page.evaluate(
    async ([src, args]) => {
      const sync = await import('/web/js/sync.js');
      return new Function(`return (${src})`)()(...args, sync);
    },
    [f.toString(), args],
  );
const inChromium = page ? await inPage(wasmSide, all.map(([, l]) => l), mctsPositions, EXACT, MCTS_PLAYOUTS) : null;

// Speed: rounds of native, Node and Chromium in turn.
const ROUNDS = 5;
const speedLines = speed.map(([, l]) => l);
const natRate = (rows) => rows.reduce((s, r) => s + Number(r[2]), 0) / (rows.reduce((s, r) => s + Number(r[3]), 0) / 1e6);
const rounds = [];
for (let k = 0; k < ROUNDS; k++) {
  const round = {
    native: { times: native([], speedLines).map((r) => Number(r[3]) / 1000), rate: natRate(native(['--mcts', String(MCTS_PLAYOUTS)], mctsPositions)) },
    Node: await wasmRound(speedLines, mctsPositions, EXACT, MCTS_PLAYOUTS, sync),
  };
  if (page) round.Chromium = await inPage(wasmRound, speedLines, mctsPositions, EXACT, MCTS_PLAYOUTS);
  rounds.push(round);
}
await closeAll();

let differ = 0;
for (const [where, run] of [['Node', inNode], ['Chromium', inChromium]]) {
  if (!run) continue;
  exactness.forEach(([set, line], i) => {
    const [score, nodes, , best] = nat[i].slice(1).map(Number);
    const [s, n, , b] = run.solved[i];
    const bestNative = nat[i][4] === '-' ? null : Number(nat[i][4]) - 1;
    if (s !== score || n !== nodes || b !== bestNative) {
      differ++;
      if (differ <= 10) console.log(`DIFFERS in ${where}: ${set} ${line}: native ${score} ${nodes} nodes, best ${bestNative}; wasm ${s} ${n}, best ${b}`);
    }
  });
  run.mcts.forEach(([b, p], i) => {
    const [col, playouts] = [natMcts[i][1], Number(natMcts[i][2])];
    if (b + 1 !== Number(col) || p !== playouts) {
      differ++;
      console.log(`DIFFERS in ${where}: MCTS ${mctsPositions[i]}: native ${col} after ${playouts}; wasm ${b + 1} after ${p}`);
    }
  });
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const total = (times, set) => times.reduce((sum, t, i) => sum + (speed[i][0] === set ? t : 0), 0);
const f = (x, d = 2) => x.toFixed(d);
const where = page ? ['Node', 'Chromium'] : ['Node'];
console.log(`exactness: ${exactness.length} positions (${SETS.map(([s, n]) => `${s} ${n}`).join(', ')}) and ${mctsPositions.length} MCTS searches: ${differ === 0 ? 'values, best moves and nodes equal to native in ' + where.join(' and ') : `${differ} differ`}`);
console.log(`speed, one thread (time of the searches, the median of ${ROUNDS} rounds; ratio wasm / native, the median of the rounds' ratios, at most 1.6):`);
for (const set of ['Test_L3_R1', 'Test_L2_R1']) {
  const n = median(rounds.map((r) => total(r.native.times, set)));
  const row = where.map((w) => {
    const ms = median(rounds.map((r) => total(r[w].times, set)));
    const ratio = median(rounds.map((r) => total(r[w].times, set) / total(r.native.times, set)));
    return `${w} ${f(ms, 1)} ms (${f(ratio)}x)`;
  });
  console.log(`  ${set}: native ${f(n, 1)} ms; ${row.join('; ')}`);
}
const rates = where.map((w) => `${w} ${Math.round(median(rounds.map((r) => r[w].rate))).toLocaleString('en')} (${f(median(rounds.map((r) => r[w].rate / r.native.rate)))}x)`);
console.log(`MCTS random playouts a second (the median of ${ROUNDS} rounds; ratio to native, at least 0.6): native ${Math.round(median(rounds.map((r) => r.native.rate))).toLocaleString('en')}; ${rates.join('; ')}`);
process.exit(differ === 0 ? 0 : 1);
