// The page's URL parameters (web/app/params.js): links anyone can write must not point the
// page at another origin, and a permalink must read back as what it was made from.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DEFAULT_MODEL, MODELS, permalink, readParams, resolveModel } from '../../web/app/params.js';

const BASE = 'http://127.0.0.1:8000/';
const at = (search) => new URL(`/${search}`, BASE);

test('model= takes a known name or a same-origin relative URL, nothing else', () => {
  assert.equal(resolveModel('en-fr', BASE).url, `${BASE}models/en-fr.safetensors`);
  assert.equal(resolveModel('tiny', BASE).url, `${BASE}fixtures/tiny-additive-f32.safetensors`);
  assert.equal(resolveModel('/models/other.safetensors', BASE).url, `${BASE}models/other.safetensors`);
  assert.equal(resolveModel('models/x.safetensors?v=2', BASE).url, `${BASE}models/x.safetensors?v=2`);
  for (const bad of [
    'http://example.com/m.safetensors',
    'https://127.0.0.1:8000/models/en-fr.safetensors', // another origin (scheme differs)
    '//example.com/m.safetensors',
    '/\\example.com/m.safetensors',
    '\\\\example.com\\m',
    'javascript:alert(1)',
    'data:application/octet-stream,xyz',
    'blob:http://127.0.0.1:8000/1234',
    'models/\nx',
    '',
    'x'.repeat(301),
  ]) {
    assert.equal(resolveModel(bad, BASE), null, bad);
  }
  // Names are looked up as own properties only: these are just (same-origin) paths.
  assert.equal(resolveModel('__proto__', BASE).url, `${BASE}__proto__`);
  assert.equal(resolveModel('constructor', BASE).url, `${BASE}constructor`);
});

test('a bad model= falls back to the default and says so; other parameters are bounded', () => {
  const p = readParams(at('?model=https%3A%2F%2Fexample.com%2Fm&step=abc&beam=99&simd=1&lang=fr'));
  assert.equal(p.badModel, true);
  assert.equal(p.model.name, DEFAULT_MODEL);
  assert.equal(p.step, null);
  assert.equal(p.beam, 1);
  assert.equal(p.simd, 'auto');
  assert.equal(p.lang, 'en');
  const q = readParams(at('?simd=0&beam=8&step=3&lang=zh'));
  assert.deepEqual([q.simd, q.beam, q.step, q.lang, q.badModel], [false, 8, 3, 'zh', false]);
  assert.equal(readParams(at(`?text=${'a'.repeat(5000)}`)).text.length, 2000);
});

test('a permalink reads back as the view it was made from', () => {
  const view = { text: 'Où est <b>la</b> gare ? & co', model: 'tiny', step: 2, beam: 3, simd: false, lang: 'zh' };
  const link = permalink(at('?model=tiny'), view);
  const back = readParams(new URL(link));
  assert.deepEqual(
    { text: back.text, model: back.model.name, step: back.step, beam: back.beam, simd: back.simd, lang: back.lang },
    view,
  );
  assert.ok(Object.keys(MODELS).includes('en-fr'));
});

test('speed= takes the widget\'s names and view= only lines; a permalink keeps both, and sentence=', () => {
  const q = readParams(at('?speed=10&view=lines&sentence=3'));
  assert.deepEqual([q.speed, q.view, q.sentence], [3, 'lines', 3]);
  assert.equal(readParams(at('?speed=instant')).speed, 4);
  for (const bad of ['?speed=3', '?speed=fast', '?speed=%201', '?speed=constructor', '?speed=']) {
    assert.equal(readParams(at(bad)).speed, null, bad);
  }
  for (const bad of ['?view=matrix', '?view=LINES', '?view=', '?view=__proto__']) {
    assert.equal(readParams(at(bad)).view, 'matrix', bad);
  }
  for (const bad of ['?sentence=0', '?sentence=-1', '?sentence=1.5', '?sentence=10000', '?sentence=x']) {
    assert.equal(readParams(at(bad)).sentence, null, bad);
  }
  const view = { text: 'One. Two.', model: 'en-fr', step: 1, beam: 1, simd: 'auto', lang: 'en', speed: 0, view: 'lines', sentence: 2 };
  const back = readParams(new URL(permalink(at(''), view)));
  assert.deepEqual([back.speed, back.view, back.sentence], [0, 'lines', 2]);
  // The defaults stay out of the link.
  const plain = new URL(permalink(at(''), { ...view, speed: 2, view: 'matrix', sentence: null }));
  assert.deepEqual(['speed', 'view', 'sentence'].map((k) => plain.searchParams.get(k)), [null, null, null]);
});
