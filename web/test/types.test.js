// The TypeScript declarations (js/*.d.ts) checked by TypeScript's own compiler against
// test/types/usage.ts: the API as a user writes it, and misuses that must be refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

test('tsc accepts the uses and refuses the misuses in test/types/usage.ts', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const dir = new URL('./types/', import.meta.url).pathname;
  const r = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, `tsc:\n${r.stdout}${r.stderr}`);
});
