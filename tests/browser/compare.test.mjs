// compare.html in real Chromium: two models on one sentence, each in its own worker, drawn
// side by side under one player. The rows must be each model's translate() attention, the
// two matrices must move together, and every fact printed under them must be the engine's
// (info(), scoringCost(), selfAttention()) or computed from its rows (entropy, TV).
//
// Models: the shipped en-fr (additive) and en-fr-dot (scaled dot); BL_COMPARE_A / BL_COMPARE_B
// name others (tiny, tiny-dot) while a shipped model is not there yet.
// A little over 400 lines, on purpose: the tests share one browser and the two models' reference
// translations in Node; split, each file would load them again.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { differingRow, meanEntropyBits, peak, totalVariation } from '../../web/ui/attention-stats.js';
import { COMPARE_FILES as FILES, COMPARE_NAMES as NAMES, ROOT, artifact, launch } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 180_000 };

let browser;
const ref = {}; // side -> Node translator of the same model
const expected = {}; // side -> translate(SENTENCE)

before(async () => {
  for (const [side, name] of Object.entries(NAMES)) {
    const file = path.join(ROOT, FILES[name] ?? '');
    if (!FILES[name] || !existsSync(file)) {
      throw new Error(`the comparison tests need ${FILES[name] ?? name}, which is missing (or set BL_COMPARE_${side.toUpperCase()}=tiny|tiny-dot)`);
    }
    ref[side] = await createTranslator({ model: file });
    expected[side] = ref[side].translate(SENTENCE);
  }
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  for (const t of Object.values(ref)) t.dispose();
  await browser?.close();
});

async function open(query = '', options) {
  const page = await browser.newPage(options);
  await page.goto(`${browser.url}compare.html?a=${NAMES.a}&b=${NAMES.b}&text=${encodeURIComponent(SENTENCE)}${query}`);
  return page;
}

// Decoded, analysed, and playback at rest.
async function settled(page) {
  await page.waitForSelector('[data-role="app"][data-state="done"][data-analysis="done"]', { timeout: 120_000 });
  await page.waitForSelector('[data-role="compare"][data-finished="true"][data-playing="false"]', { timeout: 60_000 });
}

