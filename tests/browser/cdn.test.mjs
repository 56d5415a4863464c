// The widget from a package CDN (jsDelivr, unpkg), with no hosting: `npm pack`, unpacked into a
// temporary folder and served as a CDN serves it (a plain static server: files as they are, with
// Access-Control-Allow-Origin, nothing else), embedded by a page of another origin with one
// <script type="module" src="CDN/web/bahdanau-widget.js">. In Chromium the widget translates with
// its default model and with models by name (the two-model modes' too), every file it loads comes
// from the package, never from the host page's origin, and a model the package lacks, or a
// path resolved against the host page, is a 404 that says where it looked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, launchAt } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 180_000 };
const TYPES = {
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm',
  '.json': 'application/json', '.html': 'text/html; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
};

let tmp;
let cdn; // {url, requests, close}: the unpacked package folder
let host; // {url, requests, close}: the course page's origin
let browser;
let reference;
let packed;

// A static server on a free loopback port. files(urlPath) -> {body} | {file} | null. Every
// request's path is kept in `requests`.
function serve(hostname, files) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(urlPath);
    const headers = { 'Access-Control-Allow-Origin': '*' };
    const found = req.method === 'GET' || req.method === 'HEAD' ? files(urlPath) : null;
    if (!found) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    const type = TYPES[path.extname(urlPath)] ?? 'application/octet-stream';
    if (found.body !== undefined) {
      res.writeHead(200, { ...headers, 'Content-Type': type }).end(req.method === 'HEAD' ? undefined : found.body);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': type, 'Content-Length': statSync(found.file).size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(found.file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://${hostname}:${server.address().port}/`,
    requests,
    close: () => new Promise((r) => server.close(r)),
  })));
}

// The files of `dir`, and nothing outside it.
function folder(dir) {
  return (urlPath) => {
    const file = path.join(dir, path.normalize(urlPath));
    if (!file.startsWith(dir + path.sep)) return null;
    try {
      return statSync(file).isFile() ? { file } : null;
    } catch {
      return null;
    }
  };
}

// A course page: the widget from the CDN, and the widgets' done and error events kept in
// window.seen.
function page(widgets) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>a course page</title><link rel="icon" href="data:,">
<script type="module" src="${cdn.url}web/bahdanau-widget.js"></script></head>
<body>
${widgets}
<script>
window.seen = [];
for (const el of document.querySelectorAll('attention-translator')) {
  el.addEventListener('done', (e) => seen.push({ id: el.id, done: e.detail.text }));
  el.addEventListener('error', (e) => seen.push({ id: el.id, error: e.detail.message }));
}
</script>
</body></html>
`;
}

const PAGES = {
  '/default.html': `<attention-translator id="w" text="${SENTENCE}" autoplay></attention-translator>`,
  '/named.html': `<attention-translator id="w" model="en-fr" text="${SENTENCE}" speed="instant"></attention-translator>`,
  '/compare.html': `<attention-translator id="w" mode="compare" text="${SENTENCE}" speed="instant"></attention-translator>`,
  '/bottleneck.html': `<attention-translator id="w" mode="bottleneck" text="${SENTENCE}" speed="instant"></attention-translator>`,
  // What embed-docs.html once documented: a path, resolved against the host page, where there is no model.
  '/path.html': `<attention-translator id="w" model="models/en-fr.safetensors" text="${SENTENCE}"></attention-translator>`,
  // A model by name that the package does not carry.
  '/missing.html': `<attention-translator id="w" model="en-fr-transformer" text="${SENTENCE}"></attention-translator>`,
};

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'bl-cdn-'));
  // Packed as for publishing (prepack builds the engine if it is missing), offline.
  const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(pack.status, 0, pack.stderr);
  [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
  const untar = spawnSync('tar', ['-xzf', path.join(tmp, packed.filename), '-C', tmp], { encoding: 'utf8' });
  assert.equal(untar.status, 0, untar.stderr);
  cdn = await serve('127.0.0.1', folder(path.join(tmp, 'package')));
  host = await serve('localhost', (p) => (Object.hasOwn(PAGES, p) ? { body: page(PAGES[p]) } : null));
  browser = await launchAt(host.url);
  reference = await createTranslator({ model: path.join(ROOT, 'models', 'en-fr.safetensors') });
}, T);

after(async () => {
  reference?.dispose();
  await browser?.close();
  await cdn?.close();
  await host?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// Opens a host page and waits for its widget's done or error event. -> {page, seen, requests
// (every URL the page asked for), errorBox (the widget's error box text, '' when hidden)}
async function open(name) {
  const p = await browser.context.newPage();
  const requests = [];
  const problems = [];
  p.on('request', (r) => requests.push(r.url()));
  p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  p.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  p.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await p.goto(new URL(name, host.url).href);
  await p.waitForFunction(() => window.seen?.length > 0, null, { timeout: 90_000 });
  const seen = await p.evaluate(() => window.seen);
  const errorBox = await p.$eval('#w', (el) => {
    const box = el.shadowRoot.querySelector('[data-role="error"]');
    return box.hidden ? '' : box.textContent;
  });
  await p.close();
  return { seen, requests, problems, errorBox };
}

// Every request but the page itself went to the CDN's origin.
function assertFromCdn(requests, name) {
  const page = new URL(name, host.url).href;
  assert.equal(requests[0], page);
  const elsewhere = requests.slice(1).filter((u) => !u.startsWith(cdn.url));
  assert.deepEqual(elsewhere, [], 'no request leaves the CDN but the page');
}

test('the package, unpacked, holds the widget: a page of another origin translates with the default model', T, async () => {
  const before = host.requests.length;
  const { seen, requests, problems, errorBox } = await open('/default.html');
  assert.deepEqual(seen, [{ id: 'w', done: reference.translate(SENTENCE).text }]);
  assert.equal(errorBox, '');
  assert.deepEqual(problems, []);
  assertFromCdn(requests, '/default.html');
  // The host's origin served the page and nothing else.
  assert.deepEqual(host.requests.slice(before), ['/default.html']);
  for (const f of ['web/bahdanau-widget.js', 'web/ui/widget.css', 'web/models/en-fr.safetensors']) {
    assert.ok(requests.includes(`${cdn.url}${f}`), `${f} from the CDN`);
  }
  assert.ok(requests.some((u) => /web\/dist\/bahdanau-(simd|scalar)\.wasm$/.test(u)), 'the engine from the CDN');
  console.log(`# ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files`);
});

