// The pages show what the engine reports in English (web/lib's variant reasons, the models'
// labels, the self-attention method) in the page's language by mapping the known values at
// display time. A value the engine can report that has no Chinese would leave English on a
// Chinese page: each is checked here (tests/browser/zh.test.mjs walks the pages themselves).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { MODELS } from '../../web/app/params.js';
import { createTranslator } from '../../web/lib/bahdanau.js';
import { RELAXED_REASON } from '../../web/lib/relaxed.js';
import { COMPARE_STRINGS } from '../../web/ui/compare-strings.js';
import { STRINGS } from '../../web/ui/strings.js';
import { ROOT, fixturePath } from './helpers.mjs';

const zh = STRINGS.zh;
const latinWords = (s) => s.replace(/“[^”]*”/g, '').match(/[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]/g) ?? [];

test('every reason chooseVariant gives, the pages\' ?simd=0 and relaxed SIMD\'s, is said in Chinese', () => {
  const source = readFileSync(path.join(ROOT, 'web', 'lib', 'loader.js'), 'utf8');
  const wheres = [...source.matchAll(/isNode \? '([^']+)' : '([^']+)'/g)].flatMap((m) => [m[1], m[2]]);
  assert.ok(wheres.length >= 2, 'loader.js names where SIMD is missing');
  const reasons = [...source.matchAll(/reason: (['`])(.*?)\1/g)].flatMap(([, , r]) =>
    r.includes('${where}') ? wheres.map((w) => r.replace('${where}', w)) : [r]);
  assert.ok(reasons.length >= 4, `found ${reasons.length} reasons in loader.js`);
  for (const reason of [...reasons, 'forced by ?simd=0', RELAXED_REASON]) {
    const said = zh.engineUsed('wasm-simd', reason);
    assert.ok(!said.includes(reason), `“${reason}” has a Chinese: ${said}`);
    assert.equal(STRINGS.en.engineUsed('wasm-simd', reason), `wasm-simd (${reason})`, 'the English stays the engine\'s');
  }
  for (const variant of ['wasm-simd', 'wasm-scalar']) assert.notEqual(zh.variantName(variant), variant);
});

// A model's name (en-fr, en-zh: the pair's ISO codes) is an identifier, the same on every page.
test('every model label with English words in it has a Chinese one', () => {
  for (const [name, { label }] of Object.entries(MODELS)) {
    const english = latinWords(zh.modelLabel(label)).filter((w) => !/^(en-fr|en-zh|int8|f32|Transformer)/.test(w));
    assert.deepEqual(english, [], `${name}: ${zh.modelLabel(label)}`);
  }
  for (const scoring of ['additive', 'scaled_dot', 'none']) assert.deepEqual(latinWords(zh.scoringKind(scoring)), [], scoring);
});

test('the engine\'s self-attention method is said in Chinese', async () => {
  const tr = await createTranslator({ model: readFileSync(fixturePath('tiny-scaled_dot-f32.safetensors')) });
  try {
    const { method } = tr.selfAttention('The cat.');
    assert.equal(COMPARE_STRINGS.en.selfMethodText(method), method);
    const said = COMPARE_STRINGS.zh.selfMethodText(method);
    assert.notEqual(said, method, 'mapped');
    assert.deepEqual(latinWords(said).filter((w) => w !== 'Transformer'), [], said);
  } finally {
    tr.dispose();
  }
});

test('the engine\'s reason a Transformer\'s scoring is not timed is said in Chinese', async () => {
  const { TRANSFORMER_STRINGS } = await import('../../web/ui/transformer-strings.js');
  const tr = await createTranslator({ model: readFileSync(fixturePath('tiny-transformer-f32.safetensors')) });
  try {
    assert.equal(tr.info().arch, 'transformer');
    assert.throws(() => tr.scoringCost('The cat.'), (e) => {
      const said = TRANSFORMER_STRINGS.zh.costNA(e.message);
      assert.ok(!said.includes(e.message), `mapped: ${said}`);
      assert.deepEqual(latinWords(said).filter((w) => !['RNN', 'Transformer'].includes(w)), [], said);
      assert.equal(TRANSFORMER_STRINGS.en.costNA(e.message), `n/a: ${e.message}`);
      return true;
    });
  } finally {
    tr.dispose();
  }
});
