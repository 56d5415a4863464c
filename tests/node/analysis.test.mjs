// The comparison view's two questions to the engine, through the JS API on both wasm variants:
// scoringCost() (what attention's scoring costs per step on a sentence) and selfAttention()
// (the source attending to itself, scaled-dot models only). Values are pinned against PyTorch
// in golden.test.mjs; here: shapes, arguments, errors, and that the heap stays flat.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { WASM, fixturePath, shippedModelOrFail, translator } from './helpers.mjs';

const DOT = fixturePath('tiny-scaled_dot-int8.safetensors');
const ADDITIVE = fixturePath('tiny-additive-int8.safetensors');
const QUICK = { minBatchMs: 0.2, batches: 3 };

for (const variant of WASM) {
  test(`scoringCost() reports both halves of scoring for both scorings (${variant})`, async () => {
    for (const model of [ADDITIVE, DOT]) {
      const tr = await translator(readFileSync(model), variant);
      try {
        const c = tr.scoringCost('The black cat is sleeping.', QUICK);
        assert.equal(c.n, 7); // 6 tokens and </s>
        // All 3, or fewer if the time ran out (the bound comes first on a busy machine).
        assert.ok(c.batches >= 1 && c.batches <= 3, `${c.batches} batches`);
        for (const k of ['stepUs', 'scoreUs', 'keysUs']) assert.ok(c[k] > 0 && Number.isFinite(c[k]), `${k} = ${c[k]}`);
        assert.ok(Number.isInteger(c.callsPerBatch) && c.callsPerBatch >= 1);
        // Every timed batch lasts minBatchMs (coarse clocks still resolve it): the median too.
        // Only when time did not run out: then (src/core/scoring_cost.cpp) the one batch it has
        // is kept whatever its length, so a machine busy with other tests can end with a single
        // short batch; all of the batches asked for means none was cut.
        if (c.batches === QUICK.batches) {
          assert.ok(c.stepUs * c.callsPerBatch >= 0.999 * QUICK.minBatchMs * 1000, `${c.stepUs} x ${c.callsPerBatch}`);
        }
        // The spread over the batches brackets each median (all equal after one batch).
        for (const k of ['stepUs', 'scoreUs', 'keysUs']) {
          const [lo, hi] = [c[`${k}Min`], c[`${k}Max`]];
          assert.ok(lo > 0 && lo <= c[k] && c[k] <= hi && Number.isFinite(hi), `${k}: ${lo} <= ${c[k]} <= ${hi}`);
        }
        if (c.batches === 1) assert.deepEqual([c.stepUsMin, c.stepUsMax], [c.stepUs, c.stepUs]);
        assert.deepEqual(tr.scoringCost('   ', QUICK), {
          n: 0, stepUs: 0, scoreUs: 0, keysUs: 0, stepUsMin: 0, stepUsMax: 0, scoreUsMin: 0, scoreUsMax: 0, keysUsMin: 0,
          keysUsMax: 0, batches: 0, callsPerBatch: 0,
        });
      } finally {
        tr.dispose();
      }
    }
  });

  test(`selfAttention() is n x n with rows summing to 1, dot models only (${variant})`, async () => {
    const dot = await translator(readFileSync(DOT), variant);
    const additive = await translator(readFileSync(ADDITIVE), variant);
    try {
      const sa = dot.selfAttention('Tom is in Paris.');
      assert.deepEqual(sa.tokens, ['Tom', 'is', 'in', 'Paris', '.', '</s>']);
      assert.equal(sa.scores.length, 6);
      for (const row of sa.weights) {
        assert.equal(row.length, 6);
        assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      }
      assert.match(sa.method, /W_k/);
      assert.deepEqual(dot.selfAttention('').tokens, []);
      assert.throws(() => additive.selfAttention('Tom is in Paris.'), /needs a scaled_dot model/);
    } finally {
      dot.dispose();
      additive.dispose();
    }
  });
}

test('scoringCost() and selfAttention() refuse bad arguments with clear errors', async () => {
  const tr = await translator(readFileSync(DOT), 'wasm-simd');
  try {
    for (const bad of [0, -1, 101, NaN, '2', null]) {
      assert.throws(() => tr.scoringCost('cat', { minBatchMs: bad }), RangeError, String(bad));
    }
    for (const bad of [0, 101, 2.5, '3']) {
      assert.throws(() => tr.scoringCost('cat', { batches: bad }), RangeError, String(bad));
    }
    // One call must not hold a page for long: at most 4 x (batches + 1) x minBatchMs.
    assert.throws(() => tr.scoringCost('cat', { minBatchMs: 100, batches: 100 }), /at most 1000/);
    assert.throws(() => tr.scoringCost(42), TypeError);
    assert.throws(() => tr.selfAttention({}), TypeError);
    assert.throws(() => tr.scoringCost('word '.repeat(160), QUICK), /at most \d+/);
    assert.throws(() => tr.selfAttention('word '.repeat(160)), /at most \d+/);
    // Lone surrogates become U+FFFD, as in translate(): the text still works.
    assert.equal(tr.selfAttention('cat \uD800').tokens.length, 3);
  } finally {
    tr.dispose();
  }
  assert.throws(() => tr.scoringCost('cat'), /disposed/);
  assert.throws(() => tr.selfAttention('cat'), /disposed/);
});

test('scoringCost() and selfAttention() leave the heap flat', async () => {
  const tr = await translator(readFileSync(DOT), 'wasm-simd');
  try {
    const round = () => {
      tr.scoringCost('The black cat is sleeping.', { minBatchMs: 0.05, batches: 1 });
      tr.selfAttention('The black cat is sleeping on the red chair.');
      assert.throws(() => tr.selfAttention('\uD800'.repeat(70)));
    };
    for (let i = 0; i < 20; i++) round();
    const before = tr.memory();
    for (let i = 0; i < 500; i++) round();
    const after = tr.memory();
    assert.equal(after.heapBytes, before.heapBytes);
    assert.equal(after.emvalHandles, before.emvalHandles);
  } finally {
    tr.dispose();
  }
});

// The bound the API states (web/lib/bahdanau.js, bl::scoring_cost_bound_ms in src/bahdanau.h):
// one call blocks for at most 4 * (batches + 1) * minBatchMs. Twice that fails the test.
const scoringCostBoundMs = ({ minBatchMs, batches }) => 4 * (batches + 1) * minBatchMs;

test('scoringCost() returns within its stated bound on a 60-word sentence', async () => {
  const tr = await translator(shippedModelOrFail(), 'wasm-simd');
  try {
    const text = 'The old man who lives near the station gave his black cat some milk before he left . '
      .repeat(4).split(' ').slice(0, 60).join(' ');
    assert.equal(tr.tokenize(text).length, 60);
    tr.scoringCost(text, { minBatchMs: 1, batches: 3 }); // warm-up: V8 tiers the kernels up
    for (const params of [{ minBatchMs: 50, batches: 4 }, { minBatchMs: 100, batches: 1 }]) {
      const t0 = performance.now();
      const c = tr.scoringCost(text, params);
      const ms = performance.now() - t0;
      const bound = scoringCostBoundMs(params);
      assert.ok(ms <= 2 * bound, `${JSON.stringify(params)}: ${ms.toFixed(0)} ms, bound ${bound} ms`);
      assert.ok(c.batches >= 1 && c.batches <= params.batches, `${c.batches} batches`);
      assert.ok(c.stepUs > 0 && c.scoreUs > 0 && c.keysUs > 0);
    }
  } finally {
    tr.dispose();
  }
});
