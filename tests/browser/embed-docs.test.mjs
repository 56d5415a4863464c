// embed-docs.html as a teacher follows it, in Chromium: where the widget comes from comes first;
// each snippet carries a real address (this server's, or the jsDelivr CDN's for the script
// tags, as the reader chooses), never a placeholder; its copy button puts exactly the snippet on
// the clipboard (or, refused, selects it and says so), by mouse or keyboard, announced in a
// live region; and each snippet, copied from the page and pasted into a course page of another
// origin (http://localhost:PORT against the docs' http://127.0.0.1:PORT), shows the translation
// the engine gives: the script tag, the iframe, the Quarto and Jupyter Book blocks, the reveal.js
// slide, and the Jupyter cell, run by Python's IPython. An odd folder name stays inside the
// snippets' quotes, and the iframe parameters listed are the ones embed.js reads.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, sharedBrowser } from './helpers.mjs';

const T = { timeout: 180_000 };
const SENTENCE = 'I have a black cat.'; // the docs' snippets' sentence
const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const CDN_WIDGET = `https://cdn.jsdelivr.net/npm/bahdanau-live@${version}/web/bahdanau-widget.js`;
// Debian's Python, with python3-ipython from scripts/setup: a run without it fails, not skips.
const PYTHON = '/usr/bin/python3';

const COURSE = mkdtempSync(path.join(os.tmpdir(), 'bl-course-'));
const browser = sharedBrowser({ extraMounts: [['/course/', COURSE]] });
let expected;
after(() => rmSync(COURSE, { recursive: true, force: true }));

before(async () => {
  const t = await createTranslator({ model: path.join(ROOT, 'models', 'en-fr.safetensors') });
  expected = t.translate(SENTENCE).text;
  t.dispose();
});

// The course page's origin: the same server under another host name.
const other = () => browser.url.replace('127.0.0.1', 'localhost');

async function openDocs() {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(browser.url).origin });
  const page = await browser.newPage();
  await page.goto(`${browser.url}embed-docs.html`);
  await page.waitForSelector('#source:not([hidden])');
  return page;
}

const snippetText = (page, name) => page.$eval(`pre[data-name="${name}"] > code`, (c) => c.textContent);
const said = (page, text) => page.waitForFunction((t) => document.getElementById('docs-status').textContent === t, text);

// Copies a snippet with its button, by keyboard (`key`) or mouse -> what the clipboard holds.
async function copy(page, name, key = null) {
  const button = page.locator(`pre[data-name="${name}"] > button.copy`);
  assert.equal(await button.getAttribute('aria-label'), `Copy: ${name}`);
  if (key) {
    await button.focus();
    await page.keyboard.press(key);
  } else {
    await button.click();
  }
  await page.waitForSelector(`pre[data-name="${name}"] > button[data-state="copied"][aria-label="Copied: ${name}"]`);
  await said(page, `Copied: ${name}.`);
  return page.evaluate(() => navigator.clipboard.readText());
}

// A page of another origin whose body is `html`, as a course platform would serve it. It is a
// file the test server serves (from COURSE, under /course/), not a fulfilled route: Chromium lets
// a page reach the loopback server only from an address it knows to be loopback too.
let pages = 0;
async function coursePage(html) {
  const name = `page-${++pages}.html`;
  writeFileSync(path.join(COURSE, name), `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>A course page</title></head>\n<body>\n${html}\n</body></html>\n`);
  const page = await browser.newPage();
  await page.route(`${other()}**`, (route) => route.continue());
  await page.goto(`${other()}course/${name}`);
  return page;
}

// Waits for the first widget in `frame` (a page or an iframe) to finish -> its state and output.
async function shown(frame) {
  await frame.waitForFunction(() => {
    const el = document.querySelector('attention-translator');
    return el && (el.state === 'done' || el.state === 'error')
      && el.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false';
  }, null, { timeout: 90_000 });
  return frame.$eval('attention-translator', (el) => ({
    state: el.state,
    output: el.shadowRoot.querySelector('[data-role="output"]').textContent,
    error: el.shadowRoot.querySelector('[data-role="error"]').textContent,
  }));
}

async function frameOf(page) {
  await page.waitForFunction(() => document.querySelector('iframe')?.contentWindow);
  const handle = await page.$('iframe');
  return handle.contentFrame();
}

