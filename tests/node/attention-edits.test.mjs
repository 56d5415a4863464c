// Attention edits through the JS API (issue 26; web/lib/edits.js): a step decoded under given
// weights reports them as alpha and the model's own softmax as ownAlpha, the steps before it
// are exactly a plain run's, the steps after follow from the state it left; held edits, forced
// decoding, translateBatch, a Transformer's per-head edits and ablation; the errors, from JS
// (types) and from the core (values); the bindings alone refusing bad shapes without a throw;
// and the scalar and SIMD engines agreeing. Parity with PyTorch: golden-edits.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MAX_EDITS } from '../../web/lib/bahdanau.js';
import { loadVariant } from '../../web/lib/loader.js';
import { WASM, fixturePath, translator } from './helpers.mjs';

const TEXT = 'The black cat is sleeping.'; // 7 columns: 6 tokens, then </s>
const TARGET = 'Le chat noir dort.';
const bytes = (name) => readFileSync(fixturePath(`${name}.safetensors`));
const RNNS = ['tiny-additive-f32', 'tiny-scaled_dot-cgru-int8'];
const strip = ({ timings, ...rest }) => rest;
const argmax = (row) => row.indexOf(Math.max(...row));
const oneHot = (n, j) => Array.from({ length: n }, (_, k) => (k === j ? 1 : 0));

async function collect(it) {
  const out = [];
  for await (const s of it) out.push(s);
  return out;
}

async function withModel(name, variant, fn) {
  const tr = await translator(bytes(name), variant);
  try {
    await fn(tr);
  } finally {
    tr.dispose();
  }
}

for (const variant of WASM) {
  for (const name of RNNS) {
    test(`${name} (${variant}): a one-hot edit, the model's own row beside it, the steps before untouched`, () =>
      withModel(name, variant, async (tr) => {
        const plain = tr.translate(TEXT);
        assert.ok(plain.targetTokens.length >= 3, 'a translation long enough to edit its row 1');
        const j = (argmax(plain.attention[1]) + 1) % 7; // not where the model looked most
        const edits = [{ step: 1, column: j }];
        const r = tr.translate(TEXT, { edits });
        assert.deepEqual(r.edited, [1]);
        assert.deepEqual(r.attention[1], oneHot(7, j), 'the given row is the row');
        assert.deepEqual(r.ownAttention, [plain.attention[1]], 'the model\'s own row, as a plain run has it');
        assert.deepEqual(r.attention[0], plain.attention[0]);
        assert.equal(r.targetIds[0], plain.targetIds[0]);
        assert.equal(r.probs[0], plain.probs[0]);
        assert.deepEqual(plain.edited, []);
        assert.deepEqual(plain.ownAttention, []);
        // The state after the edit is not the plain run's: the next row differs.
        if (r.attention.length > 2 && r.targetIds[1] === plain.targetIds[1]) {
          assert.notDeepEqual(r.attention[2], plain.attention[2], 'the continuation follows the edited state');
        }

        const plainSteps = await collect(tr.steps(TEXT));
        const it = tr.steps(TEXT, { edits });
        const steps = await collect(it);
        assert.deepEqual(steps[0], plainSteps[0], 'step 0 is the plain run\'s, field for field');
        assert.equal(steps[0].edited, false);
        assert.equal(steps[0].ownAlpha, null);
        assert.equal(steps[1].edited, true);
        assert.deepEqual(steps[1].alpha, oneHot(7, j));
        assert.deepEqual(steps[1].ownAlpha, plainSteps[1].alpha);
        assert.deepEqual(steps[1].e, plainSteps[1].e, 'e stays the model\'s own scores');
        assert.equal(steps[1].cross, null);
        for (const s of steps.slice(2)) assert.deepEqual([s.edited, s.ownAlpha], [false, null]);
        assert.deepEqual(strip(it.result), strip(r), 'steps() and translate() decode the same');
        assert.deepEqual(steps.slice(0, r.attention.length).map((s) => s.alpha), r.attention);
      }));

    test(`${name} (${variant}): the model's own row given back changes nothing; weights are scaled to sum 1`, () =>
      withModel(name, variant, (tr) => {
        const plain = tr.translate(TEXT);
        const same = tr.translate(TEXT, { edits: [{ step: 1, weights: plain.attention[1] }] });
        assert.deepEqual(same.targetTokens, plain.targetTokens);
        same.probs.forEach((p, i) => assert.ok(Math.abs(p - plain.probs[i]) < 1e-4, `prob ${i}`));
        const w = [1, 2, 0, 0, 0.5, 0, 1];
        const a = tr.translate(TEXT, { edits: [{ step: 0, weights: w }] });
        const b = tr.translate(TEXT, { edits: [{ step: 0, weights: new Float32Array(w.map((x) => x * 4)) }] });
        assert.deepEqual(strip(a), strip(b), '{w} and {4w} are the same edit; a Float32Array works');
        a.attention[0].forEach((x, k) => assert.ok(Math.abs(x - w[k] / 4.5) < 1e-6));
      }));

    test(`${name} (${variant}): hold keeps the edit at every later step; translateBatch passes edits on`, () =>
      withModel(name, variant, (tr) => {
        const r = tr.translate(TEXT, { edits: [{ step: 1, column: 0, hold: true }] });
        const n = r.attention.length;
        assert.ok(n >= 2);
        assert.deepEqual(r.edited, Array.from({ length: n - 1 }, (_, k) => k + 1));
        r.attention.slice(1).forEach((row, i) => assert.deepEqual(row, oneHot(7, 0), `row ${i + 1}`));
        assert.equal(r.ownAttention.length, n - 1);
        const edits = [{ step: 1, column: 2 }];
        const batch = tr.translateBatch([TEXT, 'I am cold.', 'a'], { edits, maxLen: 4 });
        for (const [i, text] of [TEXT, 'I am cold.'].entries()) {
          assert.deepEqual(strip(batch[i]), strip(tr.translate(text, { edits, maxLen: 4 })));
        }
        assert.match(batch[2].error, /column 2 is out of range/, 'a text the edit does not fit');
      }));

    test(`${name} (${variant}): forced decoding under an edit: the given word's prob there`, () =>
      withModel(name, variant, (tr) => {
        const plain = tr.align(TEXT, TARGET);
        const r = tr.align(TEXT, TARGET, { edits: [{ step: 2, column: 5 }] });
        assert.deepEqual(r.targetIds, plain.targetIds);
        assert.deepEqual(r.steps.slice(0, 2), plain.steps.slice(0, 2), 'rows before the edit');
        assert.deepEqual([r.steps[2].edited, r.steps[2].alpha], [true, oneHot(7, 5)]);
        assert.deepEqual(r.steps[2].ownAlpha, plain.steps[2].alpha);
        assert.notEqual(r.steps[2].prob, plain.steps[2].prob, 'the word\'s prob under the given attention');
        assert.equal(r.steps[2].token, plain.steps[2].token, 'the given word all the same');
        assert.equal(r.steps[3].edited, false);
        const last = r.steps.length; // rows: the target's tokens, then </s>
        assert.throws(() => tr.align(TEXT, TARGET, { edits: [{ step: last, column: 0 }] }), /step \d+ is past/);
      }));
  }
}

