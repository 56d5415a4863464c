// The Transformer's views in real Chromium, on the numbers scripts/nmt/golden.py recorded from
// the PyTorch reference of tests/fixtures/tiny-transformer-f32.safetensors (2 decoder layers,
// 3 heads): index.html's layer x head picker over the cross-attention matrix and its encoder
// self-attention panel (app/transformer.js, tests/browser/pages/transformer-views.html). A
// pick must show exactly that layer's and head's row of each step, the average exactly the
// mean of the heads, the default the step's own summary row; by mouse and by keyboard; in
// English and Chinese, light and dark, desktop and phone, with axe finding nothing.
// (tests/browser/transformer.test.mjs runs the same views on the engine's own steps.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { artifact, axeViolations, launch } from './helpers.mjs';

let browser;

before(async () => {
  browser = await launch();
}, { timeout: 90_000 });

after(() => browser?.close());

async function open(query = '', options) {
  const page = await browser.newPage(options);
  await page.goto(`${browser.url}test-pages/transformer-views.html${query}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

const readRows = (page, root) => page.$$eval(`${root} [data-role="matrix"] > [data-row]`, (rows) =>
  rows.map((r) => [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight))));

const mean = (rows) => rows[0].map((_, j) => rows.reduce((s, r) => s + r[j], 0) / rows.length);

function close(actual, expected, eps, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((x, j) => assert.ok(Math.abs(x - expected[j]) <= eps, `${what}[${j}]: ${x} vs ${expected[j]}`));
}

test('the cross-attention picker: default = the summary row, a head = exactly its row, average = the mean', { timeout: 120_000 }, async () => {
  const page = await open();
  const { steps } = await page.evaluate(() => window.fixture);
  const rows = steps.filter((st) => st.word !== '</s>');
  const picker = '[data-role="heads-root"] [data-role="head-picker"]';
  assert.equal(await page.$eval(picker, (el) => el.hidden), false);
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['2', 'avg']);
  // The default is the last layer averaged over heads, which is the step's own alpha.
  const shown = await readRows(page, '[data-role="matrix-root"]');
  assert.equal(shown.length, rows.length);
  shown.forEach((r, i) => {
    assert.deepEqual(r, rows[i].alpha, `row ${i} is the step's summary alpha`);
    close(r, mean(rows[i].cross.alpha[1]), 1e-6, `row ${i} vs the mean of layer 2's heads`);
  });
  // Layer 2, head 3: exactly that head's weights, as recorded.
  await page.selectOption(`${picker} [data-role="head"]`, { value: '2' });
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['2', '3']);
  (await readRows(page, '[data-role="matrix-root"]')).forEach((r, i) => assert.deepEqual(r, rows[i].cross.alpha[1][2], `row ${i}`));
  assert.match(await page.$eval(`${picker} [data-role="head-note"]`, (el) => el.textContent), /layer 2 of 2, head 3 of 3/);
  // Layer 1, head 1, then layer 1 averaged: the heads of layer 1 differ from those of layer 2.
  await page.selectOption(`${picker} [data-role="layer"]`, { value: '0' });
  await page.selectOption(`${picker} [data-role="head"]`, { value: '0' });
  (await readRows(page, '[data-role="matrix-root"]')).forEach((r, i) => assert.deepEqual(r, rows[i].cross.alpha[0][0], `row ${i}`));
  await page.selectOption(`${picker} [data-role="head"]`, { value: 'avg' });
  (await readRows(page, '[data-role="matrix-root"]')).forEach((r, i) => {
    close(r, mean(rows[i].cross.alpha[0]), 1e-12, `row ${i}`);
    assert.ok(Math.abs(r.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'an averaged row still sums to 1');
  });
  assert.notDeepEqual(rows[0].cross.alpha[0][0], rows[0].cross.alpha[0][1], 'the heads differ (else the test proves nothing)');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the encoder self-attention panel: per layer and head, labelled as part of the translator', { timeout: 120_000 }, async () => {
  const page = await open();
  const { self } = await page.evaluate(() => window.fixture);
  const root = '[data-role="encoder-attention"]';
  assert.equal(await page.$eval(root, (el) => [el.hidden, el.dataset.state].join()), 'false,shown');
  assert.match(await page.$eval(`${root} h3`, (el) => el.textContent), /Encoder self-attention: part of this translator/);
  const n = self.tokens.length;
  const shown = await readRows(page, root);
  assert.equal(shown.length, n);
  const last = self.layers - 1;
  shown.forEach((r, i) => close(r, mean(self.weights[last].map((head) => head[i])), 1e-12, `row ${i}`));
  assert.notDeepEqual(self.weights[last][0], self.weights[last][1], 'the heads differ');
  await page.selectOption(`${root} [data-role="layer"]`, { value: '0' });
  await page.selectOption(`${root} [data-role="head"]`, { value: '1' });
  assert.deepEqual(await readRows(page, root), self.weights[0][1]);
  assert.deepEqual(await page.$eval(root, (el) => [el.dataset.layer, el.dataset.head]), ['1', '2']);
  assert.match(await page.$eval(`${root} [data-role="matrix"]`, (el) => el.getAttribute('aria-label')), /layer 1, head 2/);
  await page.close();
});

