// why.html in real Chromium: scripts/eval's numbers drawn as the chart, one long sentence
// decoded side by side by a model without attention (its fixed context c as a strip) and one
// with it (its matrix), and the live experiment, whose BLEU per band must be what Node computes
// with web/lib/bleu.js on the same translations. Models: the shipped en-fr-noattn and en-fr.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { interleave } from '../../web/app/bleu-experiment.js';
import { corpusBleu } from '../../web/lib/bleu.js';
import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, artifact, axeViolations, launch } from './helpers.mjs';

const T = { timeout: 240_000 };
const FILES = { a: 'models/en-fr-noattn.safetensors', b: 'models/en-fr.safetensors' };
const json = (file) => JSON.parse(readFileSync(path.join(ROOT, 'web', 'data', file), 'utf8'));

let browser;
const ref = {}; // side -> Node translator of the page's model
let bleuData;
let sample;
let item; // the default sentence: the first of band 31-40
const expected = {}; // side -> translate(item.en)

before(async () => {
  for (const [side, file] of Object.entries(FILES)) {
    if (!existsSync(path.join(ROOT, file))) throw new Error(`the why.html tests need ${file}, which is missing`);
    ref[side] = await createTranslator({ model: path.join(ROOT, file) });
  }
  bleuData = json('bleu-by-length.json');
  sample = json('long-sample.json');
  item = sample.items.find((it) => it.bucket === '31-40');
  for (const side of ['a', 'b']) expected[side] = ref[side].translate(item.en);
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  for (const t of Object.values(ref)) t.dispose();
  await browser?.close();
});

async function open(query = '', options) {
  const page = await browser.newPage(options);
  await page.goto(`${browser.url}why.html${query}`);
  await page.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
  return page;
}

// Decoded, and playback at its end (skipped there: the tests that need it play it out).
async function atEnd(page) {
  await page.waitForSelector('[data-role="bottleneck"][data-finished="true"]', { timeout: 60_000 });
  await page.click('[data-role="bottleneck"] [data-role="last"]');
  await page.waitForFunction(() => document.getAnimations().length === 0);
}

