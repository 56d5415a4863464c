// Issue 24, part 2, items 3, 5 and 6: no dead ends on the page. Text of several sentences is
// translated sentence by sentence by default (as one sequence by choice, kept in the link); on
// a phone a shared ?text= link plays in view, with the step panel next to the matrix; and
// why.html's experiment reports its progress as the sentences finish. One browser for the file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { permalink, readParams } from '../../web/app/params.js';
import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, pageModel, readMatrix, sharedBrowser, waitDone } from './helpers.mjs';

const T = { timeout: 240_000 };
const PHONE = { width: 390, height: 844 };
const browser = sharedBrowser();
let model;
let ref; // the JS API on the page's model

before(async () => {
  model = pageModel();
  ref = await createTranslator({ model: model.file });
}, { timeout: 90_000 });

after(() => ref?.dispose());

async function open(query, options) {
  const page = await browser.newPage(options);
  await page.goto(`${browser.url}?model=${model.name}&${query}`);
  return page;
}

const tabCount = (page) => page.locator('[data-role="sentence-tabs"] [role="tab"]').count();
const words = async (page) => (await readMatrix(page)).map((r) => r.word);

async function linkParams(page) {
  await page.click('[data-role="permalink"]');
  return new URL(await page.inputValue('[data-role="permalink-field"]'));
}

describe('text of several sentences under the length limit', () => {
  const TEXT = 'She works at the school on Saturday. These days are long.';

  test('is translated sentence by sentence by default, with tabs; "as one sequence" is a choice the link keeps', T, async () => {
    const split = ref.translate(TEXT, { splitSentences: true });
    const whole = ref.translate(TEXT);
    assert.equal(split.sentences.length, 2);
    assert.ok(ref.tokenize(TEXT).length <= ref.info().maxSrcLen, 'under the limit (else this tests the old path)');
    const page = await open(`speed=instant&text=${encodeURIComponent(TEXT)}`);
    await waitDone(page);
    await page.waitForSelector('[data-role="paragraph"][data-state="done"]');
    assert.equal(await tabCount(page), 2, 'a tab per sentence');
    assert.deepEqual(await words(page), split.sentences[0].targetTokens, 'the first sentence decoded alone');
    assert.equal(await page.textContent('[data-role="paragraph-output"]'), split.text, 'every sentence, joined');
    assert.match(await page.textContent('[data-role="paragraph-note"]'), /2 sentences/);
    // The choice is a visible, labelled control, off by default.
    const choice = page.locator('[data-role="whole"]');
    assert.equal(await choice.isVisible(), true);
    assert.equal(await choice.isChecked(), false);
    assert.match(await page.locator('label:has([data-role="whole"])').textContent(), /as one sequence/i);
    assert.equal((await linkParams(page)).searchParams.get('whole'), null, 'the default keeps the link short');

    // As one sequence: one matrix over the whole text, as the model reads it, and the link says so.
    await choice.check();
    await waitDone(page);
    await page.waitForFunction(() => document.querySelector('[data-role="paragraph"]').hidden);
    assert.deepEqual(await words(page), whole.targetTokens);
    const link = await linkParams(page);
    assert.equal(link.searchParams.get('whole'), '1');
    assert.equal(link.searchParams.get('sentence'), null);

    const again = await browser.newPage();
    await again.goto(link.href);
    await waitDone(again);
    assert.equal(await again.isChecked('[data-role="whole"]'), true, 'the shared link reproduces the choice');
    assert.equal(await again.isVisible('[data-role="paragraph"]'), false);
    assert.deepEqual(await words(again), whole.targetTokens);
    // Unticked, the sentences come back.
    await again.uncheck('[data-role="whole"]');
    await again.waitForSelector('[data-role="paragraph"][data-state="done"]');
    await waitDone(again);
    assert.equal(await tabCount(again), 2);
    assert.deepEqual(await words(again), split.sentences[0].targetTokens);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(again.problems, []);
    await again.close();
    await page.close();
  });

  test('whole= is 1 or nothing: other values are the default, and the link writes it back', () => {
    const at = (q) => new URL(`http://127.0.0.1:8000/${q}`);
    assert.equal(readParams(at('?whole=1')).whole, true);
    for (const bad of ['', '?whole=0', '?whole=true', '?whole=yes', '?whole=11', '?whole=%00', '?whole=1%20']) {
      assert.equal(readParams(at(bad)).whole, false, bad);
    }
    const view = { text: 'One. Two.', model: 'en-fr', step: 1, beam: 1, simd: 'auto', lang: 'en' };
    assert.equal(readParams(new URL(permalink(at(''), { ...view, whole: true }))).whole, true);
    assert.equal(new URL(permalink(at(''), view)).searchParams.has('whole'), false);
  });

  test('a single sentence is as before; whole=1 on text over the limit still splits, and says why', T, async () => {
    const one = 'The black cat is sleeping.';
    const page = await open(`speed=instant&text=${encodeURIComponent(one)}`);
    await waitDone(page);
    assert.equal(await page.isVisible('[data-role="paragraph"]'), false);
    assert.deepEqual(await words(page), ref.translate(one).targetTokens);
    assert.equal((await linkParams(page)).searchParams.get('sentence'), null);
    await page.close();

    const long = Array.from({ length: 9 }, (_, k) => `My brother drives his old car to work every day number ${k}.`).join(' ');
    const n = ref.splitSentences(long).length;
    assert.ok(ref.tokenize(long).length > ref.info().maxSrcLen);
    const over = await open(`speed=instant&whole=1&text=${encodeURIComponent(long)}`);
    await waitDone(over);
    await over.waitForSelector('[data-role="paragraph"][data-state="done"]');
    assert.equal(await tabCount(over), n);
    assert.match(await over.textContent('[data-role="paragraph-note"]'), /at most 100/);
    assert.deepEqual(over.problems, []);
    await over.close();
  });
});

