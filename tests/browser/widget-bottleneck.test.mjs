// <attention-translator mode="bottleneck"> in real Chromium: why.html's side-by-side figure in
// the widget's shadow root, on a page of another origin (tests/browser/pages/bottleneck.html):
// the model without attention's fixed c as a strip, the attention model's matrix, both each
// model's own numbers; hostile attribute values; the iframe route.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, artifact, axeViolations, launch } from './helpers.mjs';

const T = { timeout: 180_000 };
const FILES = {
  'en-fr-noattn': 'models/en-fr-noattn.safetensors',
  'en-fr': 'models/en-fr.safetensors',
  'tiny-none': 'tests/fixtures/tiny-none-f32.safetensors',
  tiny: 'tests/fixtures/tiny-additive-f32.safetensors',
  'tiny-dot': 'tests/fixtures/tiny-scaled_dot-f32.safetensors',
};
const SENTENCE = 'I have a black cat and a small dog, and they sleep in the kitchen every night.'; // bottleneck.html's

let browser;
const ref = {};

before(async () => {
  for (const [name, file] of Object.entries(FILES)) {
    if (!existsSync(path.join(ROOT, file))) throw new Error(`the widget's bottleneck tests need ${file}, which is missing`);
    ref[name] = await createTranslator({ model: path.join(ROOT, file) });
  }
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  for (const t of Object.values(ref)) t.dispose();
  await browser?.close();
});

function settled(page, id) {
  return page.waitForFunction((id) => {
    const el = id ? document.getElementById(id) : document.querySelector('attention-translator');
    return el && (el.state === 'done' || el.state === 'error') &&
      el.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false';
  }, id, { timeout: 150_000 });
}