test('model="en-fr" by name, and the two-model modes (their models by name, from the same package)', T, async () => {
  const want = reference.translate(SENTENCE).text;
  const named = await open('/named.html');
  assert.deepEqual(named.seen, [{ id: 'w', done: want }]);
  assert.deepEqual(named.problems, []);
  assertFromCdn(named.requests, '/named.html');
  assert.ok(named.requests.includes(`${cdn.url}web/models/en-fr.safetensors`));
  for (const [mode, other] of [['compare', 'en-fr-dot'], ['bottleneck', 'en-fr-noattn']]) {
    const r = await open(`/${mode}.html`);
    assert.equal(r.seen.length, 1, JSON.stringify(r.seen));
    assert.ok(r.seen[0].done, `${mode}: ${JSON.stringify(r.seen)}`);
    assert.ok(Object.values(r.seen[0].done).includes(want), mode);
    assert.deepEqual(r.problems, [], mode);
    assertFromCdn(r.requests, `/${mode}.html`);
    assert.ok(r.requests.includes(`${cdn.url}web/models/${other}.safetensors`), `${other} from the CDN`);
  }
});

test('a path resolved against the host page, and a name the package lacks, are 404s that say where they looked', T, async () => {
  const wrong = await open('/path.html');
  const at = new URL('models/en-fr.safetensors', host.url).href;
  assert.equal(wrong.seen.length, 1);
  assert.equal(wrong.seen[0].error, `No model file was found at ${at} (HTTP 404). A path in the model attribute is resolved against this page, not against the widget; a model name such as model="en-fr" needs no path.`);
  assert.ok(wrong.errorBox.includes(wrong.seen[0].error));
  assert.doesNotMatch(wrong.errorBox, /not available|not on this server yet/);

  const missing = await open('/missing.html');
  const url = `${cdn.url}web/models/en-fr-transformer.safetensors`;
  assert.equal(missing.seen[0].error, `The model "en-fr-transformer" was not found at ${url} (HTTP 404): the server this widget comes from does not have it.`);
  assertFromCdn(missing.requests, '/missing.html');
});

test('README and embed-docs.html give the CDN snippet for this version', () => {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const url = `https://cdn.jsdelivr.net/npm/bahdanau-live@${version}/web/bahdanau-widget.js`;
  assert.ok(readFileSync(path.join(ROOT, 'README.md'), 'utf8').includes(`<script type="module" src="${url}"></script>`));
  const docs = readFileSync(path.join(ROOT, 'web', 'embed-docs.html'), 'utf8');
  assert.ok(docs.includes(`&lt;script type=&quot;module&quot; src=&quot;${url}&quot;&gt;&lt;/script&gt;`));
  assert.equal(packed.version, version);
});
