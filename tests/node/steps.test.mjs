// steps() is translate() one word at a time: its attention rows are exactly translate()'s
// matrix, in order, followed by the step that emits </s> (absent when the length limit cut
// the translation), and it yields to the event loop between steps.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { FIXTURES, WASM, fixture, fixturePath, translator } from './helpers.mjs';

for (const variant of WASM) {
  test(`steps() rows are translate()'s attention rows (${variant})`, async () => {
    let rows = 0;
    for (const name of FIXTURES) {
      const doc = fixture(name);
      const tr = await translator(readFileSync(fixturePath(doc.model)), variant);
      for (const { text } of doc.cases) {
        for (const maxLen of [undefined, 3]) {
          const t = tr.translate(text, { maxLen });
          const it = tr.steps(text, { maxLen, topK: 3 });
          assert.deepEqual(it.sourceTokens, t.sourceTokens);
          const steps = [];
          for await (const s of it) steps.push(s);
          const n = t.attention.length;
          assert.equal(steps.length, t.truncated ? n : n + 1, `${text}: step count`);
          steps.forEach((s, i) => assert.equal(s.index, i));
          assert.deepEqual(steps.slice(0, n).map((s) => s.alpha), t.attention, `${text}: rows`);
          assert.deepEqual(steps.slice(0, n).map((s) => s.word), t.targetTokens, `${text}: words`);
          assert.deepEqual(steps.slice(0, n).map((s) => s.prob), t.probs, `${text}: probs`);
          if (!t.truncated) assert.equal(steps[n].word, '</s>');
          if (steps.length) assert.equal(steps.at(-1).done, true);
          // The iterator's result is translate()'s, from the same decoder (timings aside).
          const strip = ({ timings, ...rest }) => rest;
          assert.deepEqual(strip(it.result), strip(t), `${text}: result`);
          for (const s of steps) {
            assert.equal(s.topIds.length, 3);
            const norm = Math.sqrt(s.c.reduce((a, x) => a + x * x, 0));
            assert.ok(Math.abs(s.cNorm - norm) < 1e-6 * Math.max(1, norm), 'cNorm is |c|');
          }
          rows += n;
        }
      }
      tr.dispose();
    }
    assert.ok(rows > 100, `only ${rows} rows compared`);
  });
}

test('steps() yields to the event loop between steps', async () => {
  // A macrotask queued before each step must have run when the next step arrives. (A timer
  // count would depend on the machine's speed: 22 tiny steps can take less than a timer tick.)
  const tr = await translator(readFileSync(fixturePath('tiny-additive-f32.safetensors')), 'wasm-simd');
  let steps = 0;
  let ran = true;
  for await (const _ of tr.steps('The black cat is sleeping.')) {
    assert.ok(ran, `step ${steps} arrived before a queued macrotask ran`);
    ran = false;
    setImmediate(() => { ran = true; });
    steps++;
  }
  tr.dispose();
  assert.ok(steps > 3);
});

test('an abandoned or disposed steps() iterator frees its decoder', async () => {
  const tr = await translator(readFileSync(fixturePath('tiny-additive-f32.safetensors')), 'wasm-simd');
  const before = tr.memory();
  for await (const s of tr.steps('The black cat is sleeping.')) if (s.index === 1) break;
  assert.deepEqual(tr.memory(), before, 'break frees the decoder');
  const it = tr.steps('The black cat is sleeping.');
  await it.next();
  assert.equal(tr.memory().liveObjects, before.liveObjects + 1, 'the decoder is live');
  tr.dispose();
  assert.equal(tr.memory().liveObjects, before.liveObjects - 1, 'dispose frees both');
  assert.deepEqual(await it.next(), { done: true, value: undefined });
});
