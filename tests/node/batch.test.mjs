// translateBatch(texts) in the JS API: one entry per text, each exactly translate()'s result on
// the same engine (timings aside) or {error} where translate() throws, on both wasm variants,
// every tiny fixture model and the shipped model's 100 dev sentences; its argument errors; and
// a wasm heap that stays flat over repeated batches.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MAX_BATCH } from '../../web/lib/bahdanau.js';
import { FIXTURES, TINY, WASM, fixture, fixturePath, shippedModelOrFail, translator } from './helpers.mjs';

const untimed = ({ timings, ...rest }) => rest;

// What translateBatch must give for each text: translate()'s result, or its message.
function oneAtATime(tr, texts, options) {
  return texts.map((t) => {
    try {
      return untimed(tr.translate(t, options));
    } catch (e) {
      return { error: e.message };
    }
  });
}

function assertSame(tr, texts, options, what) {
  const got = tr.translateBatch(texts, options);
  assert.equal(got.length, texts.length, what);
  const want = oneAtATime(tr, texts, options);
  got.forEach((g, i) => {
    if (!('error' in g)) {
      assert.equal(typeof g.timings.encodeMs, 'number');
      assert.equal(typeof g.timings.decodeMs, 'number');
    }
    assert.deepEqual('error' in g ? g : untimed(g), want[i], `${what}: text ${i} ${JSON.stringify(texts[i])}`);
  });
  return got;
}

// The fixture texts with, between them, empty ones, one over the model's length (an error), a
// lone surrogate (replaced, as translate() does) and a combining accent (NFC); three times over,
// so that sentences join a running batch (64 decode at once).
function textsFor(name, maxSrcLen) {
  const base = fixture(name).cases.map((c) => c.text);
  const odd = ['', '  ', 'cat '.repeat(maxSrcLen + 1), 'The cat\uD800 is black.', 'cafe\u0301 noir'];
  const one = base.flatMap((t, i) => (i < odd.length ? [t, odd[i]] : [t]));
  return [...one, ...one, ...one];
}

for (const variant of WASM) {
  test(`translateBatch equals translate() on every fixture model (${variant})`, async () => {
    let compared = 0;
    for (const name of FIXTURES) {
      const tr = await translator(readFileSync(fixturePath(`${fixture(name).model}`)), variant);
      const texts = textsFor(name, tr.info().maxSrcLen);
      const got = assertSame(tr, texts, undefined, `${name} greedy`);
      assert.ok(got.some((g) => 'error' in g) && got.some((g) => g.targetTokens?.length > 0));
      assertSame(tr, texts, { maxLen: 3 }, `${name} maxLen 3`);
      assertSame(tr, texts.slice(0, 12), { beam: 4 }, `${name} beam 4`);
      compared += texts.length;
      tr.dispose();
    }
    console.log(`${variant}: ${compared} batched translations equal to translate()`);
  });

  test(`translateBatch equals translate() on the shipped model's 100 dev sentences (${variant})`, async () => {
    const tr = await translator(readFileSync(shippedModelOrFail('en-fr')), variant);
    const texts = fixture('en-fr-dev100').cases.map((c) => c.text);
    assert.equal(texts.length, 100);
    assertSame(tr, texts, undefined, 'en-fr dev100');
    tr.dispose();
  });
}

test('translateBatch: bad arguments throw, bad texts do not', async () => {
  const tr = await translator(readFileSync(TINY), 'wasm-simd');
  assert.deepEqual(tr.translateBatch([]), []);
  assert.throws(() => tr.translateBatch('The cat.'), { name: 'TypeError', message: /texts must be an array of strings, got "The cat."/ });
  assert.throws(() => tr.translateBatch(null), TypeError);
  assert.throws(() => tr.translateBatch(['a', 42]), { name: 'TypeError', message: /texts\[1\] must be a string, got 42/ });
  assert.throws(() => tr.translateBatch(['a', , 'b']), { name: 'TypeError', message: /texts\[1\] must be a string/ }); // eslint-disable-line no-sparse-arrays
  assert.throws(() => tr.translateBatch(Array(MAX_BATCH + 1).fill('a')), { name: 'RangeError', message: /at most 1024 texts/ });
  assert.throws(() => tr.translateBatch(['a'], { beam: 0 }), RangeError);
  assert.throws(() => tr.translateBatch(['a'], { maxLen: 2000 }), RangeError);
  assert.throws(() => tr.translateBatch(['a'], { splitSentences: true }), /splitSentences\(\)/);
  assert.throws(() => tr.translateBatch(['a'], 3), TypeError);
  assert.equal(tr.translateBatch(Array(MAX_BATCH).fill('I am cold.')).length, MAX_BATCH);
  const [bad, good] = tr.translateBatch(['word '.repeat(300), 'I am cold.']);
  assert.match(bad.error, /this model reads at most/);
  assert.deepEqual(Object.keys(bad), ['error']);
  assert.equal(good.text, tr.translate('I am cold.').text);
  tr.dispose();
  assert.throws(() => tr.translateBatch(['a']), /disposed/);
});

for (const [variant, rounds] of [['wasm-simd', 300], ['wasm-scalar', 60]]) {
  test(`repeated translateBatch calls leave memory flat (${variant})`, async () => {
    const tr = await translator(readFileSync(TINY), variant);
    const texts = textsFor('tiny-additive-f32', tr.info().maxSrcLen);
    const round = (i) => {
      tr.translateBatch(texts.slice(0, 10 + (i % 60)), { beam: i % 7 === 0 ? 3 : 1 });
      assert.throws(() => tr.translateBatch(['a', 1]), TypeError);
    };
    for (let i = 0; i < 60; i++) round(i); // warm up: scratch buffers reach their largest size
    const before = tr.memory();
    for (let i = 0; i < rounds; i++) round(i);
    const after = tr.memory();
    console.log(`${variant}: before ${JSON.stringify(before)} after ${JSON.stringify(after)}`);
    assert.deepEqual(after, before);
    tr.dispose();
  });
}
