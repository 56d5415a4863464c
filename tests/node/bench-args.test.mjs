// scripts/bench's arguments for the training tables (issue 25): --train-presets takes a comma
// list of the sizes it knows, and anything else is a usage error (exit 2) before any work;
// --baseline-dist trains another build beside this one, each trainer with its ratio to its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { throughputRatios, trainThroughputTable } from '../../scripts/lib/train-throughput.mjs';
import { ROOT } from './helpers.mjs';

const BENCH = path.join(ROOT, 'scripts', 'bench.mjs');
const bench = (args) => spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', timeout: 30_000, cwd: ROOT });

test('--train-presets takes the known sizes (then --help prints the usage and exits 0)', () => {
  for (const list of ['small', 'tiny', 'small,tiny', 'tiny,small']) {
    const r = bench(['--only', 'train', '--train-presets', list, '--help']);
    assert.equal(r.status, 0, `${list}: ${r.stderr}`);
    assert.match(r.stdout, /--train-presets L/);
  }
});

test('--train-presets refuses an unknown size, an empty item or a missing list', () => {
  for (const bad of [['huge'], [''], ['small,'], ['small,,tiny'], []]) {
    const r = bench(['--only', 'train', '--train-presets', ...bad]);
    assert.equal(r.status, 2, `${JSON.stringify(bad)}: ${r.stdout}`);
    assert.match(r.stderr, /usage: scripts\/bench .*\[--train-presets small,tiny\]/);
  }
});

test('--baseline-dist needs a folder, --only train, and the engines in it', () => {
  for (const missing of [[], [''], ['--json']]) {
    const r = bench(['--only', 'train', '--baseline-dist', ...missing]);
    assert.equal(r.status, 2, `${JSON.stringify(missing)}: ${r.stderr}`);
    assert.match(r.stderr, /^usage: scripts\/bench .*\[--baseline-dist DIR\]/);
  }
  let r;
  r = bench(['--only', 'engines', '--baseline-dist', 'web/dist']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--baseline-dist is for --only train/);
  r = bench(['--only', 'train', '--baseline-dist', path.join(ROOT, 'no-such-dist')]);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /no bahdanau-simd\.wasm in --baseline-dist .*no-such-dist/);
  // the build under test against itself: refused, whichever way the folder is written
  for (const args of [['--baseline-dist', path.join(ROOT, 'web', 'dist')],
    ['--dist', 'web/dist', '--baseline-dist', path.join(ROOT, 'web', 'dist') + '/']]) {
    r = bench(['--only', 'train', ...args]);
    assert.equal(r.status, 1, `${args}: ${r.stderr}`);
    assert.match(r.stderr, /is the build under test itself/);
  }
});

test('each trainer is compared with its own baseline row, and PyTorch with ours where it ran', () => {
  const row = (what, stepsPerSec) => ({ what, stepsPerSec, rounds: [stepsPerSec], lastLoss: 4 });
  const rows = [row('wasm-relaxed', 26), row('wasm-simd', 22), row('wasm-scalar', 5),
    row('wasm-simd (baseline)', 20), row('wasm-scalar (baseline)', 5), row('pytorch', 20)];
  const ratios = throughputRatios(rows);
  // no relaxed baseline row (a build without the fused product): no ratio, and said so
  assert.deepEqual(ratios.overBaseline, { 'wasm-simd': 1.1, 'wasm-scalar': 1 });
  assert.deepEqual(ratios.noBaseline, ['wasm-relaxed']);
  assert.equal(ratios.relaxedOverTorch, 1.3);
  const settings = { config: {}, batchSize: 32, lr: 5e-3, lrDecaySteps: 1000, average: 0.998, clip: 1, rounds: 1,
    steps: 5, warm: 3, data: path.join(ROOT, 'web', 'data', 'train-en-fr.bin'), dist: 'web/dist', baselineDist: 'old' };
  const load = { before: 0, after: 0, cpus: 2 };
  const table = trainThroughputTable({ settings, load, rows, ratios });
  assert.match(table, /baseline from old/);
  assert.match(table, /this build \/ its baseline: wasm-simd 1\.10x, wasm-scalar 1\.00x, wasm-relaxed on one side only/);
  // a trainer the baseline has and this build lost
  assert.deepEqual(throughputRatios([row('wasm-simd', 22), row('wasm-relaxed (baseline)', 26),
    row('wasm-simd (baseline)', 22)]).noBaseline, ['wasm-relaxed']);
  // neither PyTorch nor a baseline: no ratio, and a table with the rows alone
  const alone = rows.filter((r) => r.what !== 'pytorch' && !r.what.includes('baseline'));
  assert.deepEqual(throughputRatios(alone), {});
  const plain = trainThroughputTable({ settings: { ...settings, baselineDist: undefined }, load, rows: alone, ratios: {} });
  assert.match(plain, /wasm-relaxed +26\.00/);
  assert.doesNotMatch(plain, /pytorch|baseline/);
});
