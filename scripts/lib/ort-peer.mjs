// The peer of scripts/bench --peers: onnxruntime-web (its wasm backend, in this Node process)
// running the graphs of scripts/nmt/onnx_export.py, with scripts/lib/ort-greedy.mjs's greedy
// loop, which follows the reference's rules.
// Bench and tests only: onnxruntime-web is a devDependency, and nothing under web/ loads it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { ROOT } from './engines.mjs';
import { OrtGreedy, top2 } from './ort-greedy.mjs';

export { top2 };

const ORT_DIST = path.join(ROOT, 'node_modules', 'onnxruntime-web', 'dist');

let ortPromise = null;

// onnxruntime-web configured as the bench needs it: one thread (the page, and so our engines,
// run without COOP/COEP, hence without wasm threads), SIMD, no proxy worker, and its .wasm read
// from node_modules (never fetched).
export function loadOrt() {
  ortPromise ??= (async () => {
    let ort;
    try {
      ort = await import('onnxruntime-web');
    } catch (e) {
      throw new Error('onnxruntime-web is not installed (an npm devDependency): run ' +
        `scripts/setup browser, or npm ci (${e.message})`);
    }
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.simd = true; // 1.30 ships SIMD builds only; older versions had a choice
    ort.env.wasm.wasmPaths = `${ORT_DIST}${path.sep}`;
    ort.env.logLevel = 'error';
    return ort;
  })();
  return ortPromise;
}

export function ortVersion() {
  return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'onnxruntime-web', 'package.json'),
    'utf8')).version;
}

export class OrtPeer extends OrtGreedy {
  // The graphs of graphDir (build/onnx/<model>-<hash>/), read from disk.
  static async create(graphDir) {
    const ort = await loadOrt();
    const info = JSON.parse(readFileSync(path.join(graphDir, 'peer.json'), 'utf8'));
    const read = (name) => readFileSync(path.join(graphDir, info.graphs[name]));
    return this.fromBytes(ort, info, read('encoder'), read('decoder_step'));
  }
}