// [options, the error's class, its message]
const REFUSED = [
  [{ edits: [{ step: 1, weights: [NaN, 1, 0, 0, 0, 0, 0] }] }, Error, /weight 0 is not a finite number/],
  [{ edits: [{ step: 1, weights: [1, -1, 0, 0, 0, 0, 0] }] }, Error, /weight 1 is negative/],
  [{ edits: [{ step: 1, weights: [1, 0] }] }, Error, /2 weights for 7 columns/],
  [{ edits: [{ step: 1, weights: [0, 0, 0, 0, 0, 0, 0] }] }, Error, /the weights sum to 0/],
  [{ edits: [{ step: 1 }] }, Error, /give weights \(one per column\) or a column/],
  [{ edits: [{ step: 1, column: 7 }] }, Error, /column 7 is out of range/],
  [{ edits: [{ step: 1, column: 1, layer: 0 }] }, Error, /this RNN has one attention/],
  [{ edits: [{ step: 1, ablate: true }] }, Error, /ablate switches a Transformer head off/],
  [{ edits: [{ step: 1, column: 1 }, { step: 1, column: 2 }] }, Error, /attention edits 0 and 1 both set step 1/],
  [{ edits: [{ step: 500, column: 1 }] }, Error, /step 500 is past the length limit/],
  [{ edits: 'cat' }, TypeError, /edits must be an array/],
  [{ edits: [null] }, TypeError, /edits\[0\] must be an object/],
  [{ edits: [{ step: 1, colum: 2 }] }, TypeError, /edits\[0\] has no key "colum"/],
  [{ edits: [{ step: 1, weights: [1, 'x'] }] }, TypeError, /edits\[0\]\.weights\[1\] must be a number/],
  [{ edits: [{ step: 1, weights: 'x' }] }, TypeError, /edits\[0\]\.weights must be an array/],
  [{ edits: [{ step: 1, column: 1, hold: 1 }] }, TypeError, /edits\[0\]\.hold must be true or false/],
  [{ edits: [{ step: 1.5, column: 1 }] }, RangeError, /edits\[0\]\.step must be an integer/],
  [{ edits: [{ step: -1, column: 1 }] }, RangeError, /edits\[0\]\.step must be an integer in 0\.\./],
  [{ edits: [{ step: 1, column: -2 }] }, RangeError, /edits\[0\]\.column must be an integer in -1\.\./],
  [{ edits: [{ column: 1 }] }, RangeError, /edits\[0\]\.step must be an integer/],
  [{ edits: Array.from({ length: MAX_EDITS + 1 }, (_, k) => ({ step: k, column: 0 })) }, RangeError, /at most 1024 edits/],
];

