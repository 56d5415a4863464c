// Issue 23: en-fr now learned its attention by translation alone, and the additive model trained
// with an aligner's hint is kept as en-fr-guided, so that a student can compare the two. Here:
// the main page's model menu offers it and names it as guided (not a step of the site's story,
// so why.html's strip is left alone: transformer.test.mjs); the Normalise caption says which way
// a model learned its weights, for the one as for the other, in both languages; and the
// comparison page's ready-made pair puts en-fr beside en-fr-guided on one sentence, with the
// aligner's note beside the guided side's entropy. The widget takes it by name too.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, sharedBrowser, waitDone, waitReady, widgetRun } from './helpers.mjs';

const SENTENCE = 'I have a black cat.';
const T = { timeout: 180_000 };
const browser = sharedBrowser();

// compare.html decoded, analysed, and its playback at rest.
async function compared(page) {
  await page.waitForSelector('[data-role="app"][data-state="done"][data-analysis="done"]', { timeout: 120_000 });
  await page.waitForSelector('[data-role="compare"][data-finished="true"][data-playing="false"]', { timeout: 60_000 });
}

// The premise, from the model files themselves: which learned by itself, which had the hint.
const guidance = {};
before(async () => {
  for (const name of ['en-fr', 'en-fr-guided']) {
    const tr = await createTranslator({ model: path.join(ROOT, 'models', `${name}.safetensors`) });
    guidance[name] = tr.info().attentionGuidance;
    tr.dispose();
  }
});

test('the model files: en-fr learned by itself, en-fr-guided with an aligner’s hint', () => {
  assert.deepEqual(guidance, { 'en-fr': 'none', 'en-fr-guided': 'ibm1-diag' });
});

