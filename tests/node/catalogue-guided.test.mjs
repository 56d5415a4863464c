// Issue 23: the additive model trained with an aligner's hint (en-fr-guided) is in the catalogue
// as a menu entry of the English->French pair, not a step of the site's story (LINEAGE, why.html's
// strip), and not in the npm package. The comparison page takes it by name, its ready-made pair
// sets it beside en-fr, and its words (the page's title, the menus' kind, the label) are said in
// both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { COMPARE_PRESETS } from '../../web/app/compare-presets.js';
import { compareLink, readCompareParams } from '../../web/app/params.js';
import {
  COMPARE_MODELS, GUIDANCE_MODELS, GUIDED_MODELS, LINEAGE, MODEL_KINDS, MODELS, PACKAGED_MODELS, PAIRS, pairOf, refusePair,
} from '../../web/lib/catalogue.js';
import { COMPARE_STRINGS } from '../../web/ui/compare-strings.js';
import { compareStory } from '../../web/ui/compare-story.js';
import { STRINGS } from '../../web/ui/strings.js';
import { TRANSFORMER_STRINGS } from '../../web/ui/transformer-strings.js';

const BASE = 'http://127.0.0.1:8000/';

test('en-fr-guided: a named additive model of the English->French menu, outside the story and the package', () => {
  assert.deepEqual(MODELS['en-fr-guided'], { url: 'models/en-fr-guided.safetensors', label: 'en-fr-guided (aligner’s hint)' });
  assert.equal(MODEL_KINDS['en-fr-guided'], 'additive');
  assert.deepEqual(GUIDED_MODELS, ['en-fr-guided']);
  assert.deepEqual(PAIRS['en-fr'].models, ['en-fr-noattn', 'en-fr', 'en-fr-dot', 'en-fr-guided', 'en-fr-transformer']);
  assert.deepEqual(LINEAGE, ['en-fr-noattn', 'en-fr', 'en-fr-dot', 'en-fr-transformer']);
  assert.equal(pairOf('en-fr-guided'), 'en-fr');
  assert.ok(!PACKAGED_MODELS.includes('en-fr-guided'));
  // Every model of a menu has a kind to show before it is loaded.
  for (const { models } of Object.values(PAIRS)) for (const name of models) assert.ok(MODEL_KINDS[name], name);
});

test('compare.html takes a=en-fr&b=en-fr-guided, and its ready-made pair links there', () => {
  assert.deepEqual(GUIDANCE_MODELS, ['en-fr', 'en-fr-guided']);
  assert.deepEqual(COMPARE_PRESETS, { kinds: COMPARE_MODELS, guidance: GUIDANCE_MODELS });
  assert.equal(refusePair({ name: 'en-fr' }, { name: 'en-fr-guided' }), null);
  const p = readCompareParams(new URL(`compare.html?a=en-fr&b=en-fr-guided&text=${encodeURIComponent('I am cold.')}`, BASE));
  assert.deepEqual([p.a.name, p.b.name, p.badModel, p.pairRefused], ['en-fr', 'en-fr-guided', false, null]);
  assert.equal(p.b.url, `${BASE}models/en-fr-guided.safetensors`);
  const link = new URL(compareLink(BASE, { text: 'I am cold.', lang: 'zh', a: 'en-fr', b: 'en-fr-guided' }));
  assert.equal(link.searchParams.get('b'), 'en-fr-guided');
  const back = readCompareParams(link);
  assert.deepEqual([back.a.name, back.b.name, back.lang, back.text], ['en-fr', 'en-fr-guided', 'zh', 'I am cold.']);
});

test('the comparison\'s story: the guidance story exactly for one score learned two ways', () => {
  const rnn = (scoring, attentionGuidance) => ({ arch: 'rnn', scoring, attentionGuidance });
  assert.equal(compareStory([rnn('additive', 'none'), rnn('additive', 'ibm1-diag')]), 'guidance');
  assert.equal(compareStory([rnn('additive', 'ibm1-diag'), rnn('additive', 'none')]), 'guidance');
  assert.equal(compareStory([rnn('additive', 'none'), rnn('scaled_dot', 'none')]), 'rnn');
  assert.equal(compareStory([rnn('additive', 'none'), rnn('scaled_dot', 'ibm1-diag')]), 'rnn', 'two differences: the scores\' story');
  assert.equal(compareStory([rnn('additive', 'none'), rnn('additive', 'none')]), 'rnn');
  assert.equal(compareStory([rnn('additive', 'none'), null]), 'rnn', 'one still loading');
  assert.equal(compareStory([rnn('additive', 'none'), { arch: 'transformer', scoring: 'scaled_dot', attentionGuidance: 'none' }]), 'transformer');
});

test('the guided model\'s words, in English and in Chinese', () => {
  const latin = (s) => s.replace(/“[^”]*”/g, '').match(/[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]/g) ?? [];
  assert.equal(STRINGS.zh.modelLabel(MODELS['en-fr-guided'].label), 'en-fr-guided（借助对齐器的提示）');
  assert.equal(TRANSFORMER_STRINGS.en.guidedKind('additive attention'), 'additive attention, with an aligner’s hint');
  for (const lang of ['en', 'zh']) {
    const S = STRINGS[lang];
    const C = COMPARE_STRINGS[lang];
    for (const k of ['captionWeightsAlone', 'captionWeightsGuided']) assert.equal(typeof S[k], 'string', `${lang} ${k}`);
    assert.deepEqual(Object.keys(C.presets), Object.keys(COMPARE_PRESETS), lang);
    assert.equal(C.explainGuidance.length, C.explain.length, lang);
    if (lang === 'zh') {
      const said = [S.captionWeightsAlone, C.presetsLabel, ...Object.values(C.presets), ...Object.values(C.guidancePage), ...C.explainGuidance,
        TRANSFORMER_STRINGS.zh.guidedKind(TRANSFORMER_STRINGS.zh.kinds.additive)];
      for (const s of said) assert.deepEqual(latin(s).filter((w) => !['RNN', 'IBM', 'softmax'].includes(w)), [], s);
    }
  }
});
