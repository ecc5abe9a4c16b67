// libminimax's WebAssembly build against boardgame.io's MCTSBot (npm boardgame.io 0.50.2)
// in the same Node process (issue 69, point 5), run by `make web-bench`:
//   - MCTS iterations a second from the empty Connect Four board: MCTSBot's (1,000
//     iterations, its default, the median of 3) against libminimax's MCTS playouts (the
//     median of 3 searches of 200,000); target at least 1,000x;
//   - a match at 100 ms a move, colours alternated: libminimax's alpha-beta (timeMs 100)
//     against MCTSBot with as many iterations as take it 100 ms a move on average;
//     target a score of at least 0.95. GAMES (default 200) sets the number of games.
// The Connect Four for boardgame.io is written here as its tutorial writes tic-tac-toe:
// setup, one move ("drop"), endIf, and ai.enumerate for the bot.
import { createRequire } from 'node:module';
import { init, NativeGame } from '../../web/js/sync.js';

const require = createRequire(import.meta.url);
const { MCTSBot } = require('boardgame.io/ai');
const { InitializeGame, CreateGameReducer } = require('boardgame.io/internal');
const { INVALID_MOVE } = require('boardgame.io/core');

const W = 7;
const H = 6;
const height = (cells, col) => {
  let h = 0;
  while (h < H && cells[h * W + col] !== null) h++;
  return h;
};
function fourOf(cells, p) {
  const at = (r, c) => r >= 0 && r < H && c >= 0 && c < W && cells[r * W + c] === p;
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        if ([0, 1, 2, 3].every((k) => at(r + k * dr, c + k * dc))) return true;
      }
    }
  }
  return false;
}

/** Connect Four as boardgame.io's docs show a game. Cells row by row from the bottom. */
const ConnectFour = {
  setup: () => ({ cells: Array(W * H).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    drop: ({ G, playerID }, col) => {
      const h = height(G.cells, col);
      if (h >= H) return INVALID_MOVE;
      G.cells[h * W + col] = playerID;
    },
  },
  endIf: ({ G }) => {
    for (const p of ['0', '1']) if (fourOf(G.cells, p)) return { winner: p };
    if (G.cells.every((c) => c !== null)) return { draw: true };
  },
  ai: {
    enumerate: (G) => {
      const moves = [];
      for (let c = 0; c < W; c++) if (height(G.cells, c) < H) moves.push({ move: 'drop', args: [c] });
      return moves;
    },
  },
};

const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
await init();
const reducer = CreateGameReducer({ game: ConnectFour });
const start = () => InitializeGame({ game: ConnectFour });

// Iterations a second.
const theirRuns = [];
for (let k = 0; k < 3; k++) {
  const bot = new MCTSBot({ game: ConnectFour, enumerate: ConnectFour.ai.enumerate, seed: `s${k}`, iterations: 1000 });
  const t0 = performance.now();
  await bot.play(start(), '0');
  theirRuns.push(1000 / ((performance.now() - t0) / 1000));
}
const ourRuns = [];
for (let k = 0; k < 3; k++) {
  const g = new NativeGame('connect_four');
  const t0 = performance.now();
  const r = g.search({ method: 'mcts', playouts: 200000, seed: k + 1 });
  ourRuns.push(r.playouts / ((performance.now() - t0) / 1000));
  g.free();
}
const theirs = median(theirRuns);
const ours = median(ourRuns);
console.log(`MCTS from the empty board, iterations a second: boardgame.io's MCTSBot ${Math.round(theirs)}, libminimax ${Math.round(ours).toLocaleString('en')}: ${Math.round(ours / theirs).toLocaleString('en')}x (target 1,000x)`);

// The match. MCTSBot has no time limit: its iterations are set so that its moves take
// 100 ms on average over positions of a game (its iterations are faster as the board
// fills), measured on 20 positions of random lines of 0 to 30 moves.
const GAMES = Number(process.env.GAMES ?? 200);
let sampleMs = 0;
for (let k = 0; k < 20; k++) {
  let state = start();
  for (let i = 0; i < (k * 3) % 31 && state.ctx.gameover === undefined; i++) {
    const moves = ConnectFour.ai.enumerate(state.G);
    const { args } = moves[(k * 7 + i * 3) % moves.length];
    state = reducer(state, { type: 'MAKE_MOVE', payload: { type: 'drop', args, playerID: state.ctx.currentPlayer } });
  }
  if (state.ctx.gameover !== undefined) continue;
  const bot = new MCTSBot({ game: ConnectFour, enumerate: ConnectFour.ai.enumerate, seed: `t${k}`, iterations: 50 });
  const t0 = performance.now();
  await bot.play(state, state.ctx.currentPlayer);
  sampleMs += (performance.now() - t0) / 50 / 20;
}
const botIterations = Math.max(1, Math.round(100 / sampleMs));
let score = 0;
let botTime = 0;
let botMoves = 0;
const outcomes = { won: 0, drawn: 0, lost: 0 };
for (let game = 0; game < GAMES; game++) {
  const oursPlays = game % 2 === 0 ? '0' : '1';
  let state = start();
  const line = [];
  const bot = new MCTSBot({ game: ConnectFour, enumerate: ConnectFour.ai.enumerate, seed: `game${game}`, iterations: botIterations });
  while (state.ctx.gameover === undefined) {
    const player = state.ctx.currentPlayer;
    let col;
    if (player === oursPlays) {
      const g = new NativeGame('connect_four', line.map((c) => c + 1).join(''));
      col = g.search({ timeMs: 100 }).bestMove;
      g.free();
    } else {
      const t0 = performance.now();
      const { action } = await bot.play(state, player);
      botTime += performance.now() - t0;
      botMoves++;
      col = action.payload.args[0];
    }
    line.push(col);
    state = reducer(state, { type: 'MAKE_MOVE', payload: { type: 'drop', args: [col], playerID: player } });
  }
  const over = state.ctx.gameover;
  if (over.draw) {
    score += 0.5;
    outcomes.drawn++;
  } else if (over.winner === oursPlays) {
    score += 1;
    outcomes.won++;
  } else {
    outcomes.lost++;
  }
}
console.log(`match, ${GAMES} games at 100 ms a move, colours alternated: libminimax (alpha-beta) against MCTSBot (${botIterations} iterations, ${(botTime / Math.max(1, botMoves)).toFixed(0)} ms a move): won ${outcomes.won}, drawn ${outcomes.drawn}, lost ${outcomes.lost}; score ${(score / GAMES).toFixed(3)} (target 0.95)`);
