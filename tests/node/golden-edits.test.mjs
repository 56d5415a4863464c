// Attention edits against the PyTorch reference on both wasm engines, as
// tests/cpp/golden_edits_test.cpp checks the native one (tests/fixtures/tiny-edits.json, from
// scripts/nmt/golden.py write_edits): steps() and align() under the stored edits, every step's e,
// alpha, c, top-5 and token, the edited flag with the model's own row (and a Transformer's own
// rows per layer and head), and translate() listing the same edited rows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { WASM, fixture, fixturePath, translator } from './helpers.mjs';

// |got - want| <= tol * max(1, |want|); the int8 tolerances of golden.test.mjs and
// golden-transformer.test.mjs (tests/cpp/golden.h: kRnnInt8Tol, kTransformerInt8Tol).
const tolerance = (int8, transformer) => (!int8 ? 1e-5 : transformer ? 1.5e-3 : 5e-3);
function assertClose(got, want, what, tol) {
  assert.equal(got.length, want.length, `${what}: length`);
  for (let k = 0; k < got.length; k++) {
    assert.ok(Math.abs(got[k] - want[k]) <= tol * Math.max(1, Math.abs(want[k])), `${what}[${k}]: got ${got[k]}, want ${want[k]}`);
  }
}
const flat = (v) => v.flat(2);

function checkStep(s, want, what, tol) {
  assertClose(s.e, want.e, `${what} e`, tol);
  assertClose(s.alpha, want.alpha, `${what} alpha`, tol);
  assertClose(s.c, want.c, `${what} c`, tol);
  assertClose(s.topLogProbs, want.top_logp, `${what} top log-probs`, tol);
  const edited = want.edited ?? false;
  assert.equal(s.edited, edited, `${what} edited`);
  if (edited) assertClose(s.ownAlpha, want.own_alpha, `${what} own alpha`, tol);
  else assert.equal(s.ownAlpha, null, `${what} no own alpha`);
  if (!want.cross) return;
  assertClose(flat(s.cross.alpha), flat(want.cross.alpha), `${what} cross alpha`, tol);
  if (edited) assertClose(flat(s.cross.ownAlpha), flat(want.cross_own), `${what} cross own alpha`, tol);
}

const doc = fixture('tiny-edits');

for (const variant of WASM) {
  test(`tiny-edits.json: steps, forced rows and translate() under edits match PyTorch (${variant})`, async () => {
    assert.ok(doc.models.length >= 10);
    let edited = 0;
    for (const m of doc.models) {
      const tr = await translator(readFileSync(fixturePath(m.model)), variant);
      const { arch, dtype } = tr.info();
      const int8 = dtype === 'int8';
      const tol = tolerance(int8, arch === 'transformer');
      for (const c of m.cases) {
        const at = (s) => `${m.model} ${JSON.stringify(c.edits)}: ${s}`;
        const it = tr.steps(doc.text, { edits: c.edits });
        let i = 0;
        let flipped = false; // int8: a near tie may pick the other word (golden.test.mjs)
        for await (const s of it) {
          const want = c.steps[i];
          assert.ok(want, at(`step ${i} beyond the reference's`));
          checkStep(s, want, at(`step ${i}`), tol);
          edited += s.edited;
          if (int8 && s.token !== want.token) {
            flipped = true;
            await it.return();
            break;
          }
          assert.equal(s.token, want.token, at(`step ${i} token`));
          i++;
        }
        if (!flipped) {
          assert.equal(i, c.steps.length, at('step count'));
          const t = tr.translate(doc.text, { edits: c.edits });
          assert.deepEqual(t.targetIds, it.result.targetIds, at('translate() decodes as steps()'));
          assert.deepEqual(t.edited, it.result.edited, at('edited rows'));
          t.edited.forEach((r, k) => assertClose(t.ownAttention[k], c.steps[r].own_alpha, at(`own row ${r}`), tol));
        }
        const al = tr.align(doc.text, doc.target, { edits: c.edits });
        assert.equal(al.steps.length, c.force.length, at('forced rows'));
        al.steps.forEach((s, r) => {
          checkStep(s, c.force[r], at(`forced row ${r}`), tol);
          assertClose([s.prob], [c.force[r].prob], at(`forced row ${r} prob`), tol);
          edited += s.edited;
        });
      }
      tr.dispose();
    }
    assert.ok(edited >= 70, `only ${edited} edited steps compared`);
  });
}