function readSide(page, side) {
  return page.$eval(`[data-role="bottleneck"] [data-side="${side}"]`, (el) => ({
    scoring: el.dataset.scoring,
    rows: [...el.querySelectorAll('[data-role="matrix"] > [data-row]')].map((r) => ({
      word: r.querySelector('[role="rowheader"]').textContent,
      weights: [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
    })),
    output: el.querySelector('[data-role="output"]').textContent,
    strip: el.querySelector('[data-role="c-strip"]')?.closest('[hidden]') ? null : el.querySelector('[data-role="c-strip"]') && {
      size: Number(el.querySelector('[data-role="c-strip"]').dataset.size),
      reads: Number(el.querySelector('[data-role="c-strip"]').dataset.reads),
      same: el.querySelector('[data-role="c-strip"]').dataset.same,
      values: [...el.querySelectorAll('[data-k]')].map((c) => Number(c.dataset.value)),
      reuse: el.querySelector('[data-role="c-reuse"]').textContent,
    },
  }));
}

const assertNoProblems = (page) => assert.deepEqual(page.problems, [], 'console errors, page errors or outside requests');

// Every c a Node decoder sends for the sentence.
async function nodeContexts(tr, text) {
  const cs = [];
  for await (const step of tr.steps(text)) cs.push(step.c);
  return cs;
}

describe('why.html', { timeout: 1_200_000 }, () => {
  test('the chart is scripts/eval\'s numbers; the long sentence decodes side by side, c strip against matrix', T, async () => {
    const page = await browser.newPage();
    // Both sides' rows and the strip's reads at every move of the player, from the first one.
    await page.addInitScript(() => {
      window.__log = [];
      new MutationObserver(() => {
        const root = document.querySelector('[data-role="bottleneck"]');
        if (!root) return;
        const side = (s) => root.querySelector(`[data-side="${s}"]`);
        const entry = { p: Number(root.dataset.position), a: Number(side('a').dataset.rows), b: Number(side('b').dataset.rows),
          reads: Number(side('a').querySelector('[data-role="c-strip"]').dataset.reads) };
        const last = window.__log.at(-1);
        if (!last || ['p', 'a', 'b', 'reads'].some((k) => last[k] !== entry[k])) window.__log.push(entry);
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-position', 'data-rows', 'data-reads'] });
    });
    await page.goto(`${browser.url}why.html`);
    await page.waitForSelector('[data-role="bottleneck"][data-finished="true"][data-playing="false"]', { timeout: 180_000 });
    // The chart: one point per model and band, each the JSON's number, and the same in the table.
    const points = await page.$$eval('[data-role="chart"] .bl-bleu-point', (els) => els.map((e) => ({
      model: e.dataset.model, bucket: e.dataset.bucket, bleu: Number(e.dataset.bleu), series: e.dataset.series })));
    const cells = await page.$$eval('[data-role="chart"] [data-role="bleu-table"] td', (els) => els.map((e) => ({
      model: e.dataset.model, bucket: e.dataset.bucket, bleu: Number(e.dataset.bleu), text: e.textContent })));
    const want = bleuData.models.flatMap((m) => bleuData.buckets.map((b) => ({ model: m.model, bucket: b, bleu: m.bleu[b] })));
    assert.deepEqual(points.map(({ model, bucket, bleu }) => ({ model, bucket, bleu })), want);
    assert.ok(points.every((p) => p.series === 'published'));
    const byRow = bleuData.buckets.flatMap((b) => bleuData.models.map((m) => ({ model: m.model, bucket: b, bleu: m.bleu[b] })));
    assert.deepEqual(cells.map(({ model, bucket, bleu }) => ({ model, bucket, bleu })), byRow, 'the table: a row per band');
    for (const c of cells) assert.ok(c.text.startsWith(c.bleu.toFixed(2)), c.text);
    const desc = await page.textContent('[data-role="chart"] svg desc');
    for (const m of bleuData.models) assert.ok(desc.includes(`${m.bleu['51-60'].toFixed(1)}`), `the description lists ${m.model}`);
    assert.equal(await page.textContent('[data-role="chart-command"]'), bleuData.command);
    // The default sentence, its reference and the sample's attribution.
    assert.equal(await page.inputValue('[data-role="source-input"]'), item.en);
    const words = item.en.split(/\s+/).length;
    assert.ok(words >= 30 && words <= 50, `a sentence of ${words} words`);
    assert.match(await page.textContent('[data-role="reference"]'), new RegExp(item.fr.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal(await page.textContent('[data-role="attribution"]'), sample.attribution);
    assert.ok(await page.isVisible('[data-role="sample-attribution"]'));
    // Side by side: each model's translate() output; the attention model's rows; no matrix,
    // but c, on the other side.
    const a = await readSide(page, 'a');
    const b = await readSide(page, 'b');
    assert.equal(a.scoring, 'none');
    assert.equal(b.scoring, 'additive');
    assert.equal(a.output, expected.a.text);
    assert.equal(b.output, expected.b.text);
    assert.equal(b.rows.length, expected.b.attention.length);
    b.rows.forEach((r, i) => assert.deepEqual(r.weights, expected.b.attention[i], `row ${i}`));
    assert.equal(await page.$$eval('[data-side="a"] [data-role="matrix"]', (els) => els.filter((e) => e.getClientRects().length).length), 0);
    const info = ref.a.info();
    const cs = await nodeContexts(ref.a, item.en);
    assert.equal(a.strip.size, 2 * info.encHidden, 'c = [→h_T; ←h_1] has 2H numbers');
    assert.equal(a.strip.values.length, 2 * info.encHidden, 'one cell each');
    for (const [i, c] of cs.entries()) assert.deepEqual(c, cs[0], `step ${i} reads the same c`);
    assert.deepEqual(a.strip.values, cs[0], 'the strip is the engine\'s c');
    assert.equal(a.strip.same, 'true');
    assert.equal(a.strip.reads, cs.length, 'every step read it');
    assert.match(a.strip.reuse, /The same vector for every word/);
    // Rows and reads grew with the player: side a reads c once per step, side b gains a row.
    const log = (await page.evaluate(() => window.__log)).filter((e) => e.p >= 0);
    assert.ok(log.length > 5, 'the figure moved word by word');
    for (const e of log) {
      assert.equal(e.b, Math.min(e.p + 1, expected.b.attention.length), `attention rows at step ${e.p}`);
      assert.equal(e.reads, Math.min(e.p + 1, cs.length), `reads at step ${e.p}`);
    }
    // The page decodes in two module workers, not on its main thread.
    assert.deepEqual(page.workers().map((w) => new URL(w.url()).pathname), ['/engine/worker.js', '/engine/worker.js']);
    assertNoProblems(page);
    await page.close();
  });

  test('the experiment, keyboard only: progress as it fills, then BLEU per band equal to Node\'s on the same translations', T, async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      window.__run = [];
      new MutationObserver(() => {
        const text = document.querySelector('[data-role="run-text"]')?.textContent;
        const legend = document.querySelector('[data-role="run-chart"] .bl-bleu-legend')?.textContent ?? '';
        const last = window.__run.at(-1);
        if (text && (!last || last.text !== text)) window.__run.push({ text, legend, t: performance.now() });
      }).observe(document, { subtree: true, childList: true, characterData: true });
      // The lineage strip never comes into view here: its own workers (which time
      // translateBatch() on one sentence) stay out of the counts below and off the machine
      // while the run's wall time, the one the page states, is measured.
      window.IntersectionObserver = class { observe() {} disconnect() {} };
      // What the page asks of its workers: the run must decode in translateBatch() chunks.
      window.__sent = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (m, ...rest) {
        window.__sent.push({ type: m?.type, texts: m?.texts?.length ?? 0 });
        return post.call(this, m, ...rest);
      };
    });
    await page.goto(`${browser.url}why.html`);
    await page.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
    await page.waitForSelector('[data-role="run"]:not([disabled])');
    await page.evaluate(() => window.__sent.splice(0)); // the side-by-side's translations
    // Tab from the top of the page to the button, and press Enter.
    await page.evaluate(() => document.activeElement?.blur());
    let found = false;
    for (let i = 0; i < 80 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.dataset.role === 'run');
    }
    assert.ok(found, 'Tab reaches the Run button');
    assert.equal(await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), 'solid', 'visible focus');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-role="run-card"][data-run="running"]');
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.role), 'cancel', 'focus moves to Cancel');
    await page.waitForSelector('[data-role="run-card"]:is([data-run="done"], [data-run="failed"])', { timeout: 200_000 });
    const n = sample.items.length;
    const card = await page.$eval('[data-role="run-card"]', (el) => ({ ...el.dataset }));
    assert.equal(card.run, 'done', await page.textContent('[data-role="run-result"]'));
    assert.equal(Number(card.done), n);
    const result = await page.textContent('[data-role="run-result"]');
    assert.match(result, new RegExp(`^${n} sentences × 2 models in \\d+\\.\\d s in this browser\\.$`));
    console.log(`# why.html experiment: ${n} sentences (${sample.per_bucket} per band) × 2 models in ${(Number(card.ms) / 1000).toFixed(2)} s`);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.role), 'run', 'focus returns to Run');
    assert.equal(await page.isVisible('[data-role="cancel"]'), false);
    // It said how far it was and how long was left, and redrew the curves as they filled.
    const run = await page.evaluate(() => window.__run);
    assert.ok(run.some((r) => new RegExp(`^\\d+ / ${n} sentences · about \\d+ s left$`).test(r.text)), JSON.stringify(run.slice(0, 5)));
    assert.ok(run.some((r) => /measured in your browser on \d+ sentences \(partial\)/.test(r.legend)), 'a partial curve on the way');
    assert.equal(await page.$eval('[data-role="run-bar"]', (el) => el.value), n);
    // Both workers got the whole sample in chunks of translateBatch(), and no translate().
    const sent = await page.evaluate(() => window.__sent);
    const batches = sent.filter((m) => m.type === 'batch');
    assert.deepEqual(sent.filter((m) => m.type === 'translate'), []);
    assert.equal(batches.reduce((k, m) => k + m.texts, 0), 2 * n);
    assert.ok(batches.length < n && batches.every((m) => m.texts <= sample.buckets.length), JSON.stringify(batches.slice(0, 3)));
    // The page's translations are the JS API's, and its BLEU is web/lib/bleu.js on them.
    const order = interleave(sample.items, sample.buckets);
    const shown = await page.$$eval('[data-role="run-output-list"] > li', (lis) => lis.map((li) => ({
      bucket: li.dataset.bucket,
      a: li.querySelector('[data-side="a"] [data-role="run-output"]').textContent,
      b: li.querySelector('[data-side="b"] [data-role="run-output"]').textContent,
    })));
    assert.equal(shown.length, n);
    const tok = (t) => ref.b.tokenize(t, { side: 'target' });
    const points = await page.$$eval('[data-role="run-chart"] .bl-bleu-point[data-series="run"]', (els) =>
      els.map((e) => ({ model: e.dataset.model, bucket: e.dataset.bucket, bleu: Number(e.dataset.bleu) })));
    for (const [side, model] of [['a', 'en-fr-noattn'], ['b', 'en-fr']]) {
      const outs = order.map((it) => ref[side].translate(it.en).text);
      assert.deepEqual(shown.map((s) => s[side]), outs, `${model}: the worker's batched translations are translate()'s`);
      for (const bucket of sample.buckets) {
        const ks = order.map((it, k) => (it.bucket === bucket ? k : -1)).filter((k) => k >= 0);
        const bleu = 100 * corpusBleu(ks.map((k) => tok(outs[k])), ks.map((k) => [tok(order[k].fr)]));
        const point = points.find((p) => p.model === model && p.bucket === bucket);
        // The same code on the same tokens; Chromium's and Node's Math.log may differ in the last bit.
        assert.ok(Math.abs(point.bleu - bleu) <= 1e-12 * Math.abs(bleu), `${model} ${bucket}: ${point.bleu} against ${bleu}`);
      }
    }
    assertNoProblems(page);
    await page.close();
  });

  test('cancel: the run stops, the UI is idle again and says so, the partial curves stay', T, async () => {
    // Five copies of the sample, so that there is time to cancel on any machine.
    const big = { ...sample, items: Array.from({ length: 5 }, () => sample.items).flat() };
    const page = await browser.newPage();
    await page.route('**/data/long-sample.json', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(big) }));
    await page.goto(`${browser.url}why.html`);
    await page.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
    await page.click('[data-role="run"]');
    assert.equal(await page.isDisabled('[data-role="run"]'), true);
    assert.equal(await page.isDisabled('[data-role="go"]'), true, 'no other sentence while the workers are busy');
    await page.waitForFunction(() => Number(document.querySelector('[data-role="run-bar"]').value) >= 8, null, { timeout: 60_000 });
    await page.click('[data-role="cancel"]');
    await page.waitForSelector('[data-role="run-card"][data-run="cancelled"]', { timeout: 30_000 });
    const done = Number(await page.getAttribute('[data-role="run-card"]', 'data-done'));
    assert.ok(done >= 8 && done < big.items.length, `${done} done`);
    assert.equal(await page.textContent('[data-role="run-result"]'),
      `Cancelled after ${done} of ${big.items.length} sentences: the bold lines show those ${done} (partial).`);
    assert.equal(await page.isDisabled('[data-role="run"]'), false);
    assert.equal(await page.isVisible('[data-role="cancel"]'), false);
    assert.equal(await page.isDisabled('[data-role="go"]'), false);
    assert.match(await page.textContent('[data-role="run-chart"] .bl-bleu-legend'), new RegExp(`on ${done} sentences \\(partial\\)`));
    // Interleaved bands: after 8 sentences every band has a point.
    const bands = await page.$$eval('[data-role="run-chart"] .bl-bleu-point[data-series="run"][data-model="en-fr"]', (els) => els.map((e) => e.dataset.bucket));
    assert.deepEqual(bands, sample.buckets);
    assert.equal((await page.$$('[data-role="run-output-list"] > li')).length, done);
    // The workers are free again: another sentence decodes.
    await page.fill('[data-role="source-input"]', 'I am cold.');
    await page.press('[data-role="source-input"]', 'Enter');
    const text = ref.b.translate('I am cold.').text;
    await page.waitForFunction((text) => document.querySelector('[data-side="b"] [data-role="output"]').textContent === text, text);
    assert.equal(await page.isVisible('[data-role="reference"]'), false, 'no reference for a typed sentence');
    assertNoProblems(page);
    await page.close();
  });

  test('Chinese captions: every caption changes, and back', T, async () => {
    const page = await open();
    await atEnd(page);
    // The page's own words (not the sentences, the model names, the command or the data's
    // attribution, which stay as they are).
    const captions = () => page.evaluate(() => {
      const keep = /en-fr-transformer|en-fr-noattn|en-fr-dot|en-fr|Enter|BLEU|RNNencdec|RNN|Transformer|Vaswani|Tatoeba|Web Worker|WebAssembly|Chromium|scripts\/eval|Bahdanau|Cho|Bengio|tatoeba\.org|CC-BY 2\.0 FR|c\[\d+\]|h_T|h_1|NLTK/g;
      const text = (el) => {
        const copy = el.cloneNode(true);
        for (const x of copy.querySelectorAll('[data-role="attribution"], [data-role="chart-command"], [data-role="lineage-train-note"] code, [lang="fr"]')) x.remove();
        return copy.textContent.replace(keep, '').trim();
      };
      const els = [...document.querySelectorAll('h1, h2, h3, .tagline, .why-intro, .why-text p, .hint, label, button, summary, ' +
        '.bl-bleu-legend li, .bl-bleu-axis, .bl-cstrip-title, .bl-cstrip-halves span, .bl-cstrip-reuse, .bl-cstrip-scale-text, ' +
        '.bl-bn-reference strong, .bl-cmp-position, .why-caption [data-role="chart-caption"], [data-i18n]')]
        .filter((el) => el.getClientRects().length && !el.closest('[data-role="attribution"], [data-role="chart-command"], [data-role="sample-attribution"]'));
      return { lang: document.documentElement.lang, texts: els.map(text).filter(Boolean) };
    });
    const en = await captions();
    assert.ok(en.texts.some((t) => /Why attention\?/.test(t)));
    await page.click('[data-role="lang"]');
    const zh = await captions();
    assert.equal(zh.lang, 'zh-Hans');
    const english = zh.texts.filter((t) => /[A-Za-z]{3,}/.test(t.replace(/English/, '')));
    assert.deepEqual(english, [], 'no English left');
    assert.match(await page.textContent('h1'), /为什么需要注意力/);
    assert.match(await page.textContent('[data-role="c-reuse"]'), /同一个向量/);
    assert.equal(await page.getAttribute('[data-role="play"]', 'aria-label'), '播放');
    assert.equal(new URL(await page.getAttribute('[data-role="back"]', 'href'), browser.url).searchParams.get('lang'), 'zh');
    await page.click('[data-role="lang"]');
    assert.deepEqual(await captions(), en, 'and back');
    assertNoProblems(page);
    await page.close();
    const direct = await open('?lang=zh');
    assert.match(await direct.textContent('h2'), /问题所在/);
    assertNoProblems(direct);
    await direct.close();
  });

  for (const colorScheme of ['light', 'dark']) {
    for (const [name, viewport] of [['wide', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]]) {
      test(`screenshot and axe: ${name}, ${colorScheme}`, T, async () => {
        const page = await open('', { viewport, colorScheme });
        await atEnd(page);
        await page.screenshot({ path: artifact(`why-${name}-${colorScheme}.png`), fullPage: true });
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(scrollWidth <= viewport.width, `the page is ${scrollWidth} px wide in a ${viewport.width} px window`);
        if (name === 'phone') {
          const [a, b] = await Promise.all(['a', 'b'].map((s) => page.$eval(`[data-role="bottleneck"] [data-side="${s}"]`, (el) => el.getBoundingClientRect().toJSON())));
          assert.ok(b.top >= a.bottom, 'the two sides stack');
        }
        assert.deepEqual(await axeViolations(page), [], `${colorScheme}, English`);
        await page.click('[data-role="lang"]');
        await page.waitForFunction(() => document.getAnimations().length === 0);
        assert.deepEqual(await axeViolations(page), [], `${colorScheme}, Chinese`);
        assertNoProblems(page);
        await page.close();
      });
    }
  }

  test('the c strip reads out by keyboard; links to and from the page; hostile text and a bad a=', T, async () => {
    const page = await open('?a=tiny-none&b=tiny&text=the%20cat');
    await atEnd(page);
    const c = ref.tiny ??= await createTranslator({ model: path.join(ROOT, 'tests/fixtures/tiny-none-f32.safetensors') });
    const cs = await nodeContexts(c, 'the cat');
    await page.focus('[data-role="c-strip"] [role="slider"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const slider = await page.$eval('[data-role="c-strip"] [role="slider"]', (el) => ({
      now: el.getAttribute('aria-valuenow'), text: el.getAttribute('aria-valuetext'), max: el.getAttribute('aria-valuemax') }));
    assert.deepEqual(slider, { now: '2', text: `c[2] = ${cs[0][2].toFixed(4)}`, max: String(cs[0].length - 1) });
    await page.keyboard.press('End');
    assert.equal(await page.getAttribute('[data-role="c-strip"] [role="slider"]', 'aria-valuenow'), String(cs[0].length - 1));
    const before = await page.$eval('[data-role="bottleneck"]', (el) => el.dataset.position);
    await page.keyboard.press('ArrowLeft'); // the strip's, not the player's
    assert.equal(await page.$eval('[data-role="bottleneck"]', (el) => el.dataset.position), before);
    await page.close();
    // The main page and the comparison page link here, keeping the language.
    const index = await browser.newPage();
    await index.goto(`${browser.url}?model=tiny&lang=zh`);
    await index.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
    const link = await index.$eval('[data-role="why-link"]', (a) => ({ href: a.href, text: a.textContent }));
    assert.equal(new URL(link.href).pathname, '/why.html');
    assert.equal(new URL(link.href).searchParams.get('lang'), 'zh');
    assert.match(link.text, /为什么需要注意力/);
    await index.close();
    const compare = await browser.newPage();
    await compare.goto(`${browser.url}compare.html?a=tiny&b=tiny-dot`);
    assert.equal(new URL(await compare.$eval('[data-role="why-link"]', (a) => a.href)).pathname, '/why.html');
    await compare.close();
    // Hostile text stays text; a refused a= says so and falls back to the default.
    const bad = await browser.newPage();
    const dialogs = [];
    bad.on('dialog', (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    const hostile = '<img src=x onerror=alert(1)> "quoted" <b>bold</b>';
    await bad.goto(`${browser.url}why.html?a=${encodeURIComponent('https://example.com/x.safetensors')}&b=tiny&text=${encodeURIComponent(hostile)}`);
    await bad.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
    assert.match(await bad.textContent('[data-role="error"]'), /a= or b= parameter/);
    assert.equal(await bad.inputValue('[data-role="source-input"]'), hostile);
    assert.equal(await bad.$$eval('main img, main b', (x) => x.length), 0, 'the text stays text');
    assert.equal(await bad.getAttribute('[data-side="a"]', 'data-scoring'), 'none', 'the default model without attention');
    assert.deepEqual(dialogs, []);
    assertNoProblems(bad);
    await bad.close();
  });
});
