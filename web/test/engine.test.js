// The Engine: searches in a Worker, a user's own game imported there, progress,
// cancellation with and without shared memory, and errors that leave the Worker alive.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Engine, MinimaxError } from '../js/index.js';

const NIM = new URL('./games/nim.js', import.meta.url).href;
const engine = await Engine.create();
const restarting = await Engine.create({ shareMemory: false });
after(() => {
  engine.terminate();
  restarting.terminate();
});

/** Nim by brute force, written apart from the engine: 1 if the player to move wins. */
function nimWins(piles) {
  for (let p = 0; p < piles.length; p++) {
    for (let k = 1; k <= piles[p]; k++) {
      const next = piles.slice();
      next[p] -= k;
      if (next.every((n) => n === 0) || !nimWins(next)) return true;
    }
  }
  return false;
}

test("a user's game imported in the Worker gets the brute force's value, by every method", async () => {
  for (const piles of [[1, 2], [1, 2, 3], [3, 4, 5], [2, 2, 5], [1, 4, 5, 7]]) {
    const want = nimWins(piles) ? 1 : -1;
    for (const method of ['alphabeta', 'exact', 'pvs']) {
      const r = await engine.search({ module: NIM, setup: piles }, { method });
      assert.equal(r.value, want, `${method} ${piles}`);
      assert.equal(r.proven, true);
    }
    const m = await engine.search({ module: NIM, setup: piles }, { method: 'mcts', playouts: 50000 });
    if (piles.length <= 3 && piles.reduce((a, b) => a + b) <= 9) {
      assert.equal(m.proven?.reward, want === 1 ? 1 : 0, `mcts ${piles}`);
    }
    if (want === 1 && piles.reduce((a, b) => a + b) <= 12) {
      // The move MCTS plays leaves a lost position (Bouton: piles whose xor is 0).
      const after = piles.slice();
      after[Math.floor(m.bestMove / 100)] -= m.bestMove % 100;
      assert.equal(after.reduce((a, b) => a ^ b), 0, `mcts ${piles} plays ${m.bestMove}`);
    }
  }
});

test('a game that throws or breaks the protocol is a MinimaxError naming it, and the Worker goes on', async () => {
  const cases = [
    ['throws', /the game threw TypeError: play exploded/],
    ['string moves', /moves\(\) listed the string "a": moves are integers/],
    ['not an array', /moves\(\) returned number 7: it returns an array of integers/],
    ['half a point', /outcome\(\) returned number 0.5: a score is an integer/],
    ['no undo', /this one has no undo\(\)/],
  ];
  for (const [kind, message] of cases) {
    await assert.rejects(
      engine.search({ module: NIM, export: 'broken', setup: kind }, { method: 'exact' }),
      (e) => e instanceof MinimaxError && e.code === 'GAME_ERROR' && message.test(e.message),
      kind,
    );
    assert.equal((await engine.search({ module: NIM, setup: [1, 2, 3] })).value, -1);
  }
  await assert.rejects(engine.search({ module: NIM, export: 'nothing' }), (e) => e.code === 'BAD_GAME' && /no export "nothing"/.test(e.message));
  await assert.rejects(engine.search({ module: 'file:///no/such/game.js' }), (e) => e.code === 'BAD_GAME' && /could not be imported/.test(e.message));
  await assert.rejects(engine.search({ name: 'connect_four', position: '9' }), (e) => e.code === 'BAD_POSITION');
  await assert.rejects(engine.search({ name: 'othello' }, { onProgress: 1, timeMs: 'x' }), (e) => e.code === 'BAD_OPTION');
});

test('progress comes as the search goes, each depth and beats between', async () => {
  const reports = [];
  const r = await engine.search({ name: 'othello' }, { nodes: 1_500_000, progressMs: 20, onProgress: (p) => reports.push(p) });
  const depths = reports.filter((p) => p.kind === 'depth').map((p) => p.depth);
  assert.deepEqual(depths, Array.from({ length: depths.length }, (_, i) => i + 1));
  assert.ok(reports.some((p) => p.kind === 'beat'), 'a beat between depths');
  for (const p of reports) assert.ok(p.nodes > 0 && Array.isArray(p.pv) && typeof p.elapsedMs === 'number');
  assert.ok(r.nodes <= 1_500_001);
});

for (const [name, e] of [['with shared memory', () => engine], ['by restarting the Worker', () => restarting]]) {
  test(`a cancelled search rejects with the signal's reason, ${name}, and the next search is right`, async () => {
    const ac = new AbortController();
    let beats = 0;
    const running = e().search({ name: 'connect_four' }, {
      method: 'exact',
      signal: ac.signal,
      onProgress: () => {
        if (++beats === 2) ac.abort();
      },
      progressMs: 10,
    });
    await assert.rejects(running, (err) => err.name === 'AbortError');
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(e().search({ name: 'tic_tac_toe' }, { signal: aborted.signal }), (err) => err.name === 'AbortError');
    const r = await e().search({ name: 'othello' }, { depth: 4 });
    assert.equal(r.depth, 4);
    const t = await e().search({ name: 'tic_tac_toe' }, { method: 'exact' });
    assert.equal(t.value, 0);
  });
}

test('a cancelled search that does not stop within 2 s has its Worker restarted, and the next search is right', async () => {
  const ac = new AbortController();
  const t0 = performance.now();
  const running = engine.search({ module: NIM, export: 'broken', setup: 'stalls' }, { signal: ac.signal });
  setTimeout(() => ac.abort(new Error('no more')), 200);
  await assert.rejects(running, /no more/);
  const waited = performance.now() - t0;
  assert.ok(waited >= 2000 && waited < 6000, `rejected after ${Math.round(waited)} ms`);
  const t = await engine.search({ name: 'tic_tac_toe' }, { method: 'exact' });
  assert.equal(t.value, 0);
});

test('searches queue and each answers its own', async () => {
  const games = ['0 4', '0 4 8', '4', '', '0 1 3'];
  const results = await Promise.all(games.map((p) => engine.search({ name: 'tic_tac_toe', position: p }, { method: 'exact' })));
  // X opens, O answers, X's third move; by hand: '0 1 3' is a win for X (6 completes 0-3-6).
  assert.deepEqual(results.map((r) => r.value), [0, 0, 0, 0, 1]);
});

test('a line of 1000 plies searches to its end, and a deeper one is TOO_DEEP', async () => {
  const deep = (n) => engine.search({ module: NIM, export: 'chain', setup: n }, { method: 'alphabeta', iterativeDeepening: false, tableBytes: 0 });
  assert.equal((await deep(1000)).value, 1);
  await assert.rejects(deep(1001), (e) => e.code === 'TOO_DEEP' && /deeper than 1000 plies/.test(e.message));
  assert.equal((await engine.search({ name: 'tic_tac_toe' }, { method: 'exact' })).value, 0);
});
