// Shared by tests/node/*.test.mjs: fixtures, engines, and running the CLIs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { DEFAULT_MODEL, NATIVE_CLI, ROOT, ensureBuilt } from '../../scripts/lib/engines.mjs';

export { DEFAULT_MODEL, NATIVE_CLI, ROOT };

// Every tiny golden model: additive, scaled dot and no attention, both decoders, f32 and int8.
export const FIXTURES = ['additive', 'scaled_dot', 'none'].flatMap((scoring) =>
  ['', '-cgru'].flatMap((decoder) => ['f32', 'int8'].map((dtype) => `tiny-${scoring}${decoder}-${dtype}`)));
export const WASM = ['wasm-simd', 'wasm-scalar'];
export const TINY = fixturePath('tiny-additive-f32.safetensors');

export function fixturePath(name) {
  return path.join(ROOT, 'tests', 'fixtures', name);
}

export function fixture(name) {
  return JSON.parse(readFileSync(fixturePath(`${name}.json`), 'utf8'));
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

// The shipped models: en-fr (additive) and en-fr-dot (scaled dot-product).
export const SHIPPED = ['en-fr', 'en-fr-dot'];

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

export function run(cmd, args, input = '') {
  const r = spawnSync(cmd, args, { input, maxBuffer: 256 << 20, cwd: ROOT });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

export function nodeCli(args, input) {
  return run(process.execPath, [path.join(ROOT, 'scripts', 'translate.mjs'), ...args], input);
}

export function nativeCli(args, input) {
  ensureEngines();
  return run(NATIVE_CLI, args, input);
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
