// The widget when its model fails while it shows or decodes a sentence (issue 24): a bad model
// set in the `ready` listener used to let the running decode finish, so the events came as
// ready, error, done and the old model's translation stayed under the error box.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sharedBrowser } from './helpers.mjs';

const T = { timeout: 120_000 };
const LONG = 'When I was young, I walked to school with my brother every morning, and we talked about everything.';
const browser = sharedBrowser();

// A fresh widget on a blank host page; `onReady` runs in the first `ready` listener. -> the page
async function widget(onReady) {
  const page = await browser.newPage();
  await page.goto(`${browser.url}test-pages/three.html`);
  await page.evaluate(({ text, onReady }) => {
    for (const el of document.querySelectorAll('attention-translator')) el.remove();
    const el = document.createElement('attention-translator');
    el.id = 'w';
    el.setAttribute('model', 'en-fr');
    el.setAttribute('text', text);
    window.events = [];
    for (const type of ['ready', 'error', 'done']) el.addEventListener(type, () => window.events.push(type));
    if (onReady) el.addEventListener('ready', () => el.setAttribute('model', onReady), { once: true });
    document.body.append(el);
  }, { text: LONG, onReady });
  return page;
}

const shown = (page) => page.$eval('#w', (el) => {
  const r = el.shadowRoot;
  return {
    state: el.state,
    output: r.querySelector('[data-role="output"]').textContent.trim(),
    rows: r.querySelectorAll('[data-role="matrix"] > [data-row]').length,
    error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
  };
});

test('a bad model set while a sentence decodes cancels the decode: ready, error, and no done', T, async () => {
  const page = await widget('javascript:x');
  await page.waitForFunction(() => window.events.includes('error'), null, { timeout: 60_000 });
  // long enough for the old model to have finished the sentence, had it gone on
  await page.waitForTimeout(3000);
  assert.deepEqual(await page.evaluate(() => window.events), ['ready', 'error']);
  const s = await shown(page);
  assert.equal(s.state, 'error');
  assert.match(s.error, /known model name or an http\(s\) URL/);
  assert.equal(s.rows, 0, 'no rows of the old model under the error');
  assert.equal(s.output, '');
  await page.close();
});

test('a model that fails to load clears the translation the old model made', T, async () => {
  const page = await widget(null);
  await page.waitForFunction(() => window.events.includes('done'), null, { timeout: 60_000 });
  assert.ok((await shown(page)).rows > 5);
  await page.$eval('#w', (el) => el.setAttribute('model', '/test-files/garbage.safetensors'));
  await page.waitForFunction(() => window.events.includes('error'), null, { timeout: 60_000 });
  const s = await shown(page);
  assert.equal(s.state, 'error');
  assert.match(s.error, /garbage\.safetensors/);
  assert.equal(s.rows, 0);
  assert.equal(s.output, '');
  // a good model again translates again
  await page.$eval('#w', (el) => el.setAttribute('model', 'en-fr'));
  await page.waitForFunction(() => window.events.filter((e) => e === 'done').length === 2, null, { timeout: 60_000 });
  assert.ok((await shown(page)).rows > 5);
  await page.close();
});
