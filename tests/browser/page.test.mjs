// The page in real Chromium: translating, the matrix growing row by row with the engine's own
// numbers, playback, scalar mode, errors, keyboard use, beam search, exports and permalinks.
// One browser for the whole file; every test has a timeout, so nothing hangs. A little over 400
// lines, on purpose: the tests share that browser and the reference translator in Node.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, launch, pageModel, readMatrix, setSpeed, waitDone, waitReady } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 120_000 };

let browser;
let model;
let reference = {}; // Node translators of the same model: the JS API the page must agree with

before(async () => {
  model = pageModel();
  browser = await launch();
  reference = {
    simd: await createTranslator({ model: model.file, simd: true }),
    scalar: await createTranslator({ model: model.file, simd: false }),
  };
}, { timeout: 90_000 });

after(async () => {
  reference.simd?.dispose();
  reference.scalar?.dispose();
  await browser?.close();
});

async function open(query = '', options) {
  const page = await browser.newPage(options);
  const sep = query ? '&' : '';
  await page.goto(`${browser.url}?model=${model.name}${sep}${query}`);
  return page;
}

function assertNoProblems(page) {
  assert.deepEqual(page.problems, [], 'console errors, page errors or requests leaving the server');
}

function assertRowsMatch(rows, expected) {
  assert.equal(rows.length, expected.attention.length, 'one row per output word');
  assert.deepEqual(rows.map((r) => r.word), expected.targetTokens);
  rows.forEach((r, i) => {
    assert.equal(r.row, i);
    const sum = r.weights.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) <= 1e-4, `row ${i} sums to ${sum}`);
    assert.equal(r.weights.length, expected.sourceTokens.length);
    // The same wasm engine on the same input: the page shows translate()'s exact numbers.
    assert.deepEqual(r.weights, expected.attention[i], `row ${i} equals translate()'s attention`);
  });
}