test('the main page’s model menu offers en-fr-guided after the two attention RNNs, named as guided', T, async () => {
  const page = await browser.newPage();
  for (const [lang, kind] of [['en', 'en-fr-guided · additive attention, with an aligner’s hint'], ['zh', 'en-fr-guided · 加性注意力，借助对齐器的提示']]) {
    await page.goto(`${browser.url}?model=en-fr&lang=${lang}`);
    await waitReady(page);
    const options = await page.$$eval('[data-role="model"] option', (os) => os.map((o) => ({ value: o.value, text: o.textContent })));
    assert.deepEqual(options.map((o) => o.value), ['en-fr-noattn', 'en-fr', 'en-fr-dot', 'en-fr-guided', 'en-fr-transformer'], lang);
    assert.equal(options.find((o) => o.value === 'en-fr-guided').text, kind);
    assert.ok(!/aligner|对齐器/.test(options.find((o) => o.value === 'en-fr').text), 'en-fr is not the guided one');
  }
  // Picking it opens the page on it, and its menu still names it.
  await page.goto(`${browser.url}?model=en-fr`);
  await waitReady(page);
  await Promise.all([page.waitForURL(/model=en-fr-guided/), page.selectOption('[data-role="model"]', 'en-fr-guided')]);
  await waitReady(page);
  assert.equal(await page.$eval('[data-role="model"]', (el) => el.selectedOptions[0].textContent), 'en-fr-guided · additive attention, with an aligner’s hint');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the Normalise caption says how each model learned its weights: by itself, or with the aligner’s hint', T, async () => {
  const page = await browser.newPage();
  const caption = async (query) => {
    await page.goto(`${browser.url}?${query}&speed=instant&text=${encodeURIComponent(SENTENCE)}`);
    await waitDone(page);
    return page.textContent('[data-role="app"] [data-role="step-panel"] [data-role="weights"] .bl-step-caption');
  };
  const alone = await caption('model=en-fr');
  assert.match(alone, /^Softmax.*How this model learned them: from translating alone\. Nobody told it which English word a French word corresponds to/);
  assert.doesNotMatch(alone, /aligner/);
  const guided = await caption('model=en-fr-guided');
  assert.match(guided, /^Softmax.*statistical aligner \(IBM Model 1/);
  assert.doesNotMatch(guided, /translating alone/);
  assert.match(await caption('model=en-fr&lang=zh'), /只靠翻译。没有人告诉它哪个英文词对应哪个法语词/);
  assert.match(await caption('model=en-fr-guided&lang=zh'), /IBM 模型 1/);
  // The scaled-dot model learned by itself too.
  assert.match(await caption('model=en-fr-dot'), /from translating alone/);

  // Where the caption does not speak of learned weights: a model without attention has no
  // Normalise step, and a Transformer's step is one layer and head of many.
  const other = await page.evaluate(async () => {
    const { StepPanel } = await import('/ui/step-panel.js');
    const { STRINGS } = await import('/ui/strings.js');
    const box = document.body.appendChild(document.createElement('div'));
    const step = { index: 0, word: 'chat', e: [0, 0, 0], alpha: [0.1, 0.8, 0.1], c: [0.1], cNorm: 0.1, topWords: ['chat'], topProbs: [0.9], topIds: [9], token: 9 };
    const render = (view) => {
      new StepPanel(box, { strings: STRINGS.en }).render({ columns: ['the', 'cat', '</s>'], step, ...view });
      return box.textContent;
    };
    return { none: render({ scoring: 'none', guidance: 'none' }), transformer: render({ scoring: 'scaled_dot', transformer: true, guidance: 'none' }) };
  });
  assert.doesNotMatch(other.none, /translating alone/);
  assert.doesNotMatch(other.transformer, /translating alone/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the widget takes model="en-fr-guided", and its step panel says how it learned', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}test-pages/compare.html`);
  await page.waitForFunction(() => customElements.get('attention-translator'));
  const run = (model) => widgetRun(page, { model, text: SENTENCE, panel: '', speed: 'instant' },
    { caption: '[data-role="weights"] .bl-step-caption' });
  const guided = await run('en-fr-guided');
  assert.equal(guided.state, 'done', guided.error);
  assert.match(guided.caption, /statistical aligner \(IBM Model 1/);
  const alone = await run('en-fr');
  assert.match(alone.caption, /from translating alone/);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the comparison page’s ready-made pair sets en-fr beside en-fr-guided on one sentence', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}compare.html?text=${encodeURIComponent(SENTENCE)}`);
  await compared(page);
  const preset = '[data-role="compare-preset"][data-preset="guidance"]';
  assert.equal(await page.textContent(preset), 'Learned by itself vs with an aligner’s hint');
  assert.equal(await page.getAttribute('[data-role="compare-preset"][data-preset="kinds"]', 'aria-current'), 'page');
  await Promise.all([page.waitForURL(/b=en-fr-guided/), page.click(preset)]);
  await compared(page);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('text'), SENTENCE, 'the sentence is kept');
  assert.equal(await page.getAttribute(preset, 'aria-current'), 'page');

  const seen = await page.evaluate(() => {
    const side = (s) => document.querySelector(`[data-role="side"][data-side="${s}"]`);
    const guided = (s) => side(s).querySelector('[data-role="entropy-guided"]');
    return {
      menus: ['a', 'b'].map((s) => document.querySelector(`[data-role="model-${s}"]`).value),
      labels: ['a', 'b'].map((s) => side(s).querySelector('.bl-cmp-label').textContent),
      rows: ['a', 'b'].map((s) => side(s).querySelectorAll('[data-role="matrix"] > [data-row]').length),
      guidedNote: ['a', 'b'].map((s) => guided(s).checkVisibility()),
      noteText: guided('b').textContent,
      position: document.querySelector('[data-role="compare"] [data-role="position"]').textContent,
      tv: document.querySelector('[data-role="tv"]').textContent,
      title: document.querySelector('h1').textContent,
      story: document.querySelector('[data-role="compare"] .bl-cmp-text').dataset.story,
      explain: document.querySelector('[data-role="compare"] .bl-cmp-text').textContent,
    };
  });
  assert.deepEqual(seen.menus, ['en-fr', 'en-fr-guided']);
  assert.deepEqual(seen.labels, ['· en-fr', '· en-fr-guided (aligner’s hint)']);
  assert.ok(seen.rows.every((n) => n > 0), `both matrices have rows: ${seen.rows}`);
  // Two models of one kind are named by their labels, not as "the additive model" twice.
  assert.match(seen.position, /en-fr: \d+ words?, finished · en-fr-guided \(aligner’s hint\): \d+ words?, finished/);
  assert.match(seen.tv, /en-fr writes .*en-fr-guided \(aligner’s hint\)/);
  assert.deepEqual(seen.guidedNote, [false, true], 'the aligner’s note beside the guided side’s entropy only');
  assert.match(seen.noteText, /statistical word aligner/);
  assert.equal(seen.title, 'Attention learned by itself vs with an aligner’s hint');
  assert.equal(seen.story, 'guidance');
  assert.match(seen.explain, /trained by translation alone/);

  // In Chinese: the pair's links, the title and the guided label.
  await page.click('[data-role="lang"]');
  assert.equal(await page.textContent(preset), '自己学会的与借助对齐器提示的');
  assert.equal(await page.textContent('h1'), '自己学会的注意力与借助对齐器提示的注意力');
  assert.match(await page.textContent('[data-side="b"] .bl-cmp-label'), /en-fr-guided（借助对齐器的提示）/);
  assert.match(await page.getAttribute('[data-role="compare-preset"][data-preset="kinds"]', 'href'), /lang=zh/);
  assert.deepEqual(page.problems, []);
  await page.close();
});
