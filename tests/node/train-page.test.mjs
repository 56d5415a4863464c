// train.html's pure parts: the flip it looks for in a watched matrix (web/train/flip.js, which
// scripts/bench --only train reports too), the watched sentences' two views (web/train/watch.js),
// its URL parameters (web/train/params.js), and what the service worker keeps of it
// (scripts/lib/offline-manifest.mjs).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { offlineManifest } from '../../scripts/lib/offline-manifest.mjs';

import { findFlip, flipHistory, strongest } from '../../web/train/flip.js';
import { readTrainParams } from '../../web/train/params.js';
import { WATCH, fromAlignment, fromTranslation, pairViews, watchOptions } from '../../web/train/watch.js';

const SOURCE = ['the', 'black', 'cat', 'is', 'sleeping', '.', '</s>'];
const one = (j, n = SOURCE.length) => Array.from({ length: n }, (_, k) => (k === j ? 0.9 : 0.1 / (n - 1)));

test('the flip: two neighbouring French words looking at two English ones in swapped order', () => {
  const flipped = { sourceTokens: SOURCE, targetTokens: ['le', 'chat', 'noir', 'dort', '.'], attention: [one(0), one(2), one(1), one(4), one(5)] };
  assert.deepEqual(findFlip(flipped), { rows: [1, 2], columns: [2, 1], words: ['chat', 'noir'], sourceWords: ['cat', 'black'] });
  const inOrder = { ...flipped, attention: [one(0), one(1), one(2), one(4), one(5)] };
  assert.equal(findFlip(inOrder), null, 'the diagonal is no flip');
  // Looking at </s> and then the last word is not aligning.
  const end = { ...flipped, attention: [one(0), one(6), one(5), one(5), one(5)] };
  assert.equal(findFlip(end), null);
  assert.equal(findFlip({ sourceTokens: SOURCE, targetTokens: [], attention: [] }), null, 'no rows (no attention)');
  assert.throws(() => findFlip({ sourceTokens: SOURCE }), /expects \{sourceTokens, targetTokens, attention\}/);
  assert.equal(strongest([0.2, 0.5, 0.5]), 1, 'ties go to the first');
  assert.equal(strongest([]), -1);
});

test('the flip across the records: when it first appeared and how often since, per sentence and view', () => {
  const flipped = { sourceTokens: SOURCE, targetTokens: ['le', 'chat', 'noir', 'dort', '.'], attention: [one(0), one(2), one(1), one(4), one(5)] };
  const inOrder = { ...flipped, attention: [one(0), one(1), one(2), one(4), one(5)] };
  const none = { ...flipped, attention: flipped.attention.map(() => []) }; // scoring 'none'
  const rec = (steps, reference, own = inOrder) => ({ steps, watched: [{ reference, own }, { reference: inOrder, own: inOrder }] });
  const records = [rec(0, inOrder), rec(500, flipped), rec(1000, inOrder), rec(1500, flipped, flipped), rec(2000, flipped)];
  assert.deepEqual(flipHistory([], 0, 'reference'), { first: null, shown: 0, of: 0 });
  assert.deepEqual(flipHistory(records.slice(0, 1), 0, 'reference'), { first: null, shown: 0, of: 0 }, 'not yet');
  assert.deepEqual(flipHistory(records.slice(0, 2), 0, 'reference'), { first: 500, shown: 1, of: 1 }, 'there for the first time');
  assert.deepEqual(flipHistory(records.slice(0, 3), 0, 'reference'), { first: 500, shown: 1, of: 2 }, 'gone again');
  assert.deepEqual(flipHistory(records, 0, 'reference'), { first: 500, shown: 3, of: 4 });
  assert.deepEqual(flipHistory(records, 0, 'own'), { first: 1500, shown: 1, of: 2 }, 'each view has its own story');
  assert.deepEqual(flipHistory(records, 1, 'reference'), { first: null, shown: 0, of: 0 }, 'each sentence too');
  assert.deepEqual(flipHistory([rec(0, none), { steps: 1 }, null], 0, 'reference'), { first: null, shown: 0, of: 0 }, 'no attention, no sentence: no flip, no error');
});

