// scripts/bench --only train: train.html's goals (issue 25, "Train it yourself") measured as a
// visitor meets them, in headless Chromium (Debian's, driven by playwright-core as
// tests/browser does) on the page served by scripts/serve.mjs:
//   - the first visible matrix after pressing Train (goal < 5 s): from the click, in the page,
//     to the frame after the watched matrix's first row is in the document. Twice: pressed once
//     the page has settled (its next run loaded and paused, web/train/warm-run.js: a reader
//     reads the page first), and pressed the moment the button appears (the worker, engine and
//     data still loading);
//   - the longest main-thread long task while it trains (goal: none over 100 ms), from a
//     PerformanceObserver('longtask') installed before the page's first script, while the
//     bench types into the page's text box and scrolls it every few seconds (as a reader
//     would), the run's reports drawing meanwhile;
//   - after `minutes` of training (default 3) of the page's default model (tiny, additive):
//     the gold alignment accuracy (goal >= 75%) and the off-diagonal accuracy (goal >= 45%)
//     of the latest measurement, exactly as the page holds them (its curves table's
//     data-accuracy / data-off-diagonal), and whether the flip of the default sentence (It is
//     my favorite book.; web/train/watch.js) is visible in its latest matrix (web/train/flip.js), in the
//     page's default view (the model reading the reference, as in training), with what its own
//     translation writes and whether that view flips too (the page's other view, switched to
//     and back as a reader would).
// -> [{what, goal, measured}], measured as text; the machine's load is its own row, as every
// timing here is taken on a shared machine.
import os from 'node:os';

import { chromium } from 'playwright-core';

import { DEFAULT_PRESET } from '../../web/train/controls.js';
import { startServer } from '../serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS, cannotStart } from './chromium.mjs';

function recordLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// In the page: presses Train, -> ms until the frame after the first watched row exists.
function pressTrain() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    window.__trainAt = t0;
    document.querySelector('[data-role="train"]').click();
    const check = () => {
      if (document.querySelector('[data-role="app"]').dataset.state === 'error') reject(new Error(document.querySelector('[data-role="error"]').textContent));
      else if (document.querySelector('[data-role="watched"] [data-role="matrix"] > [data-row]')) requestAnimationFrame(() => resolve(performance.now() - t0));
      else setTimeout(check, 10);
    };
    check();
  });
}

// In the page: the latest measurement and the default sentence's flip, as drawn, in each view.
function latest() {
  const row = [...document.querySelectorAll('[data-role="curves-table"] tbody tr')].at(-1);
  const watched = document.querySelector('[data-role="watched"]');
  const num = (v) => (v === undefined || v === 'null' ? null : Number(v));
  const inView = (view) => {
    document.querySelector(`[data-role="view"][value="${view}"]`).click(); // redraws at once
    if (watched.dataset.view !== view) throw new Error(`the watched matrix did not switch to ${view}`);
    return { flip: watched.dataset.flip === 'true', flipText: document.querySelector('[data-role="flip"]').textContent };
  };
  const own = inView('own');
  const reference = inView('reference'); // the page's default, left as it was
  return {
    steps: num(row?.dataset.steps),
    accuracy: num(row?.dataset.accuracy),
    offDiagonal: num(row?.dataset.offDiagonal),
    heldout: num(row?.dataset.heldout),
    source: watched.dataset.source,
    flip: reference.flip,
    flipText: reference.flipText,
    ownFlip: own.flip,
    ownText: watched.querySelector('[data-role="own-text"]').textContent,
    stepsPerSecond: Number(document.querySelector('[data-role="stats"]').dataset.stepsPerSecond),
    kernels: document.querySelector('[data-role="app"]').dataset.kernels,
    longTasks: window.__longTasks.filter((t) => t.start >= window.__trainAt),
  };
}

const pct = (x) => (x === null ? 'none' : `${(100 * x).toFixed(1)}%`);

