// <attention-translator mode="compare"> in real Chromium: the comparison view inside the
// widget's shadow root, two shared main-thread translators stepped in lockstep. Models as in
// compare.test.mjs: en-fr and en-fr-dot, or BL_COMPARE_A / BL_COMPARE_B (tiny, tiny-dot).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { COMPARE_FILES as FILES, COMPARE_NAMES as NAMES, ROOT, artifact, launch } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 180_000 };

let browser;
const ref = {};

before(async () => {
  for (const name of new Set([...Object.values(NAMES), 'tiny', 'tiny-dot'])) {
    const file = path.join(ROOT, FILES[name] ?? '');
    if (!FILES[name] || !existsSync(file)) throw new Error(`the widget's compare tests need ${FILES[name] ?? name}, which is missing`);
    ref[name] = await createTranslator({ model: file });
  }
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  for (const t of Object.values(ref)) t.dispose();
  await browser?.close();
});

// A host page with the given widgets, each {id, ...attributes}, set with setAttribute.
async function host(widgets) {
  const page = await browser.newPage();
  page.dialogs = [];
  page.on('dialog', (d) => {
    page.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.goto(`${browser.url}test-pages/compare.html`);
  await page.waitForFunction(() => customElements.get('attention-translator'));
  await page.evaluate((widgets) => {
    window.__events = [];
    for (const attrs of widgets) {
      const el = document.createElement('attention-translator');
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      for (const name of ['ready', 'step', 'done', 'error']) {
        el.addEventListener(name, (e) => window.__events.push({ id: el.id, name, detail: e.detail }));
      }
      document.getElementById('host').append(el);
    }
  }, widgets);
  return page;
}

function settled(page, id) {
  return page.waitForFunction((id) => {
    const el = document.getElementById(id);
    return (el.state === 'done' || el.state === 'error') &&
      el.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false';
  }, id, { timeout: 120_000 });
}

function read(page, id) {
  return page.$eval(`#${id}`, (el) => {
    const r = el.shadowRoot;
    const rows = (root) => [...root.querySelectorAll('[data-role="matrix"] > [data-row]')].map((row) => ({
      word: row.querySelector('[role="rowheader"]').textContent,
      current: row.dataset.current === 'true',
      weights: [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
    }));
    const shown = (x) => Boolean(x && x.getClientRects().length);
    const sides = Object.fromEntries([...r.querySelectorAll('[data-role="side"]')].map((s) => [s.dataset.side, {
      rows: rows(s),
      scoring: s.dataset.scoring,
      params: Number(s.querySelector('[data-role="params"]').dataset.value),
    }]));
    return {
      state: el.state,
      position: Number(r.querySelector('[data-role="widget"]').dataset.position),
      compareShown: shown(r.querySelector('[data-role="compare"]')),
      figureShown: shown(r.querySelector('[data-role="figure"]')),
      single: rows(r.querySelector('[data-role="figure"]')),
      sides,
      tvRow: r.querySelector('[data-role="tv"]')?.dataset.row,
      self: r.querySelectorAll('[data-role="self-attention"] [data-role="matrix"] > [data-row]').length,
      error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
      imgs: r.querySelectorAll('img').length,
    };
  });
}

const expected = (name, text = SENTENCE) => ref[name].translate(text);

function assertRows(rows, exp, n = exp.attention.length) {
  assert.equal(rows.length, n);
  assert.deepEqual(rows.map((r) => r.word), exp.targetTokens.slice(0, n));
  rows.forEach((r, i) => assert.deepEqual(r.weights, exp.attention[i], `row ${i}`));
}

describe('the widget\'s compare mode', { timeout: 900_000 }, () => {
  test('two matrices, each with its model\'s rows, moved together by one set of controls', T, async () => {
    const page = await host([{ id: 'cmp', mode: 'compare', text: SENTENCE, controls: 'full', 'model-a': NAMES.a, 'model-b': NAMES.b }]);
    await settled(page, 'cmp');
    const exp = { a: expected(NAMES.a), b: expected(NAMES.b) };
    const w = await read(page, 'cmp');
    assert.equal(w.state, 'done', w.error);
    assert.ok(w.compareShown && !w.figureShown, 'the comparison replaces the single figure');
    assertRows(w.sides.a.rows, exp.a);
    assertRows(w.sides.b.rows, exp.b);
    assert.equal(w.sides.a.params, ref[NAMES.a].info().scoringParams);
    assert.equal(w.sides.b.params, ref[NAMES.b].info().scoringParams);
    assert.ok(w.tvRow !== undefined, 'the TV callout names a row');
    assert.equal(w.self, ref[NAMES.b].selfAttention(SENTENCE).tokens.length, 'the self-attention illustration');
    const n = { a: exp.a.attention.length, b: exp.b.attention.length };
    const at = async (p) => {
      const s = await read(page, 'cmp');
      assert.equal(s.position, p);
      assert.equal(s.sides.a.rows.length, Math.min(p + 1, n.a));
      assert.equal(s.sides.b.rows.length, Math.min(p + 1, n.b));
      assert.deepEqual(s.sides.a.rows.map((r) => r.current).indexOf(true), p < n.a ? p : -1);
      assert.deepEqual(s.sides.b.rows.map((r) => r.current).indexOf(true), p < n.b ? p : -1);
    };
    await page.click('#cmp [data-role="compare"] [data-role="first"]');
    await at(0);
    await page.click('#cmp [data-role="compare"] [data-role="step-forward"]');
    await page.click('#cmp [data-role="compare"] [data-role="step-forward"]');
    await at(2);
    await page.click('#cmp [data-role="compare"] [data-role="step-back"]');
    await at(1);
    await page.focus('#cmp [data-role="compare"] [data-role="step-forward"]');
    await page.keyboard.press('Enter'); // keyboard operable
    await at(2);
    await page.click('#cmp [data-role="compare"] [data-role="last"]');
    const end = await read(page, 'cmp');
    assert.equal(end.sides.a.rows.length, n.a);
    assert.equal(end.sides.b.rows.length, n.b);
    // Events: ready with both models' info, a step event per move, done with both texts.
    const events = await page.evaluate(() => window.__events);
    const ready = events.find((e) => e.name === 'ready');
    assert.deepEqual(Object.keys(ready.detail.info), ['a', 'b']);
    const done = events.find((e) => e.name === 'done');
    assert.deepEqual(done.detail.text, { a: exp.a.text, b: exp.b.text });
    const steps = events.filter((e) => e.name === 'step');
    assert.deepEqual(steps.slice(-6).map((e) => e.detail.index), [0, 1, 2, 1, 2, end.position], 'one step event per move');
    assert.ok(steps.every((e) => 'a' in e.detail && 'b' in e.detail));
    await new Promise((r) => setTimeout(r, 500)); // the rows' fade-in (in a shadow root: not in document.getAnimations())
    await page.screenshot({ path: artifact('widget-compare.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    // axe, shadow root included (axe's own inline styles are refused by this page's CSP and
    // logged: checked above, before it ran).
    await page.evaluate(readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`));
    assert.deepEqual(violations, []);
    await page.close();
  });

  test('an unknown or hostile mode keeps the single figure; mode can be switched both ways', T, async () => {
    const hostile = ['"><img src=x onerror=alert(1)>', 'COMPARE', 'compare ', '', 'constructor'];
    const page = await host(hostile.map((mode, k) => ({ id: `h${k}`, mode, model: 'tiny', text: 'the cat' })));
    const exp = expected('tiny', 'the cat');
    for (const k of hostile.keys()) {
      await settled(page, `h${k}`);
      const w = await read(page, `h${k}`);
      assert.equal(w.state, 'done', `mode ${JSON.stringify(hostile[k])}: ${w.error}`);
      assert.ok(w.figureShown && !w.compareShown, `mode ${JSON.stringify(hostile[k])} shows the single figure`);
      assertRows(w.single, exp);
      assert.equal(w.imgs, 0);
    }
    // Switch one to compare (tiny models, so nothing big is downloaded), then back.
    await page.$eval('#h0', (el) => {
      el.setAttribute('model-a', 'tiny');
      el.setAttribute('model-b', 'tiny-dot');
      el.setAttribute('mode', 'compare');
    });
    await page.waitForFunction(() => document.getElementById('h0').shadowRoot.querySelector('[data-role="compare"]')?.getClientRects().length > 0);
    await settled(page, 'h0');
    let w = await read(page, 'h0');
    assert.ok(w.compareShown && !w.figureShown);
    assertRows(w.sides.a.rows, exp);
    assertRows(w.sides.b.rows, expected('tiny-dot', 'the cat'));
    await page.$eval('#h0', (el) => el.setAttribute('mode', 'single'));
    await page.waitForFunction(() => document.getElementById('h0').shadowRoot.querySelector('[data-role="figure"]').getClientRects().length > 0);
    await settled(page, 'h0');
    w = await read(page, 'h0');
    assert.ok(w.figureShown && !w.compareShown);
    assertRows(w.single, exp);
    // A bad model-b is refused in words, like a bad model.
    await page.$eval('#h1', (el) => {
      el.setAttribute('model-b', 'javascript:alert(1)');
      el.setAttribute('mode', 'compare');
    });
    await page.waitForFunction(() => document.getElementById('h1').state === 'error');
    assert.match((await read(page, 'h1')).error, /known model name or an http\(s\) URL/);
    // A refused sentence shows its error; the next, good one clears it.
    await page.$eval('#h0', (el) => {
      el.setAttribute('mode', 'compare');
      el.setAttribute('text', 'cat '.repeat(160));
    });
    await page.waitForFunction(() => document.getElementById('h0').state === 'error' ||
      !document.getElementById('h0').shadowRoot.querySelector('[data-role="error"]').hidden);
    assert.match((await read(page, 'h0')).error, /at most \d+/);
    await page.$eval('#h0', (el) => el.setAttribute('text', 'the cat'));
    await page.waitForFunction(() => document.getElementById('h0').state === 'done');
    await settled(page, 'h0');
    w = await read(page, 'h0');
    assert.equal(w.error, '');
    assertRows(w.sides.a.rows, exp);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(page.dialogs, []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the iframe route passes mode and both models through (embed.html)', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}embed.html?mode=compare&model-a=tiny&model-b=tiny-dot&text=the%20cat&controls=full`);
    await page.waitForFunction(() => {
      const el = document.querySelector('attention-translator');
      return el?.state === 'done' && el.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false';
    }, null, { timeout: 120_000 });
    const sides = await page.$eval('attention-translator', (el) => Object.fromEntries(
      [...el.shadowRoot.querySelectorAll('[data-role="side"]')].map((s) => [s.dataset.side,
        [...s.querySelectorAll('[data-role="matrix"] > [data-row]')].map((r) => r.querySelector('[role="rowheader"]').textContent)]),
    ));
    assert.deepEqual(sides.a, expected('tiny', 'the cat').targetTokens);
    assert.deepEqual(sides.b, expected('tiny-dot', 'the cat').targetTokens);
    // A cross-origin model-b in the URL is refused, as model= is.
    await page.goto(`${browser.url}embed.html?mode=compare&model-a=tiny&model-b=${encodeURIComponent('https://example.com/m.safetensors')}&text=hi`);
    await page.waitForFunction(() => document.querySelector('attention-translator')?.state === 'error');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
