// scripts/bench --first-visit: the time to the first French word as a new student sees it, on a
// slow phone. Headless Chromium (Debian's, via playwright-core, as tests/browser/ runs it) at
// 390x844, with Chrome DevTools' "Slow 4G" (150 ms latency, 1.6 Mbps down, 750 kbps up) and a
// 4x CPU slowdown (what Lighthouse uses for mobile), on the page served by scripts/serve.mjs.
//
// Each target is opened in a fresh browser profile three ways: cold (nothing cached), reload
// (the same tab again, once the service worker has kept the model), and a second visit with the
// network off (a new tab). Times run from navigation start to the first French word on screen.
// Targets: index.html?text=…, embed.html?text=…, and the widget on a page of another origin
// (which registers no service worker: its reload has only the HTTP cache, and offline fails).
//
// The files are a snapshot (scripts/site's folder, served by scripts/serve.mjs with its own
// headers and compression), so that edits to web/ while it runs cannot start a new version.
//
// Throttling is set per tab over CDP, so the service worker's own fetches (its first fill, after
// the model is in) are not slowed: they come after the first word and are not timed.
//
//   scripts/bench --first-visit [--runs N] [--json] [--only index,embed,widget]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { CHROMIUM, CHROMIUM_ARGS, cannotStart } from './chromium.mjs';
import { startServer } from '../serve.mjs';
import { writeSite } from './site.mjs';

const TEXT = 'The black cat is sleeping.';
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 };
// (DevTools' own preset scales its nominal rates by 0.9 the same way.)
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 390, height: 844 };
const LIMIT_MS = 180_000;

export const USAGE = `usage: scripts/bench --first-visit [--runs N] [--only index,embed,widget] [--json]

Time to the first French word under Slow 4G (150 ms, 1.6 Mbps down, 750 kbps up), CPU x4,
390x844, headless Chromium: cold cache, reload, and a second visit offline; medians of N runs
(default 3), each in a fresh browser profile.`;

const TARGETS = {
  index: (site) => `${site}index.html?text=${encodeURIComponent(TEXT)}`,
  embed: (site) => `${site}embed.html?text=${encodeURIComponent(TEXT)}`,
  // The widget on a course page of another origin: localhost, while the widget is 127.0.0.1's.
  widget: (site) => `${site.replace('127.0.0.1', 'localhost')}bench-pages/widget.html`,
};

