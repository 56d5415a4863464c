// scripts/lib/watch-onset.mjs, the measure the train page's default watched sentence was chosen
// by: each checkpoint's flips are the page's own verdict (web/train/flip.js) on the averaged
// weights, a candidate outside the vocabularies is refused, and the summary counts seeds.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { createTrainer, createTranslator } from '../../web/lib/bahdanau.js';
import { findFlip } from '../../web/train/flip.js';
import { fromAlignment } from '../../web/train/watch.js';
import { CANDIDATES, parseArgs, summarize, watchOnset } from '../../scripts/lib/watch-onset.mjs';
import { ROOT, ensureEngines } from './helpers.mjs';

ensureEngines();

const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const CONFIG = { emb: 16, enc_hidden: 16, dec_hidden: 16, attn: 16 };
const SETTINGS = { lr: 2e-2, batchSize: 4 };
const TINY = [
  { source: 'I see the red car.', reference: 'Je vois la voiture rouge.' },
  { source: 'The black cat sleeps.', reference: 'Le chat noir dort.' },
];

test('each checkpoint holds the flip the page would show for its averaged weights', async () => {
  const opts = { seeds: [3, 4], from: 20, to: 60, every: 20, data: DATA, config: CONFIG, settings: SETTINGS, candidates: TINY };
  const rows = await watchOnset(opts);
  assert.deepEqual(rows.map((r) => [r.seed, r.steps]), [[3, 20], [3, 40], [3, 60], [4, 20], [4, 40], [4, 60]]);
  for (const r of rows) assert.ok(Number.isFinite(r.heldout) && r.flips.length === 2 && r.flips.every((f) => typeof f === 'boolean'));

  // The same run made by hand: its averaged snapshot, forced through each reference.
  const trainer = await createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, seed: 4 });
  try {
    trainer.step(60);
    const tr = await createTranslator({ model: trainer.snapshot({ weights: 'average' }) });
    const flips = TINY.map(({ source, reference }) => findFlip(fromAlignment(source, reference, tr.align(source, reference))) !== null);
    tr.dispose();
    assert.deepEqual(rows.at(-1).flips, flips);
    assert.equal(rows.at(-1).heldout, trainer.evaluate({ weights: 'average' }));
  } finally {
    trainer.dispose();
  }

  const sum = summarize(rows, TINY);
  assert.deepEqual(sum.map((s) => [s.steps, s.runs]), [[20, 2], [40, 2], [60, 2]]);
  assert.deepEqual(sum[2].flips, [0, 1].map((k) => rows.filter((r) => r.steps === 60 && r.flips[k]).length));
});

test('a candidate with a word outside the vocabularies is refused, not counted as no flip', async () => {
  await assert.rejects(
    watchOnset({ seeds: [1], from: 5, to: 5, every: 5, data: DATA, config: CONFIG, settings: SETTINGS,
      candidates: [{ source: 'I see a green car.', reference: 'Je vois la voiture verte.' }] }),
    /"I see a green car\." .* outside the data's vocabularies/);
});

test('its arguments, and the shipped candidates are hand-written flips', () => {
  assert.deepEqual(parseArgs(['--seeds', '1,2', '--to', '900', '--preset', 'tiny', '--json']),
    { seeds: [1, 2], to: 900, preset: 'tiny', json: true });
  assert.throws(() => parseArgs(['--preset', 'huge']), /--preset wants one of small, tiny/);
  assert.throws(() => parseArgs(['--every', '0']), /--every wants a positive integer/);
  assert.throws(() => parseArgs(['--seed', '1']), /unknown argument "--seed"/);
  assert.ok(CANDIDATES.length >= 2 && CANDIDATES.every((c) => c.source && c.reference));
});
