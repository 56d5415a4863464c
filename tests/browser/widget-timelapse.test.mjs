// <attention-translator mode="timelapse"> in real Chromium: learn.html's recorded training run
// (learn/*.js's views) inside the widget's shadow root, on the widget's test host page
// (tests/browser/pages/compare.html, with its strict CSP), on tests/fixtures/timelapse-tiny.json
// (served as /fixtures/: 5 frames, 2 sentences) and on the shipped web/data/timelapse-en-fr.json
// (the default, found next to the widget). The slider has the file's frame count; the matrix's
// cells and the charts' current marks are the file's numbers of the frame shown; Home, End and
// the arrows move it; sentence= and frame= pick what is shown first; lang=zh gives Chinese
// captions; a missing, malformed or refused file shows the error box in words; and no model
// (.safetensors) or engine (dist/) is ever requested. Screenshot: widget-timelapse.png.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { ROOT, artifact, axeViolations, sharedBrowser } from './helpers.mjs';

const T = { timeout: 120_000 };
const browser = sharedBrowser();
const TINY = JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'timelapse-tiny.json'), 'utf8'));
const REAL = JSON.parse(readFileSync(path.join(ROOT, 'web', 'data', 'timelapse-en-fr.json'), 'utf8'));
const TINY_URL = '/fixtures/timelapse-tiny.json';

// A host page with one widget of these attributes; every request it makes is recorded.
async function open(attrs, options = {}) {
  const page = await browser.newPage(options);
  page.requests = [];
  page.on('request', (r) => page.requests.push(r.url()));
  await page.goto(`${browser.url}test-pages/compare.html`);
  await page.waitForFunction(() => customElements.get('attention-translator'));
  await page.evaluate((attrs) => {
    const el = document.createElement('attention-translator');
    el.id = 'w';
    for (const [name, v] of Object.entries(attrs)) el.setAttribute(name, v);
    document.getElementById('host').append(el);
  }, attrs);
  await settled(page);
  return page;
}

function settled(page) {
  return page.waitForFunction(() => {
    const el = document.getElementById('w');
    const w = el?.shadowRoot.querySelector('[data-role="widget"]');
    return el && (el.state === 'error' || (el.state === 'done' && w.dataset.playing === 'false'));
  }, null, { timeout: 60_000 });
}

