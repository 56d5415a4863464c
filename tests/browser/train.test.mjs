// Over 400 lines on purpose: one page's behaviours, which share its server, browser and runs.
// train.html ("Train it yourself", issue 25): the behaviour of the page, on short runs of the
// tiny preset, the page's default (the quality of a 3-minute run is scripts/bench --only train's,
// scripts/lib/train-page-bench.mjs). Train shows a matrix within 5 s; the curves grow; pause
// stops the step counter, resume goes on, reset goes back to 0; the scrubber goes back over the
// recorded matrices; the flip line tells the flip's story across them; the watched matrix shows the model reading the reference by default and
// its own translation on request, in both views from the first matrix on; "Translate with it
// now" decodes in the translator's matrix and step panel;
// "Open in the translator" gives the main page the snapshot, whose translation there equals
// the Node CLI's (scripts/translate --model FILE) for the same file; all of it by keyboard, on
// a phone, in dark mode and in Chinese, with no axe violation and
// no main-thread task over 100 ms while it trains. Screenshots go to tests/browser/artifacts/.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';

import { ROOT, artifact, axeViolations, sharedBrowser } from './helpers.mjs';

const T = { timeout: 180_000 };
const browser = sharedBrowser();
const $ = (role) => `[data-role="${role}"]`;
const WATCHED_ROW = '[data-role="watched"] [data-role="matrix"] > [data-row]';

// Long tasks on the main thread, from the page's first moment (PerformanceObserver 'longtask').
function recordLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// The page open, its next run loaded and waiting for Train (train/warm-run.js).
async function open(query = '?preset=tiny', options = {}) {
  const page = await browser.newPage(options);
  await page.addInitScript(recordLongTasks);
  await page.goto(`${browser.url}train.html${query}`);
  await page.waitForSelector('[data-role="app"][data-state="ready"]:is([data-prepared="true"], [data-prepared="error"])', { timeout: 90_000 });
  assert.equal(await page.getAttribute($('app'), 'data-prepared'), 'true', 'the next run loaded');
  return page;
}

const steps = (page) => page.$eval($('stats'), (el) => Number(el.dataset.steps));
const records = (page) => page.$eval($('scrubber'), (el) => Number(el.max) + 1);

// Train pressed; -> ms from the press to the first drawn row of the watched matrix.
async function pressTrain(page, how = 'click') {
  const t0 = Date.now();
  if (how === 'click') await page.click($('train'));
  await page.waitForSelector(WATCHED_ROW, { timeout: 30_000 });
  return Date.now() - t0;
}

async function waitSteps(page, atLeast, timeout = 60_000) {
  await page.waitForFunction((n) => Number(document.querySelector('[data-role="stats"]').dataset.steps) >= n, atLeast, { timeout });
}

async function waitRecords(page, atLeast, timeout = 60_000) {
  await page.waitForFunction((n) => Number(document.querySelector('[data-role="scrubber"]').max) + 1 >= n, atLeast, { timeout });
}

async function pause(page) {
  await page.click($('pause'));
  await page.waitForSelector('[data-role="app"][data-state="paused"]');
}

// The watched matrix as drawn, once all its rows are (a few a frame, train/watched-matrix.js:
// the same count three frames running): its view, its rows' words and whether they spell its own
// translation (each, in order, inside the text), the caption's two French sentences, and its
// data-flip against train/flip.js run on the drawn cells (the numbers of the view on show).
function watched(page) {
  return page.evaluate(async (selector) => {
    let [last, same] = [-1, 0];
    while (same < 3) {
      await new Promise(requestAnimationFrame);
      const n = document.querySelectorAll(selector).length;
      [last, same] = [n, n === last ? same + 1 : 0];
    }
    const { findFlip } = await import('./train/flip.js');
    const root = document.querySelector('[data-role="watched"]');
    const rows = [...root.querySelectorAll(selector)];
    const words = rows.map((r) => r.querySelector('.bl-rowhead').textContent);
    const attention = rows.map((r) => [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)));
    const sourceTokens = [...Array((attention[0]?.length ?? 1) - 1).fill('w'), '</s>'];
    const text = (role) => root.querySelector(`[data-role="${role}"]`)?.textContent ?? null;
    const own = (text('own-text') ?? '').toLowerCase();
    let at = 0;
    const spellsOwn = words.length > 0 && words.every((w) => {
      at = own.indexOf(w.toLowerCase(), at);
      return at >= 0 && (at += w.length) > 0;
    });
    return {
      view: root.dataset.view, steps: Number(root.dataset.steps), flip: root.dataset.flip, words, spellsOwn,
      flipOfCells: String(Boolean(rows.length && findFlip({ sourceTokens, targetTokens: words, attention }))),
      checked: root.querySelector('[data-role="view"]:checked')?.value,
      caption: text('watched-caption'), reference: text('reference-text'), own: text('own-text'),
    };
  }, WATCHED_ROW);
}

