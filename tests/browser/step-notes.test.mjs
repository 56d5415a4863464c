// The step panel's note for a word that puts most of its weight on </s> (issue: the brightest
// cell of many matrices is the end marker of the first row, and deserves a sentence), on the
// page with the shipped model and in both languages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { launch, pageModel, waitDone, waitReady } from './helpers.mjs';

let browser;
let model;
let reference;

before(async () => {
  model = pageModel();
  browser = await launch();
  reference = await createTranslator({ model: model.file });
}, { timeout: 90_000 });

after(async () => {
  reference?.dispose();
  await browser?.close();
});

test('the note shows exactly on the steps whose largest weight is </s>', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}`);
  await waitReady(page);
  const seen = await page.evaluate(async () => {
    const { StepPanel } = await import('/ui/step-panel.js');
    const { STRINGS } = await import('/ui/strings.js');
    const box = document.body.appendChild(document.createElement('div'));
    const columns = ['the', 'cat', '</s>'];
    const step = (word, alpha, done = false) => ({ index: 0, word, e: [0, 0, 0], alpha, c: [0.1], cNorm: 0.1,
      topWords: [word], topProbs: [0.9], topIds: [9], token: 9, done });
    const note = (lang, s) => {
      new StepPanel(box, { strings: STRINGS[lang] }).render({ columns, step: s, scoring: 'additive' });
      return box.querySelector('[data-role="eos-note"]')?.textContent ?? null;
    };
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
  // model's own rows.
  const text = 'I have a black cat.';
  const want = reference.translate(text);
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
  assert.ok(shown >= 1, 'the shipped model looks at </s> first on this sentence (else pick another)');
  await page.close();
});
