// The permalink keeps the playback speed and the Matrix / Alignment lines choice, and the
// viridis legend shows with the matrix only (the lines draw weights as width and opacity).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, pageModel, readMatrix, setSpeed, waitDone } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 120_000 };
let browser;
let model;

before(async () => {
  model = pageModel();
  browser = await launch();
}, { timeout: 90_000 });

after(() => browser?.close());

// What the view controls show now.
const readView = (page) => page.evaluate(() => ({
  speed: document.querySelector('[data-role="speed"]').value,
  speedText: document.querySelector('[data-role="speed-value"]').textContent,
  lines: document.querySelector('[data-role="view-lines"]').checked,
  matrixShown: !document.querySelector('.view[data-view="matrix"]').hidden,
  linesShown: !document.querySelector('.view[data-view="lines"]').hidden,
  legendShown: Boolean(document.querySelector('.view-bar .legend').getClientRects().length),
}));

test('the legend shows with the matrix and hides with the alignment lines', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}`);
  await setSpeed(page, 4);
  await waitDone(page);
  assert.equal((await readView(page)).legendShown, true);
  await page.check('[data-role="view-lines"]');
  assert.deepEqual(await readView(page), { speed: '4', speedText: 'instant', lines: true, matrixShown: false, linesShown: true, legendShown: false });
  assert.ok(await page.$$eval('[data-role="alignment"] path', (p) => p.length) > 0, 'the lines are drawn');
  await page.check('[data-role="view-matrix"]');
  assert.equal((await readView(page)).legendShown, true);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a permalink keeps the speed and the lines view, and reopens with them', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}`);
  await setSpeed(page, 3); // 10 words/s
  await waitDone(page);
  await page.check('[data-role="view-lines"]');
  await page.click('[data-role="first"]');
  await page.click('[data-role="step-forward"]');
  const before = await readMatrix(page);
  await page.click('[data-role="permalink"]');
  const link = new URL(await page.inputValue('[data-role="permalink-field"]'));
  assert.equal(link.searchParams.get('speed'), '10');
  assert.equal(link.searchParams.get('view'), 'lines');
  assert.equal(link.searchParams.get('step'), '1');

  const again = await browser.newPage();
  await again.goto(link.href);
  await again.waitForSelector('[data-role="app"][data-state="done"][data-position="1"]');
  assert.deepEqual(await readView(again), { speed: '3', speedText: '10 words/s', lines: true, matrixShown: false, linesShown: true, legendShown: false });
  assert.equal(await again.$$eval('[data-role="alignment"] path', (p) => p.length) > 0, true, 'the lines are drawn');
  assert.deepEqual(await readMatrix(again), before);

  // The defaults (4 words/s, the matrix) stay out of the link.
  await again.check('[data-role="view-matrix"]');
  await setSpeed(again, 2);
  await again.click('[data-role="permalink"]');
  const plain = new URL(await again.inputValue('[data-role="permalink-field"]'));
  assert.equal(plain.searchParams.get('speed'), null);
  assert.equal(plain.searchParams.get('view'), null);
  assert.deepEqual(page.problems, []);
  assert.deepEqual(again.problems, []);
  await again.close();
  await page.close();
});

test('hostile speed= and view= values fall back to the defaults', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}&speed=${encodeURIComponent('<b>9</b>')}&view=__proto__&text=${encodeURIComponent(SENTENCE)}`);
  await waitDone(page);
  const view = await readView(page);
  assert.deepEqual(view, { speed: '2', speedText: '4 words/s', lines: false, matrixShown: true, linesShown: false, legendShown: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});