test('bad edits are refused with a clear message, by JS (types) or by the core (values), from every method', () =>
  withModel('tiny-additive-f32', 'wasm-simd', async (tr) => {
    const before = tr.memory();
    for (const [options, kind, message] of REFUSED) {
      const what = JSON.stringify(options).slice(0, 80);
      assert.throws(() => tr.translate(TEXT, options), (e) => e instanceof kind && message.test(e.message), `translate ${what}`);
      assert.throws(() => tr.steps(TEXT, options), (e) => e instanceof kind && message.test(e.message), `steps ${what}`);
      if (!/length limit/.test(message.source)) {
        assert.throws(() => tr.align(TEXT, TARGET, options), (e) => e instanceof kind && message.test(e.message), `align ${what}`);
      }
    }
    // Beam search and paragraphs take no edits.
    const one = [{ step: 1, column: 0 }];
    assert.throws(() => tr.translate(TEXT, { beam: 2, edits: one }), (e) => e instanceof RangeError && /need greedy decoding/.test(e.message));
    assert.throws(() => tr.translateBatch([TEXT], { beam: 3, edits: one }), RangeError);
    assert.throws(() => tr.translate(TEXT, { splitSentences: true, edits: one }),
      (e) => e instanceof RangeError && /^edits apply to one sentence: /.test(e.message));
    assert.equal(tr.translate(TEXT, { splitSentences: true, edits: [] }).sentences.length, 1);
    assert.deepEqual(tr.memory(), before, 'nothing left behind on the heap');
  }));

test('a model without attention has no weights to edit', () =>
  withModel('tiny-none-cgru-f32', 'wasm-simd', (tr) => {
    assert.throws(() => tr.translate(TEXT, { edits: [{ step: 0, column: 0 }] }), /has no attention/);
    assert.equal(tr.translate(TEXT).edited.length, 0);
  }));

test('the bindings alone refuse bad shapes with {error}, never a throw, and leak nothing', async () => {
  await translator(bytes('tiny-additive-f32'), 'wasm-simd'); // builds the engine if missing
  const { module } = await loadVariant('wasm-simd');
  const native = new module.Translator();
  assert.equal(native.load(bytes('tiny-additive-f32'), { simd: true }), undefined);
  const handles = module.count_emval_handles();
  const refusals = [
    [{ edits: 'x' }, 'edits must be an array, got a string'],
    [{ edits: [5] }, 'edits[0] must be an object, got 5'],
    [{ edits: [{ step: 'a' }] }, 'edits[0].step must be an integer, got a string'],
    [{ edits: [{ step: 2 ** 40 }] }, 'edits[0].step must be an integer, got 1099511627776'],
    [{ edits: [{ step: 1, weights: [1, 'x'] }] }, 'edits[0].weights[1] must be a number, got a string'],
    [{ edits: [{ step: 1, weights: {} }] }, 'edits[0].weights must be an array, got a value of type object'],
    [{ edits: [{ step: 1, column: 1, ablate: 0 }] }, 'edits[0].ablate must be true or false, got 0'],
    [{ edits: new Array(1025).fill({ step: 0, column: 0 }) }, 'edits holds at most 1024 items, got 1025'],
    [{ beam: 'wide' }, 'beam must be an integer, got a string'],
    [7, 'options must be an object, got 7'],
  ];
  for (const [options, message] of refusals) {
    assert.deepEqual(native.translate(TEXT, options), { error: message });
    if (options.beam === undefined) assert.deepEqual(native.align(TEXT, TARGET, options), { error: message });
    const dec = new module.Decoder(native, TEXT, options);
    assert.deepEqual(dec.status(), { error: message });
    assert.equal(dec.next(), null);
    dec.delete();
  }
  assert.deepEqual(native.translateBatch([TEXT], { edits: 'x' }), { error: 'edits must be an array, got a string' });
  // Well-shaped but wrong values are each text's own {error}, from the core.
  assert.match(native.translateBatch([TEXT], { edits: [{ step: 1 }] })[0].error, /give weights/);
  assert.equal(module.count_emval_handles(), handles, 'no Embind handle left behind');
  native.delete();
});

