// "Or type your own French" in real Chromium: forced decoding of the user's translation shows
// the engine's own rows (the JS API's align()) in the matrix and the step panel, names the
// words the model does not know, goes back to the model's translation, survives a permalink,
// and refuses bad input with a readable error that keeps what was typed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, launch, pageModel, readMatrix, setSpeed, waitDone, waitReady } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const FRENCH = 'Le chat noir dort.';
const T = { timeout: 120_000 };

let browser;
let model;
let reference;

before(async () => {
  model = pageModel();
  browser = await launch();
  reference = await createTranslator({ model: model.file, simd: true });
}, { timeout: 90_000 });

after(async () => {
  reference?.dispose();
  await browser?.close();
});

async function translated(query = '') {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}${query}`);
  await waitReady(page);
  await setSpeed(page, 4);
  await waitDone(page);
  return page;
}

async function align(page, french) {
  await page.fill('[data-role="force-input"]', french);
  await page.press('[data-role="force-input"]', 'Enter');
  await page.waitForSelector('[data-role="force-summary"]:not([hidden])');
  await waitDone(page);
}

// The rows the page must show: align()'s, the closing '</s>' row left out of the matrix.
function expectedRows(french) {
  const r = reference.align(SENTENCE, french);
  return { r, rows: r.steps.slice(0, -1).map((s, i) => ({ word: r.targetTokens[i], weights: s.alpha })) };
}

describe('forced decoding on the page', { timeout: 600_000 }, () => {
  test('the user\'s French is aligned with the engine\'s own rows, then the model\'s come back', T, async () => {
    const page = await translated();
    const own = await readMatrix(page);
    assert.ok(await page.isVisible('[data-role="force-form"]'), 'the form shows once translated');
    await align(page, FRENCH);
    const { r, rows } = expectedRows(FRENCH);
    const got = await readMatrix(page);
    assert.deepEqual(got.map((x) => x.word), rows.map((x) => x.word));
    got.forEach((x, i) => assert.deepEqual(x.weights, rows[i].weights, `row ${i}`));
    assert.equal(await page.textContent('[data-role="output"]'), FRENCH);
    const summary = await page.textContent('[data-role="force-text"]');
    assert.ok(summary.includes(r.logProb.toFixed(2)), summary);
    assert.ok(summary.includes(`${rows.length} words`), summary);

    // The step panel of the word "noir": the user's word, its probability, the model's choice.
    await page.click('[data-role="first"]');
    await page.click('[data-role="step-forward"]');
    await page.click('[data-role="step-forward"]');
    const note = await page.textContent('[data-role="forced-note"]');
    assert.ok(note.includes(`${(r.steps[2].prob * 100).toFixed(1)}%`), note);
    assert.ok(note.includes(r.steps[2].topWords[0]), note);
    assert.match(await page.textContent('[data-role="candidates"]'), /your word/);

    await page.click('[data-role="force-back"]');
    await waitDone(page);
    assert.deepEqual(await readMatrix(page), own);
    assert.ok(await page.isHidden('[data-role="force-summary"]'));
    assert.equal(await page.inputValue('[data-role="force-input"]'), FRENCH, 'the typed French is kept');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('unknown words read as <unk>, and the panel says so', T, async () => {
    const page = await translated();
    await align(page, 'Le chat Zorglub dort.');
    assert.match(await page.textContent('[data-role="force-text"]'), /1 of them is not in its vocabulary/);
    const words = (await readMatrix(page)).map((x) => x.word);
    assert.ok(words.includes('Zorglub'), words.join(' '));
    await page.click('[data-role="first"]');
    await page.click('[data-role="step-forward"]');
    await page.click('[data-role="step-forward"]');
    assert.match(await page.textContent('[data-role="step-panel"]'), /“Zorglub” is not in the model’s vocabulary/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a permalink keeps the aligned French; a new sentence drops the alignment', T, async () => {
    const page = await translated();
    await align(page, FRENCH);
    await page.click('[data-role="permalink"]');
    const link = new URL(await page.inputValue('[data-role="permalink-field"]'));
    assert.equal(link.searchParams.get('force'), FRENCH);
    const again = await browser.newPage();
    await again.goto(link.href);
    await again.waitForSelector('[data-role="force-summary"]:not([hidden])');
    await setSpeed(again, 4);
    await waitDone(again);
    assert.deepEqual((await readMatrix(again)).map((x) => x.word), expectedRows(FRENCH).rows.map((x) => x.word));
    await again.fill('[data-role="source-input"]', 'I am cold.');
    await again.press('[data-role="source-input"]', 'Enter');
    await waitDone(again);
    assert.ok(await again.isHidden('[data-role="force-summary"]'));
    const own = reference.translate('I am cold.');
    assert.deepEqual((await readMatrix(again)).map((x) => x.word), own.targetTokens);
    assert.deepEqual(again.problems, []);
    await again.close();
    await page.close();
  });

  test('an empty or over-long French gets a readable error and keeps the text', T, async () => {
    const page = await translated();
    await page.fill('[data-role="force-input"]', '   ');
    await page.click('[data-role="force-submit"]');
    await page.waitForSelector('[data-role="error"]:not([hidden])');
    assert.match(await page.textContent('[data-role="error"]'), /Type a French translation/);
    const long = 'le chat '.repeat(100);
    await page.fill('[data-role="force-input"]', long);
    await page.click('[data-role="force-submit"]');
    await page.waitForFunction(() => /writes at most/.test(document.querySelector('[data-role="error"]').textContent));
    assert.equal(await page.inputValue('[data-role="force-input"]'), long);
    assert.ok(await page.isHidden('[data-role="force-summary"]'));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('Chinese captions, and axe finds nothing on the aligned view', T, async () => {
    const axe = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    for (const colorScheme of ['light', 'dark']) {
      const page = await browser.newPage({ colorScheme });
      await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}` +
        `&force=${encodeURIComponent(FRENCH)}&step=1&lang=zh`);
      await page.waitForSelector('[data-role="force-summary"]:not([hidden])');
      await page.waitForSelector('[data-role="app"][data-state="done"][data-position="1"]');
      await page.waitForFunction(() => document.getAnimations().length === 0);
      assert.match(await page.textContent('[data-role="force-text"]'), /模型读入了你的法语译文/);
      assert.match(await page.textContent('[data-role="forced-note"]'), /这个词是你写的/);
      await page.evaluate(axe);
      const violations = await page.evaluate(async () =>
        (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(violations, [], colorScheme);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });
});
