// The loop that train-average.mjs and watch-onset.mjs share: one trainer per seed, measured at
// steps from, from + every, .. to, and their rows grouped by step for the summaries.
import { createTrainer } from '../../web/lib/bahdanau.js';

// measure(trainer, seed, steps) -> a row (or a promise of one); -> the rows, seed by seed.
// trainerOptions: createTrainer's, without the seed.
export async function eachCheckpoint({ seeds, from, to, every, trainerOptions }, measure) {
  const rows = [];
  for (const seed of seeds) {
    const trainer = await createTrainer({ ...trainerOptions, seed });
    try {
      let steps = 0;
      for (let at = from; at <= to; at += every) {
        while (steps < at) steps = trainer.step(Math.min(1000, at - steps)).steps;
        rows.push(await measure(trainer, seed, steps));
      }
    } finally {
      trainer.dispose();
    }
  }
  return rows;
}

// rows -> [[steps, the rows at those steps]], in the order the steps first came.
export function bySteps(rows) {
  const groups = new Map();
  for (const r of rows) groups.set(r.steps, [...(groups.get(r.steps) ?? []), r]);
  return [...groups];
}
