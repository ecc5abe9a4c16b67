// The page in a real browser (issue 69, point 4): Debian's chromium driven by
// playwright-core, which is given the browser's path and downloads nothing. Run by
// `npm run test:browser` (and `make web-test`, and CI): serves the page, once without
// cross-origin isolation and once with it, and in each
//   - plays a whole Connect Four game by clicking, every engine move checked legal and
//     the result checked by a referee written here, apart from the library;
//   - watches the main thread during a 2-second search: no task longer than 50 ms
//     (PerformanceObserver, long tasks);
//   - cancels a search (a new game while the engine thinks) and checks the next one;
//   - plays a move with MCTS, whose visits the page draws over the board.
// Last, Othello on a phone-sized screen. Saves docs/web_page.png and docs/web_phone.png
// (the screenshots the docs show). Exits non-zero on a failure.
import { chromium } from 'playwright-core';
import { existsSync } from 'node:fs';
import { serve } from '../serve.js';

const CHROMIUM = process.env.CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
const SHOT = new URL('../../docs/web_page.png', import.meta.url).pathname;
const PHONE = new URL('../../docs/web_phone.png', import.meta.url).pathname;
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
  if (!ok) failures++;
};

/** Connect Four's rules, written apart: the line's cells, checked, and the winner. */
function referee(line) {
  const heights = Array(7).fill(0);
  const cell = {};
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (!(c >= 0 && c < 7) || heights[c] >= 6) return { illegalAt: i };
    const player = i % 2;
    cell[`${c},${heights[c]}`] = player;
    const at = (x, y) => cell[`${x},${y}`];
    const y = heights[c]++;
    for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
      let n = 1;
      for (const s of [1, -1]) for (let k = 1; at(c + s * k * dx, y + s * k * dy) === player; k++) n++;
      if (n >= 4) return { winner: player === 0 ? 1 : -1, end: i };
    }
  }
  return { winner: line.length === 42 ? 0 : null };
}

async function waitIdle(page) {
  await page.waitForFunction(() => !window.minimaxPage.state().thinking, null, { timeout: 30000 });
}

