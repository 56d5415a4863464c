// createTrainer (web/lib/trainer.js; issue 25): a fresh model trained from the training data
// file on both wasm variants, the same losses on each, learning, a snapshot that
// createTranslator reads, and a clear error for every bad input.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { createTrainer, createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, WASM } from './helpers.mjs';

// scripts/train-data's fixture (tests/python/test_train_bundle.py keeps it current).
const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const CONFIG = { emb: 16, enc_hidden: 16, dec_hidden: 16, attn: 16 };
const SETTINGS = { lr: 1e-2, batchSize: 4, seed: 5 };

const runs = {};
for (const variant of WASM) {
  test(`a fresh model learns from the data file, and its snapshot translates (${variant})`, async () => {
    // relaxed: false: the plain tables, which give the same bits on both variants (a Node with
    // relaxed SIMD on would pick the fused product for wasm-simd alone).
    const tr = await createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, simd: variant === 'wasm-simd', relaxed: false });
    assert.equal(tr.engine.variant, variant);
    const before = tr.evaluate();
    assert.ok(Number.isFinite(before) && before > 0, `held-out loss ${before}`);
    const { losses, steps, epochs } = tr.step(80);
    assert.equal(losses.length, 80);
    assert.equal(steps, 80);
    assert.equal(epochs, 20); // 15 pairs in batches of 4: 4 batches an epoch
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    assert.ok(mean(losses.slice(-8)) < 0.5 * mean(losses.slice(0, 8)), `${losses[0]} -> ${losses.at(-1)}`);
    const file = tr.snapshot();
    runs[variant] = { losses, average: file, latest: tr.snapshot({ weights: 'latest' }) };
    assert.ok(file instanceof Uint8Array && file.byteLength > 1000);
    const t = await createTranslator({ model: file, simd: variant === 'wasm-simd' });
    const out = t.translate('The cat is black.');
    assert.equal(out.sourceTokens[0], 'the');
    assert.ok(out.targetTokens.length > 0);
    t.dispose();
    tr.dispose();
    assert.throws(() => tr.step(1), /disposed/);
  });
}

test('both wasm variants train to the same bits', (t) => {
  if (WASM.length < 2 || !runs['wasm-simd'] || !runs['wasm-scalar']) return t.skip('needs both variants');
  assert.deepEqual(runs['wasm-simd'].losses, runs['wasm-scalar'].losses);
  assert.deepEqual(runs['wasm-simd'].average, runs['wasm-scalar'].average, 'the same averaged weights');
  assert.deepEqual(runs['wasm-simd'].latest, runs['wasm-scalar'].latest);
});

test('average: snapshot() and evaluate() read the moving average by default, the latest weights when asked; 0 keeps none', async () => {
  const make = (extra) => createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, ...extra });
  const [byDefault, off, half] = await Promise.all([make({}), make({ average: 0 }), make({ average: 0.5 })]);
  for (const t of [byDefault, off, half]) t.step(30);
  // The same steps whatever the average: training reads only the latest weights.
  assert.deepEqual(byDefault.snapshot({ weights: 'latest' }), off.snapshot({ weights: 'latest' }));
  assert.deepEqual(half.snapshot({ weights: 'latest' }), off.snapshot());
  assert.deepEqual(off.snapshot({ weights: 'average' }), off.snapshot(), 'no average: the latest weights');
  assert.equal(off.evaluate(), off.evaluate({ weights: 'latest' }));
  for (const t of [byDefault, half]) {
    assert.notDeepEqual(t.snapshot(), t.snapshot({ weights: 'latest' }));
    assert.notEqual(t.evaluate(), t.evaluate({ weights: 'latest' }));
  }
  assert.notDeepEqual(byDefault.snapshot(), half.snapshot(), 'the default decay is not 0.5');
  // The averaged file is a model like any other.
  const tr = await createTranslator({ model: byDefault.snapshot() });
  assert.ok(tr.translate('The cat is black.').targetTokens.length > 0);
  tr.dispose();
  assert.throws(() => off.snapshot({ weights: 'mean' }), /snapshot\(\): weights must be 'average' or 'latest'/);
  assert.throws(() => off.evaluate('latest'), /evaluate\(\): options must be an object/);
  for (const t of [byDefault, off, half]) t.dispose();
});

test('lrDecaySteps: the first D steps as with a constant lr, then another course; the default is the page\'s 1,000', async () => {
  const make = (extra) => createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, ...extra });
  const [constant, decayed, byDefault] = await Promise.all([make({ lrDecaySteps: 0 }), make({ lrDecaySteps: 10 }), make({})]);
  const a = constant.step(10).losses, b = decayed.step(10).losses;
  assert.deepEqual(b, a, 'no decay before step D');
  const later = [constant.step(30).losses, decayed.step(30).losses];
  assert.notDeepEqual(later[1], later[0], 'decayed after D: other losses');
  assert.deepEqual(byDefault.step(40).losses, [...a, ...later[0]], 'the default decays after 1,000 steps, so 40 steps are the constant ones');
  for (const t of [constant, decayed, byDefault]) t.dispose();
});

test('bad inputs get clear errors', async () => {
  const data = readFileSync(DATA);
  await assert.rejects(createTrainer({ data: 42 }), /data must be bytes, a URL or a file path/);
  await assert.rejects(createTrainer({ data: new TextEncoder().encode('hello\n') }), /createTrainer: train data: line 1/);
  await assert.rejects(createTrainer({ data, config: { emb: 'wide' } }), /emb/);
  await assert.rejects(createTrainer({ data, config: [] }), /config must be an object/);
  await assert.rejects(createTrainer({ data, lr: '1' }), /lr must be a number/);
  await assert.rejects(createTrainer({ data, lr: -1 }), /lr/);
  await assert.rejects(createTrainer({ data, batchSize: 0 }), /batchSize must be 1\.\.4096/);
  await assert.rejects(createTrainer({ data, lrDecaySteps: '5' }), /lrDecaySteps must be a number/);
  await assert.rejects(createTrainer({ data, lrDecaySteps: -1 }), /lr_decay_steps -1.* is out of range/);
  await assert.rejects(createTrainer({ data, lrDecaySteps: 2e9 }), /lr_decay_steps .* is out of range/);
  await assert.rejects(createTrainer({ data, seed: 1.5 }), /seed must be an integer/);
  await assert.rejects(createTrainer({ data, average: '0.9' }), /average must be a number/);
  for (const average of [-0.1, 1, 2]) await assert.rejects(createTrainer({ data, average }), /average .* is out of range \(0 <= average < 1\)/);
  const tr = await createTrainer({ data, config: CONFIG });
  assert.throws(() => tr.step(0), /n must be an integer in 1\.\.10000/);
  tr.dispose();
});
