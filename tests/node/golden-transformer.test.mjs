// The tiny Transformer against PyTorch on both wasm engines, as tests/cpp/golden_test.cpp and
// golden_transformer_test.cpp check the native one: every step's summary row (e, alpha, c), its
// top-5 and token, its cross-attention per layer and head (the `cross` of steps() and align()),
// the encoder's real self-attention per layer and head (selfAttention()), greedy and beam-4
// translations and forced decoding; and info()'s Transformer fields.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { WASM, fixture, fixturePath, translator } from './helpers.mjs';

// |got - want| <= tol * max(1, |want|). f32 1e-5 as every fixture; int8 1.5e-3: the int8 kernels'
// products differ from the reference's dequantized f32 ones, and each LayerNorm rescales the
// difference by 1/std (tests/cpp/golden_test.cpp, kTransformerInt8Tol, has the measurement).
const TOL = { f32: 1e-5, int8: 1.5e-3 };

function assertClose(got, want, what, tol) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let k = 0; k < got.length; k++) {
    const bound = tol * Math.max(1, Math.abs(want[k]));
    assert.ok(Math.abs(got[k] - want[k]) <= bound, `${what}[${k}]: got ${got[k]}, want ${want[k]}`);
  }
}

// A step's rows against the reference's: summary row, top-5, and each layer's and head's.
function checkStep(s, want, what, tol) {
  assertClose(s.e, want.e, `${what} e`, tol);
  assertClose(s.alpha, want.alpha, `${what} alpha`, tol);
  assertClose(s.c, want.c, `${what} c`, tol);
  assert.equal(s.token, want.token, `${what} token`);
  assert.deepEqual(s.topIds, want.top_ids, `${what} top ids`);
  assertClose(s.topLogProbs, want.top_logp, `${what} top log-probs`, tol);
  assertClose([s.prob], [want.prob], `${what} prob`, tol);
  if (!want.cross) return;  // forced rows record only the summary
  assert.equal(s.cross.layers, want.cross.alpha.length, `${what} cross layers`);
  assert.equal(s.cross.heads, want.cross.alpha[0].length, `${what} cross heads`);
  want.cross.alpha.forEach((layer, l) => layer.forEach((row, h) => {
    assertClose(s.cross.alpha[l][h], row, `${what} cross alpha l${l} h${h}`, tol);
    assertClose(s.cross.e[l][h], want.cross.e[l][h], `${what} cross e l${l} h${h}`, tol);
  }));
}

for (const variant of WASM) {
  describe(`tiny Transformer on ${variant}`, () => {
    for (const dtype of ['f32', 'int8']) {
      test(dtype, async () => {
        const doc = fixture(`tiny-transformer-${dtype}`);
        const tol = TOL[dtype];
        const tr = await translator(readFileSync(fixturePath(doc.model)), variant);
        try {
          const info = tr.info();
          assert.equal(info.arch, 'transformer');
          assert.equal(info.decoder, 'transformer');
          assert.deepEqual([info.encLayers, info.decLayers, info.heads, info.dModel, info.ffn, info.encHidden],
            [2, 2, 3, 12, 16, 0]);
          assert.throws(() => tr.scoringCost('the cat'), /Transformer/);
          let steps = 0;
          let encoders = 0;
          for (const c of doc.cases) {
            const at = (s) => `${JSON.stringify(c.text)}: ${s}`;
            if (c.steps) {
              let i = 0;
              for await (const s of tr.steps(c.text)) {
                checkStep(s, c.steps[i], at(`step ${i}`), tol);
                i++;
              }
              assert.equal(i, c.steps.length, at('step count'));
              steps += i;
            }
            if (c.encoder_self_attention) {
              const sa = tr.selfAttention(c.text);
              assert.deepEqual(sa.tokens, [...c.src_tokens, '</s>'], at('self-attention tokens'));
              assert.equal(sa.layers, c.encoder_self_attention.length, at('layers'));
              assert.match(sa.method, /encoder/);
              c.encoder_self_attention.forEach((layer, l) => layer.forEach((head, h) => head.forEach((row, i) => {
                assertClose(sa.weights[l][h][i], row, at(`self l${l} h${h} row ${i}`), tol);
                assert.equal(sa.scores[l][h][i].length, row.length, at('scores row'));
              })));
              encoders += 1;
            }
            if (c.force && !c.force.error && c.force.steps.length) {
              const r = tr.align(c.text, c.force.target);
              assert.equal(r.steps.length, c.force.steps.length, at('forced rows'));
              r.steps.forEach((s, i) => {
                assertClose(s.e, c.force.steps[i].e, at(`forced row ${i} e`), tol);
                assertClose(s.alpha, c.force.steps[i].alpha, at(`forced row ${i} alpha`), tol);
                assert.equal(s.cross.layers, 2, at('forced row cross'));
              });
            }
            assert.deepEqual(tr.translate(c.text).targetTokens, c.greedy.tokens, at('greedy'));
            assert.deepEqual(tr.translate(c.text, { beam: 4 }).targetTokens, c.beam4.tokens, at('beam 4'));
          }
          assert.ok(steps >= 20, `only ${steps} steps compared`);
          assert.ok(encoders >= 20, `only ${encoders} encoders compared`);
        } finally {
          tr.dispose();
        }
      });
    }
  });
}

// An RNN's rows carry no cross-attention, and its info() says so.
test('RNN steps have cross null and arch rnn', async () => {
  const tr = await translator(readFileSync(fixturePath('tiny-scaled_dot-f32.safetensors')), 'wasm-simd');
  try {
    assert.equal(tr.info().arch, 'rnn');
    assert.equal(tr.info().heads, 0);
    for await (const s of tr.steps('the black cat')) assert.equal(s.cross, null);
    assert.equal(tr.selfAttention('the cat').layers, undefined);
  } finally {
    tr.dispose();
  }
});
