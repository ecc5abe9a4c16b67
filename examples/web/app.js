// The page: a person plays Connect Four or Othello against the engine, which searches
// in a Worker (libminimax's Engine) while the page stays responsive. The board's rules
// (legal moves, the result) come from the same module, loaded on this thread too.
import { Engine, NativeGame, init, canShareMemory } from '../../web/js/index.js';

const $ = (id) => document.getElementById(id);
const PASS = 64; // Othello's pass

await init();
// Threads where the page is cross-origin isolated (up to 4); one elsewhere.
const engine = await Engine.create({ threads: Math.min(navigator.hardwareConcurrency || 1, 4) });

const state = {
  game: null,
  human: 0,
  thinking: null, // the AbortController of the search under way
  best: null, // the best move the running search reported
  visits: null, // MCTS's visits of the last search, by move
  last: null,
  engineMoves: [],
  results: [],
};

function settings() {
  return { name: $('game').value, method: $('method').value, timeMs: Number($('time').value), human: Number($('side').value) };
}

function newGame() {
  stopThinking();
  state.game?.free();
  const s = settings();
  state.game = new NativeGame(s.name);
  state.human = s.human;
  state.last = null;
  state.visits = null;
  state.engineMoves = [];
  state.results = [];
  clearInfo();
  turn();
}

function clearInfo() {
  for (const id of ['eval', 'depth', 'nps', 'pv']) $(id).textContent = '–';
}

/** The cell a move marks: Connect Four's column's lowest empty cell, Othello's square. */
function cellOfMove(g, move) {
  if (g.name !== 'connect_four') return move;
  const board = g.board();
  for (let row = g.height - 1; row >= 0; row--) if (board[row * g.width + move] === 0) return row * g.width + move;
  return null;
}

function render() {
  const g = state.game;
  const board = g.board();
  const el = $('board');
  el.className = `board ${g.name}`;
  el.style.setProperty('--cols', g.width);
  el.style.setProperty('--rows', g.height);
  const legal = state.thinking || g.toMove !== state.human ? [] : g.legalMoves();
  const legalCells = new Map(legal.filter((m) => m !== PASS).map((m) => [cellOfMove(g, m), m]));
  const visitCells = state.visits ?? new Map();
  el.replaceChildren(
    ...board.map((c, i) => {
      const b = document.createElement('button');
      b.className = `cell${c ? ` p${c}` : ''}`;
      b.dataset.cell = i;
      const move = g.name === 'connect_four' ? i % g.width : i;
      if (g.name === 'connect_four' ? legal.includes(move) : legalCells.has(i)) {
        b.classList.add('legal');
        b.dataset.move = move;
      }
      if (i === state.last) b.classList.add('last');
      b.setAttribute('aria-label', `cell ${i}${c ? (c === 1 ? ', first player' : ', second player') : ''}`);
      if (visitCells.has(i)) {
        const v = document.createElement('span');
        v.className = 'visits';
        v.textContent = `${visitCells.get(i)}%`;
        b.append(v);
      }
      return b;
    }),
  );
}

function status(text) {
  $('status').textContent = text;
}

function play(move) {
  const g = state.game;
  const cell = move === PASS ? null : cellOfMove(g, move);
  g.play(move);
  state.last = cell;
}

/** What to do next: the result, the person's turn, or the engine's. */
function turn() {
  const g = state.game;
  render();
  const w = g.winner();
  if (w !== null) {
    const text = w === 0 ? 'A draw.' : (w === 1) === (state.human === 0) ? 'You win!' : 'The engine wins.';
    status(text);
    document.body.dataset.over = String(w);
    return;
  }
  delete document.body.dataset.over;
  if (g.toMove === state.human) {
    const legal = g.legalMoves();
    if (legal.length === 1 && legal[0] === PASS) {
      status('You have no move: you pass.');
      play(PASS);
      setTimeout(turn, 600);
      return;
    }
    status('Your move.');
    return;
  }
  think();
}