test('keyboard: the selects move with the arrow keys; a link\'s layer and head are kept, bad ones fall back', { timeout: 120_000 }, async () => {
  const page = await open('?layer=1&head=2');
  const picker = '[data-role="heads-root"] [data-role="head-picker"]';
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['1', '2']);
  const { steps } = await page.evaluate(() => window.fixture);
  await page.focus(`${picker} [data-role="head"]`);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['1', '3']);
  (await readRows(page, '[data-role="matrix-root"]')).forEach((r, i) => assert.deepEqual(r, steps[i].cross.alpha[0][2]));
  await page.focus(`${picker} [data-role="layer"]`);
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['2', '3']);
  await page.close();
  const bad = await open('?layer=9&head=7');
  assert.deepEqual(await bad.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['2', 'avg']);
  await bad.close();
});

for (const [name, options, query] of [
  ['light', {}, ''],
  ['dark', { colorScheme: 'dark' }, ''],
  ['phone', { viewport: { width: 390, height: 844 } }, ''],
  ['zh', {}, '?lang=zh'],
]) {
  test(`screenshot and axe: ${name}`, { timeout: 120_000 }, async () => {
    const page = await open(query, options);
    if (name === 'zh') {
      assert.match(await page.$eval('[data-role="head-picker"] legend', (el) => el.textContent), /交叉注意力/);
      assert.match(await page.$eval('[data-role="encoder-attention"] h3', (el) => el.textContent), /编码器自注意力/);
    }
    if (name === 'phone') {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px on a phone`);
    }
    await page.waitForFunction(() => document.getAnimations().length === 0);
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: artifact(`transformer-views-${name}.png`), fullPage: true });
    await page.close();
  });
}

test('the layer x head grid: every layer\'s and head\'s row at the word, and a click or Enter picks one', { timeout: 120_000 }, async () => {
  const page = await open('?word=2');
  const { steps } = await page.evaluate(() => window.fixture);
  const step = steps[2];
  const grid = '[data-role="head-grid"]';
  const strips = await page.$$eval(`${grid} [data-layer]`, (els) => els.map((b) => ({
    layer: b.dataset.layer, head: b.dataset.head, pressed: b.getAttribute('aria-pressed'),
    weights: [...b.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)) })));
  assert.equal(strips.length, step.cross.layers * (step.cross.heads + 1));
  for (const s of strips) {
    const perHead = step.cross.alpha[Number(s.layer) - 1];
    if (s.head === 'avg') close(s.weights, mean(perHead), s.layer === '2' ? 1e-6 : 1e-12, `layer ${s.layer} avg`);
    else assert.deepEqual(s.weights, perHead[Number(s.head) - 1], `layer ${s.layer} head ${s.head}`);
  }
  assert.deepEqual(strips.filter((s) => s.pressed === 'true').map((s) => [s.layer, s.head]), [['2', 'avg']]);
  // A click picks: the selects, the note and the matrix follow.
  await page.click(`${grid} [data-layer="1"][data-head="3"]`);
  const picker = '[data-role="heads-root"] [data-role="head-picker"]';
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['1', '3']);
  assert.deepEqual(await page.$eval(`${picker} [data-role="layer"]`, (el) => el.value), '0');
  (await readRows(page, '[data-role="matrix-root"]')).forEach((r, i) => assert.deepEqual(r, steps[i].cross.alpha[0][2]));
  // Arrow keys move between strips; Enter picks the focused one.
  await page.focus(`${grid} [aria-pressed="true"]`);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['2', '2']);
  (await readRows(page, '[data-role="matrix-root"]')).forEach((r, i) => assert.deepEqual(r, steps[i].cross.alpha[1][1]));
  // The grid is redrawn after a pick; the focus stays on the picked strip, so the keys go on.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-pressed')), 'true');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['1', '2']);
  // A language switch renames everything at once, the strips included, and keeps the pick.
  await page.evaluate(() => window.parts.setLang('zh'));
  assert.equal(await page.$eval(`${grid} [data-layer="1"][data-head="2"]`, (el) => el.getAttribute('aria-label')), '解码器第 1 层，第 2 个头');
  assert.match(await page.$eval(`${picker} [data-role="head-note"]`, (el) => el.textContent), /解码器第 1 层/);
  assert.match(await page.$eval('[data-role="encoder-attention"] h3', (el) => el.textContent), /编码器自注意力/);
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['1', '2']);
  await page.close();
});
