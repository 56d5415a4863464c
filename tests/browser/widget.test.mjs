// <attention-translator> (web/bahdanau-widget.js) and its iframe route (web/embed.html) in real
// Chromium, on the host pages in tests/browser/pages/ (served under /test-pages/): sharing
// one download per model, the engine's own numbers, attribute changes, hostile text, lazy
// loading, the iframe resizing its parent, host CSS, bad models, and the CSP it needs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, artifact, launch } from './helpers.mjs';

const T = { timeout: 120_000 };
const EN_FR = path.join(ROOT, 'models', 'en-fr.safetensors');
const TINY = path.join(ROOT, 'tests', 'fixtures', 'tiny-additive-f32.safetensors');

let browser;
let ref = {};

before(async () => {
  browser = await launch();
  ref = {
    'en-fr': await createTranslator({ model: EN_FR }),
    tiny: await createTranslator({ model: TINY }),
  };
}, { timeout: 90_000 });

after(async () => {
  for (const t of Object.values(ref)) t.dispose();
  await browser?.close();
});

async function open(page, name) {
  const p = await browser.newPage();
  p.requests = [];
  p.dialogs = [];
  p.on('request', (r) => p.requests.push(new URL(r.url()).pathname));
  p.on('dialog', (d) => {
    p.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await p.goto(name.startsWith('/') ? new URL(name, browser.url).href : `${browser.url}test-pages/${name}`);
  return p;
}

// Waits until every widget (or the one with this id) has settled: decoded, or failed.
function settled(page, id = null, timeout = 60_000) {
  return page.waitForFunction(
    (id) => {
      const els = id ? [document.getElementById(id)] : [...document.querySelectorAll('attention-translator')];
      return els.every((e) => e && (e.state === 'done' || e.state === 'error') && e.shadowRoot
        .querySelector('[data-role="widget"]').dataset.playing === 'false');
    },
    id,
    { timeout },
  );
}

// What a widget shows, read through its shadow root's data-role hooks.
function read(page, id) {
  return page.$eval(`#${id}`, (el) => {
    const r = el.shadowRoot;
    return {
      state: el.state,
      output: r.querySelector('[data-role="output"]').textContent,
      source: r.querySelector('[data-role="source"]').textContent,
      error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
      status: r.querySelector('[data-role="status"]').textContent,
      rows: [...r.querySelectorAll('[data-role="matrix"] > [data-row]')].map((row) => ({
        word: row.querySelector('[role="rowheader"]').textContent,
        weights: [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
      })),
    };
  });
}

function assertShows(shown, expected, rows = expected.attention.length) {
  assert.equal(shown.error, '');
  assert.equal(shown.rows.length, rows);
  assert.deepEqual(shown.rows.map((r) => r.word), expected.targetTokens.slice(0, rows));
  shown.rows.forEach((r, i) => assert.deepEqual(r.weights, expected.attention[i], `row ${i}`));
}

const count = (page, suffix) => page.requests.filter((p) => p.endsWith(suffix)).length;

describe('the widget', { timeout: 900_000 }, () => {
  test('three widgets, two sharing a model: one download per model, one engine, the right translations', T, async () => {
    const page = await open(null, 'three.html');
    await settled(page);
    const a = await read(page, 'a');
    const b = await read(page, 'b');
    const c = await read(page, 'c');
    const ra = ref['en-fr'].translate('The black cat is sleeping.');
    const rb = ref['en-fr'].translate('I am cold.');
    const rc = ref.tiny.translate('the cat');
    assertShows(a, ra);
    assert.equal(a.output, ra.text, 'the detokenized translation');
    assertShows(b, rb, 2); // step="1": frozen at the second word
    assertShows(c, rc);
    assert.equal(count(page, '/models/en-fr.safetensors'), 1, 'the shared model is downloaded once');
    assert.equal(count(page, '/fixtures/tiny-additive-f32.safetensors'), 1);
    // One engine (and, in a Chromium with relaxed SIMD, its relaxed int8 loop), fetched once.
    assert.equal(count(page, '/bahdanau-simd.wasm'), 1, 'one wasm instance');
    assert.equal(count(page, '/bahdanau-relaxed.wasm'), 1, 'one relaxed loop');
    assert.equal(page.requests.filter((p) => p.endsWith('.wasm')).length, 2, 'no other wasm');
    assert.match(a.status, /wasm-simd/);
    // controls="none" has no buttons; "full" has the text box; panel shows the four steps.
    const ui = await page.evaluate(() => {
      const q = (id, sel) => document.getElementById(id).shadowRoot.querySelector(sel);
      const shown = (el) => Boolean(el && el.getClientRects().length);
      return {
        aForm: shown(q('a', '[data-role="form"]')),
        aPanel: shown(q('a', '[data-role="step-panel"]')),
        bPlay: shown(q('b', '[data-role="play"]')),
        bPanel: shown(q('b', '[data-role="step-panel"]')),
        cControls: shown(q('c', '[data-role="controls"]')),
      };
    });
    assert.deepEqual(ui, { aForm: true, aPanel: true, bPlay: true, bPanel: false, cControls: false });
    await new Promise((r) => setTimeout(r, 500)); // the rows' fade-in
    await page.screenshot({ path: artifact('widget-three.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('attribute changes re-render; events report ready, step and done', T, async () => {
    const page = await open(null, 'three.html');
    await settled(page);
    await page.evaluate(() => {
      const b = document.getElementById('b');
      window.events = [];
      for (const t of ['step', 'done', 'error']) b.addEventListener(t, (e) => window.events.push([t, e.detail.index ?? e.detail.text ?? e.detail.message]));
      b.removeAttribute('step');
      b.setAttribute('text', 'Where is the station?');
    });
    await page.waitForFunction(() => window.events.some((e) => e[0] === 'done'));
    await settled(page, 'b');
    const expected = ref['en-fr'].translate('Where is the station?');
    const b = await read(page, 'b');
    assertShows(b, expected);
    assert.equal(b.output, expected.text);
    const events = await page.evaluate(() => window.events);
    assert.ok(events.some((e) => e[0] === 'step'), 'step events');
    assert.deepEqual(events.find((e) => e[0] === 'done'), ['done', expected.text]);
    // step freezes at a word; lang switches the captions; controls and beam re-render.
    await page.$eval('#b', (el) => el.setAttribute('step', '0'));
    assert.equal((await read(page, 'b')).rows.length, 1);
    await page.$eval('#b', (el) => {
      el.setAttribute('lang', 'zh');
      el.setAttribute('controls', 'none');
    });
    const after = await page.$eval('#b', (el) => ({
      label: el.shadowRoot.querySelector('[data-role="matrix"]').getAttribute('aria-label'),
      controls: el.shadowRoot.querySelector('[data-role="controls"]').getClientRects().length,
    }));
    assert.deepEqual(after, { label: '注意力矩阵', controls: 0 });
    await page.$eval('#b', (el) => {
      el.removeAttribute('step');
      el.setAttribute('beam', '4');
    });
    await settled(page, 'b');
    const beam = ref['en-fr'].translate('Where is the station?', { beam: 4 });
    assertShows(await read(page, 'b'), beam);
    // A new model by attribute: loaded (once), then drawn.
    await page.$eval('#c', (el) => el.setAttribute('model', 'tiny-int8'));
    await settled(page, 'c');
    const tinyInt8 = await createTranslator({ model: path.join(ROOT, 'tests', 'fixtures', 'tiny-additive-int8.safetensors') });
    try {
      assertShows(await read(page, 'c'), tinyInt8.translate('the cat'));
    } finally {
      tinyInt8.dispose();
    }
    // controls="full": a typed sentence becomes the text attribute, and is drawn.
    await page.locator('#a [data-role="source-input"]').fill('I love you.');
    await page.locator('#a [data-role="source-input"]').press('Enter');
    await page.waitForFunction(() => document.getElementById('a').getAttribute('text') === 'I love you.');
    await settled(page, 'a');
    assertShows(await read(page, 'a'), ref['en-fr'].translate('I love you.'));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('hostile text stays text: no dialog, no injected node', T, async () => {
    const page = await open(null, 'three.html');
    await settled(page);
    const hostile = ['<img src=x onerror=alert(1)>', '"><script>alert(2)</script>', "'><svg onload=alert(3)>"];
    for (const text of hostile) {
      await page.$eval('#b', (el, t) => {
        el.removeAttribute('step');
        el.setAttribute('text', t);
      }, text);
      await page.waitForFunction((t) => document.getElementById('b').shadowRoot.querySelector('[data-role="source-input"]').value === t, text);
      await settled(page, 'b');
      const b = await read(page, 'b');
      assert.equal(b.state, 'done');
      assert.ok(b.source.includes('<'), `the source shows the markup as text: ${b.source}`);
    }
    const injected = await page.evaluate(() => {
      const roots = [document, ...[...document.querySelectorAll('attention-translator')].map((e) => e.shadowRoot)];
      return roots.flatMap((r) => [...r.querySelectorAll('img, script:not([src]), svg[onload], [onerror], [onload]')].map((e) => e.outerHTML));
    });
    assert.deepEqual(injected, []);
    // The same through the iframe's URL parameters.
    const frame = await browser.newPage();
    frame.on('dialog', (d) => {
      page.dialogs.push(d.message());
      d.dismiss().catch(() => {});
    });
    await frame.goto(`${browser.url}embed.html?model=tiny&text=${encodeURIComponent(hostile[0] + hostile[1])}&controls=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(4)%3E`);
    await settled(frame);
    assert.equal(await frame.$$eval('img', (x) => x.length), 0);
    assert.equal(await frame.$eval('attention-translator', (el) => el.shadowRoot.querySelectorAll('img').length), 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(page.dialogs, []);
    assert.deepEqual(frame.problems ?? [], []);
    await frame.close();
    await page.close();
  });

  test('a bad model shows its error inside the widget', T, async () => {
    const page = await open(null, 'three.html');
    await settled(page);
    await page.$eval('#c', (el) => el.setAttribute('model', '/test-files/garbage.safetensors'));
    await settled(page, 'c');
    const c = await read(page, 'c');
    assert.equal(c.state, 'error');
    assert.match(c.error, /garbage\.safetensors: cannot load the model: /);
    await page.$eval('#c', (el) => el.setAttribute('model', 'javascript:alert(1)'));
    await settled(page, 'c');
    assert.match((await read(page, 'c')).error, /known model name or an http\(s\) URL/);
    // The iframe takes a name or a same-origin path only, as the page does.
    const frame = await browser.newPage();
    await frame.goto(`${browser.url}embed.html?model=${encodeURIComponent('https://example.com/m.safetensors')}&text=hi`);
    await settled(frame);
    assert.equal(await frame.$eval('attention-translator', (el) => el.state), 'error');
    assert.deepEqual(frame.problems, []);
    await frame.close();
    await page.close();
  });

  test('the iframe route resizes its parent, and takes set commands of the documented shape only', T, async () => {
    const page = await open(null, 'iframe.html');
    await page.waitForFunction(() => parseFloat(document.getElementById('f').style.height) > 300, null, { timeout: 60_000 });
    const frame = page.frame({ url: /embed\.html/ });
    await settled(frame);
    // The frame's height is its content's height.
    await page.waitForFunction(() => {
      const f = document.getElementById('f');
      return Math.abs(f.getBoundingClientRect().height - f.contentDocument.documentElement.scrollHeight) <= 1;
    });
    // A command from the parent: a new sentence.
    const before = await page.$eval('#f', (f) => f.style.height);
    await page.evaluate(() => {
      const w = document.getElementById('f').contentWindow;
      w.postMessage('attention-translator:set', '*'); // wrong shape: ignored
      w.postMessage({ type: 'attention-translator:set', attributes: { text: 'the house', onload: 'alert(1)' } }, '*');
    });
    await frame.waitForFunction(() => document.querySelector('attention-translator').getAttribute('text') === 'the house');
    await settled(frame);
    assertShows(await frame.$eval('attention-translator', (el) => ({
      error: '',
      rows: [...el.shadowRoot.querySelectorAll('[data-row]')].map((row) => ({
        word: row.querySelector('[role="rowheader"]').textContent,
        weights: [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
      })),
    })), ref.tiny.translate('the house'));
    assert.equal(await frame.$eval('attention-translator', (el) => el.hasAttribute('onload')), false);
    await page.waitForFunction((h) => document.getElementById('f').style.height !== h, before);
    await new Promise((r) => setTimeout(r, 500)); // the rows' fade-in
    await page.screenshot({ path: artifact('widget-iframe.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a widget below the fold loads nothing until it is scrolled to', T, async () => {
    const page = await open(null, 'fold.html');
    await page.waitForFunction(() => customElements.get('attention-translator'));
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(page.requests.filter((p) => /\.(wasm|safetensors)$/.test(p)).length, 0, page.requests.join(' '));
    assert.equal(await page.$eval('#late', (el) => el.state), 'idle');
    assert.match(await page.$eval('#late', (el) => el.shadowRoot.querySelector('[data-role="placeholder"]').textContent), /scrolled into view/);
    await page.$eval('#late', (el) => el.scrollIntoView());
    await settled(page, 'late');
    assertShows(await read(page, 'late'), ref.tiny.translate('the cat'));
    assert.equal(count(page, '/fixtures/tiny-additive-f32.safetensors'), 1);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('host CSS such as * { color: red !important; font-size: 40px } does not reach the widget', T, async () => {
    const page = await open(null, 'hostile-css.html');
    await settled(page);
    const look = await page.$eval('#w', (el) => {
      const r = el.shadowRoot;
      const cs = (sel) => getComputedStyle(r.querySelector(sel));
      const cell = r.querySelector('[data-weight]').getBoundingClientRect();
      const widget = r.querySelector('[data-role="widget"]').getBoundingClientRect();
      return {
        color: cs('[data-role="output"] .tok').color,
        size: cs('[data-role="output"] .tok').fontSize,
        rowhead: cs('[role="rowheader"]').fontSize,
        cellW: cell.width,
        cellH: cell.height,
        buttonDisplay: cs('[data-role="play"]').display,
        widgetW: widget.width,
        viewport: innerWidth,
      };
    });
    assert.notEqual(look.color, 'rgb(255, 0, 0)');
    assert.equal(look.size, '16px');
    assert.equal(look.rowhead, '14px');
    assert.ok(look.cellW >= 24 && look.cellW <= 48 && Math.abs(look.cellW - look.cellH) < 1, JSON.stringify(look));
    assert.equal(look.buttonDisplay, 'grid');
    assert.ok(look.widgetW <= look.viewport, JSON.stringify(look));
    assertShows(await read(page, 'w'), ref['en-fr'].translate('The black cat is sleeping.'));
    await new Promise((r) => setTimeout(r, 500)); // the rows' fade-in
    await page.screenshot({ path: artifact('widget-hostile-css.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test("CSP: script-src 'self' 'unsafe-eval' is enough; without 'unsafe-eval' the widget says why", T, async () => {
    const ok = await open(null, 'csp-eval.html');
    await settled(ok);
    assertShows(await read(ok, 'w'), ref.tiny.translate('the cat'));
    assert.deepEqual(ok.problems, []);
    await ok.close();
    for (const name of ['csp-strict.html', 'csp-wasm-only.html']) {
      const page = await open(null, name);
      await settled(page);
      const w = await read(page, 'w');
      assert.equal(w.state, 'error', name);
      assert.match(w.error, /Content-Security-Policy blocks .*script-src 'unsafe-eval'/, name);
      await page.close();
    }
  });

  test('from another origin: the widget finds its engine and model next to its own URL', T, async () => {
    const page = await browser.newPage();
    const other = browser.url.replace('127.0.0.1', 'localhost'); // another origin, same server
    await page.route(`${other}**`, (route) => route.continue());
    const origins = new Set();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.goto(`${other}test-pages/cross-origin.html`);
    await settled(page);
    assertShows(await read(page, 'w'), ref.tiny.translate('the cat'));
    assert.equal(origins.size, 2, [...origins].join(' '));
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the author docs page works, with live examples', T, async () => {
    const page = await open(null, '/embed-docs.html');
    await page.waitForFunction(() => document.querySelectorAll('attention-translator').length >= 3);
    const first = await page.$eval('attention-translator', (el) => el.id);
    await page.$eval(`#${first}`, (el) => el.scrollIntoView());
    await settled(page, first);
    assert.equal((await read(page, first)).state, 'done');
    const snippets = await page.$$eval('pre code', (x) => x.map((c) => c.textContent));
    assert.ok(snippets.some((s) => s.includes('<script type="module"') && s.includes('bahdanau-widget.js')));
    assert.ok(snippets.some((s) => s.includes('<iframe') && s.includes('embed.html')));
    // Every live example, scrolled to in turn, decodes; axe finds nothing, placeholders and
    // shadow roots included.
    for (const id of await page.$$eval('attention-translator', (els) => els.map((e) => e.id))) {
      await page.$eval(`#${id}`, (el) => el.scrollIntoView());
      await settled(page, id);
      assert.equal((await read(page, id)).state, 'done', id);
    }
    assert.deepEqual(page.problems, []);
    // Rows fade in; the widgets' animations live in shadow roots, which
    // document.getAnimations() leaves out.
    await page.waitForFunction(() => [document, ...[...document.querySelectorAll('attention-translator')]
      .map((el) => el.shadowRoot)].every((root) => !root || root.getAnimations().length === 0));
    // (axe itself applies inline styles, which this page's CSP refuses and logs: not ours.)
    await page.evaluate(readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () =>
      (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
    assert.deepEqual(violations, []);
    await page.$eval(`#${first}`, (el) => el.scrollIntoView());
    await new Promise((r) => setTimeout(r, 500)); // the rows' fade-in
    await page.screenshot({ path: artifact('widget-docs.png'), fullPage: false });
    await page.close();
  });
});
