// scripts/site's folder on a plain static server, not scripts/serve.mjs: Python's http.server,
// which sends no CORS, CSP, compression or cache headers of its own making. The page translates
// and draws the engine's own matrix, the iframe route (embed.html) works, every page loads with
// no error and no request to a missing file, and all of it also works from a folder of a site
// (~you/attention/), not only at the top of one.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { DEFAULT_MODELS } from '../../scripts/lib/site.mjs';
import { ROOT, launchAt, pageModel, readMatrix, setSpeed, settledState, waitDone, waitReady } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 180_000 };
const PYTHON = '/usr/bin/python3';

let tmp;
let out;
let model;
let servers = [];
let reference;

// python3 -m http.server on a free port of the loopback interface, serving dir.
// -> Promise<{url, child}>
function pythonServer(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', dir, '0'],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no port from http.server: ${seen}`)), 20_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`http.server exited (${code}): ${seen}`)));
    child.stdout.on('data', (d) => {
      seen += d;
      const port = seen.match(/port (\d+)/)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}/`, child });
      }
    });
  });
}

before(async () => {
  model = pageModel();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'bl-site-browser-'));
  out = path.join(tmp, 'attention');
  // The default site (every shipped model), plus the tiny one where BL_PAGE_MODEL asks for it.
  const models = [...new Set([...DEFAULT_MODELS, model.name])];
  const r = spawnSync(path.join(ROOT, 'scripts', 'site'), [out, '--models', models.join(',')],
    { encoding: 'utf8', timeout: 170_000 });
  assert.equal(r.status, 0, r.stderr);
  servers = [await pythonServer(out), await pythonServer(tmp)];
  reference = await createTranslator({ model: path.join(out, 'models', `${model.name}.safetensors`) });
}, T);

after(() => {
  reference?.dispose();
  for (const { child } of servers) child.kill();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// The page's query for the model under test (en-fr is the default: no parameter).
const modelQuery = () => (model.name === 'en-fr' ? '' : `model=${model.name}&`);

function assertNoProblems(page) {
  assert.deepEqual(page.problems, [], 'console errors, page errors or requests leaving the site');
}

// The main page on the sentence: the translation and the matrix, as translate() gives them.
async function assertPageTranslates(browser) {
  const page = await browser.newPage();
  await page.goto(`${browser.url}index.html?${modelQuery()}text=${encodeURIComponent(SENTENCE)}`);
  await waitReady(page);
  await setSpeed(page, 4);
  await waitDone(page);
  const expected = reference.translate(SENTENCE);
  assert.equal(await page.textContent('[data-role="output"]'), expected.text);
  const rows = await readMatrix(page);
  assert.deepEqual(rows.map((r) => r.word), expected.targetTokens, 'one row per output word');
  rows.forEach((r, i) => assert.deepEqual(r.weights, expected.attention[i], `row ${i} equals translate()'s attention`));
  assert.match(await page.textContent('[data-role="status"]'), /wasm-simd/);
  assertNoProblems(page);
  await page.close();
}

describe('the site on python3 -m http.server', { timeout: 900_000 }, () => {
  let browser;
  before(async () => {
    browser = await launchAt(servers[0].url);
  }, T);
  after(() => browser?.close());

  test('the server is a plain one, and still sends the engine as application/wasm', async () => {
    const guess = spawnSync(PYTHON, ['-c', 'import mimetypes; print(mimetypes.guess_type("a.wasm")[0])'], { encoding: 'utf8' });
    assert.equal(guess.stdout.trim(), 'application/wasm', "this Python's mimetypes (3.10+ knows wasm)");
    const res = await fetch(`${servers[0].url}dist/bahdanau-simd.wasm`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    await res.arrayBuffer();
    assert.equal(res.headers.get('content-type'), 'application/wasm');
    assert.equal(res.headers.get('content-encoding'), null, 'no compression of its own');
    assert.equal(res.headers.get('access-control-allow-origin'), null, 'no CORS');
    assert.equal(res.headers.get('content-security-policy'), null, 'no CSP header');
    assert.match(res.headers.get('server') ?? '', /SimpleHTTP/);
  });

  test('index.html?text=… translates, and the matrix shows the engine\'s own weights', T, () => assertPageTranslates(browser));

  test('embed.html, the iframe route: the widget decodes the sentence', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}embed.html?${modelQuery()}text=${encodeURIComponent(SENTENCE)}&speed=instant`);
    await page.waitForSelector('attention-translator[data-state="done"]', { timeout: 120_000 });
    const shown = await page.$eval('attention-translator', (el) => {
      const r = el.shadowRoot;
      return {
        output: r.querySelector('[data-role="output"]').textContent,
        error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
        rows: [...r.querySelectorAll('[data-role="matrix"] > [data-row]')].map((row) =>
          [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight))),
      };
    });
    const expected = reference.translate(SENTENCE);
    assert.equal(shown.error, '');
    assert.equal(shown.output, expected.text);
    assert.deepEqual(shown.rows, expected.attention);
    assertNoProblems(page);
    await page.close();
  });

  test('every page loads with no error and no request for a file the site lacks', T, async () => {
    const pages = readdirSync(out).filter((f) => f.endsWith('.html')).sort();
    assert.deepEqual(pages, ['compare.html', 'embed-docs.html', 'embed.html', 'index.html', 'learn.html', 'train.html', 'why.html']);
    for (const name of pages) {
      const page = await browser.newPage();
      const missing = [];
      page.on('response', (res) => res.status() >= 400 && missing.push(`${res.status()} ${res.url()}`));
      const query = name === 'embed.html' ? '?text=I%20am%20cold.' : '';
      await page.goto(`${browser.url}${name}${query}`);
      assert.match(await settledState(page), /^(ready|done)$/, name);
      await page.waitForTimeout(500);
      assert.deepEqual(missing, [], name);
      assert.deepEqual(page.problems, [], name);
      await page.close();
    }
  });
});

describe('the site in a folder of a plain server (/attention/)', { timeout: 300_000 }, () => {
  let browser;
  before(async () => {
    // Requests outside /attention/ count as problems: every URL the pages build is relative.
    browser = await launchAt(`${servers[1].url}attention/`);
  }, T);
  after(() => browser?.close());

  test('index.html?text=… translates there too, asking nothing outside the folder', T, () => assertPageTranslates(browser));
});