test('the watched sentences: each with its reference, watched twice (forced through it, then greedy), paired back into two views', () => {
  assert.deepEqual(WATCH[0], { source: 'It is my favorite book.', reference: "C'est mon livre préféré." },
    'the default: the flip that showed soonest (scripts/lib/watch-onset.mjs)');
  assert.equal(WATCH.find((w) => w.source === 'I have a red car.')?.reference, "J'ai une voiture rouge.", 'a colour comes next');
  const cat = WATCH.find((w) => w.source === 'The black cat is sleeping.');
  assert.equal(cat?.reference, 'Le chat noir dort.', "the site's own example is watched too");
  for (const w of WATCH) assert.ok(typeof w.reference === 'string' && w.reference.length > 0, w.source);
  const options = watchOptions();
  assert.equal(options.length, 2 * WATCH.length);
  assert.deepEqual(options.slice(0, 2), [{ source: WATCH[0].source, target: WATCH[0].reference }, { source: WATCH[0].source }]);
  // As the worker reports them (train-worker.js's measure): the forced entry, then the greedy one.
  const measured = options.map(({ source, target }) => ({ source, target: target ?? null, text: target ?? `own ${source}` }));
  const views = pairViews(measured);
  assert.equal(views.length, WATCH.length);
  assert.deepEqual(views[1], { source: WATCH[1].source, reference: measured[2], own: measured[3] });
  // run.align()'s and run.translate()'s results as the same entries: the '</s>' row out.
  const alignment = { sourceTokens: SOURCE, targetTokens: ['le', 'chat', 'noir', 'dort', '.', '</s>'],
    steps: [0, 2, 1, 4, 5, 6].map((j) => ({ alpha: one(j) })) };
  const forced = fromAlignment(cat.source, cat.reference, alignment);
  assert.deepEqual(forced, { source: cat.source, target: 'Le chat noir dort.', sourceTokens: SOURCE,
    targetTokens: ['le', 'chat', 'noir', 'dort', '.'], attention: [0, 2, 1, 4, 5].map((j) => one(j)), text: 'Le chat noir dort.' });
  assert.deepEqual(findFlip(forced)?.words, ['chat', 'noir']);
  const t = { sourceTokens: SOURCE, targetTokens: ['le', 'sac'], attention: [one(0), one(1)], text: 'Le sac' };
  assert.deepEqual(fromTranslation('x', t), { source: 'x', target: null, ...t });
});

test('the URL parameters: defaults, and bad values ignored', () => {
  const at = (q) => ({ search: q });
  assert.deepEqual(readTrainParams(at(''), { sentences: 4 }), { lang: 'en', scoring: 'additive', preset: 'tiny', watch: 0, simd: 'auto', relaxed: false },
    'the tiny model by default, on every screen: its flip shows sooner (docs/training-live.md, "The default size")');
  assert.equal(readTrainParams(at('?preset=small'), { sentences: 4 }).preset, 'small', 'unless asked');
  assert.deepEqual(readTrainParams(at('?lang=zh&scoring=none&preset=small&watch=3&simd=0'), { sentences: 4 }),
    { lang: 'zh', scoring: 'none', preset: 'small', watch: 2, simd: false, relaxed: false });
  assert.deepEqual(readTrainParams(at('?lang=fr&scoring=bogus&preset=huge&watch=9'), { sentences: 4 }),
    { lang: 'en', scoring: 'additive', preset: 'tiny', watch: 0, simd: 'auto', relaxed: false });
  assert.equal(readTrainParams(at('?watch=1.5'), { sentences: 4 }).watch, 0);
  // The same run in every browser unless asked: relaxed=1 opts in, and means nothing with simd=0.
  assert.equal(readTrainParams(at('?relaxed=1'), { sentences: 4 }).relaxed, 'auto');
  assert.equal(readTrainParams(at('?relaxed=1&simd=0'), { sentences: 4 }).relaxed, false);
  assert.equal(readTrainParams(at('?relaxed=true'), { sentences: 4 }).relaxed, false);
});

test('the service worker precaches the page and its gold links, not its 0.9 MB of training pairs', async () => {
  const web = fileURLToPath(new URL('../../web/', import.meta.url));
  const rels = ['train.html', 'train.js', 'train.css', 'train/curves.js', 'data/train-en-fr-gold.json', 'data/train-en-fr.bin'];
  const m = await offlineManifest(rels.map((rel) => [path.join(web, rel), rel]));
  assert.deepEqual(Object.keys(m.shell).sort(), rels.slice(0, 5).sort());
  assert.deepEqual(m.models, {});
});
