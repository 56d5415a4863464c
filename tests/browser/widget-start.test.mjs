// How the widget starts (issue 24, the embed's reload): embed.html begins the model's download
// and the engine before the element's own modules are in (widget/early-model.js), the element
// then joins that load instead of starting another, a single figure imports none of the
// two-model modes (widget/pair-modes.js imports each on first use), and the failures this opens
// up are errors in words: a mode whose module cannot be fetched, an engine whose wasm is missing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sharedBrowser } from './helpers.mjs';

const T = { timeout: 120_000 };
const browser = sharedBrowser();
const MODES = /\/widget\/(compare|bottleneck|timelapse)-mode\.js$/;

// The widget of embed.html, or of a test page: its state, rows drawn and error box.
const shown = (page, selector = 'attention-translator') => page.$eval(selector, (el) => {
  const r = el.shadowRoot;
  const error = r.querySelector('[data-role="error"]');
  return {
    state: el.state,
    rows: r.querySelectorAll('[data-role="matrix"] > [data-row]').length,
    error: error.hidden ? '' : error.textContent,
  };
});

const settled = (page, selector = 'attention-translator') => page.waitForFunction(
  (s) => ['done', 'error'].includes(document.querySelector(s)?.state), selector, { timeout: 60_000 });

test('embed.html asks for the model and the engine before the element has loaded, and only once', T, async () => {
  const page = await browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push({ url: r.url(), at: Date.now() }));
  // The element's module is held back 1.5 s: what starts meanwhile did not wait for it.
  let released = Infinity;
  await page.route('**/bahdanau-widget.js', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    released = Date.now();
    await route.continue();
  });
  await page.goto(`${browser.url}embed.html?model=tiny&text=${encodeURIComponent('the cat')}`);
  await settled(page);
  const s = await shown(page);
  assert.equal(s.state, 'done', s.error);
  assert.ok(s.rows > 0);
  const of = (re) => requests.filter((r) => re.test(new URL(r.url).pathname));
  const model = of(/tiny-additive-f32\.safetensors$/);
  const wasm = of(/\/dist\/bahdanau-(simd|scalar)\.wasm$/);
  assert.equal(model.length, 1, 'one download of the model: the element joined the early one');
  assert.equal(wasm.length, 1, 'one fetch of the engine');
  assert.ok(model[0].at < released, 'the model was asked for before the element\'s module arrived');
  assert.ok(wasm[0].at < released, 'so was the engine');
  assert.deepEqual(requests.filter((r) => MODES.test(new URL(r.url).pathname)).map((r) => r.url), [],
    'a single figure imports none of the two-model modes');
  await page.close();
});

test('embed.html with a path or a mode leaves the loading to the element', T, async () => {
  const page = await browser.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(`${browser.url}embed.html?mode=compare&model-a=tiny&model-b=tiny-dot&text=${encodeURIComponent('the cat')}`);
  await settled(page);
  assert.equal((await shown(page)).state, 'done');
  assert.ok(requests.some((p) => p.endsWith('/widget/compare-mode.js')), 'the mode\'s module, on first use');
  assert.ok(!requests.some((p) => p.endsWith('/models/en-fr.safetensors')), 'no early download of the default model');
  await page.close();
});

test('a mode whose module cannot be fetched is an error in words, and a later try loads it', T, async () => {
  const page = await browser.newPage();
  await page.route('**/widget/compare-mode.js', (route) => route.abort());
  await page.goto(`${browser.url}test-pages/three.html`);
  await page.evaluate(() => {
    for (const el of document.querySelectorAll('attention-translator')) el.remove();
    const el = document.createElement('attention-translator');
    el.id = 'w';
    for (const [k, v] of Object.entries({ mode: 'compare', 'model-a': 'tiny', 'model-b': 'tiny-dot', text: 'the cat' })) el.setAttribute(k, v);
    document.body.append(el);
  });
  await settled(page, '#w');
  let s = await shown(page, '#w');
  assert.equal(s.state, 'error');
  assert.match(s.error, /compare-mode\.js/);
  assert.doesNotMatch(s.error, /undefined|null|\[object/);

  await page.unroute('**/widget/compare-mode.js');
  await page.$eval('#w', (el) => el.removeAttribute('mode'));
  await settled(page, '#w');
  await page.$eval('#w', (el) => el.setAttribute('mode', 'compare'));
  await page.waitForFunction(() => document.getElementById('w').shadowRoot.querySelector('[data-role="compare"]')?.getClientRects().length > 0);
  await settled(page, '#w');
  s = await shown(page, '#w');
  assert.equal(s.state, 'done', s.error);
  await page.close();
});

test('an engine whose wasm is missing says which file and why, and does not hang', T, async () => {
  const page = await browser.newPage();
  await page.route('**/dist/bahdanau-*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${browser.url}embed.html?model=tiny&text=${encodeURIComponent('the cat')}`);
  await settled(page);
  const s = await shown(page);
  assert.equal(s.state, 'error');
  assert.match(s.error, /bahdanau-(simd|scalar)\.wasm: HTTP 404/);
  assert.equal(s.rows, 0);
  await page.close();
});
