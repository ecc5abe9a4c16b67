// The JavaScript of the guide (docs/web.md) and of the package's README runs as written:
// a block whose first line names a file (`// nim.js`) is written as that file, and the
// others are run in order as one module beside it, with `libminimax` resolving to this
// package. Each must finish without an error, and what it logs is checked where the
// text says what it prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WEB = new URL('..', import.meta.url).pathname;

function blocks(text) {
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

for (const doc of ['../docs/web.md', 'README.md']) {
  test(`the JavaScript of ${doc.replace('../', '')} runs as written`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'libminimax-docs-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(WEB, join(dir, 'node_modules', 'libminimax'));
    writeFileSync(join(dir, 'package.json'), '{"type": "module", "private": true}');
    let main = '';
    const found = blocks(readFileSync(join(WEB, doc), 'utf8'));
    assert.ok(found.length >= 3, `${found.length} blocks`);
    for (const code of found) {
      const file = code.match(/^\/\/ ([\w.-]+\.js)\b/);
      if (file) writeFileSync(join(dir, file[1]), code);
      else main += `${code}\n`;
    }
    writeFileSync(join(dir, 'main.js'), main);
    const out = execFileSync('node', ['main.js'], { cwd: dir }).toString().trim().split('\n');
    assert.equal(out.at(-1), '1', `the last line printed: Nim's value (${out.join(' | ')})`);
  });
}
