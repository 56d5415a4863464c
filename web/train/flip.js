// "The flip": where French swaps two neighbouring English words (black cat -> chat noir), a
// model that has learned to align looks at them in the swapped order: two consecutive output
// words whose strongest columns are j+1 then j. Read off a translation's own attention rows, so
// the page (train/watched-matrix.js) and the bench (scripts/lib/train-page-bench.mjs) say the
// same thing about the same numbers; flipHistory says the same of a run's records. Pure: no
// DOM, runs in Node.

// The column with the largest weight (the first of equal ones), or -1 for an empty row.
export function strongest(row) {
  let best = -1;
  for (let j = 0; j < row.length; j++) if (best < 0 || row[j] > row[best]) best = j;
  return best;
}

// translation: {sourceTokens, targetTokens, attention (one row per target token)}.
// -> {rows: [i, i + 1], columns: [j + 1, j], words: [target i, target i + 1],
//     sourceWords: [source j + 1, source j]} for the first such pair, or null. Columns past the
// source tokens (the ⟨/s⟩ column) do not count: looking at the end is not aligning.
export function findFlip({ sourceTokens, targetTokens, attention }) {
  if (!Array.isArray(attention) || !Array.isArray(sourceTokens) || !Array.isArray(targetTokens)) {
    throw new TypeError('findFlip: expects {sourceTokens, targetTokens, attention} arrays');
  }
  const words = sourceTokens.filter((t) => t !== '</s>').length;
  const top = attention.map((row) => strongest(Array.from(row)));
  for (let i = 0; i + 1 < top.length && i + 1 < targetTokens.length; i++) {
    const [a, b] = [top[i], top[i + 1]];
    if (b >= 0 && a === b + 1 && a < words) {
      return { rows: [i, i + 1], columns: [a, b], words: [targetTokens[i], targetTokens[i + 1]], sourceWords: [sourceTokens[a], sourceTokens[b]] };
    }
  }
  return null;
}

// The flip across the matrices recorded so far: a young model's flips come and go from one
// measurement to the next, so the page says when one first appeared and how often it has been
// there since, and a reader who sees none now knows to scrub back. records: the run's records
// up to the one on show, oldest first ({steps, watched: [{reference, own}]}, train/watch.js's
// pairViews); index: the watched sentence; view: 'reference' | 'own'.
// -> {first: the steps of the first record with the flip, or null; shown, of: of the records
// from that one on, how many have it}
export function flipHistory(records, index, view) {
  let first = null, shown = 0, of = 0;
  for (const r of records) {
    const w = r?.watched?.[index]?.[view];
    const flip = Boolean(w) && w.attention.some((row) => row.length > 0) && findFlip(w) !== null;
    if (first === null && !flip) continue;
    if (first === null) first = r.steps;
    of++;
    if (flip) shown++;
  }
  return { first, shown, of };
}
