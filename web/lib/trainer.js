// A fresh Bahdanau model trained by backpropagation, in the tab or in Node (issue 25): the
// core's bl::Trainer over one engine instance, as createTranslator runs bl::Translator.
//
//   import { createTrainer } from './web/lib/trainer.js';
//   const tr = await createTrainer({ data: bytes, config: { scoring: 'additive' } });
//   const { losses, steps, epochs } = tr.step(50);  // 50 Adam steps on the next 50 batches
//   tr.evaluate();                                   // the held-out pairs' mean loss, or null
//   const file = tr.snapshot();                      // an f32 model file: createTranslator({model: file})
//   tr.snapshot({ weights: 'latest' });              // the last step's weights, not their average
//   tr.dispose();
//
// data: the training data file (docs/training-core.md; scripts/train-data writes it) as bytes
// (Uint8Array, ArrayBuffer), a URL, or a file path in Node; plain, or gzip-compressed as
// web/data/train-en-fr.bin is (inflated here, so that any static host sends a quarter of it). config: the model's sizes and kinds
// as TrainConfig's JSON form ({decoder, scoring, emb, enc_hidden, dec_hidden, attn,
// max_src_len, max_tgt_len}); the vocabularies come from the data. lr, clip, batchSize, seed,
// dropout, labelSmoothing, average: numbers, the core checks their ranges. average (default
// 0.998; 0 for none) is the decay of the weights' moving average (docs/training-core.md,
// "Averaged weights"), which evaluate() and snapshot() read unless given {weights: 'latest'}:
// a young model's latest weights waver with its last batches, their average is steadier. step() runs on the calling
// thread: a page runs the trainer in a Web Worker, so that the tab stays responsive.
// relaxed: 'auto' (default) | true | false: every product with relaxed SIMD's fused
// multiply-add (bahdanau-relaxed-gemm.wasm, src/kernels/train-gemm-wasmrelaxed.wat) where the
// JS engine runs it fused, which trains faster (docs/training-core.md, "Fused multiply-add").
// Its losses differ from relaxed:false's by rounding, and are the same bits on every engine
// that runs it; true throws where it cannot run. tr.engine says which kernels run and why.

import { checkInt, describe, optionsArg } from './args.js';
import { isNode } from './env.js';
import { own, release } from './handles.js';
import { chooseVariant, defaultDist, loadVariant } from './loader.js';
import { unwrap } from './native.js';
import { NO_SIMD, installRelaxedGemm } from './relaxed.js';

const MAX_DATA_BYTES = 64 * 2 ** 20; // the parser's own bound (src/core/train_data.cpp)
// createTrainer's numeric options; training.js checks and train-worker.js passes on the same list.
export const OPTION_NUMBERS = ['lr', 'lrDecaySteps', 'clip', 'batchSize', 'seed', 'dropout', 'labelSmoothing', 'average'];

export async function createTrainer(options) {
  const opts = optionsArg(options, 'createTrainer');
  const { data, config = {}, simd = 'auto', relaxed = 'auto', dist } = opts;
  if (config === null || typeof config !== 'object' || Array.isArray(config)) {
    throw new TypeError(`createTrainer: config must be an object, got ${describe(config)}`);
  }
  checkRelaxed(relaxed, simd, 'createTrainer');
  const settings = {};
  for (const key of OPTION_NUMBERS) {
    if (opts[key] === undefined) continue;
    if (typeof opts[key] !== 'number') {
      throw new TypeError(`createTrainer: ${key} must be a number, got ${describe(opts[key])}`);
    }
    settings[key] = opts[key];
  }
  const choice = chooseVariant(simd);
  const [engine, bytes] = await Promise.all([loadVariant(choice.variant, dist), dataBytes(data)]);
  const fused = relaxed === false ? { installed: false, reason: 'off (relaxed:false)' }
    : await relaxedGemm(engine.module, choice.variant, dist);
  if (relaxed === true && !fused.installed) {
    throw new Error(`createTrainer: relaxed:true was requested, but ${fused.reason}`);
  }
  settings.relaxed = fused.installed;
  return new Trainer(engine.module, choice, bytes, JSON.stringify(config), settings, fused.reason);
}

// The relaxed option, with the simd one it must agree with; startTraining checks it too, at once.
export function checkRelaxed(relaxed, simd, where) {
  if (relaxed !== 'auto' && relaxed !== true && relaxed !== false) {
    throw new TypeError(`${where}: relaxed must be 'auto', true or false, got ${describe(relaxed)}`);
  }
  if (relaxed === true && simd === false) {
    throw new TypeError(`${where}: relaxed:true needs the SIMD engine, and simd:false asks for the scalar one`);
  }
}