async function think() {
  const g = state.game;
  const s = settings();
  const controller = new AbortController();
  state.thinking = controller;
  state.best = null;
  $('stop').disabled = false;
  status('The engine is thinking…');
  render();
  const engineSide = g.toMove;
  const show = (r) => {
    if (r.bestMove != null) state.best = r.bestMove;
    $('eval').textContent = describeValue(g, r, engineSide, s.method);
    $('depth').textContent = r.depth ?? (r.playouts != null ? `${r.playouts.toLocaleString()} playouts` : '–');
    const count = r.playouts ?? r.nodes; // MCTS: playouts a second
    if (r.elapsedMs > 0) $('nps').textContent = Math.round((count * 1000) / r.elapsedMs).toLocaleString();
    if (r.pv) $('pv').textContent = r.pv.map((m) => moveName(g, m)).join(' ') || '–';
  };
  try {
    const r = await engine.search({ name: g.name, position: g.position }, {
      method: s.method,
      timeMs: s.timeMs,
      signal: controller.signal,
      onProgress: show,
    });
    if (state.thinking !== controller) return;
    show(r);
    // Each root move's share of the visits, on the cell it would fill (before it is played).
    state.visits = r.root ? visitShares(g, r.root) : null;
    state.results.push(r);
    finishThinking(r.bestMove);
  } catch (e) {
    if (state.thinking !== controller) return; // cancelled by a new game or an undo
    if (controller.signal.aborted) {
      finishThinking(state.best ?? g.legalMoves()[0]); // "Move now"
    } else {
      status(`The engine failed: ${e.message}`);
      state.thinking = null;
      $('stop').disabled = true;
    }
  }
}

function visitShares(g, root) {
  const total = root.reduce((s, r) => s + r.visits, 0) || 1;
  return new Map(root.filter((r) => r.move !== PASS).map((r) => [cellOfMove(g, r.move), Math.round((100 * r.visits) / total)]));
}

function finishThinking(move) {
  state.thinking = null;
  $('stop').disabled = true;
  state.engineMoves.push(move);
  play(move);
  turn();
}

function stopThinking() {
  const t = state.thinking;
  state.thinking = null;
  $('stop').disabled = true;
  t?.abort('new game');
}

function describeValue(g, r, engineSide, method) {
  if (method === 'mcts' || r.method === 'mcts' || r.kind === 'playouts') {
    if (r.proven) return r.proven.reward === 1 ? 'engine wins (proven)' : r.proven.reward === 0 ? 'engine loses (proven)' : 'draw (proven)';
    return `engine's chance ${Math.round(100 * r.value)}%`;
  }
  // Connect Four scores for the first player; Othello for the side to move (the engine).
  const v = g.name === 'connect_four' && engineSide === 1 ? -r.value : r.value;
  const sign = v > 0 ? '+' : '';
  return `${sign}${v} for the engine${r.proven ? ' (proven)' : ''}`;
}

function moveName(g, m) {
  if (g.name === 'connect_four') return String(m + 1);
  if (m === PASS) return 'pass';
  return 'abcdefgh'[m % 8] + (Math.floor(m / 8) + 1);
}

$('board').addEventListener('click', (e) => {
  const cell = e.target.closest('.cell');
  if (!cell || cell.dataset.move === undefined || state.thinking) return;
  state.visits = null;
  play(Number(cell.dataset.move));
  turn();
});
$('new').addEventListener('click', newGame);
$('undo').addEventListener('click', () => {
  stopThinking();
  const g = state.game;
  // Back to the person's last turn.
  do g.undo(); while (g.line.length > 0 && g.toMove !== state.human);
  state.visits = null;
  state.last = null;
  turn();
});
$('stop').addEventListener('click', () => state.thinking?.abort('move now'));
for (const id of ['game', 'side']) $(id).addEventListener('change', newGame);

$('mode').textContent = canShareMemory()
  ? `${engine.threads} (memory shared: cancels in place)`
  : 'one (not isolated: cancels by restarting the Worker)';

// For the browser test (web/test/browser.mjs): the page's state, read-only.
window.minimaxPage = {
  state: () => ({
    game: state.game.name,
    position: state.game.position,
    line: state.game.line,
    winner: state.game.winner(),
    toMove: state.game.toMove,
    human: state.human,
    thinking: state.thinking !== null,
    engineMoves: [...state.engineMoves],
    results: state.results.map((r) => ({ bestMove: r.bestMove, depth: r.depth, nodes: r.nodes, elapsedMs: r.elapsedMs, threads: r.threads })),
    isolated: canShareMemory(),
    threads: engine.threads,
  }),
};

newGame();
document.body.dataset.ready = 'true';