function read(page) {
  return page.$eval('#w', (el) => {
    const r = el.shadowRoot;
    const box = r.querySelector('[data-role="timelapse"]');
    const q = (sel) => box?.querySelector(sel) ?? null; // the single figure has a play button too
    const shown = (x) => Boolean(x && x.getClientRects().length);
    const text = (sel) => q(sel)?.textContent ?? null;
    return {
      state: el.state,
      error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
      timelapseShown: shown(box),
      figureShown: shown(r.querySelector('[data-role="figure"]')),
      frame: box ? Number(box.dataset.frame) : null,
      sentence: box ? Number(box.dataset.sentence) : null,
      max: q('[data-role="frame-slider"]')?.max ?? null,
      value: q('[data-role="frame-slider"]')?.value ?? null,
      frameValue: text('[data-role="frame-value"]'),
      play: text('[data-role="play"]'),
      intro: text('[data-role="timelapse-intro"]'),
      keyLink: text('[data-role="key-link"]'),
      stats: text('[data-role="stats"]'),
      status: r.querySelector('[data-role="status"]').textContent,
      rows: [...(box?.querySelectorAll('[data-role="learn-matrix"] [data-role="matrix"] > [data-row]') ?? [])].map((row) => ({
        word: row.querySelector('[role="rowheader"]').textContent,
        weights: [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
      })),
      matrixShown: shown(q('[data-role="learn-matrix"] [data-role="matrix"]')),
      key: (() => {
        const c = q('[data-role="learn-matrix"] [data-key="true"]');
        return c ? `${c.parentElement.dataset.row}:${c.dataset.col}` : null;
      })(),
      series: Object.fromEntries([...(box?.querySelectorAll('g[data-series]') ?? [])].map((g) => [g.dataset.series, Number(g.dataset.count)])),
      marks: [...(box?.querySelectorAll('[data-role="current-mark"]') ?? [])].map((g) => Number(g.dataset.step)),
      lossNow: Number(q('[data-role="loss-chart"] .lr-current-point')?.dataset.value),
      charts: ['loss-chart', 'bleu-chart', 'align-chart'].filter((c) => shown(q(`[data-role="${c}"]`))),
      settleMarks: [...(box?.querySelectorAll('[data-role="settle-mark"]') ?? [])].map((m) => `${m.dataset.sentence}:${m.dataset.frame}:${m.dataset.chosen}`),
    };
  });
}

const tokens = (s) => s.tgt_tokens.map((t) => (t === '</s>' ? '⟨/s⟩' : t));
const noModel = (page) => assert.deepEqual(page.requests.filter((u) => /\.safetensors|\/dist\/|\.wasm/.test(u)), [], 'no model or engine is fetched');

describe('the widget\'s timelapse mode', { timeout: 600_000 }, () => {
  test('the recorded matrix of the chosen sentence, the file\'s frames on the slider, the charts; keyboard', T, async () => {
    const page = await open({ mode: 'timelapse', data: TINY_URL });
    let w = await read(page);
    assert.equal(w.state, 'done', w.error);
    assert.ok(w.timelapseShown && !w.figureShown, 'the timelapse replaces the single figure');
    assert.equal(w.max, String(TINY.frames.length - 1), "the slider spans the file's frames");
    assert.equal(w.frame, 4, 'default: the last frame');
    assert.equal(w.sentence, 0, 'default: sentence 1');
    assert.ok(w.matrixShown);
    assert.deepEqual(w.rows.map((r) => r.word), tokens(TINY.sentences[0]));
    assert.deepEqual(w.rows.map((r) => r.weights), TINY.frames[4].rows[0]);
    assert.equal(w.key, '2:1', 'the key cell, noir × black');
    assert.equal(w.frameValue, `snapshot 5 of 5: step 640, ${(TINY.frames[4].elapsed / 60).toFixed(1)} min`);
    assert.match(w.intro, /^Every frame is a real snapshot of one training run/);
    assert.match(w.status, /“tiny-fixture”.*5 snapshots up to step 640/);
    assert.deepEqual(w.charts, ['loss-chart', 'bleu-chart', 'align-chart']);
    for (const s of ['loss', 'bleu', 'align', 'off-diagonal']) assert.equal(w.series[s], 5, s);
    assert.deepEqual(w.marks, [640, 640, 640], 'the current frame marked on each chart');
    assert.deepEqual(w.settleMarks, ['0:3:true'], "sentence 1 settles at frame 4, as the file says");
    // Keyboard on the native slider: Home, End, the arrows; each frame the file's own numbers.
    await page.focus('#w >> [data-role="timelapse"] [data-role="frame-slider"]');
    await page.keyboard.press('Home');
    w = await read(page);
    assert.equal(w.frame, 0);
    assert.deepEqual(w.rows.map((r) => r.weights), TINY.frames[0].rows[0]);
    assert.notDeepEqual(TINY.frames[0].rows[0], TINY.frames[4].rows[0]);
    assert.equal(w.frameValue, 'snapshot 1 of 5: step 0, 0.0 min');
    assert.deepEqual(w.marks, [0, 0, 0]);
    await page.keyboard.press('End');
    w = await read(page);
    assert.equal(w.frame, 4);
    assert.deepEqual(w.rows.map((r) => r.weights), TINY.frames[4].rows[0]);
    await page.keyboard.press('ArrowLeft');
    w = await read(page);
    assert.equal(w.frame, 3);
    assert.deepEqual(w.rows.map((r) => r.weights), TINY.frames[3].rows[0]);
    assert.deepEqual(w.marks, [160, 160, 160]);
    assert.equal(w.lossNow, TINY.frames[3].dev_loss);
    assert.match(w.stats, /Held-out loss 4\.020 · BLEU 2\.9 · alignment 63\.1% of all links, 31\.9% off the diagonal/);
    // frame= from a script moves it too (from 1).
    await page.$eval('#w', (el) => el.setAttribute('frame', '2'));
    await page.waitForFunction(() => document.getElementById('w').shadowRoot.querySelector('[data-role="timelapse"]').dataset.frame === '1');
    assert.deepEqual((await read(page)).rows.map((r) => r.weights), TINY.frames[1].rows[0]);
    // Play runs to the last frame and stops; the element's data-playing follows.
    await page.click('#w >> [data-role="timelapse"] [data-role="play"]');
    await page.waitForFunction(() => document.getElementById('w').shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'true');
    await settled(page);
    assert.equal((await read(page)).frame, 4);
    await page.screenshot({ path: artifact('widget-timelapse.png'), fullPage: true });
    noModel(page);
    assert.deepEqual(page.problems, []);
    // Last: axe's own inline styles are refused by this page's strict CSP, and said so.
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
  });

  test('by default the shipped run, next to the widget; sentence= and frame= pick what is shown', T, async () => {
    const page = await open({ mode: 'timelapse', sentence: '2', frame: '1' });
    let w = await read(page);
    assert.equal(w.state, 'done', w.error);
    assert.ok(page.requests.some((u) => u === `${browser.url}data/timelapse-en-fr.json`), 'data/timelapse-en-fr.json next to the widget');
    assert.equal(w.max, String(REAL.frames.length - 1));
    assert.equal(w.frame, 0);
    assert.equal(w.sentence, 1);
    assert.deepEqual(w.rows.map((r) => r.word), tokens(REAL.sentences[1]));
    assert.deepEqual(w.rows.map((r) => r.weights), REAL.frames[0].rows[1]);
    // Another sentence by attribute: its own rows, at the frame frame= names.
    await page.$eval('#w', (el) => el.setAttribute('sentence', '3'));
    await page.waitForFunction(() => document.getElementById('w').shadowRoot.querySelector('[data-role="timelapse"]').dataset.sentence === '2');
    w = await read(page);
    assert.deepEqual(w.rows.map((r) => r.weights), REAL.frames[0].rows[2]);
    noModel(page);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('lang="zh": Chinese captions, and back', T, async () => {
    const page = await open({ mode: 'timelapse', data: TINY_URL, sentence: '2', lang: 'zh' });
    let w = await read(page);
    assert.equal(w.state, 'done', w.error);
    assert.equal(w.sentence, 1);
    assert.deepEqual(w.rows.map((r) => r.weights), TINY.frames[4].rows[1]);
    assert.equal(w.play, '播放');
    assert.match(w.frameValue, /^第 5 个快照，共 5 个：第 640 步/);
    assert.match(w.intro, /^每一帧都是同一次训练中的一个真实快照/);
    assert.equal(w.keyLink, '关键对齐（已描边）：“blanc” → “white”。');
    assert.equal(await page.$eval('#w', (el) => el.shadowRoot.querySelector('[data-role="loss-chart"]').getAttribute('aria-label')), '留出损失（每个法语词的交叉熵）');
    await page.$eval('#w', (el) => el.setAttribute('lang', 'en'));
    w = await read(page);
    assert.equal(w.play, 'Play');
    assert.equal(w.keyLink, 'Key link, outlined: “blanc” → “white”.');
    noModel(page);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a missing, a malformed or a refused data file: the error box says why', T, async () => {
    const page = await open({ mode: 'timelapse', data: '/fixtures/no-such-timelapse.json' });
    await page.route('**/broken-timelapse.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"frames": [' }));
    let w = await read(page);
    assert.equal(w.state, 'error');
    assert.ok(!w.timelapseShown, 'nothing is drawn under the error');
    assert.match(w.error, /The recorded run could not be shown: http:\/\/127\.0\.0\.1:\d+\/fixtures\/no-such-timelapse\.json: HTTP 404/);
    const cases = [
      ['/fixtures/tiny-train.json', /not a timelapse file: no frames/], // JSON, but not a timelapse
      ['/broken-timelapse.json', /broken-timelapse\.json: .*JSON/], // not JSON at all
      ['javascript:alert(1)', /data="javascript:alert\(1\)" is not an http\(s\) URL/],
    ];
    for (const [data, message] of cases) {
      await page.$eval('#w', (el, data) => el.setAttribute('data', data), data);
      await page.waitForFunction((data) => {
        const r = document.getElementById('w').shadowRoot;
        return document.getElementById('w').state === 'error' && r.querySelector('[data-role="error"]').textContent.includes(data.split('/').at(-1).slice(0, 12));
      }, data);
      w = await read(page);
      assert.match(w.error, message, data);
    }
    // A good file after a bad one: drawn, the error gone.
    await page.$eval('#w', (el, data) => el.setAttribute('data', data), TINY_URL);
    await settled(page);
    w = await read(page);
    assert.equal(w.state, 'done');
    assert.equal(w.error, '');
    assert.deepEqual(w.rows.map((r) => r.weights), TINY.frames[4].rows[0]);
    noModel(page);
    // The 404 is the browser's own console line; nothing else may be.
    assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
    await page.close();
  });
});