// The fused training product, installed once per engine instance (loader.js shares them). A
// module that could not be read is not remembered, so that a later trainer tries again (after
// a build, say), as loader.js does with engines; what the check decided is.
const gemmInstalls = new WeakMap();
function relaxedGemm(module, variant, dist) {
  if (variant !== 'wasm-simd') return NO_SIMD;
  if (!gemmInstalls.has(module)) {
    const p = installRelaxedGemm(module, new URL('bahdanau-relaxed-gemm.wasm', dist ?? defaultDist()));
    gemmInstalls.set(module, p);
    p.then((r) => {
      if (!r.installed && r.reason.startsWith('cannot read')) gemmInstalls.delete(module);
    });
  }
  return gemmInstalls.get(module);
}

// -> Uint8Array: the file at a URL (fetched; in Node too for http:, https:) or a path or file:
// URL in Node. what names it in an HTTP error ("<what> <where>: HTTP 404"). Also the gold
// links' reader (train-worker.js).
export async function readSource(source, what) {
  const url = isNode ? null : new URL(source, globalThis.location?.href);
  if (url || /^https?:/.test(String(source))) {
    const res = await fetch(url ?? source);
    if (!res.ok) throw new Error(`${what} ${url ?? source}: HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }
  const { readFile } = await import('node:fs/promises');
  const s = String(source);
  return new Uint8Array(await readFile(source instanceof URL || s.startsWith('file:') ? new URL(s) : s));
}

async function dataBytes(data) {
  let bytes;
  if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else if (data instanceof Uint8Array) bytes = data;
  else if (typeof data === 'string' || data instanceof URL) {
    bytes = await readSource(data, 'createTrainer: the training data at');
  } else {
    throw new TypeError(`createTrainer: data must be bytes, a URL or a file path, got ${describe(data)}`);
  }
  const tooBig = () => bytes.byteLength > MAX_DATA_BYTES;
  if (!tooBig() && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzip(bytes);
  if (tooBig()) {
    throw new RangeError(`createTrainer: the training data is ${bytes.byteLength} bytes, over the ${MAX_DATA_BYTES} the format allows`);
  }
  return bytes;
}

// gzip's magic leads: inflate, stopping as soon as the output passes the format's bound, so a
// small hostile file cannot inflate to gigabytes first. A plain data file starts with "bahdanau-train",
// never with 0x1f 0x8b.
async function gunzip(bytes) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('createTrainer: the training data is gzip-compressed, and this JavaScript engine has no DecompressionStream to inflate it');
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_DATA_BYTES) {
        reader.cancel().catch(() => {});
        throw new RangeError(`createTrainer: the training data inflates to over the ${MAX_DATA_BYTES} bytes the format allows`);
      }
      parts.push(value);
    }
  } catch (e) {
    if (e instanceof RangeError) throw e;
    throw new Error(`createTrainer: the training data is not valid gzip: ${e.message}`);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

class Trainer {
  #rec;

  // engine: {variant, reason (why that variant), kernels: 'wasm-relaxed' | 'wasm-simd' |
  // 'scalar' (what the products run on), relaxed (why the fused product runs or not)}.
  constructor(module, { variant, reason }, bytes, configJson, settings, relaxed) {
    const native = new module.Trainer();
    unwrap(native.create(bytes, configJson, settings), 'createTrainer: ', () => native.delete());
    this.#rec = own(module, native, this);
    this.engine = { variant, reason, kernels: unwrap(native.kernels(), 'createTrainer: '), relaxed };
  }

  #native(method) {
    if (this.#rec.released) throw new Error(`${method}(): the trainer was disposed`);
    return this.#rec.handle;
  }

  // -> {losses: [one per step], steps: Adam updates so far, epochs: passes over the data done}
  step(n = 1) {
    const native = this.#native('step');
    checkInt('n', n, 1, 10000);
    return unwrap(native.step(n), 'step(): ');
  }

  // -> the held-out pairs' mean loss per target token (no dropout, no smoothing), or null.
  // options.weights: 'average' (default) or 'latest', as for snapshot().
  evaluate(options) {
    const latest = latestArg(options, 'evaluate');
    return unwrap(this.#native('evaluate').evaluate(latest), 'evaluate(): ');
  }

  // -> Uint8Array: the weights as an f32 model file. options.weights: 'average' (default: the
  // moving average of the weights, which is the latest weights when average is 0) or 'latest'.
  snapshot(options) {
    const latest = latestArg(options, 'snapshot');
    return unwrap(this.#native('snapshot').snapshot(latest), 'snapshot(): ');
  }

  dispose() {
    release(this.#rec);
  }
}

// {weights: 'average' | 'latest'} (or nothing) -> whether the latest weights are asked for.
function latestArg(options, method) {
  const { weights = 'average' } = optionsArg(options, method);
  if (weights !== 'average' && weights !== 'latest') {
    throw new TypeError(`${method}(): weights must be 'average' or 'latest', got ${describe(weights)}`);
  }
  return weights === 'latest';
}
