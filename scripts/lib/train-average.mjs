// The weights' moving average against the latest weights, on the "Train it yourself" page's
// model and recipe (issue 25; docs/training-live.md, "The averaged weights"): one run per seed,
// trained once, each checkpoint measured twice, on snapshot() and on snapshot({weights:
// 'latest'}), so the two columns come from the same steps. Per checkpoint: the held-out loss
// (the choice was made by it), the alignment accuracy on the bundled gold pairs and the red car's
// flip (reported, not chosen by: the gold pairs are a test set).
//
//   node scripts/lib/train-average.mjs [--seeds 1,2,3] [--from 1500] [--to 5700] [--every 300]
//                                      [--average 0.998] [--json]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

import { createTranslator, TRAIN_PRESETS } from '../../web/lib/bahdanau.js';
import { goldAlignment } from '../../web/lib/train-measure.js';
import { findFlip } from '../../web/train/flip.js';
import { WATCH, fromAlignment } from '../../web/train/watch.js';
import { argsOrExit, parseCheckpointArgs } from './checkpoint-args.mjs';
import { bySteps, eachCheckpoint } from './checkpoint-runs.mjs';
import { ensureBuilt } from './engines.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.join(ROOT, 'web', 'data', 'train-en-fr.bin');
const GOLD = path.join(ROOT, 'web', 'data', 'train-en-fr-gold.json');
// The sentence whose flip docs/training-live.md's table counts (the page's default then).
const RED_CAR = WATCH.find((w) => w.source === 'I have a red car.');

// One model file's measures: held-out loss from the trainer, the rest through a translator.
async function measure(trainer, weights, gold, watched) {
  const heldout = trainer.evaluate({ weights });
  const tr = await createTranslator({ model: trainer.snapshot({ weights }) });
  try {
    const alignment = goldAlignment(tr, gold);
    const { source, reference } = watched;
    const flip = findFlip(fromAlignment(source, reference, tr.align(source, reference))) !== null;
    return { heldout, accuracy: alignment.accuracy, offDiagonal: alignment.offDiagonal, flip };
  } finally {
    tr.dispose();
  }
}

// -> [{seed, steps, average: measures, latest: measures}], checkpoints from..to every `every`.
// data, gold (pairs with enTokens), config, settings: another bundle, model or recipe (tests).
export async function compareAverage({
  seeds = [1, 2, 3], from = 1500, to = 5700, every = 300, average = 0.998, onRow = () => {},
  data = DATA, gold = JSON.parse(readFileSync(GOLD, 'utf8')).pairs, config = TRAIN_PRESETS.small, settings = {},
  watch = RED_CAR,
} = {}) {
  return eachCheckpoint({ seeds, from, to, every, trainerOptions: { data, config, ...settings, average } }, async (trainer, seed, steps) => {
    const row = { seed, steps, average: await measure(trainer, 'average', gold, watch), latest: await measure(trainer, 'latest', gold, watch) };
    onRow(row);
    return row;
  });
}

// Per checkpoint step: the mean over seeds of each measure, and in how many seeds the flip shows.
export function summarize(rows) {
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return bySteps(rows).map(([steps, rs]) => ({
    steps,
    runs: rs.length,
    ...Object.fromEntries(['average', 'latest'].map((w) => [w, {
      heldout: mean(rs.map((r) => r[w].heldout)),
      accuracy: mean(rs.map((r) => r[w].accuracy)),
      offDiagonal: mean(rs.map((r) => r[w].offDiagonal)),
      flips: rs.filter((r) => r[w].flip).length,
    }])),
  }));
}

export function parseArgs(argv) {
  return parseCheckpointArgs(argv, {
    average: (raw) => {
      const x = Number(raw);
      if (!(x > 0 && x < 1)) throw new Error('--average wants a number in (0, 1)');
      return x;
    },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = argsOrExit('train-average', parseArgs);
  ensureBuilt('wasm-simd');
  const pct = (x) => `${(100 * x).toFixed(1)}%`;
  const line = (w) => `loss ${w.heldout.toFixed(4)}  gold ${pct(w.accuracy)}  off ${pct(w.offDiagonal)}  flip ${w.flip ? 'yes' : 'no '}`;
  const rows = await compareAverage({
    ...args,
    onRow: (r) => args.json || console.log(`seed ${r.seed} step ${String(r.steps).padStart(5)}  average: ${line(r.average)}  |  latest: ${line(r.latest)}`),
  });
  const sum = summarize(rows);
  if (args.json) {
    console.log(JSON.stringify({ rows, summary: sum }));
  } else {
    console.log('\nsteps  runs  held-out loss (average / latest)  gold  off-diagonal  red car flips (average / latest)');
    for (const s of sum) {
      console.log(`${String(s.steps).padStart(5)}  ${s.runs}  ${s.average.heldout.toFixed(3)} / ${s.latest.heldout.toFixed(3)}  ` +
        `${pct(s.average.accuracy)} / ${pct(s.latest.accuracy)}  ${pct(s.average.offDiagonal)} / ${pct(s.latest.offDiagonal)}  ` +
        `${s.average.flips} / ${s.latest.flips}`);
    }
  }
}