function noSideways(page, width) {
  return page.evaluate(() => document.documentElement.scrollWidth).then((w) => assert.ok(w <= width, `the page is ${w} px wide in a ${width} px window`));
}

describe('train.html', { timeout: 900_000 }, () => {
  test('Train shows a matrix within 5 s; the curves grow; no long task over 100 ms while it trains', T, async () => {
    const page = await open();
    assert.equal(await page.$eval($('preset'), (el) => el.value), 'tiny', '?preset=tiny');
    const ms = await pressTrain(page);
    console.log(`# first matrix ${ms} ms after Train (page's own: ${await page.getAttribute($('app'), 'data-first-matrix-ms')} ms)`);
    assert.ok(ms < 5000, `the first matrix came ${ms} ms after Train`);
    await waitRecords(page, 3);
    const count = (series) => page.$eval(`[data-series="${series}"]`, (g) => Number(g.dataset.count));
    const [train1, acc1] = [await count('train'), await count('accuracy')];
    await waitRecords(page, 4);
    assert.ok((await count('train')) > train1, 'the loss curve grew');
    assert.ok((await count('accuracy')) > acc1, 'the accuracy curve grew');
    assert.ok((await count('off-diagonal')) >= acc1, 'the off-diagonal curve is drawn');
    assert.ok((await count('heldout')) >= 2, 'the held-out loss is drawn');
    // Input and scrolling while it trains: typed text arrives, the page scrolls.
    await page.fill($('try-input'), '');
    await page.type($('try-input'), 'I am cold.', { delay: 30 });
    assert.equal(await page.inputValue($('try-input')), 'I am cold.');
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => scrollY > 0);
    const sps = await page.$eval($('stats'), (el) => Number(el.dataset.stepsPerSecond));
    assert.ok(sps > 0, `steps per second shown: ${sps}`);
    const long = await page.evaluate(() => window.__longTasks);
    const trainedFrom = await page.evaluate(() => performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd);
    const over = long.filter((t) => t.ms > 100 && t.start > trainedFrom);
    console.log(`# long tasks after load: ${long.filter((t) => t.start > trainedFrom).map((t) => t.ms.toFixed(0)).join(', ') || 'none'} ms; ${sps} steps/s`);
    assert.deepEqual(over, [], 'no main-thread task over 100 ms while training');
    await page.screenshot({ path: artifact('train-wide-light.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  // Chromium runs relaxed SIMD, but the page trains with the plain product unless asked, so
  // that every browser trains the same run (web/train/params.js).
  test('the same run in every browser by default; ?relaxed=1 trains with the fused product', T, async () => {
    for (const [query, kernels] of [['?preset=tiny', 'wasm-simd'], ['?preset=tiny&relaxed=1', 'wasm-relaxed'], ['?preset=tiny&simd=0&relaxed=1', 'scalar']]) {
      const page = await open(query);
      await pressTrain(page);
      assert.equal(await page.getAttribute($('app'), 'data-kernels'), kernels, query);
      await waitSteps(page, 10);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('pause stops the step counter, resume goes on, reset goes back to 0', T, async () => {
    const page = await open();
    await pressTrain(page);
    await waitSteps(page, 20);
    await pause(page);
    assert.equal(await page.getAttribute($('pause'), 'data-action'), 'resume');
    const paused = await steps(page);
    await page.waitForTimeout(1500);
    assert.equal(await steps(page), paused, 'no steps while paused');
    await page.click($('pause'));
    await page.waitForSelector('[data-role="app"][data-state="training"]');
    await waitSteps(page, paused + 10);
    await page.click($('reset'));
    await page.waitForSelector('[data-role="app"][data-state="ready"]');
    assert.equal(await steps(page), 0);
    assert.equal(await page.$$eval(WATCHED_ROW, (r) => r.length), 0, 'the matrix is cleared');
    assert.equal(await page.$eval('[data-series="train"]', (g) => g.dataset.count), '0', 'the curves are cleared');
    assert.equal(await page.isEnabled($('train')), true);
    assert.equal(await page.isEnabled($('preset')), true, 'the choices are open again');
    await page.waitForTimeout(1000);
    assert.equal(await steps(page), 0, 'the reset run trains no more');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the flip line tells the flip\'s story across the records, from the drawn matrices', T, async () => {
    const page = await open();
    await pressTrain(page);
    await waitRecords(page, 6, 120_000);
    await pause(page);
    const n = await records(page);
    await page.focus($('scrubber'));
    await page.keyboard.press('Home');
    const int = (x) => x.toLocaleString('en-US');
    let first = null, shown = 0, of = 0;
    for (let k = 0; k < n; k++) {
      if (k > 0) await page.keyboard.press('ArrowRight');
      const w = await watched(page);
      const text = await page.textContent($('flip'));
      const flip = w.flipOfCells === 'true';
      if (first === null && flip) first = w.steps;
      if (first !== null) { of++; if (flip) shown++; }
      const since = first === null ? '' : `It first appeared at step ${int(first)} and is in ${shown} of the ${of} matrices since`;
      if (first === null) assert.equal(text, 'The flip is not there yet.', `matrix ${k + 1}`);
      else if (flip && of === 1) assert.match(text, /^The flip is there: .* It appears for the first time in this matrix\.$/);
      else if (flip) assert.ok(text.startsWith('The flip is there: ') && text.endsWith(` ${since}.`), text);
      else assert.equal(text, `The flip is not in this matrix. ${since}: a young model's attention still wavers between measurements.`);
    }
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the flip line on made-up records: there for the first time, gone again, back', T, async () => {
    const page = await open();
    const lines = await page.evaluate(async () => {
      const { WatchedMatrix } = await import('./train/watched-matrix.js');
      const { STRINGS } = await import('./ui/strings.js');
      const { TRAIN_STRINGS } = await import('./train/strings.js');
      const src = ['I', 'have', 'a', 'red', 'car', '.', '</s>'];
      const one = (j) => src.map((_, k) => (k === j ? 0.9 : 0.1 / 6));
      const view = (cols) => ({ sourceTokens: src, targetTokens: ["j'", 'ai', 'une', 'voiture', 'rouge', '.'], attention: cols.map(one), text: "J'ai une voiture rouge." });
      const flipped = view([0, 1, 2, 4, 3, 5]), inOrder = view([0, 1, 2, 3, 4, 5]);
      const records = [0, 400, 800, 1200].map((steps, k) => ({ steps, seconds: k, watched: [{ source: 'I have a red car.', reference: [inOrder, flipped, inOrder, flipped][k], own: inOrder }] }));
      const root = document.createElement('div');
      document.body.append(root);
      const shown = [];
      const w = new WatchedMatrix(root, { strings: { ...STRINGS.en, ...TRAIN_STRINGS.en }, history: () => shown });
      const out = [];
      for (const r of records) {
        shown.push(r);
        w.show(r, 0);
        out.push(root.querySelector('[data-role="flip"]').textContent);
      }
      w.show(records[1], 0); // scrubbed back: the story up to that record only
      out.push(root.querySelector('[data-role="flip"]').textContent);
      root.remove();
      return out;
    });
    assert.deepEqual(lines, [
      'The flip is not there yet.',
      'The flip is there: “voiture” looks at the second of the two English words, “rouge” at the first. It appears for the first time in this matrix.',
      "The flip is not in this matrix. It first appeared at step 400 and is in 1 of the 2 matrices since: a young model's attention still wavers between measurements.",
      'The flip is there: “voiture” looks at the second of the two English words, “rouge” at the first. It first appeared at step 400 and is in 2 of the 3 matrices since.',
      'The flip is there: “voiture” looks at the second of the two English words, “rouge” at the first. It appears for the first time in this matrix.',
    ]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the scrubber goes back over the recorded matrices, by keyboard', T, async () => {
    const page = await open();
    await pressTrain(page);
    await waitRecords(page, 3);
    await pause(page);
    const n = await records(page);
    const latest = Number(await page.getAttribute($('watched'), 'data-steps'));
    await page.focus($('scrubber'));
    await page.keyboard.press('Home');
    const first = Number(await page.getAttribute($('watched'), 'data-steps'));
    assert.ok(first < latest, `the first record (${first} steps) is before the latest (${latest})`);
    assert.equal(await page.isChecked($('follow')), false, 'moved back, it no longer follows');
    assert.match(await page.textContent($('scrubber-value')), new RegExp(`^matrix 1 of ${n}`));
    await page.keyboard.press('ArrowRight');
    assert.ok(Number(await page.getAttribute($('watched'), 'data-steps')) >= first);
    await page.keyboard.press('End');
    assert.equal(Number(await page.getAttribute($('watched'), 'data-steps')), latest);
    assert.equal(await page.isChecked($('follow')), true);
    // Another watched sentence: the same record, its own matrix.
    await page.selectOption($('watch'), '2');
    assert.equal(await page.getAttribute($('watched'), 'data-source'), 'The black cat is sleeping.');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the watched matrix: reading the reference by default, its own translation on request (keyboard too); the caption names the view; the scrubber keeps it', T, async () => {
    const page = await open();
    await pressTrain(page);
    let w = await watched(page);
    assert.equal(w.view, 'reference', 'the first matrix reads the reference');
    assert.equal(w.checked, 'reference');
    assert.deepEqual(w.words, ["c'", 'est', 'mon', 'livre', 'préféré', '.'], 'its rows are the reference\'s tokens');
    assert.equal(w.reference, "C'est mon livre préféré.");
    assert.match(w.caption, /^Step [\d,]+, averaged weights: attention while it reads the reference “C'est mon livre préféré\.” word by word, as in training\. Its own translation now: “.+”$/);
    assert.ok(w.own && w.own !== '—', `its own translation is written out too: ${w.own}`);
    assert.equal(w.flip, w.flipOfCells, 'data-flip is the drawn rows\' flip');
    const firstSteps = w.steps;
    await waitRecords(page, 2);
    await pause(page);
    // Its own translation, by pointer: the rows are its own words.
    await page.check('[data-role="view"][value="own"]');
    w = await watched(page);
    assert.equal(w.view, 'own');
    assert.match(w.caption, /^Step [\d,]+, averaged weights: attention while it writes its own translation: “.+” The reference: “C'est mon livre préféré\.”$/);
    assert.ok(w.spellsOwn, `the rows ${JSON.stringify(w.words)} are its translation ${w.own}`);
    assert.equal(w.flip, w.flipOfCells, 'data-flip is computed on the view on show');
    const own = w;
    // The scrubber keeps the view: the first record (the matrices drawn at Train) has it too.
    await page.focus($('scrubber'));
    await page.keyboard.press('Home');
    w = await watched(page);
    assert.equal(w.view, 'own');
    assert.equal(w.steps, firstSteps);
    assert.ok(w.spellsOwn, 'the first matrices came in both views');
    await page.keyboard.press('End');
    w = await watched(page);
    assert.deepEqual([w.view, w.steps, w.words], [own.view, own.steps, own.words]);
    // Back by keyboard: the radios are one tab stop, moved by the arrow keys.
    await page.focus('[data-role="view"]:checked');
    await page.keyboard.press('ArrowLeft');
    w = await watched(page);
    assert.deepEqual([w.view, w.checked, w.words], ['reference', 'reference', ["c'", 'est', 'mon', 'livre', 'préféré', '.']]);
    assert.equal(w.flip, w.flipOfCells);
    await page.keyboard.press('ArrowRight');
    assert.equal((await watched(page)).view, 'own');
    await page.keyboard.press('ArrowLeft');
    // Another sentence keeps the view too.
    await page.selectOption($('watch'), '2');
    w = await watched(page);
    assert.deepEqual([w.view, w.reference, w.words], ['reference', 'Le chat noir dort.', ['le', 'chat', 'noir', 'dort', '.']]);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('Translate with it now, then Open in the translator: the main page shows what the Node CLI gives for the snapshot', T, async () => {
    const page = await open();
    await pressTrain(page);
    await waitRecords(page, 2);
    await pause(page); // one set of weights for the two snapshots
    const text = 'The black cat is sleeping.';
    await page.fill($('try-input'), text);
    await page.click($('try-go'));
    await page.waitForSelector('[data-role="try"][data-state="done"][data-playing="false"]', { timeout: 60_000 });
    const tried = await page.$eval('[data-role="try"] [data-role="output"]', (el) => el.dataset.text);
    assert.equal(typeof tried, 'string');
    assert.ok((await page.$$('[data-role="try"] [data-role="matrix"] > [data-row]')).length > 0, 'the matrix is drawn');
    assert.ok(await page.$('[data-role="try"] [data-role="step-panel"][data-step]:not([data-step=""])'), 'the step panel shows a step');
    const [main] = await Promise.all([browser.context.waitForEvent('page'), page.click($('handoff'))]);
    main.problems = [];
    main.on('pageerror', (e) => main.problems.push(`page error: ${e.message}`));
    await main.waitForSelector('[data-role="app"][data-state="done"][data-playing="false"]', { timeout: 90_000 });
    assert.equal(new URL(main.url()).searchParams.get('model'), 'trained');
    assert.match(await main.textContent($('trained-note')), /model you trained on the training page/);
    const shown = await main.evaluate(() => ({
      text: document.querySelector('[data-role="output"]').dataset.text,
      rows: [...document.querySelectorAll('[data-role="matrix"] > [data-row]')].map((r) => [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight))),
    }));
    assert.equal(shown.text, tried, 'the main page translates as "Translate with it now" did');
    // The same snapshot, read back from where the main page got it, through the CLI.
    const b64 = await main.evaluate(async () => {
      const { readTrained } = await import('./train/handoff.js');
      const { bytes } = await readTrained();
      let s = '';
      for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(s);
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bl-trained-'));
    try {
      const file = path.join(dir, 'trained.safetensors');
      writeFileSync(file, Buffer.from(b64, 'base64'));
      const out = JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'translate.mjs'), '--model', file, '--json', text], { encoding: 'utf8' }));
      assert.equal(shown.text, out.text, 'the page and the CLI write the same French');
      // The CLI prints each float32 weight in its shortest form, the page as the double it is.
      const f32 = (rows) => rows.map((r) => r.map(Math.fround));
      assert.deepEqual(f32(shown.rows), f32(out.attention), 'and the same attention, to the last bit of each float');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(main.problems, []);
    assert.deepEqual(page.problems, []);
    await main.close();
    await page.close();
  });

  test('scoring none (the bottleneck): no alignment to score, no rows to draw, and it still trains and translates', T, async () => {
    const page = await open('?preset=tiny&scoring=none');
    assert.equal(await page.$eval('[data-role="scoring"]:checked', (el) => el.value), 'none');
    await page.click($('train'));
    await page.waitForSelector('[data-role="watched"][data-steps]', { timeout: 30_000 });
    await waitRecords(page, 2);
    assert.equal(await page.$$eval(WATCHED_ROW, (r) => r.length), 0);
    assert.match(await page.textContent($('flip')), /no alignment to score/);
    assert.equal(await page.$eval('[data-series="accuracy"]', (g) => g.dataset.count), '0');
    assert.ok(Number(await page.$eval('[data-series="train"]', (g) => g.dataset.count)) > 0);
    await page.click($('try-go'));
    await page.waitForSelector('[data-role="try"][data-state="done"]', { timeout: 60_000 });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('keyboard only: Train, pause, resume, reset, Translate with it now', T, async () => {
    const page = await open();
    const tabTo = async (role) => {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((r) => document.activeElement?.dataset.role === r, role)) return;
      }
      throw new Error(`Tab never reached ${role}`);
    };
    await tabTo('train');
    await page.keyboard.press('Enter');
    await page.waitForSelector(WATCHED_ROW, { timeout: 30_000 });
    await page.waitForSelector('[data-role="app"][data-state="training"]');
    await tabTo('pause');
    await page.keyboard.press('Space');
    await page.waitForSelector('[data-role="app"][data-state="paused"]');
    await page.keyboard.press('Space');
    await page.waitForSelector('[data-role="app"][data-state="training"]');
    await tabTo('try-input');
    await page.keyboard.type('Tom is here.');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-role="try"][data-state="done"]', { timeout: 60_000 });
    await tabTo('reset');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-role="app"][data-state="ready"]');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.role), 'train', 'focus goes back to Train');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the tiny preset is the default, on a phone (390 x 844) as in a wide window, and nothing scrolls sideways', T, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const page = await open('', { viewport: { width: 390, height: 844 }, colorScheme });
      assert.equal(await page.$eval($('preset'), (el) => el.value), 'tiny');
      await pressTrain(page);
      await waitRecords(page, 2);
      await pause(page);
      await noSideways(page, 390);
      await page.screenshot({ path: artifact(`train-phone-${colorScheme}.png`), fullPage: true });
      assert.deepEqual(page.problems, []);
      await page.close();
    }
    const wide = await open('');
    assert.equal(await wide.$eval($('preset'), (el) => el.value), 'tiny', 'a wide window trains the tiny model too');
    assert.deepEqual(await wide.$$eval(`${$('preset')} option`, (os) => os.map((o) => [o.value, o.textContent])), [
      ['tiny', 'Tiny: quicker steps, the flip sooner (emb 32, hidden 64, attention 32)'],
      ['small', 'Small: slower steps, better translations later (emb 64, hidden 128, attention 128)'],
    ], 'each size says what it is for');
    await wide.close();
  });

  test('dark mode: dark page, light text, no axe violation while training', T, async () => {
    const page = await open('?preset=tiny', { colorScheme: 'dark' });
    await pressTrain(page);
    await waitRecords(page, 2);
    await page.fill($('try-input'), 'I have a red car.');
    await page.click($('try-go'));
    await page.waitForSelector('[data-role="try"][data-state="done"][data-playing="false"]', { timeout: 60_000 });
    await pause(page);
    const [bg, fg] = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
    const lum = (c) => c.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0) / 3;
    assert.ok(lum(bg) < 60 && lum(fg) > 180, `dark background ${bg}, light text ${fg}`);
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: artifact('train-wide-dark.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('no axe violation before training, or with every part drawn (light)', T, async () => {
    const page = await open();
    assert.deepEqual(await axeViolations(page), [], 'idle');
    await pressTrain(page);
    await waitRecords(page, 2);
    await page.click($('try-go'));
    await page.waitForSelector('[data-role="try"][data-state="done"][data-playing="false"]', { timeout: 60_000 });
    await pause(page);
    await page.click('.tr-numbers summary');
    assert.deepEqual(await axeViolations(page), [], 'trained, translated, numbers open');
    await page.close();
  });

  test('in Chinese (?lang=zh, and by the language button)', T, async () => {
    const page = await open('?preset=tiny&lang=zh');
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hans');
    assert.equal(await page.textContent('h1'), '自己训练一个');
    assert.equal(await page.textContent($('train')), '训练');
    assert.equal(new URL(await page.$eval($('back'), (a) => a.href)).searchParams.get('lang'), 'zh');
    await pressTrain(page);
    await waitRecords(page, 2);
    await pause(page);
    assert.equal(await page.textContent($('pause')), '继续');
    assert.match(await page.textContent($('stats')), /步/);
    assert.match(await page.textContent($('scrubber-value')), /^第 \d+ 个矩阵/);
    assert.match(await page.textContent('[data-role="average-note"]'), /本页其余的一切.*读的都是这些权重在最近若干步上的滑动平均/);
    assert.match(await page.textContent('[data-role="watched-caption"]'), /^第 [\d,]+ 步（平均权重）：它像训练时一样逐词读参考译文“C'est mon livre préféré\.”时的注意力。/);
    assert.deepEqual(await page.$$eval('[data-role="view"] + span', (s) => s.map((e) => e.textContent)), ['读参考译文时', '它自己的译文']);
    await page.screenshot({ path: artifact('train-zh.png'), fullPage: true });
    await page.click($('lang'));
    assert.equal(await page.textContent($('pause')), 'Resume');
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.match(await page.textContent('[data-role="average-note"]'), /^Training updates the weights after every batch.*reads their running average over the recent steps/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('every page of the site links here, in its language', T, async () => {
    for (const [file, query] of [['index.html', '?model=tiny&lang=zh'], ['why.html', '?lang=zh'], ['compare.html', '?a=tiny&b=tiny-dot&lang=zh'], ['embed-docs.html', '']]) {
      const page = await browser.newPage();
      await page.goto(`${browser.url}${file}${query}`);
      const link = page.locator('a[href^="train.html"]');
      await link.first().waitFor();
      const href = await link.first().getAttribute('href');
      assert.equal(new URL(href, browser.url).pathname, '/train.html', file);
      if (query.includes('lang=zh')) {
        await page.waitForFunction(() => document.querySelector('a[data-role="train-link"]')?.textContent === '自己训练一个');
        assert.equal(new URL(href, browser.url).searchParams.get('lang'), 'zh', file);
      }
      await page.close();
    }
  });
});
