// The three engines agree token for token: wasm-simd, wasm-scalar and native on the fixture
// models (greedy and beam 4, no disagreement allowed but one int8 greedy flip at an exact tie
// of the reference, exactTie below), and on 1,000 dev sentences of the
// shipped model (greedy; at most 0.1% near-tie flips, each printed with the top-2 log-prob gap
// at its first differing step). Without the shipped model the second test fails: it must not
// pass vacuously.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { devSentences } from '../../scripts/lib/dev-sentences.mjs';
import { FIXTURES, SHIPPED, WASM, fixture, fixturePath, nativeTargets, shippedModelOrFail, translator }
  from './helpers.mjs';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// {engine: [tokens per sentence]} for every engine, one beam width.
async function outputs(model, sentences, beam) {
  const out = { native: nativeTargets(model, sentences, { beam }) };
  for (const variant of WASM) {
    const tr = await translator(readFileSync(model), variant);
    out[variant] = sentences.map((s) => tr.translate(s, { beam }).targetTokens);
    tr.dispose();
  }
  return out;
}

// Sentences where some engine's output differs from native's.
function disagreements(sentences, out) {
  return sentences
    .map((text, i) => ({ text, i, differs: WASM.filter((v) => !same(out[v][i], out.native[i])) }))
    .filter((d) => d.differs.length);
}

// An int8 model's greedy output may part between engines at an exact tie of the reference:
// the int8 products quantize activations to 14 bits (kernels.h), so the last-bit differences of
// the scalar and SIMD f32 kernels (tanh, exp) can move a rounding by one step. Allowed only
// where the PyTorch reference itself records a top-2 gap below 1e-4 at the step where the
// outputs part (and native followed the reference up to it), at most once over the fixtures.
function exactTie(c, out, d) {
  const ref = c.greedy.tokens;
  return d.differs.every((v) => {
    const mine = out[v][d.i];
    const nat = out.native[d.i];
    let k = 0;
    while (k < mine.length && k < nat.length && mine[k] === nat[k]) k++;
    const followed = nat.slice(0, k).join(' ') === ref.slice(0, k).join(' ');
    const step = c.steps?.[k];
    return followed && step && step.top_logp[0] - step.top_logp[1] < 1e-4;
  });
}

test('engines agree on the fixture models (greedy and beam 4): 0 disagreements', async () => {
  let compared = 0;
  const bad = [];
  const ties = [];
  for (const name of FIXTURES) {
    const doc = fixture(name);
    const sentences = doc.cases.map((c) => c.text);
    for (const beam of [1, 4]) {
      const out = await outputs(fixturePath(doc.model), sentences, beam);
      for (const d of disagreements(sentences, out)) {
        const what = `${name} beam ${beam} ${JSON.stringify(d.text)}: ${d.differs.join(', ')} ≠ native`;
        if (beam === 1 && doc.dtype !== 'f32' && exactTie(doc.cases[d.i], out, d)) ties.push(what);
        else bad.push(what);
      }
      compared += sentences.length;
    }
  }
  console.log(`fixtures: ${compared} translations per engine, ${bad.length} disagreements, ` +
    `${ties.length} at an exact tie of the reference${ties.length ? `: ${ties.join('; ')}` : ''}`);
  assert.deepEqual(bad, []);
  assert.ok(ties.length <= 1, `${ties.length} int8 tie flips (at most 1)`);
});

for (const name of SHIPPED) test(`engines agree on 1,000 dev sentences of ${name} (greedy)`, async () => {
  const model = shippedModelOrFail(name);
  const sentences = devSentences(1000);
  const out = await outputs(model, sentences, 1);
  const flips = disagreements(sentences, out);
  console.log(`${name}: 1000 dev sentences, ${flips.length} disagreements`);
  // Explain each flip: at the first step where the outputs part, how far apart were the two
  // best candidates? A flip from kernel rounding needs a near tie.
  for (const variant of WASM) {
    const tr = await translator(readFileSync(model), variant);
    for (const f of flips) {
      const mine = out[variant][f.i];
      const ref = out.native[f.i];
      let k = 0;
      while (k < mine.length && k < ref.length && mine[k] === ref[k]) k++;
      let gap = null;
      for await (const s of tr.steps(f.text)) {
        if (s.index === k) gap = s.topLogProbs[0] - s.topLogProbs[1];
      }
      f[variant] = { step: k, gap, mine: mine.join(' '), ref: ref.join(' ') };
      if (f.differs.includes(variant)) {
        console.log(`flip (${variant} vs native) ${JSON.stringify(f.text)} at step ${k}: ` +
          `top-2 gap ${gap?.toExponential(2)}\n  ${variant}: ${mine.join(' ')}\n  native:  ${ref.join(' ')}`);
      }
    }
    tr.dispose();
  }
  assert.ok(flips.length <= 1, `${flips.length} disagreements in 1000 (at most 0.1% allowed)`);
  for (const f of flips) {
    for (const v of f.differs) {
      assert.ok(f[v].gap !== null && f[v].gap < 1e-3,
        `${v} differs on ${JSON.stringify(f.text)} without a near tie (gap ${f[v].gap})`);
    }
  }
});
