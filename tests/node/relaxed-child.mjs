// Run by tests/node/relaxed.test.mjs in a Node started with the V8 flags under test; prints one
// JSON line: what web/lib made of relaxed SIMD there, the kernel's check against exact sums
// (where the JS engine validates it), and whether every translation equals relaxed:false's.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, fixturePath, relaxedModule } from './helpers.mjs';

const TINY_INT8 = ['additive', 'scaled_dot', 'none'].flatMap((s) =>
  ['', '-cgru'].map((d) => `tiny-${s}${d}-int8`)).concat(['tiny-transformer-int8']);

// qs8-wasmrelaxed.wat's dots on random shapes (extremes included) against sums in plain JS:
// -> a list of what differed (empty: all equal), or null where relaxed SIMD does not validate.
async function checkKernel() {
  const loaded = await relaxedModule('bahdanau-relaxed.wasm');
  if (!loaded) return null;
  const { instance, memory } = loaded;
  const i8 = new Int8Array(memory.buffer);
  const u8 = new Uint8Array(memory.buffer);
  const i32 = new Int32Array(memory.buffer);
  let seed = 7;
  const rand = (n) => (seed = (seed * 1103515245 + 12345) >>> 0) % n;
  const bad = [];
  const shapes = [[4, 16], [8, 48], [12, 128], [4, 896], [40, 256], [8, 2048], [16, 4096]];
  for (const [rows, cols] of shapes) {
    for (const mode of ['random', 'extreme-neg', 'extreme-pos']) {
      const ld = cols + 16 * rand(2);
      const W = 65536, uh = 16, ul = 16 + 8192, out = W + rows * ld + 64;
      for (let i = 0; i < rows * ld; i++) {
        i8[W + i] = mode === 'random' ? rand(256) - 128 : mode === 'extreme-neg' ? -128 : 127;
      }
      for (let k = 0; k < cols; k++) {
        u8[uh + k] = mode === 'random' ? rand(128) : 127;
        u8[ul + k] = mode === 'random' ? rand(128) : 127;
      }
      instance.exports.dots(W, ld, rows, cols, uh, ul, out);
      for (let r = 0; r < rows; r++) {
        let hi = 0;
        let lo = 0;
        for (let k = 0; k < cols; k++) {
          hi += i8[W + r * ld + k] * u8[uh + k];
          lo += i8[W + r * ld + k] * u8[ul + k];
        }
        const at = out / 4 + 8 * (r >> 2) + (r & 3);
        if (i32[at] !== hi || i32[at + 4] !== lo) {
          bad.push(`${rows}x${cols} ${mode} row ${r}: ${i32[at]}, ${i32[at + 4]} (want ${hi}, ${lo})`);
        }
      }
    }
  }
  return bad;
}

// Every tiny int8 fixture's texts and the shipped int8 models' sentences, greedy and beam 4,
// and batched, with relaxed 'auto' and false: -> the texts whose results differ in any number.
async function compareTranslations(sentences) {
  const differ = [];
  let kernels = null;
  const models = TINY_INT8.map((name) => {
    const doc = JSON.parse(readFileSync(fixturePath(`${name}.json`), 'utf8'));
    return { bytes: readFileSync(fixturePath(doc.model)), texts: doc.cases.map((c) => c.text), name };
  });
  for (const name of ['en-fr', 'en-fr-dot', 'en-fr-transformer']) {
    models.push({ bytes: readFileSync(path.join(ROOT, 'models', `${name}.safetensors`)), texts: sentences, name });
  }
  for (const { bytes, texts, name } of models) {
    const a = await createTranslator({ model: bytes });
    const b = await createTranslator({ model: bytes, relaxed: false });
    kernels = a.engine.kernels;
    const strip = (r) => JSON.stringify({ ...r, timings: null });
    for (const text of texts) {
      for (const beam of [1, 4]) {
        if (strip(a.translate(text, { beam })) !== strip(b.translate(text, { beam }))) {
          differ.push(`${name} beam ${beam}: ${text}`);
        }
      }
    }
    // Batched greedy decoding (the gemm kernels) against relaxed:false one at a time.
    a.translateBatch(texts).forEach((r, i) => {
      if (strip(r) !== strip(b.translate(texts[i]))) differ.push(`${name} batched: ${texts[i]}`);
    });
    a.dispose();
    b.dispose();
  }
  return { kernels, differ };
}

const sentences = JSON.parse(process.argv[2]);
const t = await createTranslator({ model: fixturePath('tiny-additive-int8.safetensors') });
const engine = t.engine;
t.dispose();
let required = null;
try {
  (await createTranslator({ model: fixturePath('tiny-additive-int8.safetensors'), relaxed: true })).dispose();
} catch (e) {
  required = e.message;
}
const kernel = await checkKernel();
const translations = await compareTranslations(sentences);
// A 4-bit model has no relaxed product: it runs, and reports, the wasm-simd kernels.
const q4 = await createTranslator({ model: fixturePath('tiny16-additive-cgru-q4.safetensors') });
const q4Kernels = q4.info().kernels;
q4.dispose();
process.stdout.write(`${JSON.stringify({ engine, required, kernel, translations, q4Kernels })}\n`);
