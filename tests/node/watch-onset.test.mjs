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

  // The same runs made by hand: each checkpoint's averaged snapshot, forced through each
  // reference, gives the row's flips; the latest weights differ somewhere, so reading them would fail.
  const flipsOf = async (model) => {
    const tr = await createTranslator({ model });
    try {
      return TINY.map(({ source, reference }) => findFlip(fromAlignment(source, reference, tr.align(source, reference))) !== null);
    } finally {
      tr.dispose();
    }
  };
  let differs = false;
  for (const seed of [3, 4]) {
    const trainer = await createTrainer({ data: DATA, config: CONFIG, ...SETTINGS, seed });
    try {
      for (const steps of [20, 40, 60]) {
        trainer.step(20);
        const row = rows.find((r) => r.seed === seed && r.steps === steps);
        assert.deepEqual(row.flips, await flipsOf(trainer.snapshot({ weights: 'average' })), `seed ${seed}, ${steps} steps`);
        assert.equal(row.heldout, trainer.evaluate({ weights: 'average' }));
        if (JSON.stringify(row.flips) !== JSON.stringify(await flipsOf(trainer.snapshot({ weights: 'latest' })))) differs = true;
      }
    } finally {
      trainer.dispose();
    }
  }
  assert.ok(differs, 'at some checkpoint the latest weights flip otherwise: the test can tell them apart');

  const sum = summarize(rows, TINY);
  assert.deepEqual(sum.map((s) => [s.steps, s.runs]), [[20, 2], [40, 2], [60, 2]]);
  assert.deepEqual(sum[2].flips, [0, 1].map((k) => rows.filter((r) => r.steps === 60 && r.flips[k]).length));
});

test('a candidate with a word outside the vocabularies, on either side, is refused, not counted as no flip', async () => {
  const run = (candidate) => watchOnset({ seeds: [1], from: 5, to: 5, every: 5, data: DATA, config: CONFIG, settings: SETTINGS, candidates: [candidate] });
  await assert.rejects(run({ source: 'I see the green car.', reference: 'Je vois la voiture rouge.' }),
    /"I see the green car\." .* outside the data's vocabularies/, 'green: English only');
  await assert.rejects(run({ source: 'I see the red car.', reference: 'Je vois la voiture verte.' }),
    /outside the data's vocabularies/, 'verte: French only');
  const [row] = await run({ source: 'I see the red car.', reference: 'Je vois la voiture rouge.' });
  assert.equal(row.flips.length, 1, 'inside both: measured');
});

test('its arguments, and the shipped candidates are hand-written flips', () => {
  assert.deepEqual(parseArgs(['--seeds', '1,2', '--to', '900', '--preset', 'tiny', '--json']),
    { seeds: [1, 2], to: 900, preset: 'tiny', json: true });
  assert.throws(() => parseArgs(['--preset', 'huge']), /--preset wants one of small, tiny/);
  assert.throws(() => parseArgs(['--every', '0']), /--every wants a positive integer/);
  assert.throws(() => parseArgs(['--seed', '1']), /unknown argument "--seed"/);
  assert.throws(() => parseArgs(['--seeds', '1,,2']), /--seeds wants integers/);
  assert.throws(() => parseArgs(['--seeds', '']), /--seeds wants integers/);
  assert.throws(() => parseArgs(['--from', '300', '--to', '100']), /--from 300 is after --to 100/);
  assert.ok(CANDIDATES.length >= 2 && CANDIDATES.every((c) => c.source && c.reference));
});
