// learn.html ("Watch attention learn to align", issue 23): one recorded training run played
// back frame by frame, on tests/fixtures/timelapse-tiny.json (?data=, served as /fixtures/ by
// scripts/serve.mjs): 5 frames, 2 sentences, the first ("noir → black") settling at step 160,
// frame 4, the second never. The page loads the file and says which run it is; the slider moves
// the matrix (its cells' data-weight are the file's rows of that frame) and the charts' current
// mark; play advances the frames and stops at the last; the settles mark stands where the file
// says; all of it by keyboard; ?data= on another origin is refused; every page links here; no
// axe violation, no console error, in light and dark, on a phone and in Chinese. Screenshots go
// to tests/browser/artifacts/ (learn-wide-light, learn-phone-dark, learn-zh).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { ROOT, artifact, axeViolations, readMatrix, sharedBrowser } from './helpers.mjs';

const T = { timeout: 120_000 };
const browser = sharedBrowser();
const $ = (role) => `[data-role="${role}"]`;
const FIXTURE = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'timelapse-tiny.json'), 'utf8'));
const TINY = '?data=/fixtures/timelapse-tiny.json';
const MATRIX = '[data-role="learn-matrix"]';

async function open(query = TINY, options = {}) {
  const page = await browser.newPage(options);
  await page.goto(`${browser.url}learn.html${query}`);
  await page.waitForSelector('[data-role="app"]:is([data-state="ready"], [data-state="error"])', { timeout: 30_000 });
  return page;
}

const frameOf = (page) => page.$eval($('app'), (el) => Number(el.dataset.frame));
const weights = async (page) => (await readMatrix(page)).map((r) => r.weights);
const currentMarks = (page) => page.$$eval('[data-role="current-mark"]', (gs) => gs.map((g) => Number(g.dataset.step)));

function noSideways(page, width) {
  return page.evaluate(() => document.documentElement.scrollWidth).then((w) => assert.ok(w <= width, `the page is ${w} px wide in a ${width} px window`));
}

