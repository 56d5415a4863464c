// Shared by tests/browser/*.test.mjs: the page's static server (scripts/serve.mjs, in process,
// on a free loopback port) and Debian's Chromium driven by playwright-core. No test downloads
// a browser: the system one is used, with a fresh profile each time.
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

import { CHROMIUM, CHROMIUM_ARGS, cannotStart } from '../../scripts/lib/chromium.mjs';
import { startServer } from '../../scripts/serve.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ARTIFACTS = path.join(ROOT, 'tests', 'browser', 'artifacts');

// Files only the tests serve, under /test-files/: a model that is not a model.
function testFiles() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bl-test-files-'));
  writeFileSync(path.join(dir, 'garbage.safetensors'), 'this is not a safetensors file, just text\n'.repeat(20));
  return dir;
}

// Test pages (the widget's hosts) are served from tests/browser/pages/ under /test-pages/.
export const PAGES = path.join(ROOT, 'tests', 'browser', 'pages');

// -> {url, browser, newPage(options), close()}. serverOptions go to startServer (e.g. headers);
// contextOptions to launchAt.
export async function launch(serverOptions = {}, contextOptions = {}) {
  const files = testFiles();
  const server = await startServer({
    port: 0,
    ...serverOptions,
    extraMounts: [['/test-files/', files], ['/test-pages/', PAGES], ...(serverOptions.extraMounts ?? [])],
  });
  const stop = async () => {
    await server.close();
    rmSync(files, { recursive: true, force: true });
  };
  try {
    return await launchAt(server.url, stop, contextOptions);
  } catch (e) {
    await stop();
    throw e;
  }
}

// One browser and server for a whole test file, launched before its first test and closed after
// its last (node:test hooks). -> a stand-in for launch()'s result that forwards to it, so a file
// writes `const browser = sharedBrowser();` and then uses browser.url, browser.newPage() as usual.
export function sharedBrowser(serverOptions = {}, contextOptions = {}) {
  let held = null;
  before(async () => {
    held = await launch(serverOptions, contextOptions);
  }, { timeout: 90_000 });
  after(async () => {
    await held?.close();
  });
  return new Proxy({}, {
    get(_, key) {
      if (!held) throw new Error(`sharedBrowser: browser.${String(key)} used before the browser started`);
      const v = held[key];
      return typeof v === 'function' ? v.bind(held) : v;
    },
  });
}

