// The captions for a model into Chinese (ui/target-strings.js): every caption of the page's
// tables names Chinese where the French model's say French, in both caption languages; the
// user's own words inside a template are never rewritten; French keeps the tables as written.
// And the catalogue's language pairs (lib/catalogue.js) that the menus and compare.html read.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MODELS, PACKAGED_MODELS, PAIRS, pairOf } from '../../web/lib/catalogue.js';
import { refusePair } from '../../web/app/params.js';
import { EDIT_STRINGS } from '../../web/ui/edit-strings.js';
import { STRINGS } from '../../web/ui/strings.js';
import { retarget } from '../../web/ui/target-strings.js';

// A template's text with sample arguments: words, numbers, or a list of words where it wants one.
function call(fn) {
  for (const args of [['x', 2, 'y'], [['x', 'y'], 2, 'y']]) {
    try {
      return String(fn(...args));
    } catch {}
  }
  throw new Error(`could not call ${fn}`);
}

// Every caption as text: strings as they are, templates called with sample arguments.
function texts(table) {
  const out = [];
  const walk = (k, v) => {
    if (typeof v === 'string') out.push([k, v]);
    else if (typeof v === 'function') out.push([k, call(v)]);
    else if (v && typeof v === 'object') for (const [kk, vv] of Object.entries(v)) walk(`${k}.${kk}`, vv);
  };
  for (const [k, v] of Object.entries(table)) walk(k, v);
  return out;
}

test('an en-zh table names Chinese, never French, in both caption languages', () => {
  for (const tables of [STRINGS, EDIT_STRINGS]) {
    for (const lang of ['en', 'zh']) {
      const before = texts(tables[lang]).filter(([, t]) => (lang === 'zh' ? /法语/ : /French/).test(t));
      assert.ok(before.length > 0, 'the tables do name French');
      const after = retarget(tables[lang], lang, 'zh');
      const left = texts(after).filter(([, t]) => (lang === 'zh' ? /法语|英法/ : /French/).test(t));
      assert.deepEqual(left, [], `${lang}: captions still naming French`);
      assert.equal(after.targetLang, 'zh');
      assert.equal(after.targetTag, 'zh-Hans');
    }
  }
  assert.match(retarget(STRINGS.en, 'en', 'zh').tagline, /English→Chinese/);
  assert.match(retarget(STRINGS.zh, 'zh', 'zh').forceLabel, /中文/);
});

test('a template keeps the user\'s own words: only the caption around them is rewritten', () => {
  const S = retarget(STRINGS.en, 'en', 'zh');
  assert.equal(S.queuedForModel('I speak French.'), STRINGS.en.queuedForModel('I speak French.'));
  assert.match(S.captionUnkBanned('French'), /“French” into the Chinese/);
});

test('French and unknown targets keep the tables as written', () => {
  for (const t of ['fr', undefined, 'xx']) {
    const S = retarget(STRINGS.en, 'en', t);
    assert.equal(S.tagline, STRINGS.en.tagline);
    assert.equal(S.targetLang, 'fr');
  }
});

test('the catalogue: en-zh is a model, a pair of its own and in the package', () => {
  assert.deepEqual(MODELS['en-zh'], { url: 'models/en-zh.safetensors', label: 'en-zh' });
  assert.ok(PACKAGED_MODELS.includes('en-zh'));
  assert.deepEqual(Object.keys(PAIRS), ['en-fr', 'en-zh']);
  assert.equal(pairOf('en-zh'), 'en-zh');
  for (const name of ['en-fr', 'en-fr-dot', 'en-fr-noattn', 'en-fr-transformer', 'en-fr-f32']) assert.equal(pairOf(name), 'en-fr');
  assert.equal(pairOf('models/x.safetensors'), null);
  const m = (name) => ({ name, label: name });
  assert.equal(refusePair(m('en-fr'), m('en-fr-dot')), null);
  assert.equal(refusePair(m('en-fr'), m('en-zh')).kind, 'mixed');
  assert.equal(refusePair(m('en-zh'), m('en-zh')).kind, 'same');
  assert.equal(refusePair(m('en-zh'), m('x.safetensors')), null, 'a URL\'s language is only known once loaded');
});
