// Memory stays flat: 10,000 translations (greedy, beam, steps, errors) in one process leave the
// wasm heap (mallinfo's bytes in use), Embind's emval handles and our live C++ objects exactly
// where they were after warming up.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { TINY, WASM, ensureEngines } from './helpers.mjs';

const TEXTS = ['The black cat is sleeping.', 'I am cold.', 'He is tall.', 'Tom is here.', '',
  'Is it raining?', 'We saw the old house near the river.', 'I don\'t know Tom.'];

async function workload(tr, i) {
  const text = TEXTS[i % TEXTS.length];
  switch (i % 10) {
    case 0:
      tr.translate(text, { beam: 4 });
      break;
    case 1:
      for await (const _ of tr.steps(text)) { /* drain */ }
      break;
    case 2:
      assert.throws(() => tr.translate('word '.repeat(100)), /at most/);
      break;
    case 3:
      assert.throws(() => tr.translate(42), TypeError);
      break;
    default:
      tr.translate(text, { beam: 1 });
  }
}

for (const [variant, count] of [['wasm-simd', 10_000], ['wasm-scalar', 2_000]]) {
  test(`${count} translations leave memory flat (${variant})`, async () => {
    ensureEngines();
    const bytes = readFileSync(TINY);
    const tr = await createTranslator({ model: bytes, simd: variant === 'wasm-simd' });
    for (let i = 0; i < 100; i++) await workload(tr, i); // warm up: lazy statics, method callers
    const before = tr.memory();
    for (let i = 0; i < count; i++) await workload(tr, i);
    const after = tr.memory();
    console.log(`${variant}: before ${JSON.stringify(before)} after ${JSON.stringify(after)}`);
    assert.deepEqual(after, before);

    // Translators come and go (the page's widgets), with the module instance shared.
    for (let i = 0; i < 50; i++) {
      const t = await createTranslator({ model: bytes, simd: variant === 'wasm-simd' });
      t.translate('I am cold.');
      t.dispose();
    }
    assert.deepEqual(tr.memory(), before);
    tr.dispose();
    assert.equal(tr.memory().liveObjects, before.liveObjects - 1);
  });
}

test('a dropped translator is freed by the finalizer safety net', async () => {
  v8.setFlagsFromString('--expose-gc'); // gc() on demand, without a node flag
  const gc = vm.runInNewContext('gc');
  const bytes = readFileSync(TINY);
  const keep = await createTranslator({ model: bytes });
  const live = keep.memory().liveObjects;
  (await createTranslator({ model: bytes })).translate('I am cold.'); // never disposed
  for (let i = 0; i < 10 && keep.memory().liveObjects > live; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.equal(keep.memory().liveObjects, live);
  keep.dispose();
});
