// The step panel's note for a word that puts most of its weight on </s> (issue: the brightest
// cell of many matrices is the end marker of the first row, and deserves a sentence), in both
// languages; and the Normalise caption's sentence for a model trained with guided attention.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { launch, pageModel, waitDone, waitReady } from './helpers.mjs';

let browser;
let model;
let reference;
let tiny; // the random-weights fixture, whose rows often peak at </s>

before(async () => {
  model = pageModel();
  browser = await launch();
  reference = await createTranslator({ model: model.file });
  tiny = await createTranslator({ model: new URL('../fixtures/tiny-additive-f32.safetensors', import.meta.url).pathname });
}, { timeout: 90_000 });

after(async () => {
  reference?.dispose();
  tiny?.dispose();
  await browser?.close();
});

// The page with the shipped model, and window.renderPanel(lang, view): a StepPanel of its own
// (the page's modules, in the page's language strings) rendered into a box, returned.
async function openWithPanel() {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}`);
  await waitReady(page);
  await page.evaluate(async () => {
    const { StepPanel } = await import('/ui/step-panel.js');
    const { STRINGS } = await import('/ui/strings.js');
    const box = document.body.appendChild(document.createElement('div'));
    window.renderPanel = (lang, view) => {
      new StepPanel(box, { strings: STRINGS[lang] }).render(view);
      return box;
    };
    window.panelStep = (word, alpha, done = false) => ({ index: 0, word, e: [0, 0, 0], alpha, c: [0.1], cNorm: 0.1,
      topWords: [word], topProbs: [0.9], topIds: [9], token: 9, done });
  });
  return page;
}

test('the note shows exactly on the steps whose largest weight is </s>', { timeout: 120_000 }, async () => {
  const page = await openWithPanel();
  const seen = await page.evaluate(() => {
    const columns = ['the', 'cat', '</s>'];
    const step = window.panelStep;
    const note = (lang, s) => window.renderPanel(lang, { columns, step: s, scoring: 'additive' })
      .querySelector('[data-role="eos-note"]')?.textContent ?? null;
    return {
      eos: note('en', step('le', [0.2, 0.1, 0.7])),
      zh: note('zh', step('le', [0.2, 0.1, 0.7])),
      word: note('en', step('chat', [0.1, 0.8, 0.1])),
      end: note('en', step('</s>', [0.1, 0.1, 0.8], true)),
    };
  });
  assert.match(seen.eos, /Most of this word’s weight is on ⟨\/s⟩/);
  assert.match(seen.zh, /句末标记/);
  assert.equal(seen.word, null);
  assert.equal(seen.end, null, 'the end of the sentence is expected to look at </s>');

  // On the page: step through every word with the player's buttons and compare with the
  // model's own rows. The shipped models, trained with guided attention, put their largest
  // weight on </s> for no word of 400 dev sentences, so this part runs the tiny fixture.
  await page.goto(`${browser.url}?model=tiny`);
  await waitReady(page);
  const text = 'I have a black cat.';
  const want = tiny.translate(text);
  await page.fill('[data-role="source-input"]', text);
  await page.press('[data-role="source-input"]', 'Enter');
  await waitDone(page);
  let shown = 0;
  await page.click('[data-role="first"]');
  for (let i = 0; i < want.attention.length; i++) {
    if (i > 0) await page.click('[data-role="step-forward"]');
    await page.waitForFunction((n) => document.querySelector('[data-role="app"]').dataset.position === String(n), i);
    const row = want.attention[i];
    const eos = row.indexOf(Math.max(...row)) === row.length - 1;
    const has = await page.$('[data-role="step-panel"] [data-role="eos-note"]');
    assert.equal(Boolean(has), eos, `row ${i} (${want.targetTokens[i]})`);
    shown += eos;
  }
  assert.ok(shown >= 1 && shown < want.attention.length, 'some rows of the tiny model peak at </s>, some not (else pick another sentence)');
  await page.close();
});

// How the weights were learned: the Normalise caption adds the aligner sentence exactly for a
// model whose file says its attention was guided (info().attentionGuidance), in both languages.
test('the weights caption says how a guided model learned its weights', { timeout: 120_000 }, async () => {
  const page = await openWithPanel();
  const seen = await page.evaluate(() => {
    const step = window.panelStep('chat', [0.1, 0.8, 0.1]);
    const caption = (lang, guidance) => window.renderPanel(lang, { columns: ['the', 'cat', '</s>'], step, scoring: 'additive', guidance })
      .querySelector('[data-role="weights"] .bl-step-caption').textContent;
    return { plain: caption('en', 'none'), guided: caption('en', 'ibm1-diag'), zh: caption('zh', 'ibm1-diag'), absent: caption('en', undefined) };
  });
  assert.match(seen.guided, /^Softmax.*statistical aligner \(IBM Model 1/);
  assert.match(seen.zh, /IBM 模型 1/);
  assert.doesNotMatch(seen.plain, /aligner/);
  assert.equal(seen.absent, seen.plain);

  // On the page, with the model it serves: the sentence is there exactly when its file says so.
  await page.fill('[data-role="source-input"]', 'I have a black cat.');
  await page.press('[data-role="source-input"]', 'Enter');
  await waitDone(page);
  const shown = await page.textContent('[data-role="app"] [data-role="step-panel"] [data-role="weights"] .bl-step-caption');
  assert.equal(/statistical aligner/.test(shown), reference.info().attentionGuidance === 'ibm1-diag', shown);
  await page.close();
});