describe('on a phone (390×844)', () => {
  const TEXT = 'The black cat is sleeping.';
  const boxes = (page) => page.evaluate(() => {
    const box = (sel) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      return { top: r.top + scrollY, bottom: r.bottom + scrollY, viewTop: r.top };
    };
    return { matrix: box('[data-role="matrix-root"]'), steps: box('[data-role="step-panel"]'), player: box('.player'), height: innerHeight };
  });

  test('a shared ?text= link plays in view, and the step panel sits by the matrix', T, async () => {
    for (const reducedMotion of ['reduce', 'no-preference']) {
      const page = await browser.newPage({ viewport: PHONE, reducedMotion });
      await page.goto(`${browser.url}?model=${model.name}&speed=1&text=${encodeURIComponent(TEXT)}`);
      // While it plays (1 word a second), the matrix with its playing row is on screen.
      await page.waitForSelector('[data-role="matrix"] > [data-row][data-current="true"]', { timeout: 90_000 });
      await page.waitForFunction(() => {
        const r = document.querySelector('[data-role="matrix-root"]').getBoundingClientRect();
        return r.top >= 0 && r.top < innerHeight;
      }, null, { timeout: 5_000 }).catch(() => {});
      const b = await boxes(page);
      assert.ok(b.matrix.viewTop >= 0 && b.matrix.viewTop < b.height, `${reducedMotion}: the matrix top is in view (${Math.round(b.matrix.viewTop)} px)`);
      const row = await page.$eval('[data-role="matrix"] > [data-row][data-current="true"]', (el) => el.getBoundingClientRect().bottom);
      assert.ok(row <= b.height, `${reducedMotion}: the playing row is in view`);
      await waitDone(page);
      // The step panel comes right under the matrix (it came after the export row and the
      // card's end, 300 px down), so that with the buttons at the top of the screen a good
      // part of it shows too.
      const done = await boxes(page);
      // And it stayed there while the lines above it grew (the French, then "type your own").
      const held = done.player.top - (await page.evaluate(() => scrollY));
      assert.ok(held >= 0 && held < 60, `${reducedMotion}: the buttons stay at the top (${Math.round(held)} px)`);
      const gap = done.steps.top - done.matrix.bottom;
      assert.ok(gap >= 0 && gap <= done.height / 4, `the step panel starts ${Math.round(gap)} px under the matrix`);
      assert.ok(done.steps.top - done.player.top <= done.height - 200, `and ${Math.round(done.steps.top - done.player.top)} px under the buttons`);
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });

  test('a reader who has scrolled is left where they are', T, async () => {
    const page = await browser.newPage({ viewport: PHONE });
    // The model's load is held back (at the worker's door, whatever serves the file: the
    // network, the early fetch or a cache) until the reader has scrolled.
    await page.addInitScript(() => {
      const post = Worker.prototype.postMessage;
      const held = [];
      window.__release = () => {
        window.__released = true;
        for (const [worker, args] of held.splice(0)) post.apply(worker, args);
      };
      Worker.prototype.postMessage = function (...args) {
        if (!window.__released && args[0]?.type === 'load') return void held.push([this, args]);
        return post.apply(this, args);
      };
    });
    await page.goto(`${browser.url}?model=${model.name}&speed=instant&text=${encodeURIComponent(TEXT)}`);
    await page.mouse.move(200, 400);
    await page.mouse.wheel(0, 120);
    await page.waitForFunction(() => scrollY > 0);
    assert.equal(await page.getAttribute('[data-role="app"]', 'data-state'), 'loading', 'scrolled before the translation started');
    const y = await page.evaluate(() => scrollY);
    await page.evaluate(() => window.__release());
    await waitDone(page);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => scrollY), y, 'no jump after the user scrolled');
    await page.close();
  });
});