// options: {minutes (3), preset (DEFAULT_PRESET, the page's default: tiny), scoring ('additive'), log (a function for progress
// lines, default none)}.
export async function trainPageRows(options = {}) {
  const { minutes = 3, preset = DEFAULT_PRESET, scoring = 'additive', log = () => {} } = options;
  if (!(Number.isFinite(minutes) && minutes > 0)) throw new RangeError(`trainPageRows: minutes must be a positive number, got ${minutes}`);
  const server = await startServer({ port: 0 });
  let browser;
  try {
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
    } catch (e) {
      throw cannotStart(e);
    }
    const url = `${server.url}train.html?preset=${preset}&scoring=${scoring}`;
    const errors = [];
    const load0 = os.loadavg()[0];
    const cold = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    cold.on('pageerror', (e) => errors.push(e.message));
    await cold.goto(url);
    await cold.waitForSelector('[data-role="app"][data-state="ready"]', { timeout: 60_000 });
    const coldMs = await cold.evaluate(pressTrain);
    await cold.close();
    log(`first matrix, pressed at once: ${coldMs.toFixed(0)} ms`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(recordLongTasks);
    await page.goto(url);
    await page.waitForSelector('[data-role="app"][data-state="ready"][data-prepared="true"]', { timeout: 90_000 });
    const firstMs = await page.evaluate(pressTrain);
    log(`first matrix after ${firstMs.toFixed(0)} ms`);
    const end = Date.now() + minutes * 60_000;
    let typed = 0;
    while (Date.now() < end) {
      // A reader meanwhile: a few letters typed into the text box, the page scrolled.
      await page.fill('[data-role="try-input"]', '');
      await page.type('[data-role="try-input"]', 'The black cat is sleeping.', { delay: 40 });
      await page.mouse.wheel(0, typed++ % 2 ? -700 : 700);
      await page.waitForTimeout(Math.min(5000, Math.max(0, end - Date.now())));
      const state = await page.getAttribute('[data-role="app"]', 'data-state');
      if (state !== 'training') throw new Error(`the run stopped early: ${state}: ${await page.textContent('[data-role="error"]')}`);
    }
    // Paused at the mark: the latest measurement is the run's last (at most the page's 3 s of
    // training before it).
    await page.click('[data-role="pause"]');
    await page.waitForSelector('[data-role="app"][data-state="paused"]');
    const r = await page.evaluate(latest);
    const load1 = os.loadavg()[0];
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
    const longest = r.longTasks.reduce((m, t) => Math.max(m, t.ms), 0);
    const over = r.longTasks.filter((t) => t.ms > 100).length;
    return [
      { what: 'first visible matrix after pressing Train', goal: '< 5 s', measured: `${(firstMs / 1000).toFixed(2)} s` },
      { what: 'the same, Train pressed the moment the page shows it', goal: '< 5 s', measured: `${(coldMs / 1000).toFixed(2)} s` },
      { what: 'longest main-thread long task while training', goal: 'none over 100 ms',
        measured: r.longTasks.length ? `${longest.toFixed(0)} ms (${r.longTasks.length} over 50 ms, ${over} over 100 ms)` : 'none over 50 ms' },
      { what: `gold alignment accuracy after ${minutes} min (${preset}, ${scoring}; ${r.steps} steps)`, goal: '>= 75%', measured: pct(r.accuracy) },
      { what: `off-diagonal accuracy after ${minutes} min`, goal: '>= 45%', measured: pct(r.offDiagonal) },
      { what: `flip visible in "${r.source}"`, goal: 'yes',
        measured: `${r.flip ? 'yes' : 'no'} (reading the reference: ${r.flipText.trim()}); own translation: ${r.ownText.trim()} (${r.ownFlip ? 'flips too' : 'no flip'})` },
      { what: 'machine load (1-min average, start / end)', goal: '—', measured: `${load0.toFixed(2)} / ${load1.toFixed(2)} on ${os.cpus().length} cores; ${r.stepsPerSecond.toFixed(1)} steps/s at the end (${r.kernels} products)` },
    ];
  } finally {
    await browser?.close().catch(() => {});
    await server.close();
  }
}