test('hosting comes first, and the snippets carry real addresses: the CDN or this server, as chosen', T, async () => {
  const page = await openDocs();
  const sections = await page.$$eval('main > section', (s) => s.map((x) => x.id));
  assert.equal(sections[0], 'hosting');
  for (const id of ['script', 'jupyter', 'quarto', 'reveal', 'iframe']) assert.ok(sections.includes(id), id);
  const urls = (kind) => page.$$eval(`pre [data-url="${kind}"]`, (s) => [...new Set(s.map((x) => x.textContent))]);
  // Served from this machine's loopback address, the script tags start on the CDN, and a note
  // says that the iframe addresses work for this machine only.
  assert.deepEqual(await urls('widget'), [CDN_WIDGET]);
  assert.deepEqual(await urls('embed'), [`${browser.url}embed.html`]);
  assert.equal(await page.isVisible('[data-role="loopback"]'), true);
  assert.equal(await page.textContent('[data-role="loopback"] [data-role="host"]'), new URL(browser.url).host);
  await page.check('input[name="source"][value="server"]');
  assert.deepEqual(await urls('widget'), [`${browser.url}bahdanau-widget.js`]);
  await page.waitForFunction(() => document.getElementById('docs-status').textContent.includes('this server'));
  // Back by keyboard: the radios are one group.
  await page.focus('input[name="source"][value="server"]');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await urls('widget'), [CDN_WIDGET]);
  const all = await page.$$eval('pre code', (c) => c.map((x) => x.textContent).join('\n'));
  assert.doesNotMatch(all, /your\.site/);
  assert.ok(all.includes(`<script type="module" src="${CDN_WIDGET}"></script>`));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('every snippet has a copy button that copies exactly the snippet, by mouse, Enter or Space', T, async () => {
  const page = await openDocs();
  const pres = await page.$$eval('pre', (p) => p.map((x) => Boolean(x.querySelector(':scope > button.copy'))));
  assert.ok(pres.length >= 12 && pres.every(Boolean), `${pres.filter(Boolean).length} of ${pres.length}`);
  assert.equal(await copy(page, 'iframe'), await snippetText(page, 'iframe'));
  assert.equal(await copy(page, 'Jupyter cell', 'Enter'), await snippetText(page, 'Jupyter cell'));
  assert.equal(await copy(page, 'Quarto block', ' '), await snippetText(page, 'Quarto block'));
  assert.equal(await page.textContent('pre[data-name="Quarto block"] > button'), 'Copied');
  await page.waitForSelector('button[aria-label="Copy: Quarto block"]:not([data-state])', { timeout: 5000 }); // and back
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('where the clipboard API is refused, the snippet is copied the old way, or selected with a message', T, async () => {
  const page = await openDocs();
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
  });
  await page.click('button[aria-label="Copy: iframe"]');
  await page.waitForSelector('button[aria-label="Copied: iframe"][data-state="copied"]');
  await said(page, 'Copied: iframe.');
  await page.evaluate(() => {
    document.execCommand = () => false;
  });
  await page.click('button[aria-label="Copy: Jupyter cell"]');
  await page.waitForSelector('button[data-state="selected"]');
  assert.equal(await page.textContent('button[data-state="selected"]'), 'Press Ctrl+C');
  await said(page, 'Could not copy: Jupyter cell is selected; press Ctrl+C (⌘C on a Mac) to copy it.');
  assert.equal(await page.evaluate(() => getSelection().toString()), await snippetText(page, 'Jupyter cell'));
  await page.close();
});

test('the script tag, copied from this server and pasted into a page of another origin, translates', T, async () => {
  const docs = await openDocs();
  await docs.check('input[name="source"][value="server"]');
  const snippet = await copy(docs, 'script tag');
  assert.ok(snippet.startsWith(`<script type="module" src="${browser.url}bahdanau-widget.js"></script>`), snippet);
  await docs.close();
  const course = await coursePage(snippet);
  assert.deepEqual(await shown(course), { state: 'done', output: expected, error: '' });
  assert.deepEqual(course.problems, []);
  await course.close();
});

test('the iframe, copied and pasted into a page of another origin, translates', T, async () => {
  const docs = await openDocs();
  const snippet = await copy(docs, 'iframe');
  await docs.close();
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html\?text=I%20have%20a%20black%20cat\.&amp;controls=minimal"/);
  const course = await coursePage(snippet);
  assert.deepEqual(await shown(await frameOf(course)), { state: 'done', output: expected, error: '' });
  assert.deepEqual(course.problems, []);
  await course.close();
});

test('the Quarto, Jupyter Book and reveal.js snippets, pasted into a page of another origin, translate', T, async () => {
  const docs = await openDocs();
  await docs.check('input[name="source"][value="server"]');
  const blocks = {
    'Quarto block': await copy(docs, 'Quarto block'),
    'Jupyter Book block': await copy(docs, 'Jupyter Book block', 'Enter'),
    'reveal.js slide': await copy(docs, 'reveal.js slide'),
  };
  await docs.close();
  const fence = (s, open) => {
    const lines = s.split('\n');
    assert.equal(lines[0], open);
    assert.equal(lines.at(-1), '```');
    return lines.slice(1, -1).join('\n');
  };
  const html = {
    quarto: fence(blocks['Quarto block'], '```{=html}'),
    'jupyter book': fence(blocks['Jupyter Book block'], '```{raw} html'),
    reveal: blocks['reveal.js slide'],
  };
  assert.match(html.reveal, /<section>[^]*<attention-translator layout="slide" theme="dark"[^]*<\/section>/);
  for (const [name, body] of Object.entries(html)) {
    assert.ok(body.includes(`src="${browser.url}bahdanau-widget.js"`), name);
    const course = await coursePage(body);
    assert.deepEqual(await shown(course), { state: 'done', output: expected, error: '' }, name);
    assert.deepEqual(course.problems, [], name);
    await course.close();
  }
});

test('the Jupyter cell runs in IPython, and the frame it draws translates', T, async () => {
  const docs = await openDocs();
  const cell = await copy(docs, 'Jupyter cell');
  await docs.close();
  // The cell as a notebook runs it: its last expression's HTML is the output shown.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bl-cell-'));
  try {
    writeFileSync(path.join(dir, 'cell.py'), cell);
    const run = spawnSync(PYTHON, ['-c', `
import ast, sys
tree = ast.parse(open(sys.argv[1]).read())
ns = {}
exec(compile(ast.Module(tree.body[:-1], []), 'cell', 'exec'), ns)
print(eval(compile(ast.Expression(tree.body[-1].value), 'cell', 'eval'), ns)._repr_html_())
`, path.join(dir, 'cell.py')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const src = /src="([^"]+)"/.exec(run.stdout)[1];
    const url = new URL(src);
    assert.equal(url.href.split('?')[0], `${browser.url}embed.html`);
    assert.equal(url.searchParams.get('text'), SENTENCE);
    const course = await coursePage(run.stdout);
    assert.deepEqual(await shown(await frameOf(course)), { state: 'done', output: expected, error: '' });
    assert.deepEqual(course.problems, []);
    await course.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("served from a folder named it's&amp, the snippets' addresses stay inside their quotes", T, async () => {
  const page = await browser.newPage();
  // The same files, under an odd folder (the browser may send its quote escaped or not).
  const odd = /^\/(it's|it%27s)&amp\//;
  await page.route((u) => odd.test(u.pathname), async (route) => {
    const u = new URL(route.request().url());
    const response = await route.fetch({ url: new URL(u.pathname.replace(odd, '/'), browser.url).href });
    await route.fulfill({ response });
  });
  await page.goto(`${browser.url}it's&amp/embed-docs.html`);
  await page.waitForSelector('#source:not([hidden])');
  const cell = await snippetText(page, 'Jupyter cell');
  const iframe = await snippetText(page, 'iframe');
  const embed = /IFrame\("([^"]*)"/.exec(cell)[1];
  assert.doesNotMatch(embed, /['&]/);
  assert.equal(decodeURIComponent(new URL(embed).pathname), "/it's&amp/embed.html");
  // The iframe snippet, parsed as HTML, names the same page.
  const src = await page.evaluate((s) => new DOMParser().parseFromString(s, 'text/html').querySelector('iframe').src, iframe);
  assert.equal(decodeURIComponent(new URL(src).pathname), "/it's&amp/embed.html");
  assert.equal(new URL(src).searchParams.get('controls'), 'minimal');
  // Text only: the addresses made no elements.
  assert.deepEqual(await page.$$eval('pre code *', (els) => [...new Set(els.map((e) => e.tagName))]), ['SPAN']);
  await page.close();
});

test('the iframe parameters listed are the ones embed.js reads', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}embed.html?model=tiny`);
  const read = await page.evaluate(async () => [...(await import('./embed.js')).SETTABLE, 'model', 'model-a', 'model-b']);
  await page.goto(`${browser.url}embed-docs.html`);
  const listed = await page.$$eval('#iframe-params tbody th', (ths) => ths.flatMap((th) => [...th.querySelectorAll('code')].map((c) => c.textContent)));
  assert.deepEqual(listed.sort(), read.sort());
  await page.close();
});