describe('why.html', () => {
  test('the experiment\'s progress moves as the sentences finish, up to the total', T, async () => {
    const sample = JSON.parse(readFileSync(path.join(ROOT, 'web', 'data', 'long-sample.json'), 'utf8'));
    const n = sample.items.length;
    const page = await browser.newPage();
    // What is painted: the progress line read at each animation frame.
    await page.addInitScript(() => {
      window.IntersectionObserver = class { observe() {} disconnect() {} }; // no lineage workers
      window.__seen = [];
      const look = () => {
        const text = document.querySelector('[data-role="run-text"]')?.textContent ?? '';
        if (text && text !== window.__seen.at(-1)?.text) window.__seen.push({ text, t: performance.now() });
        requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
      // When each worker answers a batch of sentences: the decoding's own progress.
      window.__batches = [];
      const desc = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
      Object.defineProperty(Worker.prototype, 'onmessage', {
        ...desc,
        set(fn) {
          desc.set.call(this, fn && ((e) => {
            if (e.data?.type === 'batch') window.__batches.push(performance.now());
            return fn.call(this, e);
          }));
        },
      });
    });
    await page.goto(`${browser.url}why.html`);
    await page.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
    await page.waitForSelector('[data-role="run"]:not([disabled])');
    await page.evaluate(() => { window.__seen = []; window.__batches = []; });
    await page.click('[data-role="run"]');
    await page.waitForSelector('[data-role="run-card"][data-run="done"]', { timeout: 200_000 });
    const seen = await page.evaluate(() => window.__seen);
    const shown = seen.map((s) => ({ t: s.t, m: s.text.match(/^(\d+) \/ (\d+) sentences/) })).filter((s) => s.m);
    const counts = shown.map((s) => Number(s.m[1]));
    assert.equal(counts.at(-1), n, 'the final count');
    for (let k = 1; k < counts.length; k++) assert.ok(counts[k] > counts[k - 1], `monotonic: ${counts.join(' ')}`);
    const between = counts.filter((c) => c > 0 && c < n);
    assert.ok(between.length >= 4, `several counts on the way: ${counts.join(' ')}`);
    const jump = Math.max(...counts.slice(1).map((c, k) => c - counts[k]));
    assert.ok(jump <= n / 4, `no jump to the end: the largest step is ${jump} of ${n} (${counts.join(' ')})`);
    // The count keeps pace with the decoding: when the last batch of sentences is back from
    // the workers, nearly all are counted (it showed 28 of 180 then, and rushed to 180 after).
    const decoded = (await page.evaluate(() => window.__batches)).at(-1);
    const then = shown.filter((s) => s.t <= decoded).at(-1);
    assert.ok(Number(then.m[1]) >= n / 2, `when the decoding ended it showed "${then.m[0]}"`);
    assert.ok(seen.some((s) => /about \d+ s left$/.test(s.text)), 'the time left is said');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