function readSide(page, side) {
  return page.$eval(`[data-role="side"][data-side="${side}"]`, (el) => {
    const value = (role) => {
      const x = el.querySelector(`[data-role="${role}"]`);
      return { text: x.textContent, value: x.dataset.value === undefined ? null : Number(x.dataset.value) };
    };
    return {
      scoring: el.dataset.scoring,
      current: Number(el.dataset.current),
      rows: [...el.querySelectorAll('[data-role="matrix"] > [data-row]')].map((r) => ({
        row: Number(r.dataset.row),
        word: r.querySelector('[role="rowheader"]').textContent,
        current: r.dataset.current === 'true',
        tvMax: r.dataset.tvMax === 'true',
        weights: [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
      })),
      columns: [...el.querySelectorAll('[data-role="matrix"] .bl-col')].map((c) => c.textContent),
      formula: value('formula').text,
      dims: value('dims').text,
      params: value('params'),
      cost: value('cost'),
      entropy: value('entropy'),
      output: el.querySelector('[data-role="output"]').textContent,
    };
  });
}

const position = (page) => page.$eval('[data-role="compare"]', (el) => Number(el.dataset.position));
const assertNoProblems = (page) => assert.deepEqual(page.problems, [], 'console errors, page errors or outside requests');
const rowCount = (side) => expected[side].attention.length;

describe('the comparison page', { timeout: 900_000 }, () => {
  test('both matrices fill in lockstep, each with its own translate() rows and weights', T, async () => {
    const page = await browser.newPage();
    // Record both sides' row counts at every move of the player, from the first one.
    await page.addInitScript(() => {
      window.__log = [];
      new MutationObserver(() => {
        const root = document.querySelector('[data-role="compare"]');
        if (!root) return;
        const rows = (s) => Number(root.querySelector(`[data-side="${s}"]`).dataset.rows);
        const entry = { p: Number(root.dataset.position), a: rows('a'), b: rows('b') };
        const last = window.__log.at(-1);
        if (!last || last.p !== entry.p || last.a !== entry.a || last.b !== entry.b) window.__log.push(entry);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-position', 'data-rows'] });
    });
    await page.goto(`${browser.url}compare.html?a=${NAMES.a}&b=${NAMES.b}&text=${encodeURIComponent(SENTENCE)}`);
    await settled(page);
    const log = (await page.evaluate(() => window.__log)).filter((e) => e.p >= 0);
    assert.ok(log.length >= 2, 'the player moved through the steps');
    for (const e of log) {
      assert.equal(e.a, Math.min(e.p + 1, rowCount('a')), `additive side at step ${e.p}`);
      assert.equal(e.b, Math.min(e.p + 1, rowCount('b')), `dot side at step ${e.p}`);
    }
    for (const side of ['a', 'b']) {
      const shown = await readSide(page, side);
      const exp = expected[side];
      assert.equal(shown.rows.length, exp.attention.length, `${side}: one row per output word`);
      assert.deepEqual(shown.rows.map((r) => r.word), exp.targetTokens);
      shown.rows.forEach((r, i) => assert.deepEqual(r.weights, exp.attention[i], `${side} row ${i}`));
      assert.equal(shown.columns.length, exp.sourceTokens.length);
      assert.equal(shown.output, exp.text, `${side}: the detokenized translation`);
      assert.equal(shown.scoring, ref[side].info().scoring);
    }
    // Each model decoded in its own module worker; the main thread loaded no engine.
    assert.deepEqual(page.workers().map((w) => new URL(w.url()).pathname), ['/engine/worker.js', '/engine/worker.js']);
    assert.equal(await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => /\/dist\//.test(r.name)).length), 0);
    assertNoProblems(page);
    await page.close();
  });

  test('first, back, forward, last and the arrow keys move both matrices together', T, async () => {
    const page = await open('&step=1');
    await settled(page);
    const state = async () => {
      const [a, b] = [await readSide(page, 'a'), await readSide(page, 'b')];
      return { p: await position(page), a: a.rows.length, b: b.rows.length, ca: a.current, cb: b.current };
    };
    const at = (p) => ({
      p,
      a: Math.min(p + 1, rowCount('a')),
      b: Math.min(p + 1, rowCount('b')),
      ca: p < rowCount('a') ? p : -1,
      cb: p < rowCount('b') ? p : -1,
    });
    assert.deepEqual(await state(), at(1), 'step=1 from the link');
    await page.click('[data-role="first"]');
    assert.deepEqual(await state(), at(0));
    await page.click('[data-role="step-forward"]');
    await page.click('[data-role="step-forward"]');
    assert.deepEqual(await state(), at(2));
    await page.click('[data-role="step-back"]');
    assert.deepEqual(await state(), at(1));
    await page.click('[data-role="last"]');
    const last = Math.max(rowCount('a'), rowCount('b')); // the longer one's </s> step, if any
    const end = await state();
    assert.ok(end.p >= last - 1 && end.p <= last, `last step ${end.p}`);
    assert.equal(end.a, rowCount('a'));
    assert.equal(end.b, rowCount('b'));
    // The keyboard alone: arrows on the page, Tab to a button and Enter.
    await page.click('h1');
    await page.keyboard.press('Home'); // no effect, and no error
    await page.keyboard.press('ArrowLeft');
    assert.equal(await position(page), end.p - 1);
    await page.keyboard.press('ArrowRight');
    assert.equal(await position(page), end.p);
    await page.focus('[data-role="first"]');
    await page.keyboard.press('Enter');
    assert.deepEqual(await state(), at(0));
    await page.focus('[data-role="step-forward"]');
    await page.keyboard.press('Enter');
    assert.deepEqual(await state(), at(1));
    await page.keyboard.press('Space');
    assert.deepEqual(await state(), at(2));
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.role), 'last', 'Tab reaches the next control');
    assertNoProblems(page);
    await page.close();
  });

  test('the facts under each matrix are the engine\'s; the TV callout names the row that differs most', T, async () => {
    const page = await open();
    await settled(page);
    for (const side of ['a', 'b']) {
      const shown = await readSide(page, side);
      const info = ref[side].info();
      const [A, D, H2] = [info.attn, info.decHidden, 2 * info.encHidden];
      // The query the model really uses: s′ᵢ for the conditional GRU, sᵢ₋₁ for the paper's decoder.
      const q = info.decoder === 'cgru' ? 's′ᵢ' : 'sᵢ₋₁';
      if (info.scoring === 'additive') {
        assert.equal(shown.formula, `eᵢⱼ = vᵀ tanh(W ${q} + U hⱼ)`);
        assert.equal(shown.dims, `W: ${A}×${D} · U: ${A}×${H2} · v: ${A}`);
      } else {
        assert.equal(shown.formula, `eᵢⱼ = (Wq ${q}) · (Wk hⱼ) / √A`);
        assert.equal(shown.dims, `Wq: ${A}×${D} · Wk: ${A}×${H2}`);
      }
      assert.equal(shown.params.value, info.scoringParams);
      assert.ok(shown.cost.value > 0 && Number.isFinite(shown.cost.value), `${side}: a measured time, ${shown.cost.text}`);
      assert.match(shown.cost.text, /µs$/);
      // Not a bare number: the spread over the timed batches, which brackets the median.
      const spread = await page.$eval(`[data-side="${side}"] [data-role="cost-spread"]`, (el) => ({
        text: el.textContent, visible: el.checkVisibility(),
        min: Number(el.dataset.min), max: Number(el.dataset.max), batches: Number(el.dataset.batches),
      }));
      assert.ok(spread.visible, `${side}: the spread is shown`);
      assert.ok(spread.min > 0 && spread.min <= shown.cost.value && shown.cost.value <= spread.max,
        `${side}: ${spread.min} <= ${shown.cost.value} <= ${spread.max}`);
      if (spread.batches > 1) assert.match(spread.text, /^[\d.]+(–[\d.]+)? µs, from the fastest to the slowest of the \d+ batches$/);
      else assert.match(spread.text, /one batch timed/);
      const bits = meanEntropyBits(expected[side].attention);
      assert.ok(Math.abs(shown.entropy.value - bits) < 1e-9, `${side}: entropy ${shown.entropy.value} vs ${bits}`);
      // A model trained towards an aligner's links says so beside its entropy, and only such a model.
      const guided = await page.$eval(`[data-side="${side}"] [data-role="entropy-guided"]`, (el) => ({ visible: el.checkVisibility(), text: el.textContent }));
      assert.equal(guided.visible, info.attentionGuidance === 'ibm1-diag', `${side}: ${info.attentionGuidance}`);
      if (guided.visible) assert.match(guided.text, /statistical word aligner/);
    }
    const cost = await page.textContent('[data-side="a"] .bl-cmp-fact:nth-child(3)');
    assert.match(cost, /median/);
    assert.match(cost, /once per sentence/);
    assert.match(cost, /move with the machine’s load/);
    const best = differingRow(expected.a.attention, expected.b.attention);
    const tv = await page.$eval('[data-role="tv"]', (el) => ({ row: Number(el.dataset.row), tv: Number(el.dataset.tv), text: el.textContent }));
    assert.equal(tv.row, best.row);
    assert.ok(Math.abs(tv.tv - best.tv) < 1e-12);
    assert.ok(Math.abs(tv.tv - totalVariation(expected.a.attention[best.row], expected.b.attention[best.row])) < 1e-12);
    assert.match(tv.text, new RegExp(`Row ${best.row + 1}`));
    for (const side of ['a', 'b']) {
      const word = expected[side].targetTokens[best.row].replace('</s>', '⟨/s⟩');
      assert.ok(tv.text.includes(`“${word}”`), `the callout names ${side}'s word ${word}: ${tv.text}`);
      const rows = (await readSide(page, side)).rows;
      assert.deepEqual(rows.filter((r) => r.tvMax).map((r) => r.row), [best.row], `${side}: the row is marked`);
    }
    assertNoProblems(page);
    await page.close();
  });

  // The callout must never describe two identical things: on "I have a black cat." both models
  // write j' looking most at </s> (row 0), so it names the row where their peaks part, and
  // while they agree on every row shown, it says that only the spread of the weights differs.
  test('the TV callout names a row where the peaks differ, or says what differs when they agree', T, async () => {
    const text = 'I have a black cat.';
    const ra = ref.a.translate(text).attention;
    const rb = ref.b.translate(text).attention;
    const page = await browser.newPage();
    await page.goto(`${browser.url}compare.html?a=${NAMES.a}&b=${NAMES.b}&text=${encodeURIComponent(text)}&step=0`);
    await settled(page);
    const callout = () => page.$eval('[data-role="tv"]', (el) => ({ row: Number(el.dataset.row), peaks: el.dataset.peaks, text: el.textContent }));
    const n = Math.min(ra.length, rb.length);
    for (let p = 0; p < n; p++) {
      if (p > 0) await page.click('[data-role="step-forward"]');
      const shown = await callout();
      const agreeSoFar = ra.slice(0, p + 1).every((r, i) => peak(r) === peak(rb[i]));
      if (agreeSoFar) {
        assert.equal(shown.peaks, 'agree', `step ${p}: ${shown.text}`);
        assert.match(shown.text, /in every row so far/, `step ${p}`);
        assert.match(shown.text, /spread/, `step ${p}`);
      } else {
        assert.equal(shown.peaks, 'differ', `step ${p}: ${shown.text}`);
        assert.notEqual(peak(ra[shown.row]), peak(rb[shown.row]), `step ${p}: row ${shown.row} has different peaks`);
        const peaks = [...shown.text.matchAll(/looking most at “([^”]*)”/g)].map((m) => m[1]);
        assert.equal(peaks.length, 2, shown.text);
        assert.notEqual(peaks[0], peaks[1], `step ${p}: the two peaks named differ: ${shown.text}`);
      }
      assert.equal(shown.row, differingRow(ra.slice(0, p + 1), rb.slice(0, p + 1)).row, `step ${p}`);
    }
    assertNoProblems(page);
    await page.close();
  });

  test('the self-attention illustration is the dot model\'s n×n matrix, rows summing to 1, with its method', T, async () => {
    const page = await open();
    await settled(page);
    const side = ref.b.info().scoring === 'scaled_dot' ? 'b' : 'a';
    const sa = ref[side].selfAttention(SENTENCE);
    const shown = await page.$eval('[data-role="self-attention"]', (el) => ({
      method: el.querySelector('[data-role="self-method"]').textContent,
      text: el.textContent,
      rows: [...el.querySelectorAll('[data-role="matrix"] > [data-row]')].map((r) =>
        [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight))),
    }));
    const n = sa.tokens.length;
    assert.equal(shown.rows.length, n);
    for (const [i, row] of shown.rows.entries()) {
      assert.equal(row.length, n, `row ${i} has n cells`);
      const sum = row.reduce((x, y) => x + y, 0);
      assert.ok(Math.abs(sum - 1) < 1e-4, `row ${i} sums to ${sum}`);
      assert.deepEqual(row, sa.weights[i]);
    }
    assert.equal(shown.method, sa.method, 'the engine\'s own description');
    assert.match(shown.text, /illustration/i);
    assert.match(shown.text, /not part of the translator/);
    // q = k = W_k h: the diagonal is large by construction, and the page says so beside it.
    const diagonal = await page.$eval('[data-role="self-diagonal"]', (el) => ({ text: el.textContent, visible: el.checkVisibility() }));
    assert.ok(diagonal.visible, 'the diagonal note is shown with the matrix');
    assert.match(diagonal.text, /diagonal/);
    assert.match(diagonal.text, /by construction/);
    assert.match(diagonal.text, /W_q/);
    await page.click('[data-role="lang"]');
    assert.match(await page.textContent('[data-role="self-diagonal"]'), /对角线.*构造/);
    assertNoProblems(page);
    await page.close();
  });

  test('Chinese captions, from the button and from lang=zh', T, async () => {
    const page = await open('&step=2');
    await settled(page);
    const captions = () => page.evaluate(() => ({
      h1: document.querySelector('h1').textContent,
      tv: document.querySelector('[data-role="tv"]').textContent,
      explain: document.querySelector('.bl-cmp-explain').textContent,
      self: document.querySelector('[data-role="self-attention"] h3').textContent,
      entropy: document.querySelector('[data-side="a"] [data-role="entropy"]').textContent,
      cost: document.querySelector('[data-side="a"] .bl-cmp-fact:nth-child(3)').textContent,
      play: document.querySelector('[data-role="play"]').getAttribute('aria-label'),
      lang: document.documentElement.lang,
    }));
    const en = await captions();
    assert.match(en.explain, /Transformer/);
    assert.match(en.explain, /self-attention/);
    await page.click('[data-role="lang"]');
    const zh = await captions();
    assert.equal(zh.lang, 'zh-Hans');
    assert.match(zh.h1, /加性注意力/);
    assert.match(zh.tv, /差别最大/);
    assert.match(zh.explain, /Transformer/);
    assert.match(zh.explain, /自注意力/);
    assert.match(zh.self, /自注意力/);
    assert.match(zh.entropy, /比特/);
    assert.match(zh.cost, /(批中从最快到最慢|只计时了 1 批).*随机器的负载而变/);
    assert.equal(zh.play, '播放');
    await page.click('[data-role="lang"]');
    assert.deepEqual(await captions(), en, 'and back');
    assertNoProblems(page);
    await page.close();
    const direct = await open('&lang=zh&step=0');
    await settled(direct);
    assert.match(await direct.textContent('h1'), /加性注意力/);
    assert.equal(await direct.getAttribute('html', 'lang'), 'zh-Hans');
    assertNoProblems(direct);
    await direct.close();
  });

  test('axe finds no accessibility violations, light and dark, English and Chinese', T, async () => {
    const axe = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
    for (const colorScheme of ['light', 'dark']) {
      const page = await open('&step=2', { colorScheme });
      await settled(page);
      await page.waitForFunction(() => document.getAnimations().length === 0);
      await page.evaluate(axe);
      const run = () => page.evaluate(async () =>
        (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(await run(), [], `${colorScheme}, English`);
      await page.click('[data-role="lang"]');
      // New captions redraw the rows, which fade in again: test the colours they settle on.
      await page.waitForFunction(() => document.getAnimations().length === 0);
      assert.deepEqual(await run(), [], `${colorScheme}, Chinese`);
      assertNoProblems(page);
      await page.close();
    }
  });

  test('the main page links here with its sentence; a bad a=, simd=0 and hostile text', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}?model=${NAMES.a}&lang=zh`);
    await page.fill('[data-role="source-input"]', 'I am cold.');
    const link = await page.$eval('[data-role="compare-link"]', (a) => ({ href: a.href, text: a.textContent }));
    const url = new URL(link.href);
    assert.equal(url.pathname, '/compare.html');
    assert.equal(url.searchParams.get('text'), 'I am cold.');
    assert.equal(url.searchParams.get('lang'), 'zh');
    assert.match(link.text, /对比/);
    await page.click('[data-role="lang"]');
    assert.equal(await page.textContent('[data-role="compare-link"]'), 'Compare additive and dot-product attention');
    assertNoProblems(page);
    await page.click('[data-role="compare-link"]');
    await page.waitForURL(/compare\.html/);
    assert.equal(await page.inputValue('[data-role="source-input"]'), 'I am cold.');
    await page.close();
    // A refused a= (the default model instead, and a message), simd=0, and hostile text.
    const bad = await browser.newPage();
    const dialogs = [];
    bad.on('dialog', (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    const hostile = '<img src=x onerror=alert(1)> "quoted" <b>bold</b>';
    await bad.goto(`${browser.url}compare.html?a=${encodeURIComponent('https://example.com/x.safetensors')}&b=${NAMES.b}` +
      `&simd=0&text=${encodeURIComponent(hostile)}`);
    await settled(bad);
    assert.match(await bad.textContent('[data-role="error"]'), /a= or b= parameter/);
    assert.equal(await bad.getAttribute('[data-role="status"]', 'data-variant'), 'wasm-scalar');
    assert.equal(await bad.inputValue('[data-role="source-input"]'), hostile);
    assert.equal(await bad.$$eval('img, b', (x) => x.length), 0, 'the text stays text');
    if (NAMES.a === 'en-fr') { // the default a= falls back to
      assert.equal((await readSide(bad, 'a')).rows.length, ref.a.translate(hostile).attention.length);
    }
    assert.deepEqual(dialogs, []);
    assertNoProblems(bad);
    await bad.close();
  });

  test('a refused sentence: its error, nothing claimed as measured, and the next one clears it', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}compare.html?a=${NAMES.a}&b=${NAMES.b}&text=${encodeURIComponent('cat '.repeat(160))}`);
    await settled(page);
    assert.match(await page.textContent('[data-role="error"]'), /at most \d+/);
    for (const side of ['a', 'b']) {
      const s = await readSide(page, side);
      assert.equal(s.cost.value, null);
      assert.match(s.cost.text, /not measured/);
    }
    assert.match(await page.textContent('[data-role="self-attention"]'), /Not computed: the engine refused/);
    await page.fill('[data-role="source-input"]', 'I am cold.');
    await page.press('[data-role="source-input"]', 'Enter');
    await page.waitForSelector('[data-role="app"][data-analysis="pending"]').catch(() => {});
    await settled(page);
    assert.equal(await page.isVisible('[data-role="error"]'), false);
    for (const side of ['a', 'b']) assert.ok((await readSide(page, side)).cost.value > 0);
    assertNoProblems(page);
    await page.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    for (const [name, viewport] of [['wide', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]]) {
      test(`screenshot: ${name}, ${colorScheme}`, T, async () => {
        const page = await open('&step=2', { viewport, colorScheme });
        await settled(page);
        await page.waitForFunction(() => document.getAnimations().length === 0);
        await page.screenshot({ path: artifact(`compare-${name}-${colorScheme}.png`), fullPage: true });
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(scrollWidth <= viewport.width, `the page is ${scrollWidth} px wide in a ${viewport.width} px window`);
        assertNoProblems(page);
        await page.close();
      });
    }
  }
});
