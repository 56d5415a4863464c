// When does each candidate sentence's flip show, on the "Train it yourself" page's models and
// recipe (--preset: small by default, the model the sentence was chosen on; tiny)? The page's default watched sentence (web/train/watch.js) was chosen with this
// (docs/training-live.md, "The default sentence"): one run per seed, and at each checkpoint
// every candidate is forced through its reference on the averaged weights, as the page draws
// it, and web/train/flip.js says whether the flip is there. The candidates are written by hand,
// each with a French adjective after its noun; none comes from the gold pairs (a test set),
// which play no part here.
//
//   node scripts/lib/watch-onset.mjs [--seeds 1,2,3] [--from 300] [--to 3000] [--every 300]
//                                    [--preset small|tiny] [--json]
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTranslator, TRAIN_PRESETS } from '../../web/lib/bahdanau.js';
import { findFlip } from '../../web/train/flip.js';
import { fromAlignment } from '../../web/train/watch.js';
import { isUnknownId } from '../../web/engine/steps.js';
import { argsOrExit, parseCheckpointArgs } from './checkpoint-args.mjs';
import { bySteps, eachCheckpoint } from './checkpoint-runs.mjs';
import { ensureBuilt } from './engines.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.join(ROOT, 'web', 'data', 'train-en-fr.bin');

export const CANDIDATES = [
  { source: 'I have a red car.', reference: "J'ai une voiture rouge." },
  { source: 'I have a black cat.', reference: "J'ai un chat noir." },
  { source: 'I read a French book.', reference: "J'ai lu un livre français." },
  { source: 'It is my favorite book.', reference: "C'est mon livre préféré." },
  { source: 'It is an important day.', reference: "C'est un jour important." },
  { source: 'It is a difficult question.', reference: "C'est une question difficile." },
  { source: 'I like French food.', reference: "J'aime la cuisine française." },
  { source: 'She has a red dress.', reference: 'Elle a une robe rouge.' },
];

// -> [{seed, steps, heldout, flips: [bool per candidate]}]; a candidate with a word outside the
// data's vocabularies is refused, since its <unk> row could not show the flip. data, config,
// settings: another bundle, model or recipe (tests).
export async function watchOnset({
  seeds = [1, 2, 3], from = 300, to = 3000, every = 300, preset = 'small', candidates = CANDIDATES,
  data = DATA, config = TRAIN_PRESETS[preset], settings = {}, onRow = () => {},
} = {}) {
  let checked = false; // the vocabularies are the data's: checked once, on the first model
  return eachCheckpoint({ seeds, from, to, every, trainerOptions: { data, config, ...settings } }, async (trainer, seed, steps) => {
    const tr = await createTranslator({ model: trainer.snapshot() });
    try {
      const flips = candidates.map(({ source, reference }) => {
        const a = tr.align(source, reference);
        if (!checked && (a.unknown > 0 || tr.translate(source).sourceIds.some(isUnknownId))) {
          throw new Error(`"${source}" / "${reference}" has a word outside the data's vocabularies`);
        }
        return findFlip(fromAlignment(source, reference, a)) !== null;
      });
      checked = true;
      const row = { seed, steps, heldout: trainer.evaluate(), flips };
      onRow(row);
      return row;
    } finally {
      tr.dispose();
    }
  });
}

// Per checkpoint step: in how many seeds each candidate's flip shows.
export function summarize(rows, candidates = CANDIDATES) {
  return bySteps(rows).map(([steps, rs]) => ({
    steps, runs: rs.length, flips: candidates.map((_, k) => rs.filter((r) => r.flips[k]).length),
  }));
}

export function parseArgs(argv) {
  return parseCheckpointArgs(argv, {
    preset: (raw) => {
      if (!Object.hasOwn(TRAIN_PRESETS, raw)) throw new Error(`--preset wants one of ${Object.keys(TRAIN_PRESETS).join(', ')}`);
      return raw;
    },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = argsOrExit('watch-onset', parseArgs);
  ensureBuilt('wasm-simd');
  const rows = await watchOnset({
    ...args,
    onRow: (r) => args.json || console.log(`seed ${r.seed} step ${String(r.steps).padStart(5)}  held-out ${r.heldout.toFixed(4)}  flips ${r.flips.map(Number).join(' ')}`),
  });
  const sum = summarize(rows);
  if (args.json) {
    console.log(JSON.stringify({ candidates: CANDIDATES, rows, summary: sum }));
  } else {
    console.log('\nseeds whose averaged matrix shows the flip, per checkpoint:');
    CANDIDATES.forEach((c, k) => console.log(`  ${k}: ${c.source}`));
    for (const s of sum) console.log(`${String(s.steps).padStart(5)}  of ${s.runs}: ${s.flips.join(' ')}`);
  }
}