describe('learn.html', { timeout: 600_000 }, () => {
  test('loads the file and says which run it is; frame 1 is drawn from the file', T, async () => {
    const page = await open();
    assert.equal(await page.getAttribute($('app'), 'data-state'), 'ready');
    assert.equal(await page.textContent('h1'), 'Watch attention learn to align');
    assert.match(await page.textContent($('run-line')), /“tiny-fixture”, additive \(Bahdanau\) attention, attention width 256, 23 minutes of training, 5 snapshots up to step 640/);
    assert.equal(await page.textContent($('run-note')), FIXTURE.note);
    assert.equal(await page.textContent($('run-command')), FIXTURE.command);
    assert.match(await page.textContent($('run-guided')), /no aligner, no guidance/);
    assert.equal(await page.$eval($('frame-slider'), (el) => el.max), '4');
    assert.equal(await page.textContent($('frame-value')), 'snapshot 1 of 5: step 0, 0.0 min');
    const rows = await readMatrix(page);
    assert.deepEqual(rows.map((r) => r.word), FIXTURE.sentences[0].tgt_tokens.map((t) => (t === '</s>' ? '⟨/s⟩' : t)));
    assert.deepEqual(rows.map((r) => r.weights), FIXTURE.frames[0].rows[0]);
    assert.equal(await page.$eval(`${MATRIX} [data-key="true"]`, (c) => `${c.parentElement.dataset.row}:${c.dataset.col}`), '2:1', 'the key cell, noir × black');
    assert.equal(await page.textContent($('key-link')), 'Key link, outlined: “noir” → “black”.');
    // The sentences are the file's, in its order.
    assert.deepEqual(await page.$$eval(`${$('sentence')} option`, (os) => os.map((o) => o.textContent)), FIXTURE.sentences.map((s) => `${s.en} → ${s.fr}`));
    // The curves: a point per frame, the diagonal a flat line at the file's value.
    for (const series of ['loss', 'bleu', 'align', 'off-diagonal']) {
      assert.equal(await page.$eval(`g[data-series="${series}"]`, (g) => Number(g.dataset.count)), 5, series);
    }
    assert.equal(await page.$eval('line[data-series="diagonal"]', (l) => Number(l.dataset.value)), FIXTURE.measures.diagonal_accuracy);
    assert.equal(await page.$eval('line[data-series="diagonal"]', (l) => l.getAttribute('y1') === l.getAttribute('y2')), true, 'flat');
    assert.deepEqual(await currentMarks(page), [0, 0, 0]);
    assert.equal(await page.$$eval(`${$('numbers-table')} tbody tr`, (trs) => trs.length), 5);
    await page.screenshot({ path: artifact('learn-wide-light.png'), fullPage: true });
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the slider moves the matrix, the charts\' current mark and the numbers', T, async () => {
    const page = await open();
    const before = await weights(page);
    await page.$eval($('frame-slider'), (el) => {
      el.value = '3';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.equal(await frameOf(page), 3);
    const after = await weights(page);
    assert.notDeepEqual(after, before, 'the cells changed');
    assert.deepEqual(after, FIXTURE.frames[3].rows[0], "frame 4's rows, as the file has them");
    assert.deepEqual(await currentMarks(page), [160, 160, 160]);
    assert.equal(await page.$eval('[data-role="loss-chart"] .lr-current-point', (c) => Number(c.dataset.value)), FIXTURE.frames[3].dev_loss);
    assert.equal(await page.textContent($('frame-value')), 'snapshot 4 of 5: step 160, 5.7 min');
    assert.match(await page.textContent($('stats')), /Held-out loss 4\.020 · BLEU 2\.9 · alignment 63\.1% of all links, 31\.9% off the diagonal/);
    assert.equal(await page.getAttribute(`${$('numbers-table')} tr[aria-current="true"]`, 'data-step'), '160');
    // The other sentence: its own rows at the same frame.
    await page.selectOption($('sentence'), '1');
    assert.deepEqual(await weights(page), FIXTURE.frames[3].rows[1]);
    assert.equal(await page.textContent($('key-link')), 'Key link, outlined: “blanc” → “white”.');
    // The numbers' table, open: the current frame's row marked, and no axe violation.
    await page.click('.lr-numbers summary');
    assert.deepEqual(await page.$$eval(`${$('numbers-table')} tbody tr`, (trs) => trs.map((tr) => tr.cells[2].textContent)), FIXTURE.frames.map((f) => f.dev_loss.toFixed(3)));
    assert.deepEqual(await axeViolations(page), [], 'numbers open, another sentence, frame 4');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('play advances the frames one by one and stops at the last', T, async () => {
    const page = await open();
    const seen = [];
    await page.exposeFunction('__frame', (f) => seen.push(f));
    await page.evaluate(() => new MutationObserver(() => window.__frame(Number(document.querySelector('[data-role="app"]').dataset.frame)))
      .observe(document.querySelector('[data-role="app"]'), { attributes: true, attributeFilter: ['data-frame'] }));
    await page.click($('play'));
    assert.equal(await page.getAttribute($('play'), 'data-playing'), 'true');
    assert.equal(await page.textContent($('play')), 'Pause');
    await page.waitForSelector('[data-role="play"][data-playing="false"]', { timeout: 20_000 });
    assert.equal(await frameOf(page), 4, 'at the last frame');
    assert.deepEqual([...new Set(seen)], [1, 2, 3, 4], 'every frame in order');
    assert.deepEqual(await weights(page), FIXTURE.frames[4].rows[0]);
    // Pressed at the end, it starts again from the first.
    await page.click($('play'));
    await page.waitForFunction(() => Number(document.querySelector('[data-role="app"]').dataset.frame) < 4);
    await page.click($('play'));
    assert.equal(await page.getAttribute($('play'), 'data-playing'), 'false', 'pause');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the settles mark is where the file says; its line says the step, or "not settled"', T, async () => {
    const page = await open();
    const marks = await page.$$eval('[data-role="settle-mark"]', (ms) => ms.map((m) => ({ sentence: m.dataset.sentence, frame: m.dataset.frame, chosen: m.dataset.chosen })));
    assert.deepEqual(marks, [{ sentence: '0', frame: '3', chosen: 'true' }], 'one mark: sentence 2 never settles');
    // Under the thumb's centre at frame 4 of 5 (Chromium's thumb: 16 px, learn.css).
    const { mark, range } = await page.evaluate(() => {
      const r = document.querySelector('[data-role="frame-slider"]').getBoundingClientRect();
      const m = document.querySelector('[data-role="settle-mark"]').getBoundingClientRect();
      return { mark: m.left + m.width / 2, range: { left: r.left, width: r.width } };
    });
    const expected = range.left + 8 + (range.width - 16) * (3 / 4);
    assert.ok(Math.abs(mark - expected) <= 2, `the mark at x = ${mark}, the thumb at frame 4 at ${expected}`);
    assert.equal(await page.textContent($('settles')), '“noir” first looks at “black” for good at step 160 (5.7 min): from that snapshot on, its strongest English word is that one in every later snapshot.');
    assert.equal(await page.getAttribute($('settles'), 'data-step'), String(FIXTURE.sentences[0].settles));
    await page.selectOption($('sentence'), '1');
    assert.equal(await page.getAttribute($('settles'), 'data-settled'), 'false');
    assert.match(await page.textContent($('settles')), /^“blanc” → “white”: not settled in this run/);
    assert.equal(await page.getAttribute('[data-role="settle-mark"]', 'data-chosen'), 'false', "sentence 1's mark is no longer the chosen one");
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('keyboard: Space and Enter on play; Home, End and the arrows on the slider; Home and End from play', T, async () => {
    const page = await open();
    await page.focus($('play'));
    await page.keyboard.press('Space');
    assert.equal(await page.getAttribute($('play'), 'data-playing'), 'true', 'Space plays');
    await page.keyboard.press('Space');
    assert.equal(await page.getAttribute($('play'), 'data-playing'), 'false', 'Space pauses');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute($('play'), 'data-playing'), 'true', 'Enter plays');
    await page.keyboard.press('End');
    assert.equal(await page.getAttribute($('play'), 'data-playing'), 'false', 'End stops');
    assert.equal(await frameOf(page), 4);
    await page.keyboard.press('Home');
    assert.equal(await frameOf(page), 0);
    // Tab from play reaches the slider.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.role), 'frame-slider');
    await page.keyboard.press('End');
    assert.equal(await frameOf(page), 4);
    assert.deepEqual(await weights(page), FIXTURE.frames[4].rows[0]);
    await page.keyboard.press('Home');
    assert.equal(await frameOf(page), 0);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assert.equal(await frameOf(page), 2);
    assert.deepEqual(await weights(page), FIXTURE.frames[2].rows[0]);
    assert.equal(await page.$eval($('frame-slider'), (el) => el.getAttribute('aria-valuetext')), 'snapshot 3 of 5: step 40, 1.4 min');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('on a phone (390 x 844), dark: nothing scrolls sideways, dark page, no axe violation', T, async () => {
    const page = await open(`${TINY}&frame=4`, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    assert.equal(await frameOf(page), 3, '?frame=4');
    await noSideways(page, 390);
    const [bg, fg] = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
    const lum = (c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    assert.ok(lum(bg) < 60 && lum(fg) > 180, `dark background ${bg}, light text ${fg}`);
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: artifact('learn-phone-dark.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('in Chinese (?lang=zh, and by the language button)', T, async () => {
    const page = await open(`${TINY}&lang=zh&frame=4`);
    assert.equal(await page.getAttribute('html', 'lang'), 'zh-Hans');
    assert.equal(await page.textContent('h1'), '看注意力学会对齐');
    assert.equal(await page.textContent($('play')), '播放');
    assert.match(await page.textContent($('settles')), /^“noir”从第 160 步起（5\.7 分钟）始终最看向“black”/);
    assert.match(await page.textContent($('frame-value')), /^第 4 个快照，共 5 个：第 160 步/);
    assert.equal(new URL(await page.$eval($('back'), (a) => a.href)).searchParams.get('lang'), 'zh');
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: artifact('learn-zh.png'), fullPage: true });
    await page.click($('lang'));
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.equal(await page.textContent('h1'), 'Watch attention learn to align');
    assert.equal(await frameOf(page), 3, 'the frame stays');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('?data= on another origin is refused, with no request for it; a missing file says so', T, async () => {
    let page = await open('?data=https://example.com/timelapse.json');
    assert.equal(await page.getAttribute($('app'), 'data-state'), 'error');
    assert.match(await page.textContent($('error')), /Only a file on this site can be shown \(\?data=https:\/\/example\.com\/timelapse\.json is not\)/);
    assert.deepEqual(page.problems, [], 'no request left the site');
    await page.close();
    page = await open('?data=/fixtures/no-such-timelapse.json');
    assert.equal(await page.getAttribute($('app'), 'data-state'), 'error');
    assert.match(await page.textContent($('error')), /no-such-timelapse\.json: HTTP 404/);
    await page.close();
  });

  test('without ?data= it shows web/data/timelapse-en-fr.json (once the lead has written it)', T, async (t) => {
    const file = path.join(ROOT, 'web', 'data', 'timelapse-en-fr.json');
    if (!existsSync(file)) {
      t.skip('web/data/timelapse-en-fr.json is not there yet');
      return;
    }
    const real = JSON.parse(readFileSync(file, 'utf8'));
    const page = await open('');
    assert.equal(await page.getAttribute($('app'), 'data-state'), 'ready');
    assert.equal(await page.$eval($('frame-slider'), (el) => Number(el.max) + 1), real.frames.length);
    assert.equal(await page.$$eval('[data-role="settle-mark"]', (ms) => ms.length), real.sentences.filter((s) => s.settles !== null).length);
    assert.match(await page.textContent($('run-line')), new RegExp(`“${real.model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”`));
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('every page of the site links here, in its language', T, async () => {
    for (const [file, query] of [['index.html', '?model=tiny&lang=zh'], ['why.html', '?lang=zh'], ['compare.html', '?a=tiny&b=tiny-dot&lang=zh'], ['train.html', '?lang=zh'], ['embed-docs.html', '']]) {
      const page = await browser.newPage();
      await page.goto(`${browser.url}${file}${query}`);
      const link = page.locator('a[href^="learn.html"]');
      await link.first().waitFor();
      assert.equal(new URL(await link.first().getAttribute('href'), browser.url).pathname, '/learn.html', file);
      if (query.includes('lang=zh')) {
        await page.waitForFunction(() => document.querySelector('a[data-role="learn-link"]')?.textContent === '看它学习');
        assert.equal(new URL(await link.first().getAttribute('href'), browser.url).searchParams.get('lang'), 'zh', file);
      }
      await page.close();
    }
  });
});
