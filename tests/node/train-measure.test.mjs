// alignmentMeasure (web/lib/train-measure.js) against scripts/nmt/alignment.py's measure(), the
// independent reference: the shipped en-fr model forced through the whole gold set by the wasm
// engine, each row handed to both; the gold links parsed by each side on its own (the Python's
// read_gold, a small parser here). Hand-made rows add the edge cases real ones rarely hit
// (ties, a </s> argmax, one-token sides).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { alignmentMeasure, createTranslator } from '../../web/lib/bahdanau.js';
import { diagonal } from '../../web/lib/train-measure.js';
import { ROOT, ensureEngines, shippedModelOrFail } from './helpers.mjs';

const GOLD = path.join(ROOT, 'models', 'eval', 'align-gold.tsv');

function readGold() {
  const out = [];
  readFileSync(GOLD, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const [en, fr, links] = line.split('\t');
    const sure = [];
    const possible = [];
    for (const item of links.split(' ').filter(Boolean)) {
      const sep = item.includes('-') ? '-' : '?';
      const [e, f] = item.split(sep).map(Number);
      (sep === '-' ? sure : possible).push([e, f]);
    }
    out.push({ line: i + 1, en, fr, sure, possible });
  });
  return out;
}

// The Python measure over the given items: [{line?, n, sure, possible, rows}]. With line, the
// links come from read_gold's own parse of that line of the gold file, not from here.
function python(items) {
  const code = `
import json, sys
from scripts.nmt import alignment
gold = {it["line"]: it for it in alignment.read_gold(${JSON.stringify(GOLD)})}
items = []
for x in json.load(sys.stdin):
    if "line" in x:
        it = dict(gold[x["line"]])
        assert len(it["en_tokens"]) == x["n"], (x["line"], it["en_tokens"])
    else:
        it = {"en_tokens": ["w"] * x["n"], "sure": {tuple(l) for l in x["sure"]},
              "possible": {tuple(l) for l in x["possible"] + x["sure"]}}
    it["rows"] = x["rows"]
    items.append(it)
print(json.dumps(alignment.measure(items, lambda it: it["rows"])))
`;
  const r = spawnSync('/usr/bin/python3', ['-c', code], { cwd: ROOT, input: JSON.stringify(items), encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function assertSame(js, py) {
  assert.equal(js.tokens, py.align_links);
  assert.equal(js.offDiagonalTokens, py.align_offdiag_links);
  assert.equal(js.sentences, py.align_sentences);
  const pairs = [['accuracy', 'align_accuracy'], ['offDiagonal', 'align_offdiag_accuracy'],
    ['diagonal', 'align_diagonal'], ['mass', 'align_mass'], ['aer', 'aer']];
  for (const [mine, theirs] of pairs) {
    assert.ok(Math.abs(100 * js[mine] - py[theirs]) < 1e-9, `${mine}: ${100 * js[mine]} vs ${py[theirs]}`);
  }
  assert.ok(Math.abs(js.entropyBits - py.align_entropy_bits) < 1e-9);
}

test('the shipped model forced through the gold set: the same measures as scripts/nmt/alignment.py', async () => {
  ensureEngines();
  const tr = await createTranslator({ model: shippedModelOrFail('en-fr') });
  const items = readGold().map((g) => {
    const a = tr.align(g.en, g.fr);
    return { ...g, n: a.sourceTokens.length - 1, rows: a.steps.slice(0, -1).map((s) => s.alpha) };
  });
  tr.dispose();
  assert.equal(items.length, 178);
  const js = alignmentMeasure(items.map((it) => ({ rows: it.rows, sourceLength: it.n, sure: it.sure, possible: it.possible })));
  const py = python(items.map(({ line, n, rows }) => ({ line, n, rows })));
  assertSame(js, py);
  // and scripts/eval's figures for this model through PyTorch's own rows (models/README.md's
  // alignment table: 84.6%, diagonal 69.7%, off-diagonal 76.7%, learned by translation alone)
  const pct = (x) => (100 * x).toFixed(1);
  assert.deepEqual([pct(js.accuracy), pct(js.diagonal), pct(js.offDiagonal)], ['84.6', '69.7', '76.7']);
  console.log(`# en-fr on the gold set: accuracy ${(100 * js.accuracy).toFixed(1)}%, off-diagonal ` +
    `${(100 * js.offDiagonal).toFixed(1)}% of ${js.offDiagonalTokens}, diagonal ${(100 * js.diagonal).toFixed(1)}%`);
});

test('edge cases: ties go to the first word, a </s> argmax is unaligned, one-token sides', () => {
  const items = [
    // ties between words 0 and 1 (-> 0, gold), then a row whose largest weight is </s>
    { n: 2, sure: [[0, 0], [1, 1]], possible: [], rows: [[0.4, 0.4, 0.2], [0.1, 0.2, 0.7]] },
    // one English token, three French: all face token 0 on the diagonal; a possible-only row
    { n: 1, sure: [[0, 0], [0, 2]], possible: [[0, 1]], rows: [[0.9, 0.1], [0.5, 0.5], [0, 1]] },
    // one French token of three English: diagonal 0, gold 2 (off the diagonal), argmax 2
    { n: 3, sure: [[2, 0]], possible: [[1, 0]], rows: [[0.1, 0.2, 0.6, 0.1]] },
    // no sure link at all: only entropy and AER count it
    { n: 2, sure: [], possible: [[0, 0]], rows: [[0.5, 0.25, 0.25]] },
  ];
  const js = alignmentMeasure(items.map((it) => ({ rows: it.rows, sourceLength: it.n, sure: it.sure, possible: it.possible })));
  assertSame(js, python(items));
  assert.deepEqual([js.tokens, js.offDiagonalTokens], [5, 1]);
  assert.equal(diagonal(0, 1, 5), 0);
  assert.equal(diagonal(2, 5, 3), 1); // 2 * 2 / 4 = 1
  assert.equal(diagonal(1, 4, 3), 1); // 1 * 2 / 3 = 0.67 -> 1
  assert.equal(diagonal(1, 3, 2), 1); // 0.5 rounds up, as floor(x + 0.5)
  assert.throws(() => alignmentMeasure([{ rows: [[1]], sourceLength: 1, sure: [] }]), /has 1 weights, not 2/);
  assert.throws(() => alignmentMeasure({}), /must be an array/);
});
