// scripts/bench's second table: what attention's scoring costs per decoder step, additive
// against scaled dot-product, at source lengths 5, 20 and 60, in wasm-simd with each model's own
// kernels and weights (Translator.scoringCost: the core re-runs one step's scoring on the
// sentence's real annotations, in batches long enough for the clock, and reports medians).
//
// The sentences are the first N runs of ASCII letters of the dev split's sentences, run together:
// the cost does not depend on which words (the kernels have no data-dependent branches), only
// on how many.
import { createTranslator } from '../../web/lib/bahdanau.js';
import { median } from './median.mjs';

export const LENGTHS = [5, 20, 60];

export function sentenceOfLength(devSentences, n) {
  const words = devSentences.join(' ').match(/[A-Za-z]+/g) ?? [];
  if (words.length < n) throw new Error(`the dev sentences hold only ${words.length} plain words`);
  return words.slice(0, n).join(' ');
}

// models: {additive: bytes, dot: bytes}. -> {rows: [{length, additive, dot, ratio...}], ...}
export async function benchScoring(models, devSentences, { minBatchMs = 20, batches = 7, repeat = 5 } = {}) {
  const trs = {};
  for (const [name, bytes] of Object.entries(models)) {
    trs[name] = await createTranslator({ model: bytes, simd: true });
  }
  try {
    for (const [name, tr] of Object.entries(trs)) {
      const want = name === 'additive' ? 'additive' : 'scaled_dot';
      if (tr.info().scoring !== want) throw new Error(`the ${name} model's scoring is ${tr.info().scoring}, not ${want}`);
      if (tr.info().kernels !== 'wasm-simd') throw new Error('this Node has no wasm SIMD: the scoring table needs it');
    }
    const rows = [];
    for (const length of LENGTHS) {
      const text = sentenceOfLength(devSentences, length);
      const row = { length };
      for (const [name, tr] of Object.entries(trs)) {
        tr.scoringCost(text, { minBatchMs: 5, batches: 3 }); // warm-up: V8 tiers the kernels up
        const cost = tr.scoringCost(text, { minBatchMs, batches });
        if (cost.n !== length + 1) throw new Error(`"${text}" has ${cost.n - 1} tokens, not ${length}`);
        // The whole step, for scale: decode time per decoded token of a greedy translation.
        const perStep = [];
        for (let k = 0; k < repeat; k++) {
          const r = tr.translate(text);
          perStep.push((1000 * r.timings.decodeMs) / (r.targetTokens.length + (r.truncated ? 0 : 1)));
        }
        row[name] = { ...cost, wholeStepUs: median(perStep) };
      }
      row.stepRatio = row.additive.stepUs / row.dot.stepUs;
      row.scoreRatio = row.additive.scoreUs / row.dot.scoreUs;
      rows.push(row);
    }
    return { minBatchMs, batches, rows, attn: trs.additive.info().attn, decHidden: trs.additive.info().decHidden };
  } finally {
    for (const tr of Object.values(trs)) tr.dispose();
  }
}

export function scoringTable(s) {
  const f = (x, d = 2) => x.toFixed(d);
  const head = ['source length n', 'additive µs/step', 'dot µs/step', 'additive/dot',
    'additive scores µs', 'dot scores µs', 'additive/dot', 'additive share of step', 'dot share of step'];
  const rows = s.rows.map((r) => [String(r.length), f(r.additive.stepUs), f(r.dot.stepUs), f(r.stepRatio),
    f(r.additive.scoreUs), f(r.dot.scoreUs), f(r.scoreRatio),
    `${f((100 * r.additive.stepUs) / r.additive.wholeStepUs, 1)}%`, `${f((100 * r.dot.stepUs) / r.dot.wholeStepUs, 1)}%`]);
  const all = [head, ...rows];
  const w = head.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  return [
    `attention scoring per decoder step, wasm-simd (medians of ${s.batches} batches of >= ${s.minBatchMs} ms each)`,
    ...all.map((r) => r.map((x, c) => x.padStart(w[c])).join('  ')),
    `µs/step = q = W s_{i-1} (${s.attn}x${s.decHidden} GEMV, the same in both) plus the n scores; ` +
      '"scores" = the n scores alone; share = of the whole decoder step (greedy decode time per token).',
  ].join('\n');
}