// Chromium for the pages under `url`, served by any server (tests/browser/site.test.mjs: a plain
// static one); stop() runs on close(). -> {url, context, newPage(options), close()}
// serviceWorkers: 'block' (the default) or 'allow'. The site's pages register web/sw.js, and a
// request the worker answers bypasses Playwright's routes: newPage()'s guard against requests
// that leave `url`, and every test's page.route, would stop seeing them after a file's first
// page. So only tests/browser/offline.test.mjs, which tests the worker, allows it.
export async function launchAt(url, stop = async () => {}, { serviceWorkers = 'block' } = {}) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'bl-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 60_000,
      viewport: { width: 1280, height: 900 },
      serviceWorkers,
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw cannotStart(e);
  }
  context.setDefaultTimeout(30_000);
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    url,
    context,
    // A page that records console errors, failed requests and CSP violations, and refuses any
    // request that leaves `url` (the page must work offline).
    async newPage({ viewport, colorScheme } = {}) {
      const page = await context.newPage();
      if (viewport) await page.setViewportSize(viewport);
      if (colorScheme) await page.emulateMedia({ colorScheme });
      page.problems = [];
      page.on('pageerror', (e) => page.problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') page.problems.push(`console error: ${m.text()}`);
      });
      await page.route('**/*', (route) => {
        const u = route.request().url();
        if (u.startsWith(url) || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
        page.problems.push(`outside request: ${u}`);
        return route.abort();
      });
      return page;
    },
    async close() {
      await context.close().catch(() => {});
      await stop();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function artifact(name) {
  return path.join(ARTIFACTS, name);
}

// The model the page tests use: the shipped one (as a visitor gets it), or BL_PAGE_MODEL=tiny
// for the random-weights fixture while the shipped model is not there yet.
const MODEL_FILES = {
  'en-fr': path.join(ROOT, 'models', 'en-fr.safetensors'),
  tiny: path.join(ROOT, 'tests', 'fixtures', 'tiny-additive-f32.safetensors'),
};

export function pageModel() {
  const name = process.env.BL_PAGE_MODEL ?? 'en-fr';
  const file = MODEL_FILES[name];
  if (!file) throw new Error(`BL_PAGE_MODEL must be one of ${Object.keys(MODEL_FILES).join(', ')}`);
  if (!existsSync(file)) {
    throw new Error(`the page tests need ${path.relative(ROOT, file)}, which is missing (train and export ` +
      'the model, or run them with BL_PAGE_MODEL=tiny)');
  }
  return { name, file };
}

// Waits until the page has decoded the sentence and playback has stopped.
export async function waitDone(page, timeout = 90_000) {
  await page.waitForSelector('[data-role="app"][data-state="done"][data-playing="false"]', { timeout });
}

// Waits until a page of the site has settled, whichever it is: the app's state, or the first
// widget's (the widget pages). -> 'ready', 'done' or 'error'
export async function settledState(page, timeout = 120_000) {
  const state = await page.waitForFunction(() => {
    const app = document.querySelector('[data-role="app"]')?.dataset.state;
    const widget = document.querySelector('attention-translator')?.state;
    const s = app ?? widget;
    return ['ready', 'done', 'error'].includes(s) && s;
  }, null, { timeout });
  return state.jsonValue();
}

export async function waitReady(page, timeout = 60_000) {
  await page.waitForSelector('[data-role="app"]:is([data-state="ready"], [data-state="done"])', { timeout });
}

// The matrix as drawn: row labels and each cell's data-weight, parsed.
export function readMatrix(page) {
  return page.$$eval('[data-role="matrix"] > [data-row]', (rows) =>
    rows.map((r) => ({
      row: Number(r.dataset.row),
      word: r.querySelector('[role="rowheader"]').textContent,
      current: r.dataset.current === 'true',
      weights: [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
    })),
  );
}

export async function setSpeed(page, index) {
  await page.$eval('[data-role="speed"]', (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, index);
}

// The comparison tests' models by name (as in web/app/params.js), as files in this checkout,
// and the pair under test: en-fr and en-fr-dot, or BL_COMPARE_A / BL_COMPARE_B (e.g. tiny and
// tiny-dot, for quick runs).
export const COMPARE_FILES = {
  'en-fr': 'models/en-fr.safetensors',
  'en-fr-dot': 'models/en-fr-dot.safetensors',
  tiny: 'tests/fixtures/tiny-additive-f32.safetensors',
  'tiny-dot': 'tests/fixtures/tiny-scaled_dot-f32.safetensors',
};
export const COMPARE_NAMES = { a: process.env.BL_COMPARE_A ?? 'en-fr', b: process.env.BL_COMPARE_B ?? 'en-fr-dot' };

// On a widget host page (tests/browser/pages/compare.html's #host): one run of a widget with the
// given attributes -> {state, events (its step events), and for each name of reads the text of
// that selector in its shadow root}, or {error} where the widget reported one.
export async function widgetRun(page, attrs, reads = {}) {
  return page.evaluate(([attrs, reads]) => new Promise((resolve) => {
    const el = document.createElement('attention-translator');
    const events = [];
    el.addEventListener('step', (e) => events.push(e.detail));
    el.addEventListener('done', () => resolve({ events, state: el.state, ...Object.fromEntries(
      Object.entries(reads).map(([name, selector]) => [name, el.shadowRoot.querySelector(selector)?.textContent])) }));
    el.addEventListener('error', (e) => resolve({ error: e.detail.message }));
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    document.getElementById('host').replaceChildren(el);
  }), [attrs, reads]);
}

// axe-core's violations on the page as it is now, shadow roots included, one line each (axe
// is loaded into the page on first use).
export async function axeViolations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) {
    await page.evaluate(readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8'));
  }
  return page.evaluate(async () => {
    // Judge the page at rest: a matrix row still fading in (opacity < 1) reads as low contrast.
    // Finite animations only (shadow trees included), so a spinner cannot hold this forever.
    const roots = [document, ...[...document.querySelectorAll('*')].map((e) => e.shadowRoot).filter(Boolean)];
    const finite = roots.flatMap((r) => r.getAnimations())
      .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => {})));
    return (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`);
  });
}
