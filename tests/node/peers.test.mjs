// scripts/bench --peers: onnxruntime-web on the same weights decodes the same tokens as our
// wasm-simd engine, with the same greedy rules, and the page never loads onnxruntime.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { top2 } from '../../scripts/lib/ort-peer.mjs';
import { ROOT, ensureEngines } from './helpers.mjs';

const BENCH = path.join(ROOT, 'scripts', 'bench');
// The peer's graphs are exported by Debian's python3-onnx (scripts/setup python installs it).
const noOnnx = spawnSync('/usr/bin/python3', ['-c', 'import onnx']).status !== 0 &&
  'the onnx Python module is missing: scripts/setup python installs python3-onnx';

test('--only peers on a few dev sentences: the same tokens as ours, and the ratios', { skip: noOnnx }, () => {
  ensureEngines();
  const r = spawnSync(BENCH, ['--only', 'peers', '--sentences', '6', '--repeat', '1', '--json'],
    { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['peers']);
  const p = out.peers;
  assert.match(p.peer, /^onnxruntime-web \d+\.\d+/);
  assert.equal(p.sentences, 6);
  assert.equal(p.differingSentences, 0, JSON.stringify(p.differing));
  assert.equal(p.graphDtype, 'f32');
  assert.match(p.graphs, /^build\/onnx\/en-fr-[0-9a-f]{12}$/);
  for (const pass of [p.alone, p.interleaved]) {
    for (const k of ['oursCoreMsPerToken', 'oursCallMsPerToken', 'peerMsPerToken']) {
      assert.ok(pass[k] > 0 && Number.isFinite(pass[k]), `${k} = ${pass[k]}`);
    }
    assert.equal(pass.ratioCore, pass.oursCoreMsPerToken / pass.peerMsPerToken);
    assert.equal(pass.ratioCall, pass.oursCallMsPerToken / pass.peerMsPerToken);
  }
  assert.match(p.int8.skipped, /no int8 peer/);
});

test('--peers is greedy only: beam search is refused with a reason', { skip: noOnnx }, () => {
  const r = spawnSync(BENCH, ['--only', 'peers', '--beam', '2', '--sentences', '1'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--peers decodes greedily \(beam 1\)/);
});

test('the peer arg max breaks ties to the lower id, as the core does', () => {
  assert.deepEqual(top2(Float32Array.of(1, 3, 3, 2)), [1, 2]);
  assert.deepEqual(top2(Float32Array.of(5, 5)), [0, 1]);
  assert.deepEqual(top2(Float32Array.of(-1, -4, -0.5, -0.5, -2)), [2, 3]);
  assert.deepEqual(top2(Float32Array.of(9, 1, 1)), [0, 1]);
});

test('onnxruntime-web is a bench-only devDependency: nothing the page serves names it', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.ok(pkg.devDependencies['onnxruntime-web']);
  assert.equal(pkg.dependencies?.['onnxruntime-web'], undefined);
  assert.ok(!pkg.files.some((f) => /onnx|node_modules|peer/.test(f)), pkg.files.join(' '));
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const named = walk(path.join(ROOT, 'web'))
    .filter((f) => /\.(m?js|html|json|css)$/.test(f) && /onnxruntime|ort-wasm/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(named, []);
});
