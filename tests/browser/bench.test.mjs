// scripts/bench --only browser: the page's engines timed in Chromium, where relaxed SIMD runs;
// they agree with wasm-relaxed (wasm-simd on every number, wasm-scalar and the peer on every
// token), the page is cross-origin isolated (a fine clock), and each translate() call takes at
// least the engine's own time.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { ROOT } from './helpers.mjs';

const BENCH = path.join(ROOT, 'scripts', 'bench');
const noOnnx = spawnSync('/usr/bin/python3', ['-c', 'import onnx']).status !== 0 &&
  'the onnx Python module is missing: scripts/setup python installs python3-onnx';

test('--only browser --peers: wasm-relaxed, wasm-simd, wasm-scalar and the peer agree', { timeout: 300_000, skip: noOnnx }, () => {
  const r = spawnSync(BENCH, ['--only', 'browser', '--peers', '--sentences', '6', '--repeat', '1', '--json'],
    { encoding: 'utf8', timeout: 280_000 });
  assert.equal(r.status, 0, r.stderr);
  const b = JSON.parse(r.stdout).browser;
  assert.match(b.browser, /^Chromium \d+/);
  assert.equal(b.isolated, true, 'the page is cross-origin isolated (a microsecond clock)');
  assert.equal(b.sentences, 6);
  assert.deepEqual(b.kernels, { 'wasm-relaxed': 'wasm-relaxed', 'wasm-simd': 'wasm-simd', 'wasm-scalar': 'scalar' });
  assert.deepEqual(b.differing, []);
  for (const e of Object.values(b.engines)) {
    // A call encloses the engine's work, so its median per token cannot be below the core's.
    assert.ok(e.coreMsPerToken > 0 && e.callMsPerToken >= e.coreMsPerToken, JSON.stringify(e));
  }
  assert.ok(b.peer.msPerToken > 0);
  assert.match(b.peer.name, /^onnxruntime-web \d+\.\d+/);
});

test('--browser is greedy only', () => {
  const r = spawnSync(BENCH, ['--only', 'browser', '--beam', '4'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--browser decodes greedily/);
});