async function run(isolated) {
  const server = await serve({ port: 0, isolated });
  const url = `http://127.0.0.1:${server.address().port}/examples/web/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const label = isolated ? 'isolated' : 'not isolated';
  try {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    const s0 = await page.evaluate(() => window.minimaxPage.state());
    check(s0.isolated === isolated, `${label}: the page ${isolated ? 'shares' : 'does not share'} memory with the Worker`);
    // The page asks for as many threads as the machine has (up to 4): helper Workers
    // where it is isolated, one thread with no error where it is not.
    const cores = await page.evaluate(() => Math.min(navigator.hardwareConcurrency || 1, 4));
    const threads = isolated ? cores : 1;
    check(s0.threads === threads, `${label}: the engine has ${threads} thread(s) (it has ${s0.threads})`);

    // A whole game of Connect Four by clicking: the person plays first, 0.25 s a move.
    await page.selectOption('#time', '250');
    await page.click('#new');
    const order = [3, 2, 4, 1, 5, 0, 6];
    for (let turn = 0; turn < 30; turn++) {
      await waitIdle(page);
      const s = await page.evaluate(() => window.minimaxPage.state());
      if (s.winner !== null) break;
      const legal = await page.$$eval('.cell.legal', (cells) => [...new Set(cells.map((c) => Number(c.dataset.move)))]);
      const move = order.map((c) => (c + turn) % 7).find((c) => legal.includes(c));
      await page.click(`.cell[data-move="${move}"]`);
    }
    await waitIdle(page);
    const end = await page.evaluate(() => window.minimaxPage.state());
    const r = referee(end.line);
    check(r.illegalAt === undefined, `${label}: every move of the game is legal (${end.line.map((c) => c + 1).join('')})`);
    check(r.winner !== null && r.winner === end.winner && r.end === end.line.length - 1, `${label}: the game ended and the page's result (${end.winner}) is the referee's (${r.winner})`);
    check(end.engineMoves.length >= 3, `${label}: the engine made ${end.engineMoves.length} moves`);
    const status = await page.textContent('#status');
    check(/wins|draw/i.test(status), `${label}: the page says "${status}"`);

    // The main thread during a 2-second search: no long task.
    await page.evaluate(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => window.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
    await page.selectOption('#time', '2000');
    await page.selectOption('#side', '1'); // a new game, the engine first
    await page.waitForFunction(() => window.minimaxPage.state().thinking);
    const t0 = Date.now();
    let frames = 0;
    while (await page.evaluate(() => window.minimaxPage.state().thinking)) {
      frames += await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(1))));
    }
    const long = await page.evaluate(() => window.longTasks);
    const thought = Date.now() - t0;
    check(thought > 1500, `${label}: the search took ${thought} ms`);
    check(long.every((d) => d <= 50), `${label}: no main-thread task over 50 ms during it (long tasks: ${JSON.stringify(long.map(Math.round))}; ${frames} frames drawn)`);
    const after = await page.evaluate(() => window.minimaxPage.state());
    check(after.line.length === 1 && after.results.at(-1).depth >= 8, `${label}: it played ${after.line[0] + 1} after depth ${after.results.at(-1).depth}, ${after.results.at(-1).nodes} nodes`);
    check(after.results.at(-1).threads === threads, `${label}: that search ran on ${after.results.at(-1).threads} thread(s), as the engine has ${threads}`);

    // Cancel a search (a new game while the engine thinks), then the next one.
    await page.selectOption('#time', '5000');
    await page.click('#new');
    await page.waitForFunction(() => window.minimaxPage.state().thinking);
    await page.waitForTimeout(300);
    await page.selectOption('#time', '250');
    const began = Date.now();
    await page.click('#new');
    await waitIdle(page);
    const c = await page.evaluate(() => window.minimaxPage.state());
    check(Date.now() - began < 4000 && c.line.length === 1 && c.line[0] >= 0 && c.line[0] < 7, `${label}: after a cancelled search the next one answered at once with a legal move (${c.line[0] + 1})`);

    // MCTS: its visits over the board.
    await page.selectOption('#method', 'mcts');
    await page.selectOption('#time', '1000');
    await page.selectOption('#side', '0');
    await page.click('.cell[data-move="3"]');
    await waitIdle(page);
    const shown = await page.$$eval('.visits', (v) => v.map((e) => e.textContent));
    check(shown.length >= 5 && shown.every((t) => /^\d+%$/.test(t)), `${label}: MCTS's visits drawn over the board (${shown.join(' ')})`);
    if (!isolated) await page.screenshot({ path: SHOT });

    // A phone's screen: Othello fits its width, and a move there is answered.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.selectOption('#method', 'alphabeta');
    await page.selectOption('#time', '250');
    await page.selectOption('#game', 'othello');
    await waitIdle(page);
    const fit = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, board: document.getElementById('board').getBoundingClientRect().width }));
    check(fit.page <= 390 && fit.board <= 390 && fit.board >= 300, `${label}: on a 390-pixel screen the page is ${fit.page} wide and the board ${Math.round(fit.board)}`);
    const square = await page.$eval('.cell.legal', (c) => Number(c.dataset.move));
    await page.click(`.cell[data-move="${square}"]`);
    await waitIdle(page);
    const o = await page.evaluate(() => window.minimaxPage.state());
    check(o.game === 'othello' && o.line.length === 2 && o.line[0] === square, `${label}: Othello on a phone: ${o.line.join(' ')}`);
    if (!isolated) await page.screenshot({ path: PHONE });
    check(errors.length === 0, `${label}: no error in the page${errors.length ? `: ${errors.join('; ')}` : ''}`);
  } finally {
    await browser.close();
    server.close();
  }
}

if (!CHROMIUM) {
  console.log('FAILED: no chromium (apt install chromium, or set CHROMIUM)');
  process.exit(1);
}
await run(false);
await run(true);
console.log(failures === 0 ? 'browser test: all passed' : `browser test: ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
