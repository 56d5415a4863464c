// <attention-translator layout="slide | article"> (web/widget/layout.js, web/ui/widget-layout.css)
// in Chromium: a slide figure fits a reveal.js-like 16:9 box (960×540, 1280×720) with nothing
// cut off and nothing scrolling inside, also with its four steps open; the arrow keys and the
// space bar step one word while it has focus, and never while the host page (a text field, or
// the deck itself) has it; an article figure in a 740 px column is much shorter than the
// default layout and fits the column; a bad value is the default layout.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { artifact, sharedBrowser } from './helpers.mjs';

const T = { timeout: 120_000 };
const CAT = 'The black cat is sleeping.';
const TWELVE = 'The old man and his young daughter walked slowly to the station.'; // 12 words
const SEVENTEEN = 'The old man and his young daughter walked slowly to the small station near the river today.';
const SLIDES = [[960, 540], [1280, 720]];

const browser = sharedBrowser();

// A host page made of `body`, served from the widget's origin (the script is /bahdanau-widget.js).
async function host(body, viewport = { width: 1400, height: 1000 }) {
  const page = await browser.newPage({ viewport });
  const url = `${browser.url}test-pages/layout-${Math.random().toString(36).slice(2)}.html`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body:
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>layouts</title>
    <script type="module" src="/bahdanau-widget.js"></script></head>
    <body style="margin:0;font:16px serif">${body}</body></html>` }));
  await page.goto(url);
  return page;
}

// Every widget decoded, playback at rest, and the rows' fade-in over.
async function settled(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('attention-translator')].every((e) =>
    e.state === 'done' && e.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false'), null, { timeout: 90_000 });
  await page.waitForTimeout(500);
}

// How the widget #id sits in its box #box: its own rectangle, the visible parts that leave
// the box (cut off), and the elements that scroll inside (more content than room).
function fit(page, id, box) {
  return page.evaluate(([id, box]) => {
    const el = document.getElementById(id);
    const b = document.getElementById(box).getBoundingClientRect();
    const r = el.getBoundingClientRect();
    const out = [];
    const scrolls = [];
    // Nothing of the figure runs into the status line under it.
    const status = el.shadowRoot.querySelector('[data-role="status"]').getBoundingClientRect().top;
    const figure = el.shadowRoot.querySelector('[data-role="figure"]');
    for (const x of el.shadowRoot.querySelectorAll('[data-role="widget"], [data-role="widget"] *')) {
      if (!x.getClientRects().length || x.closest('.bl-sr-only, [role="tooltip"]')) continue;
      const q = x.getBoundingClientRect();
      if (q.width === 0 && q.height === 0) continue;
      const name = `${x.tagName.toLowerCase()}.${x.className?.baseVal ?? x.className} ${x.textContent.slice(0, 20)}`;
      if (q.left < b.left - 0.5 || q.top < b.top - 0.5 || q.right > b.right + 0.5 || q.bottom > b.bottom + 0.5) {
        out.push(`${name} at ${Math.round(q.left)},${Math.round(q.top)} ${Math.round(q.width)}x${Math.round(q.height)}`);
      }
      if (figure.contains(x) && q.bottom > status + 0.5) out.push(`${name} runs into the status line (${q.bottom} > ${status})`);
      if (x.scrollHeight > x.clientHeight + 1 || x.scrollWidth > x.clientWidth + 1) {
        const s = getComputedStyle(x);
        if (/auto|scroll/.test(s.overflowX + s.overflowY)) scrolls.push(`${name}: ${x.scrollWidth}x${x.scrollHeight} in ${x.clientWidth}x${x.clientHeight}`);
      }
    }
    const sentence = el.shadowRoot.querySelector('.sentences');
    return { box: [b.width, b.height], rect: [r.left - b.left, r.top - b.top, r.width, r.height], out, scrolls,
      fontPx: parseFloat(getComputedStyle(sentence).fontSize), cell: el.shadowRoot.querySelector('.bl-cell').getBoundingClientRect().width };
  }, [id, box]);
}

function assertFits(f, what) {
  const [x, y, w, h] = f.rect;
  assert.ok(x >= 0 && y >= 0 && w <= f.box[0] + 0.5 && h <= f.box[1] + 0.5, `${what}: the widget ${w}x${h} at ${x},${y} is not inside ${f.box}`);
  assert.deepEqual(f.out, [], `${what}: parts outside the box`);
  assert.deepEqual(f.scrolls, [], `${what}: scrolls inside`);
}

const slideBox = (w, h, attrs, id = 'w') => `<div id="box" style="width:${w}px;height:${h}px;overflow:hidden">
  <attention-translator id="${id}" layout="slide" ${attrs}></attention-translator></div>`;

describe('widget layouts', { timeout: 900_000 }, () => {
  for (const [w, h] of SLIDES) {
    test(`layout="slide" fits a ${w}x${h} slide, large type, no inner scroll, panel behind a toggle`, T, async () => {
      const page = await host(slideBox(w, h, `text="${CAT}" panel height="560"`), { width: w + 100, height: h + 100 });
      await settled(page);
      const cat = await fit(page, 'w', 'box');
      assertFits(cat, `"${CAT}"`);
      assert.ok(cat.rect[2] >= w - 1 && cat.rect[3] >= h * 0.95, `it fills the slide: ${cat.rect}`);
      assert.ok(cat.fontPx >= w / 48, `large type: the sentence is ${cat.fontPx}px`);
      assert.ok(cat.cell >= 40 * (w / 960), `cells sized to the slide: ${cat.cell}px`);
      // The step panel is not on show until asked for; then it takes the matrix's place.
      const panelShown = () => page.$eval('#w', (el) => Boolean(el.shadowRoot.querySelector('[data-role="step-panel"]').getClientRects().length));
      assert.equal(await panelShown(), false);
      const toggle = page.locator('#w [data-role="steps-toggle"]');
      assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
      await toggle.click();
      assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
      assert.equal(await panelShown(), true);
      assertFits(await fit(page, 'w', 'box'), `"${CAT}", four steps open`);
      await toggle.click();

      await page.$eval('#w', (el, text) => el.setAttribute('text', text), TWELVE);
      await page.waitForFunction((t) => document.getElementById('w').shadowRoot.querySelector('[data-role="source"]').textContent === t, TWELVE);
      await settled(page);
      const twelve = await fit(page, 'w', 'box');
      assertFits(twelve, 'a 12-word sentence');
      assert.ok(twelve.cell >= 20 * (w / 960), `cells still readable: ${twelve.cell}px`);
      await page.screenshot({ path: artifact(`widget-slide-${w}x${h}.png`) });
      await toggle.click();
      assertFits(await fit(page, 'w', 'box'), 'a 12-word sentence, four steps open');
      await page.screenshot({ path: artifact(`widget-slide-${w}x${h}-steps.png`) });
      assert.deepEqual(page.problems, []);
      await page.close();
    });
  }

  test('layout="slide": arrows and space step one word while it has focus, never the host page\'s keys', T, async () => {
    const page = await host(`<p><input id="note" aria-label="notes"></p>${slideBox(960, 540, `text="${CAT}" step="1"`)}
      <attention-translator id="plain" text="${CAT}" step="1"></attention-translator>`, { width: 1100, height: 1300 });
    await page.evaluate(() => {
      window.deck = []; // the slide keys a reveal.js-like deck's document handler receives
      document.addEventListener('keydown', (e) => {
        if (['ArrowLeft', 'ArrowRight', ' '].includes(e.key)) window.deck.push(e.key);
      });
      window.steps = [];
      document.getElementById('w').addEventListener('step', (e) => window.steps.push(e.detail.index));
    });
    await settled(page);
    const position = (id = 'w') => page.$eval(`#${id}`, (el) => ({
      index: Number(el.shadowRoot.querySelector('[data-role="widget"]').dataset.position),
      current: el.shadowRoot.querySelector('[data-role="matrix"] > [data-current]')?.dataset.row ?? null,
    }));
    assert.deepEqual(await position(), { index: 1, current: '1' });

    // Not focused: the deck gets its keys, the widget does not move.
    await page.locator('body').click({ position: { x: 1050, y: 5 } });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(' ');
    assert.deepEqual(await position(), { index: 1, current: '1' });
    assert.deepEqual(await page.evaluate(() => window.deck), ['ArrowRight', ' ']);
    // Typing in the host page's text field: nothing moves, the field gets its space.
    await page.locator('#note').click();
    await page.keyboard.type('a b');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.locator('#note').inputValue(), 'a b');
    assert.deepEqual(await position(), { index: 1, current: '1' });

    // A click on the figure (its sentence, not a control) focuses it; then the keys are its own.
    await page.evaluate(() => { window.deck = []; window.steps = []; });
    await page.locator('#w .sentences').click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'w');
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await position(), { index: 2, current: '2' });
    await page.keyboard.press(' ');
    assert.deepEqual(await position(), { index: 3, current: '3' });
    await page.keyboard.press('ArrowLeft');
    assert.deepEqual(await position(), { index: 2, current: '2' });
    await page.keyboard.press('Shift+Space');
    assert.deepEqual(await position(), { index: 1, current: '1' });
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await page.evaluate(() => window.steps), [2, 3, 2, 1, 2], 'one step event per key');
    assert.deepEqual(await page.evaluate(() => window.deck), [], 'the keys it used do not reach the deck');
    // Tab goes on to its buttons, where Space presses the button (here: back), not a step forward.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.getElementById('w').shadowRoot.activeElement?.dataset.role), 'step-back');
    await page.keyboard.press(' ');
    assert.deepEqual(await position(), { index: 1, current: '1' });

    // The default layout is unchanged: a focused plain widget takes no keys.
    await page.locator('#plain .sentences').click();
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await position('plain'), { index: 1, current: '1' });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('layout="article" in a 740 px column: much shorter than the default, fits the width', T, async () => {
    const column = (id, layout) => `<div id="col-${id}" style="width:740px;margin:0 auto">
      <attention-translator id="${id}" ${layout} text="${SEVENTEEN}" controls="full" panel></attention-translator></div>`;
    const page = await host(column('before', '') + column('after', 'layout="article"'), { width: 900, height: 4000 });
    await settled(page);
    const size = (id) => page.$eval(`#${id}`, (el) => {
      const r = el.getBoundingClientRect();
      const scroller = el.shadowRoot.querySelector('.bl-matrix-scroll');
      return { width: r.width, height: Math.round(r.height), sideways: scroller.scrollWidth - scroller.clientWidth,
        captions: el.shadowRoot.querySelector('.bl-step-caption').getClientRects().length > 0 };
    });
    const before = await size('before');
    const after = await size('after');
    console.log(`article layout, 17 words, controls="full" panel, 740 px: ${before.height} px by default, ${after.height} px with layout="article"`);
    assert.ok(before.height > 1800, `the default layout measured ${before.height} px`);
    assert.ok(after.height <= 1350, `layout="article" is ${after.height} px tall`);
    assert.ok(after.height <= before.height * 0.7, `${after.height} px is not much shorter than ${before.height} px`);
    assert.ok(after.width <= 740 && after.sideways <= 0, `fits the column: ${after.width} px, ${after.sideways} px sideways`);
    // The explanations are one click away, and come back hidden on the next view.
    assert.equal(after.captions, false);
    const toggle = page.locator('#after [data-role="captions-toggle"]');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.equal((await size('after')).captions, true);
    await toggle.click();
    await page.locator('#col-after').screenshot({ path: artifact('widget-article-740.png') });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a bad layout value is the default layout, without an error', T, async () => {
    const bad = ['SLIDE!', '', ' article-ish', '<img src=x onerror=alert(1)>', 'slide slide'];
    const page = await host(`<div style="width:740px"><attention-translator id="ref" text="${CAT}" panel></attention-translator>
      ${bad.map((v, i) => `<attention-translator id="b${i}" layout="${v.replace(/"/g, '&quot;')}" text="${CAT}" panel></attention-translator>`).join('')}</div>`, { width: 900, height: 8000 });
    await settled(page);
    const look = (id) => page.$eval(`#${id}`, (el) => {
      const w = el.shadowRoot.querySelector('[data-role="widget"]');
      return { layout: w.dataset.layout ?? null, height: Math.round(el.getBoundingClientRect().height), tabindex: w.getAttribute('tabindex') };
    });
    const ref = await look('ref');
    for (let i = 0; i < bad.length; i++) assert.deepEqual(await look(`b${i}`), ref, `layout="${bad[i]}"`);
    // And a good value set and removed again leaves the default layout as it was.
    await page.$eval('#b0', (el) => el.setAttribute('layout', ' Slide '));
    assert.equal((await look('b0')).layout, 'slide');
    await page.$eval('#b0', (el) => el.removeAttribute('layout'));
    assert.deepEqual(await look('b0'), ref);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
