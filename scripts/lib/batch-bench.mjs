// scripts/bench's batched table: greedy translation throughput with translateBatch() in
// wasm-simd, the bench's sentences cut into batches of B (1, 8, 32), in one process.
//
// Timed as a caller sees it: wall time of all translateBatch() calls over the sentences
// (tokenization, encoding and JS marshaling included, since a batch's per-sentence core timings
// overlap), median of `repeat` runs, with the B values interleaved in each run so that a change
// in machine load hits them alike. tokens/s counts decoded tokens (</s> included), as the
// engines table does; every B decodes the same tokens (translateBatch equals translate()).
import { createTranslator } from '../../web/lib/bahdanau.js';
import { median } from './median.mjs';

export const BATCH_SIZES = [1, 8, 32];

const decoded = (r) => (r.error ? 0 : r.targetTokens.length + (r.truncated ? 0 : 1));

// -> {variant, sentences, repeat, rows: [{batch, ms, tokens, tokensPerSecond, vsBatch1}]}
export async function benchBatched(bytes, sentences, { repeat = 3, variant = 'wasm-simd' } = {}) {
  const tr = await createTranslator({ model: bytes, simd: variant === 'wasm-simd' });
  const run = (B) => {
    let tokens = 0;
    const t0 = performance.now();
    for (let i = 0; i < sentences.length; i += B) {
      for (const r of tr.translateBatch(sentences.slice(i, i + B))) tokens += decoded(r);
    }
    return { ms: performance.now() - t0, tokens };
  };
  for (const B of BATCH_SIZES) run(B); // warm up: V8 tiers up, scratch buffers grow
  const times = Object.fromEntries(BATCH_SIZES.map((B) => [B, []]));
  const tokens = {};
  for (let k = 0; k < repeat; k++) {
    for (const B of BATCH_SIZES) {
      const r = run(B);
      times[B].push(r.ms);
      tokens[B] = r.tokens;
    }
  }
  tr.dispose();
  const rows = BATCH_SIZES.map((B) => {
    const ms = median(times[B]);
    return { batch: B, ms, tokens: tokens[B], tokensPerSecond: (1000 * tokens[B]) / ms };
  });
  for (const row of rows) row.vsBatch1 = row.tokensPerSecond / rows[0].tokensPerSecond;
  return { variant, sentences: sentences.length, repeat, rows };
}

export function batchTable(b) {
  const rows = [['B', 'ms (all sentences)', 'tokens', 'tokens/s', 'vs B=1'],
    ...b.rows.map((r) => [String(r.batch), r.ms.toFixed(1), String(r.tokens),
      r.tokensPerSecond.toFixed(0), `${r.vsBatch1.toFixed(2)}x`])];
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const last = b.rows.at(-1);
  return [
    `batched greedy decoding: translateBatch() in ${b.variant}, ${b.sentences} sentences in ` +
      `batches of B, median of ${b.repeat} runs (wall time as a caller sees it)`,
    '',
    ...rows.map((r) => r.map((x, c) => x.padStart(w[c])).join('  ')),
    '',
    `tokens/s at B = ${last.batch} vs B = 1: ${last.vsBatch1.toFixed(2)}x`,
  ].join('\n');
}
