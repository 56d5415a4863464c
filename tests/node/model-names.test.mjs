// createTranslator() with no model loads the default en-fr, and a model name ('en-fr',
// 'en-fr-dot', 'tiny', ...) resolves against the package itself, never the working directory:
// both run here from an empty folder elsewhere. (The installed package: package.test.mjs.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';

import { DEFAULT_MODEL, ROOT, ensureEngines, translator } from './helpers.mjs';

const dir = mkdtempSync(path.join(tmpdir(), 'bahdanau-names-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// -> the script's stdout parsed as JSON, run by Node with cwd = the empty folder.
function runElsewhere(body) {
  ensureEngines();
  const api = pathToFileURL(path.join(ROOT, 'web', 'lib', 'bahdanau.js')).href;
  writeFileSync(path.join(dir, 'use.mjs'), `import { createTranslator } from ${JSON.stringify(api)};\n${body}`);
  const r = spawnSync(process.execPath, ['use.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('createTranslator() with no model (or null) is the default en-fr, from any working directory', async () => {
  const got = runElsewhere(`const out = [];
for (const tr of [await createTranslator(), await createTranslator({ simd: 'auto' }), await createTranslator(null), await createTranslator({ model: null })]) {
  out.push(tr.translate('The black cat is sleeping.').text);
  tr.dispose();
}
console.log(JSON.stringify(out));`);
  const tr = await translator(DEFAULT_MODEL, 'wasm-simd');
  const want = tr.translate('The black cat is sleeping.').text;
  tr.dispose();
  assert.deepEqual(got, [want, want, want, want]);
});

test('a model name resolves against the package, not the working directory', () => {
  const got = runElsewhere(`const out = {};
for (const name of ['en-fr', 'en-fr-dot', 'en-fr-noattn', 'en-zh', 'tiny']) {
  const tr = await createTranslator({ model: name });
  out[name] = tr.info().scoring;
  if (name === 'en-zh') out.zh = [tr.info().tgtLang, tr.translate('I ate an apple yesterday.').text];
  tr.dispose();
}
try { await createTranslator({ model: 'en-fr-f32' }); out.missing = 'loaded'; } catch (e) { out.missing = e.message; }
console.log(JSON.stringify(out));`);
  assert.equal(got['en-fr'], 'additive');
  assert.equal(got['en-fr-dot'], 'scaled_dot');
  assert.equal(got['en-fr-noattn'], 'none');
  assert.equal(got.tiny, 'additive');
  assert.equal(got['en-zh'], 'additive');
  assert.equal(got.zh[0], 'zh');
  assert.match(got.zh[1], /\p{Script=Han}/u);
  // en-fr-f32 exists only once scripts/export has made it.
  if (got.missing !== 'loaded') {
    assert.match(got.missing, /^cannot read model en-fr-f32: it is not in this copy of bahdanau-live \(looked for .*models\/en-fr-f32\.safetensors/);
  }
});
