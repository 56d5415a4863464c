// The relaxed-SIMD int8 products (src/kernels/gemv-wasmrelaxed.cpp, qs8-wasmrelaxed.wat,
// web/lib/relaxed.js) in the three states Node 20 can be in, each in its own process:
//   - no flag: V8 does not validate relaxed SIMD, so the engine runs wasm-simd and says why;
//   - --experimental-wasm-relaxed-simd: V8 11.3's baseline compiler (Liftoff) computes
//     i32x4.relaxed_dot_i8x16_i7x16_add_s wrongly (it doubles some accumulators), and the C++
//     side's check against exact sums must catch that and keep wasm-simd;
//   - the flag and --no-liftoff: the optimizing compiler gets it right, the relaxed kernels run.
// In every state every translation must equal relaxed:false's, number for number, and the loop
// itself must equal sums in plain JS wherever it validates. Chromium runs relaxed SIMD by
// default: tests/browser/relaxed.test.mjs checks the page there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { devSentences } from '../../scripts/lib/dev-sentences.mjs';
import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, ensureEngines, fixturePath } from './helpers.mjs';

const TINY_INT8 = fixturePath('tiny-additive-int8.safetensors');

const CHILD = path.join(ROOT, 'tests', 'node', 'relaxed-child.mjs');
const sentences = devSentences(60);

function runChild(flags) {
  ensureEngines();
  const r = spawnSync(process.execPath, [...flags, CHILD, JSON.stringify(sentences)],
    { cwd: ROOT, maxBuffer: 64 << 20, timeout: 300_000 });
  assert.equal(r.status, 0, `node ${flags.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout.toString('utf8'));
}

function assertSameTranslations(out) {
  assert.deepEqual(out.translations.differ, [], 'relaxed and relaxed:false translate differently');
}

test('createTranslator checks the relaxed option before loading anything', async () => {
  await assert.rejects(createTranslator({ model: TINY_INT8, relaxed: 'yes' }),
    { name: 'TypeError', message: /createTranslator: relaxed must be 'auto', true or false, got "yes"/ });
  await assert.rejects(createTranslator({ model: TINY_INT8, relaxed: true, simd: false }),
    { name: 'TypeError', message: /relaxed:true needs the SIMD engine/ });
});

test('without the flag: wasm-simd, relaxed:true refused with the reason', () => {
  const out = runChild([]);
  assert.equal(out.engine.kernels, 'wasm-simd');
  assert.match(out.engine.relaxed, /relaxed SIMD not supported by this Node\.js/);
  assert.match(out.required, /relaxed:true was requested, but relaxed SIMD not supported/);
  assert.equal(out.kernel, null);
  assertSameTranslations(out);
});

test('with the flag: a relaxed loop that computes wrongly is refused, wasm-simd runs', () => {
  const out = runChild(['--experimental-wasm-relaxed-simd']);
  // Whether this V8 still has the baseline compiler's bug decides which way it goes; either
  // way nothing may differ. Where the check refuses, it says so.
  if (out.engine.kernels === 'wasm-simd') {
    assert.match(out.engine.relaxed, /failed its check against exact sums/);
    assert.match(out.required, /failed its check/);
    // The refusal had a cause: run directly, the loop's first calls miscompute too.
    assert.ok(out.kernel.length > 0, 'the check refused a loop that computes right');
  } else {
    assert.equal(out.engine.kernels, 'wasm-relaxed');
  }
  assertSameTranslations(out);
});

test('with the flag and --no-liftoff: the relaxed kernels run and equal wasm-simd exactly', () => {
  const out = runChild(['--experimental-wasm-relaxed-simd', '--no-liftoff']);
  assert.equal(out.engine.kernels, 'wasm-relaxed', out.engine.relaxed);
  assert.equal(out.engine.relaxed, 'relaxed SIMD supported');
  assert.equal(out.required, null);
  assert.deepEqual(out.kernel, [], 'the loop against exact sums');
  assert.equal(out.translations.kernels, 'wasm-relaxed');
  assert.equal(out.q4Kernels, 'wasm-simd', 'a q4 model has no relaxed products');
  assertSameTranslations(out);
});
