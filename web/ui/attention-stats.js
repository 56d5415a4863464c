// Summaries of attention rows for the comparison view. Pure functions of the engine's alpha
// rows (no DOM, no engine), so Node tests can check them against hand-computed cases.

// Shannon entropy of one row of weights, in bits. 0 log 0 counts as 0 (the limit), so a row
// that puts all its weight on one column scores exactly 0, and a uniform row over n columns
// scores log2 n. Non-finite or negative entries are treated as 0: they cannot come from a
// softmax, and must not turn the mean into NaN.
export function entropyBits(row) {
  let h = 0;
  for (const p of row) {
    if (Number.isFinite(p) && p > 0) h -= p * Math.log2(p);
  }
  return h === 0 ? 0 : h; // no -0 in the display
}

// Mean entropy over rows, in bits; null when there are no rows (nothing to average).
export function meanEntropyBits(rows) {
  if (!rows.length) return null;
  let sum = 0;
  for (const r of rows) sum += entropyBits(r);
  return sum / rows.length;
}

// Total-variation distance between two distributions over the same columns:
// TV = ½ Σ_j |p_j − q_j|, from 0 (identical) to 1 (no overlap). Rows of different lengths
// cannot be compared column by column.
export function totalVariation(p, q) {
  if (p.length !== q.length) throw new RangeError(`rows differ in length: ${p.length} vs ${q.length}`);
  let d = 0;
  for (let j = 0; j < p.length; j++) d += Math.abs(p[j] - q[j]);
  return d / 2;
}

// The row where two models' alignments differ most, over the rows both have:
// {row, tv, all: [tv per row]}, or null when they share no row. Ties go to the earliest row,
// the one a viewer reaches first.
export function mostDifferentRow(rowsA, rowsB) {
  const n = Math.min(rowsA.length, rowsB.length);
  if (n === 0) return null;
  const all = [];
  let best = 0;
  for (let i = 0; i < n; i++) {
    all.push(totalVariation(rowsA[i], rowsB[i]));
    if (all[i] > all[best]) best = i;
  }
  return { row: best, tv: all[best], all };
}

// The column a row looks at most (ties: the first).
export function peak(row) {
  let best = 0;
  for (let j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
  return best;
}

// The row the comparison view names, over the rows both models have. A row where both look
// most at the same column would describe two identical things, so: the largest TV among the
// rows whose peaks differ; when the peaks agree on every row, the largest TV overall, and
// only the spread of the weights differs there. -> {row, tv, peaksDiffer, peaks: [a, b], gap}
// (gap: the column whose two weights differ most), or null when they share no row. Ties go to
// the earliest row.
export function differingRow(rowsA, rowsB) {
  const most = mostDifferentRow(rowsA, rowsB);
  if (!most) return null;
  let row = -1;
  for (let i = 0; i < most.all.length; i++) {
    if (peak(rowsA[i]) !== peak(rowsB[i]) && (row < 0 || most.all[i] > most.all[row])) row = i;
  }
  const peaksDiffer = row >= 0;
  if (!peaksDiffer) row = most.row;
  const [a, b] = [rowsA[row], rowsB[row]];
  let gap = 0;
  for (let j = 1; j < a.length; j++) if (Math.abs(a[j] - b[j]) > Math.abs(a[gap] - b[gap])) gap = j;
  return { row, tv: most.all[row], peaksDiffer, peaks: [peak(a), peak(b)], gap };
}