function read(page, selector) {
  return page.$eval(selector, (el) => {
    const r = el.shadowRoot;
    const shown = (x) => Boolean(x && x.getClientRects().length);
    const side = (s) => {
      const x = r.querySelector(`[data-role="bottleneck"] [data-side="${s}"]`);
      if (!x) return null; // the mode was never shown
      const strip = x.querySelector('[data-role="c-strip"]');
      return {
        scoring: x.dataset.scoring,
        output: x.querySelector('[data-role="output"]').textContent,
        rows: [...x.querySelectorAll('[data-role="matrix"] > [data-row]')].map((row) => ({
          word: row.querySelector('[role="rowheader"]').textContent,
          weights: [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
        })),
        matrixShown: shown(x.querySelector('[data-role="matrix"]')),
        stripShown: shown(strip),
        strip: { size: Number(strip.dataset.size), reads: Number(strip.dataset.reads), same: strip.dataset.same,
          values: [...strip.querySelectorAll('[data-k]')].map((c) => Number(c.dataset.value)) },
      };
    };
    return {
      state: el.state,
      error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
      bottleneckShown: shown(r.querySelector('[data-role="bottleneck"]')),
      compareShown: shown(r.querySelector('[data-role="compare"]')),
      figureShown: shown(r.querySelector('[data-role="figure"]')),
      single: [...r.querySelectorAll('[data-role="figure"] [data-role="matrix"] > [data-row]')].length,
      a: side('a'),
      b: side('b'),
      imgs: r.querySelectorAll('img, [onerror]').length,
      position: Number(r.querySelector('[data-role="widget"]').dataset.position),
    };
  });
}

// Every c the Node decoder sends for text.
async function contexts(tr, text) {
  const cs = [];
  for await (const step of tr.steps(text)) cs.push(step.c);
  return cs;
}

// The figure's claims against the JS API: a's strip is its one c, b's rows its attention.
async function assertFigure(w, names, text) {
  const [a, b] = [ref[names.a].translate(text), ref[names.b].translate(text)];
  assert.equal(w.state, 'done', w.error);
  assert.ok(w.bottleneckShown && !w.figureShown && !w.compareShown, 'the bottleneck figure replaces the others');
  assert.equal(w.a.scoring, 'none');
  assert.ok(w.a.stripShown && !w.a.matrixShown, 'no matrix without attention: the strip');
  assert.ok(w.b.matrixShown && !w.b.stripShown);
  assert.equal(w.a.output, a.text);
  assert.equal(w.b.output, b.text);
  assert.equal(w.b.rows.length, b.attention.length);
  w.b.rows.forEach((r, i) => assert.deepEqual(r.weights, b.attention[i], `row ${i}`));
  const cs = await contexts(ref[names.a], text);
  assert.equal(w.a.strip.size, 2 * ref[names.a].info().encHidden);
  assert.deepEqual(w.a.strip.values, cs[0]);
  assert.ok(cs.every((c) => c.every((v, k) => v === cs[0][k])), 'the same c at every step');
  assert.equal(w.a.strip.same, 'true');
  assert.equal(w.a.strip.reads, cs.length);
  return { a, b };
}

describe('the widget\'s bottleneck mode', { timeout: 900_000 }, () => {
  test('on a page of another origin: the fixed c strip beside the growing matrix, each the model\'s own', T, async () => {
    const page = await browser.newPage();
    const other = browser.url.replace('127.0.0.1', 'localhost'); // another origin, same server
    await page.route(`${other}**`, (route) => route.continue());
    const origins = new Set();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    // The element's events do not bubble: listen in the capture phase, from before it exists.
    await page.addInitScript(() => {
      window.__events = [];
      for (const name of ['ready', 'step', 'done', 'error']) {
        window.addEventListener(name, (e) => e.target.localName === 'attention-translator' &&
          window.__events.push({ name, detail: e.detail }), true);
      }
    });
    await page.goto(`${other}test-pages/bottleneck.html`);
    await settled(page);
    const w = await read(page, '#w');
    const { a, b } = await assertFigure(w, { a: 'en-fr-noattn', b: 'en-fr' }, SENTENCE);
    assert.equal(origins.size, 2, [...origins].join(' '));
    const events = await page.evaluate(() => window.__events);
    assert.deepEqual(Object.keys(events.find((e) => e.name === 'ready').detail.info), ['a', 'b']);
    assert.equal(events.find((e) => e.name === 'ready').detail.info.a.scoring, 'none');
    assert.deepEqual(events.find((e) => e.name === 'done').detail.text, { a: a.text, b: b.text });
    const step = events.filter((e) => e.name === 'step').at(-1).detail;
    assert.deepEqual(step.a === null ? [] : step.a.weights, [], 'no attention weights without attention');
    // The keyboard moves both sides; the strip counts the words that read c.
    await page.focus('#w >> [data-role="bottleneck"] [data-role="first"]');
    await page.keyboard.press('Enter');
    await page.focus('#w >> [data-role="bottleneck"] [data-role="step-forward"]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    const at2 = await read(page, '#w');
    assert.equal(at2.position, 2);
    assert.equal(at2.b.rows.length, Math.min(3, b.attention.length));
    assert.equal(at2.a.strip.reads, 3);
    await page.waitForTimeout(700); // the strip's flash and the rows' fade-in
    await page.screenshot({ path: artifact('widget-bottleneck.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
  });

  test('hostile or unknown values: the single figure, an error in words, text as text; switching modes', T, async () => {
    const page = await browser.newPage();
    page.dialogs = [];
    page.on('dialog', (d) => {
      page.dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    await page.goto(`${browser.url}test-pages/compare.html`);
    await page.waitForFunction(() => customElements.get('attention-translator'));
    const modes = ['BOTTLENECK', 'bottleneck ', '"><img src=x onerror=alert(1)>', '__proto__', 'toString'];
    await page.evaluate((modes) => modes.forEach((mode, k) => {
      const el = document.createElement('attention-translator');
      Object.entries({ id: `h${k}`, mode, model: 'tiny', 'model-a': 'tiny-none', 'model-b': 'tiny', text: 'the cat' })
        .forEach(([name, v]) => el.setAttribute(name, v));
      document.getElementById('host').append(el);
    }), modes);
    for (const k of modes.keys()) {
      await settled(page, `h${k}`);
      const w = await read(page, `#h${k}`);
      assert.equal(w.state, 'done', `mode ${JSON.stringify(modes[k])}: ${w.error}`);
      assert.ok(w.figureShown && !w.bottleneckShown, `mode ${JSON.stringify(modes[k])} keeps the single figure`);
      assert.equal(w.single, ref.tiny.translate('the cat').attention.length);
    }
    // One to bottleneck (tiny models: nothing big downloaded), with hostile text.
    const hostile = '<img src=x onerror=alert(1)> <b>the cat</b>';
    await page.$eval('#h0', (el, text) => {
      el.setAttribute('text', text);
      el.setAttribute('mode', 'bottleneck');
    }, hostile);
    await page.waitForFunction(() => document.getElementById('h0').shadowRoot.querySelector('[data-role="bottleneck"]')?.getClientRects().length > 0);
    await settled(page, 'h0');
    let w = await read(page, '#h0');
    await assertFigure(w, { a: 'tiny-none', b: 'tiny' }, hostile);
    assert.equal(w.imgs, 0, 'the text stays text');
    // To compare and back to bottleneck, then the single figure.
    await page.$eval('#h0', (el) => {
      el.setAttribute('text', 'the cat');
      el.setAttribute('model-a', 'tiny');
      el.setAttribute('model-b', 'tiny-dot');
      el.setAttribute('mode', 'compare');
    });
    await page.waitForFunction(() => document.getElementById('h0').shadowRoot.querySelector('[data-role="compare"]')?.getClientRects().length > 0);
    await settled(page, 'h0');
    w = await read(page, '#h0');
    assert.ok(w.compareShown && !w.bottleneckShown);
    await page.$eval('#h0', (el) => {
      el.setAttribute('model-a', 'tiny-none');
      el.setAttribute('model-b', 'tiny');
      el.setAttribute('mode', 'bottleneck');
    });
    await page.waitForFunction(() => document.getElementById('h0').shadowRoot.querySelector('[data-role="bottleneck"]')?.getClientRects().length > 0);
    await settled(page, 'h0');
    await assertFigure(await read(page, '#h0'), { a: 'tiny-none', b: 'tiny' }, 'the cat');
    await page.$eval('#h0', (el) => el.setAttribute('mode', 'single'));
    await page.waitForFunction(() => document.getElementById('h0').shadowRoot.querySelector('[data-role="figure"]').getClientRects().length > 0);
    await settled(page, 'h0');
    assert.ok((await read(page, '#h0')).figureShown);
    // A bad model-a is refused in words; a model with attention as model-a draws its matrix.
    await page.$eval('#h1', (el) => {
      el.setAttribute('model-a', 'javascript:alert(1)');
      el.setAttribute('mode', 'bottleneck');
    });
    await page.waitForFunction(() => document.getElementById('h1').state === 'error');
    assert.match((await read(page, '#h1')).error, /known model name or an http\(s\) URL/);
    await page.$eval('#h2', (el) => {
      el.setAttribute('model-a', 'tiny-dot');
      el.setAttribute('mode', 'bottleneck');
    });
    await page.waitForFunction(() => document.getElementById('h2').shadowRoot.querySelector('[data-role="bottleneck"]')?.getClientRects().length > 0);
    await settled(page, 'h2');
    w = await read(page, '#h2');
    assert.ok(w.a.matrixShown && !w.a.stripShown, 'a model with attention keeps its matrix');
    assert.equal(w.a.rows.length, ref['tiny-dot'].translate('the cat').attention.length);
    // Chinese captions inside the figure.
    await page.$eval('#h2', (el) => el.setAttribute('lang', 'zh'));
    assert.match(await page.$eval('#h2', (el) => el.shadowRoot.querySelector('[data-role="bottleneck"] [data-side="b"] h3').textContent), /加性注意力/);
    await page.waitForTimeout(300);
    assert.deepEqual(page.dialogs, []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the iframe route passes mode=bottleneck and both models through (embed.html)', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}embed.html?mode=bottleneck&model-a=tiny-none&model-b=tiny&text=the%20cat&controls=full&lang=zh`);
    await settled(page, null);
    const w = await read(page, 'attention-translator');
    await assertFigure(w, { a: 'tiny-none', b: 'tiny' }, 'the cat');
    assert.match(await page.$eval('attention-translator', (el) => el.shadowRoot.querySelector('[data-role="c-reuse"]').textContent), /同一个向量/);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
