// The widget reloaded on a course page of another origin, where no service worker helps (issue
// 24): the site that scripts/site writes names each module's content in its imports
// (scripts/lib/versioned-imports.mjs), and scripts/serve.mjs caches those URLs for good, so the
// reload asks the network again for the page, the entry module the embedder named and the
// engine's glue (its URL is built at run time), and takes every other module from the cache.
// Before, each module was revalidated, one level of the import graph per round trip.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startServer } from '../../scripts/serve.mjs';
import { writeSite } from '../../scripts/lib/site.mjs';
import { PAGES, launchAt } from './helpers.mjs';

const T = { timeout: 180_000 };
let tmp;
let server;
let browser;

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'bl-reload-'));
  await writeSite({ out: tmp, models: ['tiny'], compress: false });
  server = await startServer({ port: 0, extraMounts: [['/test-pages/', PAGES], ['/', tmp, { pages: true }]] });
  browser = await launchAt(server.url);
}, T);

after(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// -> [{path, cached}] for the scripts the page asked for until the widget was done.
async function scriptsWhile(page, cdp, go) {
  const seen = new Map();
  const fromCache = new Set();
  const onRequest = (e) => {
    const u = new URL(e.request.url);
    if (/\.m?js$/.test(u.pathname)) seen.set(e.requestId, u.pathname + u.search);
  };
  const onCached = (e) => fromCache.add(e.requestId);
  cdp.on('Network.requestWillBeSent', onRequest);
  cdp.on('Network.requestServedFromCache', onCached);
  await go();
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('#w')?.state), null, { timeout: 90_000 });
  cdp.off('Network.requestWillBeSent', onRequest);
  cdp.off('Network.requestServedFromCache', onCached);
  return [...seen].map(([id, p]) => ({ path: p, cached: fromCache.has(id) }));
}

test('a reload of the widget on another origin takes every module below its entry from the cache', T, async () => {
  // A plain page: Playwright's routing (browser.newPage) would turn the HTTP cache off.
  const page = await browser.context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Network.enable');
  const at = `${server.url.replace('127.0.0.1', 'localhost')}test-pages/cross-origin.html`;

  const first = await scriptsWhile(page, cdp, () => page.goto(at));
  assert.equal(await page.$eval('#w', (el) => el.state), 'done');
  const modules = first.filter((s) => !/^\/(bahdanau-widget|dist\/bahdanau-simd)\.js$/.test(s.path.replace(/\?.*$/, '')));
  assert.ok(modules.length > 20, `the widget imports its modules (${modules.length})`);

  const again = await scriptsWhile(page, cdp, () => page.reload());
  assert.equal(await page.$eval('#w', (el) => el.state), 'done');
  assert.ok(await page.$eval('#w', (el) => el.shadowRoot.querySelectorAll('[data-role="matrix"] [data-row]').length) > 0);
  const asked = again.filter((s) => !s.cached).map((s) => s.path.replace(/\?.*$/, '')).sort();
  assert.deepEqual(asked, ['/bahdanau-widget.js', '/dist/bahdanau-simd.js'],
    'only the entry and the engine\'s glue went to the network again');
  assert.ok(again.filter((s) => s.cached).length >= modules.length, 'the others came from the cache');
  assert.deepEqual(problems, []);
  await page.close();
});
