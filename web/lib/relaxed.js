// Relaxed SIMD modules for the wasm-simd engine, each built beside it: the int8 loop of
// translators (src/kernels/qs8-wasmrelaxed.wat, bahdanau-relaxed.wasm; the same results either
// way, faster where it runs: scripts/bench --browser) and the fused product of trainers
// (train-gemm-wasmrelaxed.wat, bahdanau-relaxed-gemm.wasm; other rounding, the same bits on
// every engine that installs it). Where the JS engine validates one, instantiate it on the
// engine's own memory, put its function into the engine's function table and hand the index to
// the C++ side, which checks it before using it. Anything that goes wrong here leaves the
// engine as it was, with the reason.

import { isNode } from './env.js';

// What the wasm-scalar engine reports.
export const NO_SIMD = { installed: false, reason: 'the wasm-scalar engine has no SIMD' };

// The reason the pages show (web/ui/strings.js says it in Chinese too) where a translator
// computes with the relaxed int8 products.
export const RELAXED_REASON = 'SIMD and relaxed SIMD supported';

// -> {installed: boolean, reason: string}
export function installRelaxed(module, wasmUrl) {
  return install(module, wasmUrl, 'dots', 'installRelaxed', 'exact sums');
}

// The fused training product (src/kernels/train-gemm-wasmrelaxed.wat, built to
// bahdanau-relaxed-gemm.wasm), for a trainer (web/lib/trainer.js): the C++ side installs it
// only where relaxed_madd rounds once, as its scalar twin does, so that training gives the same
// bits wherever it runs. -> {installed: boolean, reason: string}
export function installRelaxedGemm(module, wasmUrl) {
  return install(module, wasmUrl, 'gemm', 'installRelaxedGemm', 'its fused scalar twin');
}

// Instantiates wasmUrl on the engine's memory, puts its export `name` into the engine's
// function table and hands the index to the C++ installer `installer`, which checks it
// (against `checkedAgainst`) before using it.
async function install(module, wasmUrl, name, installer, checkedAgainst) {
  let bytes;
  try {
    bytes = await readBytes(wasmUrl);
  } catch (e) {
    return { installed: false, reason: `cannot read ${wasmUrl.href}: ${e.message}` };
  }
  if (!WebAssembly.validate(bytes)) {
    return { installed: false, reason: `relaxed SIMD not supported by this ${isNode ? 'Node.js' : 'browser'}` };
  }
  const exports = Object.values(module.asm ?? {});
  const memory = exports.find((e) => e instanceof WebAssembly.Memory);
  const table = exports.find((e) => e instanceof WebAssembly.Table);
  if (!memory || !table) return { installed: false, reason: 'the engine exports no memory or table' };
  let index = -1;
  try {
    const { instance } = await WebAssembly.instantiate(bytes, { env: { memory } });
    index = table.grow(1);
    table.set(index, instance.exports[name]);
    if (!module[installer](index)) {
      table.set(index, null);
      return { installed: false, reason: `relaxed SIMD failed its check against ${checkedAgainst}` };
    }
  } catch (e) {
    // Nothing was installed (each C++ installer sets its pointer only after its check).
    if (index >= 0) table.set(index, null);
    return { installed: false, reason: `cannot install relaxed SIMD: ${e.message}` };
  }
  return { installed: true, reason: 'relaxed SIMD supported' };
}

async function readBytes(url) {
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}
