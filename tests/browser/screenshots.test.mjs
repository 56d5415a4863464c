// Screenshots of the page, wide and phone-sized, light and dark, saved under
// tests/browser/artifacts/ for a person to look at; plus the layout checks a picture would
// show: nothing wider than a 360 px phone, the matrix and the step panel on screen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { artifact, launch, pageModel, setSpeed, waitDone, waitReady } from './helpers.mjs';

const SENTENCE = 'I have a black cat.'; // j'ai un chat noir: the flip, right from the shipped models
const FLIP_ROW = 4; // noir
const T = { timeout: 120_000 };

let browser;
let model;

before(async () => {
  model = pageModel();
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  await browser?.close();
});

// The view a teacher would stop at: the flipped word (noir), its cell hovered.
async function midDecode(page) {
  await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}&step=${FLIP_ROW}`);
  await page.waitForSelector(`[data-role="app"][data-state="done"][data-position="${FLIP_ROW}"]`, { timeout: 90_000 });
  // The cell with the largest weight in the current row: the pair worth pointing at.
  const best = await page.$$eval(`[data-role="matrix"] > [data-row="${FLIP_ROW}"] [data-weight]`, (cells) => {
    const w = cells.map((c) => Number(c.dataset.weight));
    return w.indexOf(Math.max(...w));
  });
  await page.locator(`[data-role="matrix"] > [data-row="${FLIP_ROW}"] [data-col="${best}"]`).hover();
  await page.waitForSelector('[data-role="tooltip"]:not([hidden])');
}

async function noSidewaysScroll(page, width) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide in a ${width} px window`);
}

describe('screenshots', { timeout: 600_000 }, () => {
  for (const colorScheme of ['light', 'dark']) {
    test(`wide, ${colorScheme}`, T, async () => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 1000 }, colorScheme });
      await midDecode(page);
      await page.screenshot({ path: artifact(`wide-${colorScheme}.png`), fullPage: true });
      await noSidewaysScroll(page, 1360);
      assert.deepEqual(page.problems, []);
      await page.close();
    });

    test(`phone (360 px), ${colorScheme}`, T, async () => {
      const page = await browser.newPage({ viewport: { width: 360, height: 740 }, colorScheme });
      await midDecode(page);
      await page.screenshot({ path: artifact(`phone-${colorScheme}.png`), fullPage: true });
      await noSidewaysScroll(page, 360);
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('mid-decode while playing (the README picture, docs/screenshot.png)', T, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${browser.url}?model=${model.name}`);
    await waitReady(page);
    await setSpeed(page, 0); // one word a second: time to photograph the flipped word as it lands
    await page.fill('[data-role="source-input"]', SENTENCE);
    await page.press('[data-role="source-input"]', 'Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-role="matrix"] > [data-row]').length === n, FLIP_ROW + 1);
    await page.waitForTimeout(400); // the new row's fade-in
    await page.screenshot({ path: artifact('readme.png'), fullPage: true });
    assert.equal(await page.getAttribute('[data-role="app"]', 'data-playing'), 'true');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('alignment lines and Chinese captions', T, async () => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    await midDecode(page);
    await page.click('[data-role="lang"]');
    await page.check('[data-role="view-lines"]');
    await page.waitForSelector('[data-role="alignment"] path');
    await page.screenshot({ path: artifact('wide-lines-zh.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('while the model downloads, and after an error', T, async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    // Hold the model back to photograph the progress bar.
    let release;
    const held = new Promise((r) => (release = r));
    await page.route('**/*.safetensors', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${browser.url}?model=${model.name}`);
    await page.waitForSelector('[data-role="progress"]:not([hidden])');
    await page.screenshot({ path: artifact('loading.png') });
    release();
    await waitReady(page);
    await page.goto(`${browser.url}?model=${encodeURIComponent('/models/missing.safetensors')}&text=Hello.`);
    await page.waitForSelector('[data-role="app"][data-state="error"]');
    await page.screenshot({ path: artifact('error.png') });
    await page.close();
  });

  test('beam search', T, async () => {
    const page = await browser.newPage({ viewport: { width: 1360, height: 1000 } });
    await page.goto(`${browser.url}?model=${model.name}&beam=4&text=${encodeURIComponent(SENTENCE)}`);
    await waitDone(page);
    await page.screenshot({ path: artifact('wide-beam.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
