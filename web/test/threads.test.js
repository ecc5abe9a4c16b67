// Threads: an engine of 2 threads (its Worker and a helper Worker sharing the threaded
// module's memory; Node may always share memory) gets Pons' published values and moves
// that keep them, MCTS proves what it should, a user's game runs on one thread, bad
// thread counts are named, and a cancelled search leaves the helpers serving.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Engine, NativeGame, init } from '../js/index.js';

await init(); // the one-thread module on this thread, to check moves apart from the engine
const engine = await Engine.create({ threads: 2 });
after(() => engine.terminate());

const NIM = new URL('./games/nim.js', import.meta.url).href;

function ponsSet(name) {
  for (const dir of [process.env.MM_C4_DATA, new URL('../../../shared/data/connect4/', import.meta.url).pathname]) {
    if (dir && existsSync(`${dir}/${name}`)) {
      return readFileSync(`${dir}/${name}`, 'utf8').trim().split('\n').map((l) => l.split(' '));
    }
  }
  return null;
}

/** The exact score for the side to move, on this thread by the one-thread module. */
function solve(line) {
  const g = new NativeGame('connect_four', line);
  const r = g.search({ method: 'exact', iterativeDeepening: false, refineDistance: false });
  const mover = (g.toMove === 0 ? r.value : -r.value) || 0;
  g.free();
  return mover;
}

test('an engine asked for 2 threads has them, where memory can be shared', () => {
  assert.equal(engine.threads, 2);
});

test("on 2 threads, exact values are Pons' published scores and each best move keeps the score", async (t) => {
  if (!ponsSet('Test_L2_R1')) {
    t.skip("Pons' sets not found (MM_C4_DATA)");
    return;
  }
  for (const [name, n] of [['Test_L3_R1', 20], ['Test_L2_R1', 20], ['Test_L1_R1', 3]]) {
    for (const [line, score] of ponsSet(name).slice(0, n)) {
      const r = await engine.search({ name: 'connect_four', position: line }, { method: 'exact' });
      const toMove = line.length % 2;
      const mover = (toMove === 0 ? r.value : -r.value) || 0;
      assert.equal(mover, Number(score), `${name} ${line}`);
      assert.equal(r.proven, true);
      assert.equal(r.threads, 2, `${name} ${line} ran on ${r.threads}`);
      const after = line + String(r.bestMove + 1);
      const g = new NativeGame('connect_four', line);
      g.play(r.bestMove);
      const won = g.winner() !== null;
      g.free();
      // The move's own value, solved apart: the opponent's score after it, negated.
      if (!won) assert.equal(-solve(after) || 0, Number(score), `${name} ${line}: the move ${r.bestMove + 1}`);
    }
  }
});

test('on 2 threads, MCTS proves a won position and plays a winning move', async () => {
  // X has 4, 5 and 6 on the bottom row (columns 1-based), O on top of them: 3 or 7 wins.
  const r = await engine.search({ name: 'connect_four', position: '445566' }, { method: 'mcts', playouts: 20000 });
  assert.equal(r.threads, 2);
  assert.equal(r.proven?.reward, 1);
  assert.ok([2, 6].includes(r.bestMove), `${r.bestMove}`);
  assert.ok(r.root.reduce((s, m) => s + m.visits, 0) <= r.playouts);
});

test("a user's game is searched on one thread, with its right value", async () => {
  const r = await engine.search({ module: NIM, setup: [1, 2, 3] }, { method: 'exact' });
  assert.equal(r.threads, 1);
  assert.equal(r.value, -1); // 1 ^ 2 ^ 3 = 0: the side to move loses
});

test('a bad thread count is a BAD_OPTION naming it', async () => {
  await assert.rejects(engine.search({ name: 'connect_four' }, { threads: 0 }), (e) => e.code === 'BAD_OPTION' && /threads is number 0/.test(e.message));
  await assert.rejects(Engine.create({ threads: 1.5 }), (e) => e.code === 'BAD_OPTION' && /threads is 1\.5/.test(e.message));
});

test('a table the threaded module cannot have (it grows to 1 GiB) is OUT_OF_MEMORY, and the engine goes on', async () => {
  await assert.rejects(engine.search({ name: 'connect_four' }, { tableBytes: 2e9, depth: 4 }), (e) => e.code === 'OUT_OF_MEMORY');
  const r = await engine.search({ name: 'connect_four', position: '445566' }, { method: 'exact' });
  assert.equal(r.threads, 2);
  assert.ok(r.value > 0);
});

test('a cancelled search on 2 threads rejects, and the next one has both threads and the right value', async () => {
  const c = new AbortController();
  const running = engine.search({ name: 'connect_four' }, { signal: c.signal });
  setTimeout(() => c.abort(new Error('enough')), 300);
  await assert.rejects(running, /enough/);
  const r = await engine.search({ name: 'connect_four', position: '445566' }, { method: 'exact' });
  assert.equal(r.threads, 2);
  assert.ok(r.value > 0, `${r.value}`); // X, to move, wins
  assert.ok([2, 6].includes(r.bestMove), `${r.bestMove}`);
});
