// Run by tests/node/relaxed-gemm.test.mjs in a Node started with the V8 flags under test; prints
// one JSON line: the fused training product (bahdanau-relaxed-gemm.wasm) against an exact fused
// reference in plain JS, what the installer made of an unfused look-alike, and three short
// trainings (relaxed 'auto' twice, relaxed:false) with the kernels each ran on.
// argv[2]: JSON {unfused: path of the look-alike .wasm}.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { createTrainer } from '../../web/lib/bahdanau.js';
import { loadVariant } from '../../web/lib/loader.js';
import { installRelaxedGemm } from '../../web/lib/relaxed.js';
import { ROOT, relaxedModule } from './helpers.mjs';

const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const CONFIG = { emb: 16, enc_hidden: 16, dec_hidden: 16, attn: 16 };
const SETTINGS = { lr: 1e-2, batchSize: 4, seed: 5 };
const STEPS = 30;
const { unfused } = JSON.parse(process.argv[2]);

// fma(a, b, c) in float32, rounded once: a*b is exact in double (24-bit by 24-bit), the sum's
// error is recovered exactly (TwoSum), and rounding the double sum to odd before Math.fround
// makes the second rounding give the correctly rounded float.
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
function fma32(a, b, c) {
  const p = a * b;
  const s = p + c;
  const bb = s - p;
  const e = (p - (s - bb)) + (c - bb);
  if (e === 0 || !Number.isFinite(s)) return Math.fround(s);
  f64[0] = s;
  if ((u64[0] & 1n) === 0n) u64[0] += (e > 0) === (s > 0) ? 1n : -1n;
  return Math.fround(f64[0]);
}

// The module's gemm on random shapes that take every tile (rows mod 4, columns mod 8 and 16),
// both strides of A (the transposed reads the trainer makes), ld > N and K = 0:
// -> {bad: what differs from fma32 (empty: nothing), elements, unfusedDiffer}, or null where
// relaxed SIMD does not validate.
async function checkKernel() {
  const loaded = await relaxedModule('bahdanau-relaxed-gemm.wasm');
  if (!loaded) return null;
  const { instance, memory } = loaded;
  const f32 = new Float32Array(memory.buffer);
  let seed = 5;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  const bad = [];
  let elements = 0;
  let unfusedDiffer = 0;
  const shapes = [[1, 4, 0], [4, 8, 1], [5, 12, 7], [6, 24, 9], [9, 36, 16], [13, 100, 33], [3, 256, 64], [8, 4, 700], [7, 20, 70]];
  for (const [M, N, K] of shapes) {
    for (const transposed of [false, true]) {
      for (let rep = 0; rep < 3; rep++) {
        const aRow = transposed ? 1 : K + 1;
        const aCol = transposed ? M + 2 : 1;
        const ldb = N + 3;
        const ldc = N + 1;
        const A = 16;
        const B = A + (transposed ? (K + 1) * aCol : M * aRow + 4);
        const C = B + (K + 1) * ldb + 4;
        for (let i = A; i < C + M * ldc + 4; i++) f32[i] = Math.fround(rnd());
        const C0 = f32.slice(C, C + M * ldc + 4);
        instance.exports.gemm(M, N, K, A * 4, aRow, aCol, B * 4, ldb, C * 4, ldc);
        for (let m = 0; m < M; m++) {
          for (let j = 0; j < ldc; j++) {
            let want = C0[m * ldc + j];
            let plain = want;
            if (j < N) {
              for (let k = 0; k < K; k++) {
                const a = f32[A + m * aRow + k * aCol];
                const b = f32[B + k * ldb + j];
                want = fma32(a, b, want);
                plain = Math.fround(plain + Math.fround(a * b));
              }
            }
            const got = f32[C + m * ldc + j];
            elements++;
            if (!Object.is(got, want) && bad.length < 10) bad.push(`${M}x${N}x${K}${transposed ? 'T' : ''} at ${m},${j}: ${got}, want ${want}`);
            if (!Object.is(got, plain)) unfusedDiffer++;
          }
        }
        for (let i = 0; i < 4; i++) {
          if (f32[C + M * ldc + i] !== C0[M * ldc + i]) bad.push(`${M}x${N}x${K}: wrote past C`);
        }
      }
    }
  }
  return { bad, elements, unfusedDiffer };
}

async function train(relaxed) {
  const tr = await createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, relaxed });
  const { losses } = tr.step(STEPS);
  const snapshot = Buffer.from(tr.snapshot()).toString('base64');
  const out = { engine: tr.engine, losses, snapshot };
  tr.dispose();
  return out;
}

const kernel = await checkKernel();
// The look-alike first, on the engine instance the trainers share, before the real one is in.
const { module } = await loadVariant('wasm-simd');
const lookAlike = await installRelaxedGemm(module, pathToFileURL(unfused));
const auto = await train('auto');
const again = await train('auto');
const plain = await train(false);
let required = null;
try {
  (await createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, relaxed: true })).dispose();
} catch (e) {
  required = e.message;
}
process.stdout.write(`${JSON.stringify({ kernel, lookAlike, auto, again, plain, required })}\n`);
