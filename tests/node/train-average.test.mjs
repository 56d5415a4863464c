// scripts/lib/train-average.mjs: the averaged and the latest weights measured at the same steps
// of one run, and the summary the docs' table is read from.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { compareAverage, parseArgs, summarize } from '../../scripts/lib/train-average.mjs';
import { ROOT, ensureEngines } from './helpers.mjs';

ensureEngines();

const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const CONFIG = { emb: 16, enc_hidden: 16, dec_hidden: 16, attn: 16 };
const GOLD = [{ en: 'The cat is black.', fr: 'Le chat est noir.', enTokens: ['the', 'cat', 'is', 'black', '.'], sure: [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]] }];

test('each checkpoint is measured on both weight sets of the same run; average 0 makes them equal', async () => {
  const opts = { seeds: [5, 6], from: 10, to: 30, every: 10, data: DATA, gold: GOLD, config: CONFIG,
    settings: { lr: 1e-2, batchSize: 4 }, watch: { source: 'The cat is black.', reference: 'Le chat est noir.' } };
  const rows = await compareAverage(opts);
  assert.deepEqual(rows.map((r) => [r.seed, r.steps]), [[5, 10], [5, 20], [5, 30], [6, 10], [6, 20], [6, 30]]);
  for (const r of rows) {
    for (const w of ['average', 'latest']) {
      assert.ok(Number.isFinite(r[w].heldout) && r[w].accuracy >= 0 && r[w].accuracy <= 1 && typeof r[w].flip === 'boolean');
    }
    assert.notEqual(r.average.heldout, r.latest.heldout, 'two weight sets');
  }
  const same = await compareAverage({ ...opts, seeds: [5], to: 10, average: 0 });
  assert.deepEqual(same[0].average, same[0].latest, 'without an average both are the latest weights');
  assert.equal(same[0].latest.heldout, rows[0].latest.heldout, 'the average does not change training');
  const sum = summarize(rows);
  assert.deepEqual(sum.map((s) => [s.steps, s.runs]), [[10, 2], [20, 2], [30, 2]]);
  const at20 = rows.filter((r) => r.steps === 20);
  assert.equal(sum[1].average.heldout, (at20[0].average.heldout + at20[1].average.heldout) / 2);
  assert.equal(sum[1].latest.flips, at20.filter((r) => r.latest.flip).length);
});

test('its arguments: the checkpoints, the seeds and the decay, each checked', () => {
  assert.deepEqual(parseArgs(['--seeds', '3,4', '--from', '600', '--average', '0.99', '--json']),
    { seeds: [3, 4], from: 600, average: 0.99, json: true });
  assert.throws(() => parseArgs(['--average', '1']), /--average wants a number in \(0, 1\)/);
  assert.throws(() => parseArgs(['--seeds', '1,x']), /--seeds wants integers/);
  assert.throws(() => parseArgs(['--to', '-5']), /--to wants a positive integer/);
  assert.throws(() => parseArgs(['--preset', 'tiny']), /unknown argument "--preset"/);
});
