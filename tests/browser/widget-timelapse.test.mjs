// <attention-translator mode="timelapse"> in real Chromium: learn.html's recorded training run
// (learn/*.js's views) inside the widget's shadow root, on the widget's test host page
// (tests/browser/pages/compare.html, with its strict CSP), on tests/fixtures/timelapse-tiny.json
// (served as /fixtures/: 5 frames, 2 sentences) and on the shipped web/data/timelapse-en-fr.json
// (the default, found next to the widget). The slider has the file's frame count; the matrix's
// cells and the charts' current marks are the file's numbers of the frame shown; Home, End and
// the arrows move it; sentence= and frame= pick what is shown first; lang=zh gives Chinese
// captions; a missing, malformed or refused file shows the error box in words; and no model
// (.safetensors) or engine (dist/) is ever requested. Then speed, controls="none", the step
// events, the embed.html route (data=, frame=, and hostile values for both) and the line colours
// in every theme. Screenshot: widget-timelapse.png. About 430 lines, on purpose: every test
// drives the same host page through open/read/atFrame above them.
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
    // Every step event, with when it came: the frames' pace is timed from these.
    window.steps = [];
    el.addEventListener('step', (e) => window.steps.push({ ...e.detail, t: performance.now() }));
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

// Until the timelapse shows frame i (from 0); embed.html's element has no id.
const atFrame = (page, i, sel = '#w') => page.waitForFunction(([sel, i]) =>
  document.querySelector(sel).shadowRoot.querySelector('[data-role="timelapse"]').dataset.frame === String(i), [sel, i]);
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

  // speed is in frames per second here (1, 2, 4, 10; instant: the last frame at once); without
  // it the frames keep learn.html's pace, 650 ms. Timed from the step events, with room for a
  // busy machine: only the order of magnitude is asserted.
  test('speed: frames per second while playing; instant shows the last at once; none: learn.html\'s 650 ms', T, async () => {
    const gaps = (steps) => steps.slice(1).map((s, k) => s.t - steps[k].t);
    async function play(attrs, change = null) {
      const page = await open({ mode: 'timelapse', data: TINY_URL, frame: '1', ...attrs });
      await page.evaluate(() => window.steps.splice(0));
      await page.click('#w >> [data-role="timelapse"] [data-role="play"]');
      if (change) await page.$eval('#w', (el, v) => el.setAttribute('speed', v), change);
      await atFrame(page, 4);
      await settled(page);
      const steps = await page.evaluate(() => window.steps);
      assert.deepEqual(page.problems, []);
      await page.close();
      return steps;
    }
    const fast = await play({ speed: '10' });
    assert.deepEqual(fast.map((s) => s.frame), [1, 2, 3, 4], 'every frame in turn');
    assert.ok(Math.max(...gaps(fast)) < 400, `10 frames per second: ${gaps(fast)}`);
    const slow = await play({ speed: '1' });
    assert.ok(Math.min(...gaps(slow)) > 900, `1 frame per second: ${gaps(slow)}`);
    const plain = await play({});
    assert.ok(Math.min(...gaps(plain)) > 550 && Math.max(...gaps(plain)) < 1200, `no speed: learn.html's pace: ${gaps(plain)}`);
    const bad = await play({ speed: 'warp' });
    assert.ok(Math.min(...gaps(bad)) > 550, `a bad value reads as none: ${gaps(bad)}`);
    assert.deepEqual((await play({ speed: 'instant' })).map((s) => s.frame), [4], 'instant: straight to the last frame');
    // Changed while playing: the rest of the run at once.
    const changed = await play({ speed: '1' }, 'instant');
    assert.equal(changed.at(-1).frame, 4);
    assert.ok(changed.length <= 2, `set to instant while playing: ${changed.map((s) => s.frame)}`);
  });

  test('controls="none": no play button, slider or sentence chooser (hidden, out of the tab order); minimal and full keep them', T, async () => {
    const page = await open({ mode: 'timelapse', data: TINY_URL, controls: 'none', frame: '2', speed: '10' });
    const look = () => page.$eval('#w', (el) => {
      const box = el.shadowRoot.querySelector('[data-role="timelapse"]');
      const shown = (x) => Boolean(x && x.getClientRects().length);
      const parts = { play: '[data-role="play"]', slider: '[data-role="frame-slider"]', chooser: '[data-role="sentence"]', marks: '[data-role="settle-mark"]' };
      return {
        ...Object.fromEntries(Object.entries(parts).map(([k, sel]) => {
          const x = box.querySelector(sel);
          return [k, shown(x) ? 'shown' : x.closest('[hidden]') ? 'hidden' : 'invisible only'];
        })),
        matrix: shown(box.querySelector('[data-role="learn-matrix"] [data-role="matrix"]')),
        frameValue: shown(box.querySelector('[data-role="frame-value"]')) ? box.querySelector('[data-role="frame-value"]').textContent : null,
      };
    });
    // Tab through the page: the roles that take focus inside the widget's timelapse.
    const tabbed = async () => {
      await page.evaluate(() => document.activeElement?.blur());
      const roles = [];
      for (let k = 0; k < 12; k++) {
        await page.keyboard.press('Tab');
        roles.push(await page.evaluate(() => document.getElementById('w').shadowRoot.activeElement?.dataset.role ?? null));
      }
      return roles;
    };
    let w = await look();
    assert.deepEqual([w.play, w.slider, w.chooser, w.marks], ['hidden', 'hidden', 'hidden', 'hidden'], JSON.stringify(w));
    assert.ok(w.matrix, 'the figure itself stays');
    assert.equal(w.frameValue, `snapshot 2 of 5: step 10, ${(TINY.frames[1].elapsed / 60).toFixed(1)} min`, 'and which snapshot it is, in words');
    const roles = await tabbed();
    for (const role of ['play', 'frame-slider', 'sentence']) assert.ok(!roles.includes(role), `${role} takes no focus: ${roles}`);
    // An autoplaying figure: plays on with no button to press.
    await page.$eval('#w', (el) => el.setAttribute('autoplay', ''));
    await atFrame(page, 4);
    await settled(page);
    for (const controls of ['minimal', 'full']) {
      await page.$eval('#w', (el, v) => el.setAttribute('controls', v), controls);
      w = await look();
      assert.deepEqual([w.play, w.slider, w.chooser, w.marks], ['shown', 'shown', 'shown', 'shown'], controls);
      const roles = await tabbed();
      assert.ok(roles.includes('play') && roles.includes('frame-slider') && roles.includes('sentence'), `${controls}: ${roles}`);
    }
    await page.$eval('#w', (el) => el.setAttribute('controls', 'none'));
    assert.equal((await look()).slider, 'hidden', 'and back to none');
    assert.deepEqual(page.problems, []);
    // Last, as above: axe's inline styles are refused by this page's CSP.
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
  });

  test('a step event at every frame shown, {frame, frames, step, sentence}: first, slider, frame=, sentence chosen, play', T, async () => {
    const page = await open({ mode: 'timelapse', data: TINY_URL, sentence: '2', frame: '3', speed: '10' });
    const taken = async () => (await page.evaluate(() => window.steps.splice(0))).map(({ t, ...d }) => d);
    const at = (frame, sentence = 1) => ({ frame, frames: TINY.frames.length, step: TINY.frames[frame].step, sentence });
    assert.deepEqual(await taken(), [at(2)], 'the frame shown first');
    await page.focus('#w >> [data-role="timelapse"] [data-role="frame-slider"]');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await taken(), [at(0), at(1)]);
    await page.$eval('#w', (el) => el.setAttribute('frame', '5'));
    await atFrame(page, 4);
    assert.deepEqual(await taken(), [at(4)]);
    await page.selectOption('#w >> [data-role="sentence"]', '0');
    assert.deepEqual(await taken(), [at(4, 0)], 'another sentence, at the same frame');
    await page.click('#w >> [data-role="timelapse"] [data-role="play"]');
    await page.waitForFunction(() => document.getElementById('w').shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'true');
    await settled(page);
    assert.deepEqual(await taken(), [0, 1, 2, 3, 4].map((f) => at(f, 0)), 'play, from the first again');
    // Plain data: what postMessage carries to a parent frame, unchanged.
    const detail = await page.$eval('#w', (el) => new Promise((resolve) => {
      el.addEventListener('step', (e) => resolve({ same: JSON.stringify(structuredClone(e.detail)) === JSON.stringify(e.detail), keys: Object.keys(e.detail) }), { once: true });
      el.setAttribute('frame', '1');
    }));
    assert.deepEqual(detail, { same: true, keys: ['frame', 'frames', 'step', 'sentence'] });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('embed.html: data= (a same-origin path only) and frame=, set by message too; step events reach the parent; hostile values', T, async () => {
    const tiny = `${browser.url}fixtures/timelapse-tiny.json`;
    const look = (frame) => frame.$eval('attention-translator', (el) => {
      const r = el.shadowRoot;
      const box = r.querySelector('[data-role="timelapse"]');
      const err = r.querySelector('[data-role="error"]');
      return { state: el.state, frame: box.dataset.frame ?? null, max: box.querySelector('[data-role="frame-slider"]').max, data: el.getAttribute('data'), error: err.hidden ? '' : err.textContent };
    });
    const state = (frame, s) => frame.waitForFunction((s) => document.querySelector('attention-translator')?.state === s, s, { timeout: 60_000 });
    // A parent page with the frame and a listener for its messages.
    const page = await browser.newPage();
    await page.route('**/timelapse-parent.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><title>a course page</title>
<iframe id="f" title="training" src="/embed.html?mode=timelapse&amp;data=%2Ffixtures%2Ftimelapse-tiny.json&amp;frame=2" style="width: 100%; height: 900px"></iframe>
<script>window.got = []; addEventListener('message', (e) => { if (e.data && e.data.event === 'step') window.got.push(e.data.detail); });</script>` }));
    await page.goto(`${browser.url}timelapse-parent.html`);
    const frame = await (await page.waitForSelector('#f')).contentFrame();
    await state(frame, 'done');
    assert.deepEqual(await look(frame), { state: 'done', frame: '1', max: '4', data: tiny, error: '' }, 'the tiny file, at frame 2');
    const at = (f) => ({ frame: f, frames: 5, step: TINY.frames[f].step, sentence: 0 });
    await page.waitForFunction(() => window.got.length > 0);
    assert.deepEqual(await page.evaluate(() => window.got.at(-1)), at(1), 'the step event, in the parent');
    const set = (attributes) => page.evaluate((attributes) => document.getElementById('f').contentWindow.postMessage({ type: 'attention-translator:set', attributes }, '*'), attributes);
    await set({ frame: '4' });
    await atFrame(frame, 3, 'attention-translator');
    await page.waitForFunction(() => window.got.at(-1).frame === 3);
    assert.deepEqual(await page.evaluate(() => window.got.at(-1)), at(3));
    // Another origin, a script URL, a protocol-relative one, junk: the error box; a path again: drawn.
    for (const data of ['javascript:alert(1)', 'https://example.com/t.json', '//example.com/t.json', '\\\\example.com/t.json', 'x'.repeat(3000)]) {
      await set({ data });
      await state(frame, 'error');
      assert.notEqual((await look(frame)).error, '', data.slice(0, 40));
      await set({ data: '/fixtures/timelapse-tiny.json' });
      await state(frame, 'done');
    }
    assert.equal((await look(frame)).data, tiny);
    // A frame that is junk reads as none: the last.
    await set({ frame: 2 });
    await atFrame(frame, 1, 'attention-translator');
    await set({ frame: `${'9'.repeat(7)}${'<b>'.repeat(1000)}` });
    await atFrame(frame, 4, 'attention-translator');
    assert.equal((await look(frame)).error, '');
    assert.deepEqual(page.problems, []);
    // The same rule on the URL.
    for (const data of ['javascript:alert(1)', 'https://example.com/t.json', 'x'.repeat(3000)]) {
      await page.goto(`${browser.url}embed.html?mode=timelapse&data=${encodeURIComponent(data)}`);
      await state(page, 'error');
    }
    await page.goto(`${browser.url}embed.html?mode=timelapse&data=%2Ffixtures%2Ftimelapse-tiny.json&frame=${'x'.repeat(3000)}`);
    await state(page, 'done');
    assert.equal((await look(page)).frame, '4');
    assert.deepEqual(page.problems, [], 'nothing thrown, nothing fetched from elsewhere');
    await page.close();
  });

  // The line colours are declared once (learn.css), for learn.html's :root and the widget's
  // .widget: the same six colours, light and dark, on the page and in every widget theme.
  test('the line colours: learn.html light and dark, the widget in theme light, dark and auto', T, async () => {
    const rgb = (hex) => `rgb(${[1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).join(', ')})`;
    const NAMES = ['loss', 'bleu', 'acc', 'off', 'diag', 'mark'];
    const COLOURS = {
      light: ['#d6604d', '#2166ac', '#1b7837', '#b35806', '#6b6b6b', '#b35806'].map(rgb),
      dark: ['#f08c78', '#6ea8dc', '#7fc97f', '#fdb863', '#a0a0a0', '#fdb863'].map(rgb),
    };
    // Each --lr-* as a colour where it is used (a probe inside the scope that declares them).
    const probe = (names) => {
      const w = document.getElementById('w');
      const scope = w ? w.shadowRoot.querySelector('[data-role="timelapse"]') : document.body;
      const el = document.createElement('span');
      scope.append(el);
      const out = names.map((n) => {
        el.style.setProperty('color', `var(--lr-${n})`);
        return getComputedStyle(el).color;
      });
      el.remove();
      return out;
    };
    for (const scheme of ['light', 'dark']) {
      const page = await browser.newPage({ colorScheme: scheme });
      await page.goto(`${browser.url}learn.html?data=/fixtures/timelapse-tiny.json`);
      assert.deepEqual(await page.evaluate(probe, NAMES), COLOURS[scheme], `learn.html, ${scheme}`);
      await page.close();
      for (const theme of ['light', 'dark', 'auto']) {
        const widget = await open({ mode: 'timelapse', data: TINY_URL, theme }, { colorScheme: scheme });
        const drawn = theme === 'auto' ? scheme : theme;
        assert.equal(await widget.$eval('#w', (el) => el.shadowRoot.querySelector('[data-role="widget"]').dataset.theme), drawn);
        assert.deepEqual(await widget.evaluate(probe, NAMES), COLOURS[drawn], `widget theme=${theme} under ${scheme}`);
        // And as the charts draw them: the loss line's colour.
        assert.equal(await widget.$eval('#w', (el) => getComputedStyle(el.shadowRoot.querySelector('[data-role="loss-chart"] .is-loss')).color), COLOURS[drawn][0]);
        await widget.close();
      }
    }
  });
});
