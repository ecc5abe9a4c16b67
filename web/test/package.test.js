// `npm pack` makes a tarball that a fresh project installs and uses with no build step
// of its own (issue 69, point 1): in Node, an Engine searches in a worker_threads Worker
// (and, asked for threads, on 2), and the types are where package.json says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WEB = new URL('..', import.meta.url).pathname;

test('the packed tarball installs into a fresh project and searches there', () => {
  const dir = mkdtempSync(join(tmpdir(), 'libminimax-pack-'));
  const packed = execFileSync('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: WEB }).toString();
  const [info] = JSON.parse(packed);
  const files = info.files.map((f) => f.path).sort();
  for (const f of ['js/index.js', 'js/index.d.ts', 'js/sync.js', 'js/worker.js', 'js/helper.js', 'pkg/minimax.js', 'pkg/minimax_bg.wasm', 'pkg/minimax_threads.js', 'pkg/minimax_threads_bg.wasm', 'README.md', 'package.json']) {
    assert.ok(files.includes(f), `${f} in the tarball (${files.join(', ')})`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('node_modules/')), files.join(', '));
  const app = join(dir, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(dir, info.filename)], { cwd: app });
  writeFileSync(join(app, 'main.js'), `
    import { Engine, NativeGame, init } from 'libminimax';
    const engine = await Engine.create();
    const r = await engine.search({ name: 'tic_tac_toe' }, { method: 'exact' });
    const threaded = await Engine.create({ threads: 2 });
    const t = await threaded.search({ name: 'tic_tac_toe' }, { method: 'exact' });
    await init();
    const moves = new NativeGame('connect_four', '44').legalMoves().length;
    console.log(JSON.stringify({ value: r.value, proven: r.proven, moves, threaded: [t.value, t.threads] }));
    engine.terminate();
    threaded.terminate();
  `);
  const out = JSON.parse(execFileSync('node', ['main.js'], { cwd: app }).toString());
  assert.deepEqual(out, { value: 0, proven: true, moves: 7, threaded: [0, 2] });
  assert.ok(existsSync(join(app, 'node_modules/libminimax/js/index.d.ts')));
  assert.deepEqual(readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.')), ['libminimax']);
});
