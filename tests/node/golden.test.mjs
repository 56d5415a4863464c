// Parity with the PyTorch reference on both wasm engines, as tests/cpp/golden_test.cpp checks
// the native one: every step's e, alpha, c and top-5, and the greedy and beam-4 outputs of the
// four tiny fixture models (additive and scaled-dot scoring, f32 and int8).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { FIXTURES, WASM, fixture, fixturePath, translator } from './helpers.mjs';

// |got - want| <= 1e-5 * max(1, |want|): absolute near zero, relative for log-probs of size ~10.
function assertClose(got, want, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let k = 0; k < got.length; k++) {
    const tol = 1e-5 * Math.max(1, Math.abs(want[k]));
    assert.ok(Math.abs(got[k] - want[k]) <= tol, `${what}[${k}]: got ${got[k]}, want ${want[k]}`);
  }
}

for (const variant of WASM) {
  describe(`golden fixtures on ${variant}`, () => {
    for (const name of FIXTURES) {
      test(name, async () => {
        const doc = fixture(name);
        assert.ok(doc.cases.length >= 20, 'fixture has too few cases');
        const tr = await translator(readFileSync(fixturePath(doc.model)), variant);
        try {
          assert.equal(tr.engine.variant, variant);
          assert.equal(tr.info().kernels, variant === 'wasm-simd' ? 'wasm-simd' : 'scalar');
          let steps = 0;
          for (const c of doc.cases) {
            const at = (s) => `${JSON.stringify(c.text)}: ${s}`;
            const it = tr.steps(c.text);
            assert.deepEqual(it.sourceTokens, c.src_tokens.length ? [...c.src_tokens, '</s>'] : []);
            if (c.steps) {
              let i = 0;
              for await (const s of it) {
                assert.ok(i < c.steps.length, at(`more steps than the reference's ${c.steps.length}`));
                const want = c.steps[i];
                assertClose(s.e, want.e, at(`step ${i} e`));
                assertClose(s.alpha, want.alpha, at(`step ${i} alpha`));
                assertClose(s.c, want.c, at(`step ${i} c`));
                assert.equal(s.token, want.token, at(`step ${i} token`));
                assert.deepEqual(s.topIds, want.top_ids, at(`step ${i} top ids`));
                assertClose(s.topLogProbs, want.top_logp, at(`step ${i} top log-probs`));
                assertClose([s.prob], [want.prob], at(`step ${i} prob`));
                i++;
              }
              assert.equal(i, c.steps.length, at('step count'));
              steps += i;
            } else {
              await it.return();
            }
            const greedy = tr.translate(c.text);
            assert.deepEqual(greedy.sourceIds, c.src_ids, at('source ids'));
            assert.deepEqual(greedy.targetTokens, c.greedy.tokens, at('greedy tokens'));
            assert.equal(greedy.text, c.greedy.text, at('greedy text'));
            const beam = tr.translate(c.text, { beam: 4 });
            assert.deepEqual(beam.targetTokens, c.beam4.tokens, at('beam-4 tokens'));
            assert.equal(beam.text, c.beam4.text, at('beam-4 text'));
            if (c.beam4.norm !== null && c.beam4.norm !== undefined) {
              assert.ok(beam.hypotheses.length > 0, at('beam-4 hypotheses'));
              assertClose([beam.hypotheses[0].norm], [c.beam4.norm], at('beam-4 norm'));
            }
          }
          assert.ok(steps > 0, 'no step was compared');
        } finally {
          tr.dispose();
        }
      });
    }
  });
}