const WIDGET_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>a course page on another origin</title>
<script type="module">
const src = new URL('/bahdanau-widget.js', location.href);
src.hostname = '127.0.0.1';
await import(src.href);
</script></head>
<body><attention-translator text="${TEXT}"></attention-translator></body></html>
`;

export function parseArgs(argv) {
  const o = { runs: 3, json: false, only: Object.keys(TARGETS), help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--first-visit') continue;
    if (a === '--help' || a === '-h') o.help = true;
    else if (a === '--json') o.json = true;
    else if (a === '--runs') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error(`--runs wants a whole number from 1 to 50, got ${JSON.stringify(argv[i])}`);
      o.runs = n;
    } else if (a === '--only') {
      const names = String(argv[++i] ?? '').split(',');
      const bad = names.filter((n) => !Object.hasOwn(TARGETS, n));
      if (bad.length) throw new Error(`--only: unknown target ${JSON.stringify(bad[0])} (known: ${Object.keys(TARGETS).join(', ')})`);
      o.only = names;
    } else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  return o;
}

// ms from navigation start to the first French word: the page's output line, or a row of a
// widget's matrix (in its shadow root). null when it did not come within LIMIT_MS.
async function firstWord(page) {
  try {
    const handle = await page.waitForFunction(() => {
      const out = document.querySelector('[data-role="output"]');
      const shadows = [...document.querySelectorAll('attention-translator')].map((e) => e.shadowRoot).filter(Boolean);
      const drawn = (out && out.textContent.trim() !== '') ||
        shadows.some((r) => r.querySelector('[data-role="matrix"] [data-row]'));
      return drawn && performance.now();
    }, null, { timeout: LIMIT_MS, polling: 50 });
    return await handle.jsonValue();
  } catch {
    return null;
  }
}

async function throttle(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return cdp;
}

// Once the first visit is over: until the site's service worker has kept a model (or 60 s:
// the widget's foreign page has none).
async function cachedModel(page) {
  for (const end = Date.now() + 60_000; Date.now() < end; await page.waitForTimeout(250)) {
    const kept = await page.evaluate(async () => {
      if (!('caches' in self)) return true;
      for (const name of await caches.keys()) {
        if (name.startsWith('bahdanau-live:model:') && (await (await caches.open(name)).keys()).length > 0) return true;
      }
      return false;
    }).catch(() => false);
    if (kept) return;
  }
}

async function oneRun(url) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'bl-bench-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: VIEWPORT, timeout: 60_000 });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw cannotStart(e);
  }
  try {
    const page = await context.newPage();
    await throttle(page);
    await page.goto(url, { waitUntil: 'commit', timeout: LIMIT_MS });
    const cold = await firstWord(page);
    await cachedModel(page);
    await page.reload({ waitUntil: 'commit', timeout: LIMIT_MS });
    const reload = await firstWord(page);
    await page.close();
    await context.setOffline(true);
    const again = await context.newPage();
    await throttle(again);
    let offline = null;
    try {
      await again.goto(url, { waitUntil: 'commit', timeout: 30_000 });
      offline = await firstWord(again);
    } catch {
      // the navigation itself failed: nothing cached serves it
    }
    return { cold, reload, offline };
  } finally {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (v.length < xs.length) return null; // a run that failed makes the median a failure
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

export async function benchFirstVisit({ runs = 3, only = Object.keys(TARGETS), log = () => {} } = {}) {
  const pages = mkdtempSync(path.join(os.tmpdir(), 'bl-bench-pages-'));
  writeFileSync(path.join(pages, 'widget.html'), WIDGET_PAGE);
  const site = path.join(pages, 'site');
  await writeSite({ out: site, models: ['en-fr'], compress: false });
  const server = await startServer({ port: 0, extraMounts: [['/bench-pages/', pages], ['/', site, { pages: true }]] });
  const results = {};
  // The machine's own load: CPU x4 slows the page on top of whatever else runs.
  const load = [os.loadavg()[0]];
  try {
    for (const name of only) {
      const all = [];
      for (let r = 0; r < runs; r++) {
        const one = await oneRun(TARGETS[name](server.url));
        log(`${name} run ${r + 1}: ${JSON.stringify(one)}`);
        all.push(one);
      }
      results[name] = {
        runs: all,
        median: Object.fromEntries(['cold', 'reload', 'offline'].map((k) => [k, median(all.map((x) => x[k]))])),
      };
    }
  } finally {
    await server.close();
    rmSync(pages, { recursive: true, force: true });
  }
  load.push(os.loadavg()[0]);
  const machine = `${os.cpus().length} cores, load average ${load.map((x) => x.toFixed(1)).join(' → ')}`;
  return { conditions: { network: 'Slow 4G (150 ms, 1.6 Mbps down, 750 kbps up)', cpu: `x${CPU_SLOWDOWN}`, viewport: '390x844', runs, machine }, results };
}

export function table({ conditions, results }) {
  const s = (ms) => (ms === null ? 'fails' : `${(ms / 1000).toFixed(1)} s`);
  const range = (xs) => {
    const v = xs.filter((x) => x !== null);
    return v.length === xs.length ? `${s(Math.min(...v))}–${s(Math.max(...v))}` : `${v.length}/${xs.length} ok`;
  };
  const lines = [
    `First French word, ${conditions.network}, CPU ${conditions.cpu}, ${conditions.viewport}; median of ${conditions.runs} (range)`,
    `on ${conditions.machine}`,
    '| target | cold cache | reload | second visit, offline |',
    '|---|---|---|---|',
  ];
  for (const [name, r] of Object.entries(results)) {
    const cell = (k) => `${s(r.median[k])} (${range(r.runs.map((x) => x[k]))})`;
    lines.push(`| ${name} | ${cell('cold')} | ${cell('reload')} | ${cell('offline')} |`);
  }
  return lines.join('\n');
}

export async function main(argv) {
  let o;
  try {
    o = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`bench: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  const out = await benchFirstVisit({ runs: o.runs, only: o.only, log: (l) => process.stderr.write(`bench: ${l}\n`) });
  console.log(o.json ? JSON.stringify(out, null, 1) : table(out));
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  process.exitCode = await main(process.argv.slice(2));
}
