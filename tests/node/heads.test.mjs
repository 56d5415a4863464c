// ui/heads.js and widget/heads.js in Node, on the tiny Transformer's own steps: the rows the
// views draw for a layer and head, the average, the default, and the widget's layer/head
// attributes, hostile ones included. (The pages themselves: tests/browser/transformer*.test.mjs.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { seriesKind } from '../../web/ui/bleu-chart.js';
import { AVERAGE, crossRow, defaultSelection, meanRows, selfRows, stepFor, validSelection } from '../../web/ui/heads.js';
import { widgetHeads } from '../../web/widget/heads.js';
import { fixturePath } from './helpers.mjs';

const TEXT = 'The black cat is sleeping.';

test('a layer and head is exactly the engine\'s row; the average is the mean; the default is the step\'s own', async () => {
  const tr = await createTranslator({ model: readFileSync(fixturePath('tiny-transformer-f32.safetensors')) });
  try {
    const { steps } = tr.align(TEXT, 'Le chat noir dort.');
    const { decLayers: L, heads: H } = tr.info();
    assert.deepEqual(defaultSelection(L), { layer: L - 1, head: AVERAGE });
    for (const st of steps) {
      for (let l = 0; l < L; l++) {
        for (let h = 0; h < H; h++) {
          assert.equal(crossRow(st, { layer: l, head: h }), st.cross.alpha[l][h]);
          assert.equal(crossRow(st, { layer: l, head: h }, 'e'), st.cross.e[l][h]);
        }
      }
      assert.equal(crossRow(st, defaultSelection(L)), st.alpha, 'the default is the step\'s summary row itself');
      const avg = crossRow(st, { layer: 0, head: AVERAGE });
      avg.forEach((x, j) => assert.equal(x, st.cross.alpha[0].reduce((s, r) => s + r[j], 0) / H));
      // The summary row is the engine's mean of the last layer's heads, to float32 precision.
      meanRows(st.cross.alpha[L - 1]).forEach((x, j) => assert.ok(Math.abs(x - st.alpha[j]) < 1e-6));
      const shown = stepFor(st, { layer: 0, head: 1 });
      assert.equal(shown.alpha, st.cross.alpha[0][1]);
      assert.equal(shown.e, st.cross.e[0][1]);
      assert.equal(shown.c, st.c, 'the rest of the step is its own');
    }
    const self = tr.selfAttention(TEXT);
    assert.equal(selfRows(self, { layer: 1, head: 2 }), self.weights[1][2]);
    selfRows(self, { layer: 0, head: AVERAGE }).forEach((row, i) =>
      row.forEach((x, j) => assert.equal(x, self.weights[0].reduce((s, head) => s + head[i][j], 0) / self.heads)));
  } finally {
    tr.dispose();
  }
});

test('an RNN step has no cross: its own alpha whatever the selection', async () => {
  const tr = await createTranslator({ model: readFileSync(fixturePath('tiny-additive-f32.safetensors')) });
  try {
    for await (const st of tr.steps(TEXT)) {
      assert.equal(st.cross, null);
      assert.equal(crossRow(st, { layer: 0, head: 2 }), st.alpha);
      assert.equal(stepFor(st, { layer: 0, head: 2 }), st);
    }
  } finally {
    tr.dispose();
  }
});

test('a wanted layer and head is kept when it exists, else the default', () => {
  assert.deepEqual(validSelection(2, 3, { layer: 0, head: 2 }), { layer: 0, head: 2 });
  assert.deepEqual(validSelection(2, 3, { layer: 5, head: 2 }), { layer: 1, head: 2 });
  assert.deepEqual(validSelection(2, 3, { layer: 0, head: 3 }), { layer: 0, head: AVERAGE });
  assert.deepEqual(validSelection(2, 3, { layer: -1, head: AVERAGE }), { layer: 1, head: AVERAGE });
  assert.deepEqual(validSelection(2, 3, { layer: 0.5, head: '1' }), { layer: 1, head: AVERAGE });
  assert.deepEqual(validSelection(2, 3, null), { layer: 1, head: AVERAGE });
});

test('the widget\'s layer and head attributes: valid, out of range, hostile, on an RNN', () => {
  const info = { arch: 'transformer', decLayers: 2, heads: 3 };
  assert.deepEqual(widgetHeads(null, null, info, 'en'), { sel: { layer: 1, head: AVERAGE }, notes: [] });
  assert.deepEqual(widgetHeads('1', '3', info, 'en'), { sel: { layer: 0, head: 2 }, notes: [] });
  assert.deepEqual(widgetHeads(' 2 ', 'Average', info, 'en').sel, { layer: 1, head: AVERAGE });
  for (const [layer, head, note] of [
    ['0', null, /layer="0" is ignored/],
    ['3', null, /layer="3" is ignored: it must be a decoder layer from 1 to 2/],
    ['1e0', null, /layer="1e0" is ignored/],
    [null, '4', /head="4" is ignored: it must be a head from 1 to 3, or avg/],
    [null, '-1', /head="-1" is ignored/],
    ['<script>alert(1)</script>', null, /layer="<script>alert\(1\)<\/sc…" is ignored/],
  ]) {
    const r = widgetHeads(layer, head, info, 'en');
    assert.equal(r.notes.length, 1, `${layer} ${head}`);
    assert.match(r.notes[0], note);
    assert.deepEqual(r.sel, { layer: 1, head: AVERAGE }, 'the default is drawn');
  }
  assert.match(widgetHeads('9', null, info, 'zh').notes[0], /已忽略 layer="9"/);
  const rnn = widgetHeads('2', null, { arch: 'rnn', scoring: 'additive' }, 'en');
  assert.equal(rnn.sel, null);
  assert.match(rnn.notes[0], /apply to a Transformer model/);
  assert.deepEqual(widgetHeads(null, null, { arch: 'rnn' }, 'en'), { sel: null, notes: [] });
  assert.deepEqual(widgetHeads('2', '2', null, 'en'), { sel: null, notes: [] }, 'no model yet: nothing to say');
});

test('the BLEU chart tells the Transformer apart from the dot-product RNN (both score with a dot product)', () => {
  assert.equal(seriesKind({ model: 'en-fr-dot', scoring: 'scaled_dot' }), 'scaled_dot');
  assert.equal(seriesKind({ model: 'en-fr-transformer', scoring: 'scaled_dot' }), 'transformer');
  assert.equal(seriesKind({ model: 'x', scoring: 'scaled_dot', arch: 'transformer' }), 'transformer');
  assert.equal(seriesKind({ model: 'x', scoring: 'scaled_dot', decoder: 'transformer' }), 'transformer');
  assert.equal(seriesKind({ model: 'en-fr-noattn', scoring: 'none' }), 'none');
});
