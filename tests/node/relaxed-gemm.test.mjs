// The fused training product (src/kernels/train-gemm-wasmrelaxed.wat and .cpp, web/lib/relaxed.js
// installRelaxedGemm, createTrainer's relaxed option) in the two states Node 20 can be in, each
// in its own process (relaxed-gemm-child.mjs):
//   - no flag: V8 does not validate relaxed SIMD, trainers run wasm-simd's mul then add and say
//     why, and relaxed:true is refused with that reason;
//   - --experimental-wasm-relaxed-simd: relaxed_madd is fused on this x86 (both of V8's
//     compilers), the kernel equals an exact fused reference bit for bit, and trainers run it.
// In both, an unfused look-alike of the module (each relaxed_madd written as mul then add) must
// fail the C++ side's check against its fused scalar twin: the check is what keeps training's
// bits the same on every engine. Chromium runs relaxed SIMD by default:
// tests/browser/train.test.mjs trains there.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { createTrainer } from '../../web/lib/bahdanau.js';
import { ROOT, ensureEngines } from './helpers.mjs';

const CHILD = path.join(ROOT, 'tests', 'node', 'relaxed-gemm-child.mjs');
const WAT = path.join(ROOT, 'src', 'kernels', 'train-gemm-wasmrelaxed.wat');
const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const MADDS = 17; // the .wat's relaxed_madd count (tests/wasm/check_simd.sh counts the built one)

const tmp = mkdtempSync(path.join(tmpdir(), 'relaxed-gemm-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// The module with every relaxed_madd(a, b, c) written as add(mul(a, b), c), which rounds twice.
function unfusedLookAlike() {
  let n = 0;
  const wat = readFileSync(WAT, 'utf8').replace(
    /\(f32x4\.relaxed_madd (\(local\.get \$\w+\)) (\(local\.get \$\w+\)) (\(local\.get \$\w+\))\)/g,
    (_, a, b, c) => (n++, `(f32x4.add (f32x4.mul ${a} ${b}) ${c})`));
  assert.equal(n, MADDS, 'the look-alike replaces every relaxed_madd');
  const src = path.join(tmp, 'unfused.wat');
  const out = path.join(tmp, 'unfused.wasm');
  writeFileSync(src, wat);
  const r = spawnSync('wat2wasm', [src, '-o', out]);
  assert.equal(r.status, 0, `wat2wasm (scripts/setup wasm installs wabt): ${r.stderr}`);
  return out;
}

function runChild(flags) {
  ensureEngines();
  const r = spawnSync(process.execPath, [...flags, CHILD, JSON.stringify({ unfused: unfusedLookAlike() })],
    { cwd: ROOT, maxBuffer: 64 << 20, timeout: 300_000 });
  assert.equal(r.status, 0, `node ${flags.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout.toString('utf8'));
}

function assertLookAlikeRefused(out) {
  assert.deepEqual(out.lookAlike,
    { installed: false, reason: 'relaxed SIMD failed its check against its fused scalar twin' });
}

test('createTrainer checks the relaxed option before loading anything', async () => {
  await assert.rejects(createTrainer({ data: DATA, relaxed: 'yes' }),
    { name: 'TypeError', message: /createTrainer: relaxed must be 'auto', true or false, got "yes"/ });
  await assert.rejects(createTrainer({ data: DATA, relaxed: 1 }),
    { name: 'TypeError', message: /relaxed must be 'auto', true or false, got 1/ });
  await assert.rejects(createTrainer({ data: DATA, relaxed: true, simd: false }),
    { name: 'TypeError', message: /relaxed:true needs the SIMD engine/ });
});

test('a trainer on the scalar engine says it runs the scalar product', async () => {
  const tr = await createTrainer({ data: DATA, config: { emb: 8, enc_hidden: 8, dec_hidden: 8, attn: 8 }, simd: false });
  assert.equal(tr.engine.variant, 'wasm-scalar');
  assert.equal(tr.engine.kernels, 'scalar');
  assert.match(tr.engine.relaxed, /the wasm-scalar engine has no SIMD/);
  tr.dispose();
});

test('without the flag: wasm-simd with the reason, relaxed:true refused, the look-alike refused', () => {
  const out = runChild([]);
  assert.equal(out.kernel, null, 'the module does not validate here');
  assert.equal(out.auto.engine.kernels, 'wasm-simd');
  assert.match(out.auto.engine.relaxed, /relaxed SIMD not supported by this Node\.js/);
  assert.match(out.required, /relaxed:true was requested, but relaxed SIMD not supported/);
  assertLookAlikeRefused(out);
  assert.deepEqual(out.auto.losses, out.plain.losses, "'auto' without relaxed SIMD is relaxed:false");
});

test('with the flag: the fused product runs, equals an exact fused reference, and trains alike', () => {
  const out = runChild(['--experimental-wasm-relaxed-simd']);
  assert.deepEqual(out.kernel.bad, [], 'the kernel against fma in plain JS');
  // The reference tells fused from unfused on these values, or the equality shows nothing.
  assert.ok(out.kernel.unfusedDiffer > out.kernel.elements / 2,
    `${out.kernel.unfusedDiffer} of ${out.kernel.elements} elements differ from mul then add`);
  assertLookAlikeRefused(out);
  assert.equal(out.auto.engine.kernels, 'wasm-relaxed', out.auto.engine.relaxed);
  assert.equal(out.auto.engine.relaxed, 'relaxed SIMD supported');
  assert.equal(out.required, null, 'relaxed:true is granted');
  assert.equal(out.plain.engine.kernels, 'wasm-simd');
  assert.equal(out.plain.engine.relaxed, 'off (relaxed:false)');
  // Deterministic: the same bits twice.
  assert.deepEqual(out.again.losses, out.auto.losses);
  assert.equal(out.again.snapshot, out.auto.snapshot);
  // Another rounding, the same training: the weights differ in their last bits, the losses
  // stay within rounding of each other.
  assert.notEqual(out.auto.snapshot, out.plain.snapshot);
  out.auto.losses.forEach((loss, i) => {
    const rel = Math.abs(loss - out.plain.losses[i]) / out.plain.losses[i];
    assert.ok(rel < 1e-5, `step ${i + 1}: ${loss} fused, ${out.plain.losses[i]} plain`);
  });
});
