// Where the built engines live, and building them on first use, for the Node tools
// (scripts/translate.mjs, scripts/bench.mjs, tests/node/).
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// models/ in a clone; web/models/ in an installed npm package (scripts/lib/prepack.mjs).
export const DEFAULT_MODEL = [path.join(ROOT, 'models', 'en-fr.safetensors'), path.join(ROOT, 'web', 'models', 'en-fr.safetensors')]
  .find((f) => existsSync(f)) ?? path.join(ROOT, 'models', 'en-fr.safetensors');
export const NATIVE_CLI = path.join(ROOT, 'build', 'native', 'bahdanau-translate');
export const ENGINES = ['wasm-simd', 'wasm-scalar', 'native'];

// The built engine: what the page, the widget and the npm package load from web/dist.
export const WASM_FILES = ['simd', 'scalar'].flatMap((v) =>
  ['js', 'wasm'].map((ext) => path.join(ROOT, 'web', 'dist', `bahdanau-${v}.${ext}`)),
).concat(['bahdanau-relaxed.wasm', 'bahdanau-relaxed-gemm.wasm'].map((f) => path.join(ROOT, 'web', 'dist', f)));

// Builds the engine (scripts/setup + scripts/build) unless its files exist; progress goes to
// stderr so stdout stays the translations. Throws if the build fails. Processes asking at once
// (node --test runs test files in parallel) take turns on a lock: one builds, the others then
// find the files.
export function ensureBuilt(engine) {
  const native = engine === 'native';
  const files = native ? [NATIVE_CLI] : WASM_FILES;
  if (files.every((f) => existsSync(f))) return;
  if (!existsSync(path.join(ROOT, 'scripts', 'build'))) {
    // An installed npm package: it ships the wasm engines built, and no sources to build from.
    throw new Error(`the ${engine} engine is not in this installed package (it ships ` +
      'wasm-simd and wasm-scalar); build it from a clone of the repository');
  }
  const [setup, build] = native ? ['native', ''] : ['wasm', ' --wasm'];
  process.stderr.write(`bahdanau-live: the ${engine} engine is not built yet; building it ` +
    `(scripts/setup ${setup} && scripts/build${build})\n`);
  const quote = (f) => `'${f.replace(/'/g, `'\\''`)}'`;
  const built = files.map((f) => `[ -f ${quote(f)} ]`).join(' && ');
  const script = `${built} || { scripts/setup ${setup} && scripts/build${build}; }`;
  mkdirSync(path.join(ROOT, 'build'), { recursive: true });
  const lock = path.join(ROOT, 'build', '.engines.lock');
  const r = spawnSync('flock', [lock, 'bash', '-c', script], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`scripts/setup ${setup} && scripts/build${build} failed`);
}
