// The site after one visit: the service worker (web/sw.js, registered by web/app/offline.js)
// keeps the engine, the pages' files and the model that was used, so a second visit translates
// with the network off; a new version replaces the old caches whole; the widget on another
// site's page registers nothing there. And the first visit's loading: the total and the time
// left while the model downloads (compressed, so the size comes from cache-manifest.json), a
// Translate button that says why it waits, and a sentence sent meanwhile queued, then translated.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { MANIFEST, offlineManifest } from '../../scripts/lib/offline-manifest.mjs';
import { siteFiles, writeSite } from '../../scripts/lib/site.mjs';
import { ROOT, launchAt, sharedBrowser, waitDone } from './helpers.mjs';

const T = { timeout: 240_000 };
const SENTENCE = 'The black cat is sleeping.';
const AT = `index.html?text=${encodeURIComponent(SENTENCE)}`;

// A plain page of the context (no route: Playwright's routing would bypass the service worker).
async function bare(context) {
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
  return page;
}

const cacheNames = (page) => page.evaluate(async () => (await caches.keys()).sort());

// Polled from here: page.waitForFunction takes a promise for a truthy value.
async function until(page, fn, arg, what, ms = 90_000) {
  for (const end = Date.now() + ms; Date.now() < end; await page.waitForTimeout(250)) {
    if (await page.evaluate(fn, arg)) return;
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Until the worker has kept a model (its first fill runs after the page's model is in).
const untilModelKept = (page) => until(page, async () => {
  for (const name of await caches.keys()) {
    if (name.startsWith('bahdanau-live:model:') && (await (await caches.open(name)).keys()).length > 0) return true;
  }
  return false;
}, null, 'a kept model');

const output = (page) => page.$eval('[data-role="output"]', (e) => e.textContent.trim());

describe('scripts/serve.mjs: one visit, then offline', () => {
  const browser = sharedBrowser({}, { serviceWorkers: 'allow' });

  test('the first visit keeps the engine, the pages and the model used, by version; the second translates offline', T, async () => {
    const page = await bare(browser.context);
    await page.goto(browser.url + AT);
    await waitDone(page);
    const online = await output(page);
    assert.notEqual(online, '');
    await untilModelKept(page);
    const manifest = await page.evaluate(async () => (await fetch('cache-manifest.json')).json());
    const names = await cacheNames(page);
    assert.deepEqual(names, [
      `bahdanau-live:model:models/en-fr.safetensors:${manifest.models['models/en-fr.safetensors'].sha256}`,
      `bahdanau-live:shell:${manifest.version}`,
    ], 'the model used, not the others, and one shell');
    const shell = await page.evaluate(async (v) => (await (await caches.open(`bahdanau-live:shell:${v}`)).keys()).map((r) => new URL(r.url).pathname), manifest.version);
    for (const file of ['/index.html', '/embed.html', '/compare.html', '/why.html', '/dist/bahdanau-simd.wasm', '/dist/bahdanau-simd.js', '/app.js', '/app.css']) {
      assert.ok(shell.includes(file), `${file} is in the shell cache`);
    }
    await page.close();

    await browser.context.setOffline(true);
    try {
      const again = await bare(browser.context);
      await again.goto(browser.url + AT);
      await waitDone(again);
      assert.equal(await output(again), online, 'offline, the same translation');
      // The widget's page works offline too, from the same caches.
      await again.goto(`${browser.url}embed.html?text=${encodeURIComponent(SENTENCE)}`);
      await again.waitForFunction(() => document.querySelector('attention-translator')?.state === 'done', null, { timeout: 90_000 });
      assert.deepEqual(again.problems, []);
      await again.close();
    } finally {
      await browser.context.setOffline(false);
    }
  });

  test('the widget on another origin registers no service worker and leaves no cache there', T, async () => {
    const page = await bare(browser.context);
    await page.goto(`${browser.url.replace('127.0.0.1', 'localhost')}test-pages/cross-origin.html`);
    await page.waitForFunction(() => document.querySelector('#w')?.state === 'done', null, { timeout: 90_000 });
    await page.waitForTimeout(1000); // offline.js would register after load
    assert.deepEqual(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
    assert.deepEqual(await cacheNames(page), []);
    await page.close();
  });

  test('while the model downloads: received / total MB and time left, the button says why, a tap queues the sentence', T, async () => {
    const context = browser.context;
    // A fresh origin's worth of caches would hide the download: this one is a new profile's
    // page on the other loopback name, so nothing is cached for it yet.
    const page = await bare(context);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 600_000, uploadThroughput: 600_000 });
    await page.goto(`${browser.url.replace('127.0.0.1', 'localhost')}index.html`);
    const button = page.locator('[data-role="translate"]');
    // The total is the default model's size, known before its bytes arrive.
    const total = (statSync(path.join(ROOT, 'models', 'en-fr.safetensors')).size / 1e6).toFixed(1);
    await page.waitForFunction((mb) => new RegExp(`/ ${mb.replace('.', '\\.')} MB · about \\d+ s left`).test(document.querySelector('[data-role="progress-text"]').textContent), total, { timeout: 60_000 });
    assert.equal(await button.getAttribute('aria-disabled'), 'true');
    assert.equal(await button.evaluate((b) => b.disabled), false, 'still a button: a tap queues');
    assert.equal((await button.textContent()).trim(), 'Translate (model loading)');
    assert.match(await button.getAttribute('title'), /still downloading/);
    const described = await button.getAttribute('aria-describedby');
    assert.ok(described && (await page.locator(`#${described}`).textContent()).includes('MB'));

    await page.fill('[data-role="source-input"]', SENTENCE);
    await button.click({ force: true }); // Playwright would wait for aria-disabled to go; a finger does not
    const note = page.locator('[data-role="progress-queued"]');
    assert.equal(await note.textContent(), `Will translate when the model is in: “${SENTENCE}”`);
    assert.ok(await note.isVisible());
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await waitDone(page);
    assert.notEqual(await output(page), '', 'the queued sentence was translated');
    assert.equal(await note.isVisible(), false);
    assert.equal(await button.getAttribute('aria-disabled'), null);
    assert.equal((await button.textContent()).trim(), 'Translate');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

// python3 -m http.server on a free loopback port, serving dir (a host with no headers of ours).
function pythonServer(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = '';
    child.once('error', reject);
    child.stdout.on('data', (d) => {
      seen += d;
      const port = seen.match(/port (\d+)/)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}/`, child });
    });
  });
}

describe('scripts/site output: a new version replaces the old one', () => {
  let tmp;
  let server;
  let site;
  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'bl-offline-'));
    await writeSite({ out: tmp, models: ['en-fr'], compress: false });
    server = await pythonServer(tmp);
    site = await launchAt(server.url, undefined, { serviceWorkers: 'allow' });
  }, T);
  after(async () => {
    await site?.close();
    server?.child.kill();
    rmSync(tmp, { recursive: true, force: true });
  });

  // The site's manifest made again from its own files, as scripts/site would after a change.
  async function remakeManifest() {
    const files = siteFiles(['en-fr']).map(([, rel]) => [path.join(tmp, ...rel.split('/')), rel]);
    const m = await offlineManifest(files);
    writeFileSync(path.join(tmp, MANIFEST), `${JSON.stringify(m)}\n`);
    return m;
  }

  test('a changed page file and model: new caches, the old ones deleted, never both', T, async () => {
    const page = await bare(site.context);
    await page.goto(site.url + AT);
    await waitDone(page);
    await untilModelKept(page);
    const before = await cacheNames(page);
    const old = JSON.parse(readFileSync(path.join(tmp, MANIFEST), 'utf8'));
    assert.ok(before.includes(`bahdanau-live:shell:${old.version}`));

    // A new release: one module changed, and another model under the same name.
    writeFileSync(path.join(tmp, 'app', 'examples.js'), `${readFileSync(path.join(tmp, 'app', 'examples.js'), 'utf8')}\n// release 2\n`);
    copyFileSync(path.join(ROOT, 'models', 'en-fr-dot.safetensors'), path.join(tmp, 'models', 'en-fr.safetensors'));
    const next = await remakeManifest();
    assert.notEqual(next.version, old.version);

    await page.reload();
    await waitDone(page);
    const newModel = `bahdanau-live:model:models/en-fr.safetensors:${next.models['models/en-fr.safetensors'].sha256}`;
    await until(page, async (want) => JSON.stringify((await caches.keys()).sort()) === JSON.stringify(want),
      [newModel, `bahdanau-live:shell:${next.version}`].sort(), 'the new version\'s caches alone');
    await until(page, async (name) => Boolean(await caches.match('models/en-fr.safetensors', { cacheName: name })), newModel, 'the new model kept');
    const kept = await page.evaluate(async (v) => (await (await caches.open(`bahdanau-live:shell:${v}`)).match('app/examples.js')).text(), next.version);
    assert.match(kept, /release 2/);
    const bytes = await page.evaluate(async (name) => (await (await (await caches.open(name)).match('models/en-fr.safetensors')).arrayBuffer()).byteLength, newModel);
    assert.equal(bytes, next.models['models/en-fr.safetensors'].bytes);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