describe('the page', { timeout: 600_000 }, () => {
  test('a typed sentence is translated, and the matrix grows one row per word with the API\'s weights', T, async () => {
    const page = await open();
    await waitReady(page);
    // Record the number of rows each time the matrix changes, with the output text then.
    await page.evaluate(() => {
      window.__rows = [];
      const root = document.querySelector('[data-role="matrix-root"]');
      const count = () => root.querySelectorAll('[data-role="matrix"] > [data-row]').length;
      new MutationObserver(() => {
        const n = count();
        const last = window.__rows.at(-1);
        if (!last || last.n !== n) {
          window.__rows.push({
            n,
            t: performance.now(),
            output: document.querySelector('[data-role="output"]').textContent,
            decoding: document.querySelector('[data-role="app"]').dataset.state === 'decoding',
          });
        }
      }).observe(root, { childList: true, subtree: true });
    });
    await page.fill('[data-role="source-input"]', SENTENCE);
    await page.press('[data-role="source-input"]', 'Enter');
    await waitDone(page);

    const expected = reference.simd.translate(SENTENCE);
    assert.ok(expected.targetTokens.length >= 2, 'the model says more than one word');
    const log = await page.evaluate(() => window.__rows.filter((e) => e.n > 0));
    const counts = log.map((e) => e.n);
    assert.deepEqual(counts, expected.targetTokens.map((_, i) => i + 1), 'rows appear one at a time');
    // Seen at intermediate times, not all at the end: the rows are spread out in time, and the
    // output had grown word by word with them.
    assert.ok(log.at(-1).t - log[0].t >= 100 * (log.length - 1), 'rows were added over time');
    for (const e of log.slice(0, -1)) {
      assert.equal(e.output.trim().length > 0, true);
      assert.ok(e.output.length < log.at(-1).output.length, 'the output grew with the rows');
    }

    const rows = await readMatrix(page);
    assertRowsMatch(rows, expected);
    assert.equal(await page.textContent('[data-role="output"]'), expected.text);
    assert.equal(await page.inputValue('[data-role="source-input"]'), SENTENCE);
    const status = await page.textContent('[data-role="status"]');
    assert.match(status, /wasm-simd/);
    assert.match(status, /ms per word/);
    // Decoding ran in the module worker; the main thread never loaded the engine.
    assert.deepEqual(page.workers().map((w) => new URL(w.url()).pathname), ['/engine/worker.js']);
    assert.equal(await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((r) => /\/dist\/|\.safetensors/.test(r.name)).length), 0);
    assertNoProblems(page);
    await page.close();
  });

  test('step back and forward move the highlighted row and the step panel', T, async () => {
    const page = await open(`text=${encodeURIComponent(SENTENCE)}`);
    await waitReady(page);
    await setSpeed(page, 4);
    await waitDone(page);
    const current = async () => {
      const rows = await readMatrix(page);
      const panel = await page.$eval('[data-role="step-panel"]', (el) => ({
        step: el.dataset.step,
        title: el.querySelector('.bl-steps-title')?.textContent,
        scores: [...el.querySelectorAll('[data-role="scores"] [data-value]')].map((b) => Number(b.dataset.value)),
        weights: [...el.querySelectorAll('[data-role="weights"] [data-value]')].map((b) => Number(b.dataset.value)),
        candidates: el.querySelectorAll('[data-role="candidates"] li').length,
      }));
      return { rows: rows.length, highlighted: rows.filter((r) => r.current).map((r) => r.row), panel };
    };
    assert.ok((await readMatrix(page)).length >= 3, 'a sentence of three words or more');
    await page.click('[data-role="first"]');
    const w0 = await current();
    const w1 = (await page.click('[data-role="step-forward"]'), await current());
    const w2 = (await page.click('[data-role="step-forward"]'), await current());
    const back = (await page.click('[data-role="step-back"]'), await current());

    assert.deepEqual([w0.highlighted, w1.highlighted, w2.highlighted], [[0], [1], [2]]);
    assert.deepEqual([w0.rows, w1.rows, w2.rows], [1, 2, 3], 'rows after the one explained are not drawn yet');
    assert.deepEqual([w0.panel.step, w1.panel.step, w2.panel.step], ['0', '1', '2']);
    assert.notEqual(w2.panel.title, w1.panel.title);
    assert.notDeepEqual(w2.panel.weights, w1.panel.weights);
    assert.deepEqual(back, w1, 'stepping back shows word 2 again, exactly');
    assert.equal(await page.getAttribute('[data-role="app"]', 'data-playing'), 'false');

    // The panel shows the engine's numbers for that word: its weights are the matrix row.
    const rows = await readMatrix(page);
    assert.deepEqual(back.panel.weights, rows[1].weights);
    assert.equal(back.panel.scores.length, rows[1].weights.length);
    assert.equal(back.panel.candidates, 5);
    assertNoProblems(page);
    await page.close();
  });

  test('?simd=0 runs the scalar engine, and says so', T, async () => {
    const page = await open(`simd=0&text=${encodeURIComponent(SENTENCE)}`);
    await waitReady(page);
    await setSpeed(page, 4);
    await waitDone(page);
    const status = await page.textContent('[data-role="status"]');
    assert.match(status, /wasm-scalar/);
    assert.match(status, /simd=0/);
    assertRowsMatch(await readMatrix(page), reference.scalar.translate(SENTENCE));
    assertNoProblems(page);
    await page.close();
  });

  for (const [what, modelUrl, message] of [
    ['a model URL that returns 404', '/models/no-such-model.safetensors', /HTTP 404/],
    ['a model file that is garbage', '/test-files/garbage.safetensors', /cannot load the model/],
  ]) {
    test(`${what} shows a readable error and keeps the text`, T, async () => {
      const page = await browser.newPage();
      const text = 'Keep this sentence, please.';
      await page.goto(`${browser.url}?model=${encodeURIComponent(modelUrl)}&text=${encodeURIComponent(text)}`);
      await page.waitForSelector('[data-role="app"][data-state="error"]');
      const error = page.locator('[data-role="error"]');
      assert.equal(await error.isVisible(), true);
      const shown = await error.textContent();
      assert.match(shown, /model could not be loaded/);
      assert.match(shown, message);
      assert.equal(await page.inputValue('[data-role="source-input"]'), text);
      // Typing more and pressing Enter retries; the text stays either way.
      await page.press('[data-role="source-input"]', 'End');
      await page.keyboard.type(' More.');
      await page.press('[data-role="source-input"]', 'Enter');
      await page.waitForSelector('[data-role="app"][data-state="error"]');
      assert.equal(await page.inputValue('[data-role="source-input"]'), `${text} More.`);
      assert.equal(await error.isVisible(), true);
      // The failed download itself is the only console noise allowed.
      assert.deepEqual(page.problems.filter((p) => !/404|Failed to load resource/.test(p)), []);
      await page.close();
    });
  }

  test('a refused model= keeps its notice through the automatic translation, and the status names the model used', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}?model=${encodeURIComponent('https://evil.example/m.safetensors')}` +
      `&text=${encodeURIComponent(SENTENCE)}`);
    await waitDone(page);
    const error = page.locator('[data-role="error"]');
    const notice = /not a known model name nor a same-origin path; using the default model/;
    assert.equal(await error.isVisible(), true, 'the notice survives the translation');
    assert.match(await error.textContent(), notice);
    // The default model is what ran, and the status line says so.
    const status = await page.textContent('[data-role="status"]');
    assert.match(status, /en-fr: [\d.]+ MB, int8/);
    assert.doesNotMatch(status, /evil/);
    assert.ok((await readMatrix(page)).length > 0);
    // Another translation keeps it too.
    await page.click('[data-role="translate"]');
    await waitDone(page);
    assert.match(await error.textContent(), notice);
    assertNoProblems(page);
    await page.close();
  });

  test('a browser without WebAssembly is told so in the page', T, async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      delete globalThis.WebAssembly;
    });
    await page.goto(`${browser.url}?model=${model.name}&text=Hello.`);
    await page.waitForSelector('[data-role="app"][data-state="error"]');
    assert.match(await page.textContent('[data-role="error"]'), /cannot run WebAssembly/);
    assert.equal(await page.inputValue('[data-role="source-input"]'), 'Hello.');
    assertNoProblems(page);
    await page.close();
  });

  test('over-long input is refused in the page, and the text is kept', T, async () => {
    const page = await open();
    await waitReady(page);
    const text = Array.from({ length: 160 }, (_, i) => `word${i}`).join(' ');
    await page.fill('[data-role="source-input"]', text);
    await page.click('[data-role="translate"]');
    await page.waitForSelector('[data-role="error"]:not([hidden])');
    assert.match(await page.textContent('[data-role="error"]'), /could not be translated/);
    assert.match(await page.textContent('[data-role="error"]'), /this model reads at most \d+/);
    assert.equal(await page.inputValue('[data-role="source-input"]'), text);
    assertNoProblems(page);
    await page.close();
  });

  test('keyboard only: tab to the input, type, Enter, arrow through the cells with a tooltip', T, async () => {
    const page = await open();
    await waitReady(page);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return {
          role: el?.dataset.role ?? null,
          cls: el?.className ?? '',
          row: el?.parentElement?.dataset.row ?? null,
          col: el?.dataset.col ?? null,
          outline: el ? getComputedStyle(el).outlineStyle : null,
        };
      });
    let tabs = 0;
    while ((await focused()).role !== 'source-input') {
      assert.ok(++tabs < 10, 'the input is near the start of the tab order');
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type(SENTENCE);
    await page.keyboard.press('Enter');
    await waitDone(page);
    tabs = 0;
    while (!(await focused()).cls.includes('bl-cell')) {
      assert.ok(++tabs < 40, 'a matrix cell is reachable with Tab');
      await page.keyboard.press('Tab');
    }
    const first = await focused();
    assert.equal(first.outline, 'solid', 'the focused cell has a visible focus ring');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    const moved = await focused();
    assert.equal(Number(moved.col), Math.min(Number(first.col) + 1, (await readMatrix(page))[0].weights.length - 1));
    const rows = await readMatrix(page);
    const tip = page.locator('[data-role="tooltip"]');
    assert.equal(await tip.isVisible(), true);
    const tipText = await tip.textContent();
    const weight = rows[Number(moved.row)].weights[Number(moved.col)];
    assert.ok(tipText.includes(weight.toFixed(4)), `the tooltip ${tipText} shows the weight ${weight}`);
    assert.ok(tipText.includes(rows[Number(moved.row)].word));
    // The pair is highlighted in both sentences.
    const src = await page.$eval('[data-role="source-tokens"] .is-hl', (el) => el.dataset.col);
    const out = await page.$eval('[data-role="output"] .is-hl', (el) => el.dataset.token);
    assert.equal(src, moved.col);
    assert.equal(out, moved.row);
    assertNoProblems(page);
    await page.close();
  });

  test('beam search shows the final hypotheses with their scores', T, async () => {
    const page = await open(`beam=4&text=${encodeURIComponent(SENTENCE)}`);
    await waitReady(page);
    await setSpeed(page, 4);
    await waitDone(page);
    const expected = reference.simd.translate(SENTENCE, { beam: 4 });
    const scores = await page.$$eval('[data-role="hypotheses"] li', (lis) => lis.map((li) => Number(li.dataset.score)));
    assert.deepEqual(scores, expected.hypotheses.map((h) => h.score));
    assert.equal(await page.locator('[data-role="beam-results"]').isVisible(), true);
    assertRowsMatch(await readMatrix(page), expected);
    assert.equal(await page.textContent('[data-role="output"]'), expected.text);
    assertNoProblems(page);
    await page.close();
  });

  test('exports an SVG and a PNG, and a permalink reproduces the view', T, async () => {
    const page = await open(`text=${encodeURIComponent(SENTENCE)}`);
    await waitReady(page);
    await setSpeed(page, 4);
    await waitDone(page);
    await page.click('[data-role="first"]');
    await page.click('[data-role="step-forward"]');
    const before = await readMatrix(page);

    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="export-svg"]')]);
    const svgText = readFileSync(await svg.path(), 'utf8');
    assert.match(svgText, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal((svgText.match(/data-weight=/g) ?? []).length, before.length * before[0].weights.length);
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="export-png"]')]);
    const pngBytes = readFileSync(await png.path());
    assert.deepEqual([...pngBytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

    await page.click('[data-role="permalink"]');
    const link = await page.inputValue('[data-role="permalink-field"]');
    const url = new URL(link);
    assert.equal(url.searchParams.get('text'), SENTENCE);
    assert.equal(url.searchParams.get('model'), model.name);
    assert.equal(url.searchParams.get('step'), '1');

    const again = await browser.newPage();
    await again.goto(link);
    await again.waitForSelector('[data-role="app"][data-state="done"][data-position="1"]');
    assert.equal(await again.inputValue('[data-role="source-input"]'), SENTENCE);
    assert.deepEqual(await readMatrix(again), before);
    assertNoProblems(page);
    assertNoProblems(again);
    await again.close();
    await page.close();
  });

  test('the drawing modules work inside a shadow root (for the widget)', T, async () => {
    const page = await open();
    await waitReady(page);
    const seen = await page.evaluate(async () => {
      const { AttentionMatrix } = await import('/ui/matrix.js');
      const { StepPanel } = await import('/ui/step-panel.js');
      const { AlignmentView } = await import('/ui/alignment.js');
      const { STRINGS } = await import('/ui/strings.js');
      const host = document.createElement('div');
      document.body.append(host);
      const shadow = host.attachShadow({ mode: 'open' });
      const box = (tag = 'div') => shadow.appendChild(document.createElement(tag));
      const columns = ['a', 'b', '</s>'];
      const rows = [{ word: 'x', weights: [0.5, 0.25, 0.25] }, { word: 'y', weights: [0.1, 0.8, 0.1] }];
      const m = new AttentionMatrix(box(), { strings: STRINGS.zh });
      m.reset(columns);
      m.setRows(rows);
      m.setCurrent(1);
      new AlignmentView(box(), { strings: STRINGS.zh }).render({ columns, rows, current: 1 });
      const step = { index: 1, word: 'y', e: [0, 1, -1], alpha: [0.1, 0.8, 0.1], c: [0.5, -0.5], cNorm: 0.7,
        topWords: ['y', 'z'], topProbs: [0.9, 0.1], topIds: [7, 8], token: 7, done: false };
      new StepPanel(box(), { strings: STRINGS.en }).render({ columns, step, scoring: 'additive' });
      shadow.querySelector('[data-row="1"] [data-col="1"]').focus();
      const inShadow = {
        rows: shadow.querySelectorAll('[data-role="matrix"] > [data-row]').length,
        current: shadow.querySelector('[data-current]')?.dataset.row,
        tooltip: shadow.querySelector('[data-role="tooltip"]').hidden ? null : shadow.querySelector('[data-role="tooltip"]').textContent,
        lines: shadow.querySelectorAll('[data-role="alignment"] path').length,
        candidates: shadow.querySelectorAll('[data-role="candidates"] li').length,
      };
      const leaked = document.querySelectorAll('.bl-cell, .bl-step, .bl-line').length;
      host.remove();
      return { inShadow, leaked };
    });
    assert.deepEqual(seen.inShadow, { rows: 2, current: '1', tooltip: 'b → y权重 α = 0.8000', lines: 6, candidates: 2 });
    assert.equal(seen.leaked, 0, 'nothing was drawn outside the shadow root');
    assertNoProblems(page);
    await page.close();
  });

  test('axe finds no accessibility violations, light and dark, English and Chinese', T, async () => {
    const axe = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    for (const colorScheme of ['light', 'dark']) {
      const page = await browser.newPage({ colorScheme });
      await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}&step=1`);
      await page.waitForSelector('[data-role="app"][data-state="done"]');
      await page.waitForFunction(() => document.getAnimations().length === 0); // rows fade in
      // evaluate() is not subject to the page's CSP, which rightly refuses inline scripts.
      await page.evaluate(axe);
      const run = () => page.evaluate(async () =>
        (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(await run(), [], `${colorScheme}, English, matrix`);
      await page.click('[data-role="lang"]');
      await page.check('[data-role="view-lines"]');
      assert.deepEqual(await run(), [], `${colorScheme}, Chinese, lines`);
      assertNoProblems(page);
      await page.close();
    }
  });

  test('the captions switch between English and Chinese', T, async () => {
    const page = await open(`text=${encodeURIComponent(SENTENCE)}`);
    await waitReady(page);
    await setSpeed(page, 4);
    await waitDone(page);
    await page.click('[data-role="step-back"]');
    const caption = () => page.textContent('[data-role="weights"] .bl-step-caption');
    assert.match(await caption(), /Softmax/);
    await page.click('[data-role="lang"]');
    assert.match(await caption(), /归一化|权重/);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hans');
    assert.equal(await page.textContent('[data-role="translate"]'), '翻译');
    await page.click('[data-role="lang"]');
    assert.match(await caption(), /Softmax/);
    assertNoProblems(page);
    await page.close();
  });
});
