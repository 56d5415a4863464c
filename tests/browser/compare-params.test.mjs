// compare.html's URL parameters (readCompareParams in web/app/params.js) and the link the main
// page builds to it (compareLink): a= and b= follow model='s rules, and a link reads back as
// what it was made from.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { COMPARE_MODELS, MODELS, compareLink, readCompareParams } from '../../web/app/params.js';

const BASE = 'http://127.0.0.1:8000/';
const at = (search) => new URL(`/compare.html${search}`, BASE);

test('the scaled-dot model has a name, and the comparison defaults to additive vs dot', () => {
  assert.deepEqual(MODELS['en-fr-dot'], { url: 'models/en-fr-dot.safetensors', label: 'en-fr (scaled dot)' });
  const p = readCompareParams(at(''));
  assert.deepEqual(COMPARE_MODELS, ['en-fr', 'en-fr-dot']);
  assert.equal(p.a.url, `${BASE}models/en-fr.safetensors`);
  assert.equal(p.b.url, `${BASE}models/en-fr-dot.safetensors`);
  assert.deepEqual([p.text, p.step, p.simd, p.lang, p.badModel], ['', null, 'auto', 'en', false]);
});

test('a= and b= take names or same-origin paths; anything else falls back and says so', () => {
  const p = readCompareParams(at('?a=tiny&b=/fixtures/x.safetensors&step=3&simd=0&lang=zh&text=I%20am%20cold.'));
  assert.equal(p.a.name, 'tiny');
  assert.equal(p.b.url, `${BASE}fixtures/x.safetensors`);
  assert.deepEqual([p.text, p.step, p.simd, p.lang, p.badModel], ['I am cold.', 3, false, 'zh', false]);
  for (const bad of ['https://example.com/m.safetensors', '//example.com/m', 'javascript:alert(1)', '']) {
    const q = readCompareParams(at(`?b=${encodeURIComponent(bad)}`));
    assert.equal(q.badModel, true, bad);
    assert.equal(q.b.name, 'en-fr-dot', bad);
  }
  assert.equal(readCompareParams(at('?step=-1')).step, null);
  assert.equal(readCompareParams(at('?lang=fr')).lang, 'en');
  assert.equal(readCompareParams(at(`?text=${'x'.repeat(3000)}`)).text.length, 2000);
});

test('compareLink round-trips, and leaves the defaults out', () => {
  const link = compareLink(`${BASE}?model=en-fr`, { text: 'Où & quoi ?', lang: 'zh', simd: false, step: 2 });
  const url = new URL(link);
  assert.equal(url.pathname, '/compare.html');
  assert.equal(url.searchParams.has('a'), false);
  const p = readCompareParams(url);
  assert.deepEqual([p.text, p.lang, p.simd, p.step, p.a.name, p.b.name], ['Où & quoi ?', 'zh', false, 2, 'en-fr', 'en-fr-dot']);
  assert.equal(compareLink(BASE, { text: '' }), `${BASE}compare.html`);
  assert.equal(readCompareParams(new URL(compareLink(BASE, { text: 'x', a: 'tiny', b: 'tiny-dot' }))).b.name, 'tiny-dot');
});
