// The comparison view's summaries (web/ui/attention-stats.js) on cases small enough to work out
// by hand: the numbers the page prints under each matrix must be exactly these.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { differingRow, entropyBits, meanEntropyBits, mostDifferentRow, peak, totalVariation } from '../../web/ui/attention-stats.js';

const close = (actual, expected, msg) => assert.ok(Math.abs(actual - expected) < 1e-12, `${msg ?? ''} ${actual} vs ${expected}`);

describe('entropyBits', () => {
  test('all weight on one word: 0 bits, wherever it is', () => {
    assert.equal(entropyBits([1]), 0);
    assert.equal(entropyBits([0, 1, 0]), 0);
    assert.ok(!Object.is(entropyBits([0, 0, 1]), -0), 'no negative zero');
  });

  test('uniform over n columns: log2 n bits', () => {
    close(entropyBits([0.5, 0.5]), 1);
    close(entropyBits([0.25, 0.25, 0.25, 0.25]), 2);
    close(entropyBits(Array(8).fill(1 / 8)), 3);
    close(entropyBits(Array(7).fill(1 / 7)), Math.log2(7));
  });

  test('a hand-computed skewed row', () => {
    // -(½ log2 ½ + ¼ log2 ¼ + ¼ log2 ¼) = ½ + ½ + ½ = 1.5 bits
    close(entropyBits([0.5, 0.25, 0.25]), 1.5);
    // -(¾ log2 ¾ + ¼ log2 ¼) = 2 - ¾ log2 3
    close(entropyBits([0.75, 0.25]), 2 - 0.75 * Math.log2(3));
  });

  test('typed arrays work, and values a softmax cannot give count as 0', () => {
    close(entropyBits(new Float32Array([0.5, 0.5])), 1);
    close(entropyBits([0.5, 0.5, NaN, -0.1, Infinity]), 1);
    assert.equal(entropyBits([]), 0);
  });
});

describe('meanEntropyBits', () => {
  test('the average over rows; null for no rows', () => {
    assert.equal(meanEntropyBits([]), null);
    close(meanEntropyBits([[1, 0], [0.5, 0.5]]), 0.5);
    close(meanEntropyBits([[0.25, 0.25, 0.25, 0.25], [0.5, 0.25, 0.25], [1, 0, 0]]), (2 + 1.5 + 0) / 3);
  });
});

describe('totalVariation', () => {
  test('identical rows: 0; disjoint rows: 1', () => {
    assert.equal(totalVariation([0.2, 0.8], [0.2, 0.8]), 0);
    assert.equal(totalVariation([1, 0, 0], [0, 0, 1]), 1);
  });

  test('a hand-computed case', () => {
    // ½ (|0.5-0.2| + |0.3-0.3| + |0.2-0.5|) = ½ (0.3 + 0 + 0.3) = 0.3
    close(totalVariation([0.5, 0.3, 0.2], [0.2, 0.3, 0.5]), 0.3);
    close(totalVariation([0.7, 0.3], [0.4, 0.6]), 0.3);
  });

  test('symmetric', () => {
    const p = [0.1, 0.6, 0.3];
    const q = [0.5, 0.25, 0.25];
    assert.equal(totalVariation(p, q), totalVariation(q, p));
  });

  test('rows of different lengths are refused', () => {
    assert.throws(() => totalVariation([1], [0.5, 0.5]), RangeError);
  });
});

describe('mostDifferentRow', () => {
  test('the row with the largest TV, over the rows both models have', () => {
    const a = [[1, 0], [0.5, 0.5], [0, 1], [1, 0]];
    const b = [[1, 0], [0, 1], [0.25, 0.75]]; // shorter: row 3 of a has no partner
    const r = mostDifferentRow(a, b);
    assert.equal(r.row, 1);
    close(r.tv, 0.5);
    assert.equal(r.all.length, 3);
    close(r.all[2], 0.25);
  });

  test('ties go to the earliest row; no shared rows: null', () => {
    const r = mostDifferentRow([[1, 0], [0, 1]], [[0, 1], [1, 0]]);
    assert.deepEqual([r.row, r.tv], [0, 1]);
    assert.equal(mostDifferentRow([], [[1]]), null);
    assert.equal(mostDifferentRow([[1]], []), null);
  });
});

describe('differingRow', () => {
  test('the most different row among those whose peaks differ, even when another row differs more', () => {
    // Row 1: both peak at column 0, TV 0.4. Row 2: peaks 1 and 2, TV 0.2.
    const a = [[0.5, 0.5, 0], [0.9, 0.1, 0], [0.2, 0.45, 0.35]];
    const b = [[0.5, 0.5, 0], [0.5, 0.1, 0.4], [0.2, 0.25, 0.55]];
    const r = differingRow(a, b);
    assert.equal(r.row, 2);
    assert.equal(r.peaksDiffer, true);
    assert.deepEqual(r.peaks, [1, 2]);
    close(r.tv, 0.2);
    assert.equal(mostDifferentRow(a, b).row, 1, 'TV alone would pick the row where both look at column 0');
  });

  test('when every row agrees on its peak: the largest TV, and the column with the largest gap', () => {
    const a = [[0.6, 0.3, 0.1], [0.5, 0.1, 0.4]];
    const b = [[0.6, 0.3, 0.1], [0.9, 0.05, 0.05]];
    const r = differingRow(a, b);
    assert.equal(r.row, 1);
    assert.equal(r.peaksDiffer, false);
    assert.deepEqual(r.peaks, [0, 0]);
    assert.equal(r.gap, 0); // |0.5 - 0.9| = 0.4 beats |0.4 - 0.05| = 0.35
    close(r.tv, 0.4);
    assert.equal(differingRow([], [[1]]), null);
  });

  test('peak: the first of equal maxima', () => {
    assert.equal(peak([0.25, 0.5, 0.25]), 1);
    assert.equal(peak([0.5, 0.5]), 0);
  });
});
