// Shared by tests/node/*.test.mjs: fixtures, engines, and running the CLIs.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { DEFAULT_MODEL, NATIVE_CLI, ROOT, ensureBuilt } from '../../scripts/lib/engines.mjs';

export { DEFAULT_MODEL, NATIVE_CLI, ROOT };

// Every tiny golden model: additive, scaled dot and no attention, both decoders, f32 and int8.
// The tiny models (scripts/nmt/golden.py), f32 and int8, and the 16-wide 4-bit ones.
export const FIXTURES = ['additive', 'scaled_dot', 'none'].flatMap((scoring) =>
  ['', '-cgru'].flatMap((decoder) => ['f32', 'int8'].map((dtype) => `tiny-${scoring}${decoder}-${dtype}`)))
  .concat(['tiny16-additive-cgru-q4', 'tiny16-scaled_dot-q4', 'tiny16-none-cgru-q4']);
export const WASM = ['wasm-simd', 'wasm-scalar'];
export const TINY = fixturePath('tiny-additive-f32.safetensors');

export function fixturePath(name) {
  return path.join(ROOT, 'tests', 'fixtures', name);
}

export function fixture(name) {
  return JSON.parse(readFileSync(fixturePath(`${name}.json`), 'utf8'));
}

// One of web/dist's relaxed-SIMD modules (bahdanau-relaxed.wasm, bahdanau-relaxed-gemm.wasm),
// instantiated on a memory of its own (64 pages) to test its loop directly:
// -> {instance, memory}, or null where this JS engine does not validate relaxed SIMD.
export async function relaxedModule(file) {
  const bytes = readFileSync(path.join(ROOT, 'web', 'dist', file));
  if (!WebAssembly.validate(bytes)) return null;
  const memory = new WebAssembly.Memory({ initial: 64 });
  const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
  return { instance, memory };
}

// Builds what is missing once per test file (the first test file to run builds, the others
// find the files).
export function ensureEngines() {
  ensureBuilt('wasm-simd');
  ensureBuilt('native');
}

export function translator(model, variant) {
  ensureEngines();
  return createTranslator({ model, simd: variant === 'wasm-simd' });
}

// The shipped models: en-fr (additive) and en-fr-dot (scaled dot-product), both trained by
// translation alone; en-fr-guided (additive, trained with an aligner's hint); en-fr-noattn (no
// attention), en-fr-transformer, and en-zh (additive, English->Chinese).
export const SHIPPED = ['en-fr', 'en-fr-dot', 'en-fr-guided', 'en-fr-noattn', 'en-fr-transformer', 'en-zh'];

export function shippedModelOrFail(name = 'en-fr') {
  const file = path.join(ROOT, 'models', `${name}.safetensors`);
  if (!existsSync(file)) {
    throw new Error(
      `the shipped model ${path.relative(ROOT, file)} is missing: this test needs it ` +
        '(train and export it, or copy it there) and does not pass without it',
    );
  }
  return file;
}

// timeout (ms): kill the command then (r.status is null), for what might hang.
export function run(cmd, args, input = '', { timeout } = {}) {
  const r = spawnSync(cmd, args, { input, maxBuffer: 256 << 20, cwd: ROOT, timeout });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

export function nodeCli(args, input, options) {
  return run(process.execPath, [path.join(ROOT, 'scripts', 'translate.mjs'), ...args], input, options);
}

export function nativeCli(args, input, options) {
  ensureEngines();
  return run(NATIVE_CLI, args, input, options);
}

// Paths that are not model files, each with what the loaders say it is ("model file PATH is
// WHY"): a directory, /dev/zero, a FIFO with no writer, and a sparse file over the 256 MiB cap.
// Removed after the test t.
export function notModelFiles(t) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bl-not-models-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const huge = path.join(dir, 'huge.safetensors');
  writeFileSync(huge, '');
  truncateSync(huge, 300 * 2 ** 20); // no disk used
  return [
    [dir, 'a directory, not a regular file'],
    ['/dev/zero', 'a character device, not a regular file'],
    [fifo, 'a FIFO, not a regular file'],
    [huge, '314572800 bytes, over the 256 MiB limit (268435456 bytes)'],
  ];
}

// Native greedy/beam outputs for many sentences in one process: their target tokens.
export function nativeTargets(model, sentences, { beam = 1 } = {}) {
  const r = nativeCli(['--model', model, '--json', '--beam', String(beam)], `${sentences.join('\n')}\n`);
  const lines = r.stdout.trimEnd().split('\n');
  if (lines.length !== sentences.length) {
    throw new Error(`native CLI gave ${lines.length} lines for ${sentences.length}: ${r.stderr}`);
  }
  return lines.map((l) => JSON.parse(l).target ?? null);
}

// The --json lines with timings masked: all else must match byte for byte.
export function maskTimings(text) {
  return text.replace(/"timings":\{[^}]*\}/g, '"timings":{}');
}
