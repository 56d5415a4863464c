// Which engine variant to run, and loading it: one wasm instance per variant per page or
// process, shared by every translator (page, widgets, Node callers).

import { isNode } from './env.js';
import { NO_SIMD, installRelaxed } from './relaxed.js';

// The smallest module that needs final wasm SIMD: () -> v128 { i8x16.popcnt(i8x16.splat(0)) }.
// popcnt joined the proposal last, so an engine that validates this runs all of our kernels
// (the same probe as the wasm-feature-detect library).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

export const VARIANTS = {
  'wasm-simd': 'bahdanau-simd',
  'wasm-scalar': 'bahdanau-scalar',
};

export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// simd: 'auto' | true | false  ->  {variant, reason}
export function chooseVariant(simd = 'auto') {
  if (simd === false) return { variant: 'wasm-scalar', reason: 'forced by simd:false' };
  const supported = simdSupported();
  if (simd === true) {
    if (!supported) {
      throw new Error('simd:true was requested, but this JavaScript engine has no wasm SIMD');
    }
    return { variant: 'wasm-simd', reason: 'forced by simd:true' };
  }
  if (simd !== 'auto') {
    throw new TypeError(`simd must be 'auto', true or false, got ${String(simd)}`);
  }
  if (supported) return { variant: 'wasm-simd', reason: 'SIMD supported' };
  const where = isNode ? 'this Node.js' : 'this browser';
  return { variant: 'wasm-scalar', reason: `SIMD not supported by ${where}` };
}

const instances = new Map(); // `${dist}|${variant}` -> Promise<{module, instantiateMs}>

// dist: URL of the folder holding bahdanau-{simd,scalar}.{js,wasm} (web/dist by default).
export function loadVariant(variant, dist = defaultDist()) {
  if (!VARIANTS[variant]) throw new RangeError(`unknown engine variant ${variant}`);
  const key = `${dist}|${variant}`;
  if (!instances.has(key)) {
    const p = instantiate(new URL(`${VARIANTS[variant]}.js`, dist), variant === 'wasm-simd');
    // A failed load is not cached, so a later call can retry (e.g. after building the files).
    p.catch(() => instances.delete(key));
    instances.set(key, p);
  }
  return instances.get(key);
}

export function defaultDist() {
  return new URL('../dist/', import.meta.url);
}

// -> {module, instantiateMs, relaxed: {installed, reason}} (relaxed: wasm-simd only)
async function instantiate(glueUrl, simd) {
  const t0 = performance.now();
  const wasmUrl = new URL(glueUrl.href.replace(/\.js$/, '.wasm'));
  let options = {};
  let failed = null;
  if (isNode) {
    // Emscripten 3.1.6 would fetch() the .wasm by file path in Node 18+, which fails: read it.
    const { readFile } = await import('node:fs/promises');
    let bytes;
    try {
      bytes = await readFile(wasmUrl);
    } catch (e) {
      throw new Error(`cannot read ${wasmUrl.pathname}: ${e.message} (run scripts/build --wasm)`);
    }
    options = { wasmBinary: bytes };
  } else {
    // The wasm is fetched and compiled while the glue is imported and run, not after: on a slow
    // phone the glue alone took about 0.3 s before its own fetch began (scripts/bench
    // --first-visit). Emscripten hands over its imports through instantiateWasm; a failure is
    // raced against its ready promise, which would otherwise wait for an instance forever.
    const compiled = compileWasm(wasmUrl);
    compiled.catch(() => {}); // observed below, through failed
    let fail;
    failed = new Promise((_, reject) => {
      fail = reject;
    });
    options = {
      locateFile: () => wasmUrl.href,
      instantiateWasm: (imports, receive) => {
        compiled.then((m) => WebAssembly.instantiate(m, imports)).then((instance) => receive(instance), fail);
        return {};
      },
    };
  }
  const { default: factory } = await import(glueUrl.href);
  const module = await (failed ? Promise.race([factory(options), failed]) : factory(options));
  const relaxed = simd
    ? await installRelaxed(module, new URL('bahdanau-relaxed.wasm', glueUrl))
    : NO_SIMD;
  return { module, instantiateMs: performance.now() - t0, relaxed };
}

// -> Promise<WebAssembly.Module>, compiled as it streams in where the server sends
// application/wasm, else from the whole body (as Emscripten's own fallback does).
async function compileWasm(url) {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`cannot download ${url.href}: HTTP ${response.status} (run scripts/build --wasm)`);
  if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\b/.test(response.headers.get('Content-Type') ?? '')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