test('a Transformer: one head given weights, a head switched off, each with its own rows beside', () =>
  withModel('tiny-transformer-f32', 'wasm-simd', async (tr) => {
    const { decLayers: L, heads: H } = tr.info();
    const plain = await collect(tr.steps(TEXT));
    const [s] = await collect(tr.steps(TEXT, { edits: [{ step: 0, layer: 0, head: 1, column: 3 }], maxLen: 1 }));
    assert.equal(s.edited, true);
    assert.deepEqual(s.cross.alpha[0][1], oneHot(7, 3));
    assert.equal(s.cross.ownAlpha.length, L);
    assert.equal(s.cross.ownAlpha[0].length, H);
    assert.deepEqual(s.cross.ownAlpha[0][1], plain[0].cross.alpha[0][1], 'the head\'s own softmax');
    assert.deepEqual(s.cross.alpha[0][0], plain[0].cross.alpha[0][0], 'the other heads of the layer are their own');
    assert.deepEqual(s.cross.ownAlpha[0][0], s.cross.alpha[0][0]);
    assert.equal(s.ownAlpha.length, 7, 'the summary of the heads\' own rows');

    const [a] = await collect(tr.steps(TEXT, { edits: [{ step: 0, layer: L - 1, head: 0, ablate: true }], maxLen: 1 }));
    assert.equal(a.edited, true);
    assert.deepEqual(a.cross.alpha[L - 1][0], new Array(7).fill(0), 'a head switched off mixes nothing');
    assert.deepEqual(a.cross.ownAlpha[L - 1][0], plain[0].cross.alpha[L - 1][0]);
    assert.equal(plain[0].cross.ownAlpha, null, 'an unedited step has no own rows');

    // It writes </s> first on its own: a step after it is past the end of translate()'s output,
    // a text's {error} in a batch, and never applied by steps().
    assert.deepEqual(tr.translate(TEXT).targetTokens, []);
    const late = { edits: [{ step: 1, column: 0 }] };
    assert.throws(() => tr.translate(TEXT, late), /step 1 is past the end: the translation has 1 steps/);
    assert.match(tr.translateBatch([TEXT], late)[0].error, /past the end/);
    assert.ok((await collect(tr.steps(TEXT, late))).every((x) => !x.edited));
    assert.throws(() => tr.translate(TEXT, { edits: [{ step: 0, layer: L, column: 0 }] }), new RegExp(`layer ${L} is out of range`));
    assert.throws(() => tr.translate(TEXT, { edits: [{ step: 0, head: H, column: 0 }] }), new RegExp(`head ${H} is out of range`));
    const r = tr.align(TEXT, TARGET, { edits: [{ step: 1, layer: 1, ablate: true }] });
    assert.deepEqual(r.steps.map((x) => x.edited), r.steps.map((_, i) => i === 1));
    assert.ok(r.steps[1].cross.ownAlpha[1].every((row) => row.length === 7));
  }));

test('the scalar and SIMD engines agree under edits', async () => {
  const cases = [
    ['tiny-additive-f32', { edits: [{ step: 1, column: 2 }] }],
    ['tiny-scaled_dot-cgru-f32', { edits: [{ step: 0, weights: [1, 2, 0, 0, 0.5, 0, 1], hold: true }] }],
    ['tiny-transformer-f32', { edits: [{ step: 0, layer: 1, head: 2, weights: [0, 0, 1, 1, 0, 0, 0], hold: true }] }],
  ];
  for (const [name, options] of cases) {
    const got = {};
    for (const variant of WASM) {
      await withModel(name, variant, async (tr) => {
        got[variant] = { t: tr.translate(TEXT, options), a: tr.align(TEXT, TARGET, options) };
      });
    }
    const [simd, scalar] = WASM.map((v) => got[v]);
    assert.deepEqual(simd.t.targetTokens, scalar.t.targetTokens, name);
    assert.deepEqual(simd.t.edited, scalar.t.edited, name);
    const close = (x, y, what) => x.forEach((v, k) => assert.ok(Math.abs(v - y[k]) < 1e-5, `${name} ${what}[${k}]`));
    simd.t.ownAttention.forEach((row, i) => close(row, scalar.t.ownAttention[i], `own ${i}`));
    simd.a.steps.forEach((s, i) => {
      assert.equal(s.edited, scalar.a.steps[i].edited);
      close(s.alpha, scalar.a.steps[i].alpha, `forced alpha ${i}`);
      close([s.prob], [scalar.a.steps[i].prob], `forced prob ${i}`);
      if (s.edited) close(s.ownAlpha, scalar.a.steps[i].ownAlpha, `forced own ${i}`);
    });
  }
});
