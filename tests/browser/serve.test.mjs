// scripts/serve.mjs, the page's static server: loopback only, the right MIME types, no way
// out of its folders, and (in Chromium) a CSP that every page works under and a compressed
// model whose download progress still adds up. tests/node/serve.test.mjs checks the rest.
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startServer } from '../../scripts/serve.mjs';
import { ROOT, launch, settledState } from './helpers.mjs';

let server;

before(async () => {
  server = await startServer({ port: 0 });
});

after(() => server?.close());

// Raw requests: fetch() would normalise '..' away before sending.
function get(path, method = 'GET') {
  const { port } = server.server.address();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'] }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

test('binds the loopback interface only', () => {
  assert.equal(server.server.address().address, '127.0.0.1');
});

test('serves the page, its modules, the engine and the test models with their types', async () => {
  assert.deepEqual(await get('/'), { status: 200, type: 'text/html; charset=utf-8' });
  assert.deepEqual(await get('/app.js'), { status: 200, type: 'text/javascript; charset=utf-8' });
  assert.deepEqual(await get('/ui/ui.css'), { status: 200, type: 'text/css; charset=utf-8' });
  assert.deepEqual(await get('/lib/bahdanau.js'), { status: 200, type: 'text/javascript; charset=utf-8' });
  assert.deepEqual(await get('/dist/bahdanau-simd.wasm'), { status: 200, type: 'application/wasm' });
  assert.deepEqual(await get('/fixtures/tiny-additive-f32.safetensors'), {
    status: 200,
    type: 'application/octet-stream',
  });
  assert.equal((await get('/no-such-file.js')).status, 404);
  assert.equal((await get('/', 'POST')).status, 405);
});

test('refuses every spelling of a path out of its folders', async () => {
  for (const path of [
    '/../package.json',
    '/lib/../../package.json',
    '/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/..%5cpackage.json',
    '/fixtures/../../package.json',
    '/models/..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/lib%00.js',
    '/%E0%A4%A',
  ]) {
    const { status } = await get(path);
    assert.ok(status === 404 || status === 400, `${path}: ${status}`); // 400: not a path at all
  }
});

test('lets a course page on another origin load the widget, engine and models (CORS)', async () => {
  const { port } = server.server.address();
  for (const path of ['/bahdanau-widget.js', '/dist/bahdanau-simd.wasm', '/fixtures/tiny-additive-f32.safetensors']) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Origin: 'https://course.example' } });
    await res.arrayBuffer();
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
  }
});

// Each of the project's pages, and what says it has loaded: the app's state, or the first
// widget's (the widget pages decode on their main thread, under the header's 'unsafe-eval').
const PAGES = readdirSync(path.join(ROOT, 'web')).filter((f) => f.endsWith('.html'));

test('every page runs under the CSP header the server sends it, with no violation', { timeout: 300_000 }, async () => {
  assert.deepEqual(PAGES.sort(), ['compare.html', 'embed-docs.html', 'embed.html', 'index.html', 'learn.html', 'train.html', 'why.html']);
  const browser = await launch();
  try {
    for (const name of PAGES) {
      const page = await browser.newPage();
      await page.addInitScript(() => {
        window.violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const query = name === 'embed.html' ? '?text=I%20am%20cold.' : '';
      const res = await page.goto(`${browser.url}${name}${query}`);
      assert.match(res.headers()['content-security-policy'] ?? '', /script-src 'self'/, name);
      assert.match(await settledState(page), /^(ready|done)$/, name);
      await page.waitForTimeout(500);
      assert.deepEqual(await page.evaluate(() => window.violations), [], name);
      const problems = page.problems.filter((p) => /Content Security Policy|page error/.test(p));
      assert.deepEqual(problems, [], name);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});

test("a compressed model: the loader's progress never passes 100% of the model's bytes", { timeout: 120_000 }, async () => {
  const size = statSync(path.join(ROOT, 'models', 'en-fr.safetensors')).size;
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(`${browser.url}no-such-page`); // an origin to fetch from, with no page CSP
    const r = await page.evaluate(async () => {
      const url = '/models/en-fr.safetensors';
      const head = await fetch(url, { method: 'HEAD' });
      const { modelBytes } = await import('/lib/model-cache.js');
      const seen = [];
      const bytes = await modelBytes(url, (p) => seen.push(p));
      return {
        coding: head.headers.get('content-encoding'),
        sent: Number(head.headers.get('content-length')),
        bytes: bytes.length,
        totals: [...new Set(seen.map((p) => p.total))],
        over: seen.filter((p) => p.total !== null && p.loaded > p.total).length,
        last: seen.at(-1),
      };
    });
    assert.equal(r.coding, 'br');
    assert.ok(r.sent < size, `${r.sent} bytes on the wire for ${size}`);
    assert.equal(r.bytes, size);
    assert.ok(r.totals.every((t) => t === null || t === size), `totals ${r.totals}`);
    assert.equal(r.over, 0);
    assert.deepEqual(r.last, { loaded: size, total: size });
  } finally {
    await browser.close();
  }
});
