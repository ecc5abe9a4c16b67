// The games compiled in, on this thread (libminimax/sync): positions, moves, boards,
// errors, and searches checked against published values (Pons' Connect Four scores)
// and brute force written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { init, NativeGame, MinimaxError } from '../js/sync.js';

await init();

/** Pons' sets: ../../../shared/data/connect4 beside the checkout, or MM_C4_DATA. */
function ponsSet(name) {
  for (const dir of [process.env.MM_C4_DATA, new URL('../../../shared/data/connect4/', import.meta.url).pathname]) {
    if (dir && existsSync(`${dir}/${name}`)) {
      return readFileSync(`${dir}/${name}`, 'utf8').trim().split('\n').map((l) => l.split(' '));
    }
  }
  return null;
}

test('a bad name, position or move is a MinimaxError with a code that names it', () => {
  const cases = [
    [() => new NativeGame('chess'), 'BAD_GAME', /no game "chess" is compiled in: tic_tac_toe, connect_four, othello, hex/],
    [() => new NativeGame('hex:40'), 'BAD_GAME', /Hex's size is 1 to 19/],
    [() => new NativeGame('connect_four', '4489'), 'BAD_POSITION', /'8' is not a column digit 1-7/],
    [() => new NativeGame('connect_four', '1111111'), 'BAD_POSITION', /move 7 \(0\) is not legal/],
    [() => new NativeGame('tic_tac_toe', '0 3 1 4 2 5'), 'BAD_POSITION', /move 6 \(5\) comes after the end of the game/],
    [() => new NativeGame('othello', '19 x'), 'BAD_POSITION', /"x" is not a move number/],
    [() => new NativeGame('othello').play(0), 'ILLEGAL_MOVE', /0 is not a legal move in othello at "": the legal moves are \[19, 26, 37, 44\]/],
    [() => new NativeGame('tic_tac_toe').play(1.5), 'ILLEGAL_MOVE', /1.5 is not a legal move/],
  ];
  for (const [f, code, message] of cases) {
    assert.throws(f, (e) => e instanceof MinimaxError && e.code === code && message.test(e.message), String(f));
  }
});

test('boards, moves and winners follow the rules', () => {
  const c4 = new NativeGame('connect_four', '4453');
  assert.deepEqual(c4.legalMoves(), [0, 1, 2, 3, 4, 5, 6]);
  // Bottom row: 3 (O) 4 (X) 5 (X); above the 4: O.
  assert.deepEqual(c4.board().slice(35), [0, 0, 2, 1, 1, 0, 0]);
  assert.deepEqual(c4.board().slice(28, 35), [0, 0, 0, 2, 0, 0, 0]);
  assert.equal(c4.toMove, 0);
  const won = new NativeGame('connect_four', '121212');
  won.play(0);
  assert.equal(won.winner(), 1);
  assert.deepEqual(won.legalMoves(), []);
  const ttt = new NativeGame('tic_tac_toe', '4 0 8 2');
  assert.deepEqual(ttt.legalMoves(), [1, 3, 5, 6, 7]);
  ttt.play(1);
  assert.equal(ttt.winner(), null);
  const x = new NativeGame('tic_tac_toe', '0 3 1 4');
  x.play(2);
  assert.equal(x.winner(), 1);
  const o2 = new NativeGame('tic_tac_toe', '4 0 8 1 3');
  o2.play(2);
  assert.equal(o2.winner(), -1);
  const o = new NativeGame('othello', '19');
  assert.equal(o.board().filter((c) => c === 1).length, 4); // Black took one and turned one
  assert.equal(o.toMove, 1);
  assert.equal(o.position, '19');
  const h = new NativeGame('hex:3', '4');
  assert.equal(h.width, 3);
  assert.deepEqual(h.board(), [0, 0, 0, 0, 1, 0, 0, 0, 0]);
});

test('tic-tac-toe is a draw, by every method', () => {
  for (const method of ['minimax', 'alphabeta', 'pvs', 'exact']) {
    const r = new NativeGame('tic_tac_toe').search({ method });
    assert.equal(r.value, 0, method);
    assert.equal(r.proven, true, method);
  }
  const m = new NativeGame('tic_tac_toe', '0 4 8').search({ method: 'mcts', playouts: 20000 });
  assert.equal(m.proven.reward, 0.5); // O holds the draw by an edge, and MCTS proves it
  assert.ok([1, 3, 5, 7].includes(m.bestMove));
  assert.equal(m.root.reduce((s, r) => s + r.visits, 0) <= m.playouts, true);
});

test("Connect Four's exact values are Pons' published scores", (t) => {
  const sets = [['Test_L3_R1', 100], ['Test_L2_R1', 40], ['Test_L1_R1', 10]];
  if (!ponsSet('Test_L3_R1')) {
    t.skip('Pons\' sets not found (MM_C4_DATA)');
    return;
  }
  for (const [name, n] of sets) {
    for (const [line, score] of ponsSet(name).slice(0, n)) {
      const g = new NativeGame('connect_four', line);
      const r = g.search({ method: 'exact', iterativeDeepening: false, refineDistance: false });
      const mover = (g.toMove === 0 ? r.value : -r.value) || 0; // not -0
      assert.equal(mover, Number(score), `${name} ${line}`);
      assert.equal(r.proven, true);
    }
  }
});

test('a node limit stops the search at that many nodes, and the result says so', () => {
  const r = new NativeGame('othello').search({ nodes: 5000 });
  assert.ok(r.nodes <= 5001, `${r.nodes}`);
  assert.equal(r.proven, false);
  assert.ok(r.depth >= 3);
  assert.notEqual(r.bestMove, null);
});

test('the table is cleared between searches unless kept, and the same search gives the same nodes', () => {
  const g = new NativeGame('connect_four', '44444');
  const a = g.search({ method: 'exact', depth: 12 });
  const b = g.search({ method: 'exact', depth: 12 });
  assert.equal(a.nodes, b.nodes);
  const c = g.search({ method: 'exact', depth: 12, keepTable: true });
  assert.ok(c.nodes < a.nodes, `${c.nodes} < ${a.nodes}`);
  assert.equal(c.value, a.value);
});

test('bad options are refused by name', () => {
  const g = new NativeGame('tic_tac_toe');
  const cases = [
    [{ timeMS: 100 }, /no option "timeMS"/],
    [{ method: 'negamax' }, /the option method is the string "negamax": it takes "alphabeta"/],
    [{ depth: 0 }, /the option depth is number 0/],
    [{ playouts: 10 }, /playouts is MCTS's/],
    [{ onProgress: 3 }, /onProgress is number 3: it takes a function/],
    ['fast', /the options are the string "fast"/],
  ];
  for (const [options, message] of cases) {
    assert.throws(() => g.search(options), (e) => e.code === 'BAD_OPTION' && message.test(e.message), JSON.stringify(options));
  }
});

test('a table that cannot be had is OUT_OF_MEMORY, and the next search is right', () => {
  const g = new NativeGame('tic_tac_toe');
  assert.throws(() => g.search({ tableBytes: 4e9 }), (e) => e.code === 'OUT_OF_MEMORY');
  assert.equal(g.search({ method: 'exact' }).value, 0);
});

test('on this thread too, a line of 1000 plies searches and a deeper one is TOO_DEEP', async () => {
  const { chain } = await import('./games/nim.js');
  const { searchGame } = await import('../js/sync.js');
  const opts = { method: 'alphabeta', iterativeDeepening: false, tableBytes: 0 };
  assert.equal(searchGame(chain(1000), opts).value, 1);
  assert.throws(() => searchGame(chain(1001), opts), (e) => e.code === 'TOO_DEEP');
});

test("Breakthrough's moves and board: 22 moves a side at the start, 16 pieces each, the second player's turned", () => {
  const b = new NativeGame('breakthrough');
  assert.equal(b.legalMoves().length, 22);
  const board = b.board();
  assert.deepEqual([board.filter((c) => c === 1).length, board.filter((c) => c === 2).length], [16, 16]);
  assert.deepEqual(board.slice(0, 16), Array(16).fill(2)); // the second player's home at the top
  // Perft 1 to 3 through the module's rules, against a move counter written here from
  // Troyka's rules (cells row 0 = the first player's home; it moves up, the second down).
  const perft = (g, d) => (d === 0 ? 1 : g.legalMoves().reduce((n, m) => n + perft(g.clone().play(m), d - 1), 0));
  const count = (cells, player, d) => {
    if (d === 0) return 1;
    let n = 0;
    const dir = player === 1 ? 1 : -1;
    for (let sq = 0; sq < 64; sq++) {
      if (cells[sq] !== player) continue;
      const row = Math.floor(sq / 8) + dir;
      if (row < 0 || row > 7) continue;
      for (const dc of [-1, 0, 1]) {
        const col = (sq % 8) + dc;
        if (col < 0 || col > 7) continue;
        const to = row * 8 + col;
        if (cells[to] === player || (dc === 0 && cells[to] !== 0)) continue;
        const next = cells.slice();
        next[to] = player;
        next[sq] = 0;
        n += count(next, 3 - player, d - 1);
      }
    }
    return n;
  };
  const start = Array.from({ length: 64 }, (_, i) => (i < 16 ? 1 : i >= 48 ? 2 : 0));
  for (const d of [1, 2, 3]) assert.equal(perft(b, d), count(start, 1, d), `perft ${d}`);
  b.play(b.legalMoves()[0]);
  assert.equal(b.toMove, 1);
  assert.equal(b.board().filter((c) => c === 1).length, 16);
  const r = b.search({ depth: 4 });
  assert.equal(r.depth, 4);
  assert.ok(b.legalMoves().includes(r.bestMove));
});
