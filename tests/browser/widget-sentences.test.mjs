// <attention-translator split-sentences> in real Chromium (tests/browser/pages/sentences.html):
// a paragraph longer than the model reads, cut by the core's tokenizer into sentences, one
// shown at a time behind a compact row of sentence tabs (keyboard: the WAI-ARIA tabs pattern);
// the sentence attribute; hostile values; the iframe route (embed.html?split-sentences=1).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, artifact, axeViolations, launch } from './helpers.mjs';

const T = { timeout: 180_000 };
const SHORT = 'I am cold. Tom is here.';

let browser;
let ref;
let paragraph; // #p's text
let expected; // translate(paragraph, {splitSentences: true})

before(async () => {
  browser = await launch();
  ref = await createTranslator({ model: path.join(ROOT, 'models', 'en-fr.safetensors') });
}, { timeout: 90_000 });

after(async () => {
  ref?.dispose();
  await browser?.close();
});

async function open(url) {
  const page = await browser.newPage();
  page.dialogs = [];
  page.on('dialog', (d) => {
    page.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.goto(new URL(url, browser.url).href);
  return page;
}

function settled(page, id) {
  return page.waitForFunction((id) => {
    const el = document.getElementById(id);
    return el && (el.state === 'done' || el.state === 'error') &&
      el.shadowRoot.querySelector('[data-role="widget"]').dataset.playing === 'false';
  }, id, { timeout: 150_000 });
}

// What a widget shows: its tabs, source, output and matrix, through its shadow root.
function read(page, id) {
  return page.$eval(`#${id}`, (el) => {
    const r = el.shadowRoot;
    const tabs = [...r.querySelectorAll('[data-role="sentence-tabs"] [role="tab"]')];
    return {
      state: el.state,
      tabsShown: Boolean(r.querySelector('[data-role="sentence-tabs"]').getClientRects().length),
      tabs: tabs.length,
      selected: tabs.findIndex((t) => t.getAttribute('aria-selected') === 'true'),
      focused: tabs.indexOf(r.activeElement),
      tabStops: tabs.filter((t) => t.tabIndex === 0).length,
      names: tabs.map((t) => t.getAttribute('aria-label')),
      titles: tabs.map((t) => t.title),
      source: r.querySelector('[data-role="source"]').textContent,
      output: r.querySelector('[data-role="output"]').textContent,
      error: r.querySelector('[data-role="error"]').hidden ? '' : r.querySelector('[data-role="error"]').textContent,
      rows: [...r.querySelectorAll('[data-role="matrix"] > [data-row]')].map((row) => ({
        word: row.querySelector('[role="rowheader"]').textContent,
        weights: [...row.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight)),
      })),
    };
  });
}

function assertSentence(shown, k) {
  const s = expected.sentences[k];
  assert.equal(shown.error, '');
  assert.equal(shown.selected, k, `sentence ${k + 1} selected`);
  assert.equal(shown.source, s.source);
  assert.equal(shown.output, s.text);
  assert.deepEqual(shown.rows.map((r) => r.word), s.targetTokens);
  shown.rows.forEach((r, i) => assert.deepEqual(r.weights, s.attention[i], `sentence ${k + 1}, row ${i}`));
}

describe('the widget\'s split-sentences', { timeout: 900_000 }, () => {
  test('a paragraph shows one sentence at a time behind tabs; keys, clicks and the sentence attribute pick it', T, async () => {
    const page = await open('test-pages/sentences.html');
    paragraph = await page.getAttribute('#p', 'text');
    expected = ref.translate(paragraph, { splitSentences: true });
    assert.ok(ref.tokenize(paragraph).length > ref.info().maxSrcLen, 'longer than the model reads');
    for (const id of ['p', 'short', 'off', 'hostile']) await settled(page, id);
    let p = await read(page, 'p');
    assert.equal(p.tabs, expected.sentences.length);
    assert.deepEqual(p.titles, ref.splitSentences(paragraph), 'the core\'s sentences');
    assert.equal(p.names[0], `Sentence 1 of ${expected.sentences.length}`);
    assert.equal(p.tabStops, 1);
    assertSentence(p, 1); // sentence="2"

    // Keyboard: the events are counted to see each pick decode (done names the sentence).
    await page.evaluate(() => {
      window.__done = [];
      document.getElementById('p').addEventListener('done', (e) => window.__done.push(e.detail.sentence));
    });
    await page.focus('#p [role="tab"][aria-selected="true"]');
    const last = expected.sentences.length - 1;
    for (const [key, k] of [['ArrowRight', 2], ['ArrowLeft', 1], ['End', last], ['ArrowRight', 0], ['ArrowLeft', last], ['Home', 0]]) {
      await page.keyboard.press(key);
      await settled(page, 'p');
      p = await read(page, 'p');
      assertSentence(p, k);
      assert.equal(p.focused, k, `${key}: focus follows`);
      assert.equal(p.tabStops, 1);
    }
    assert.deepEqual(await page.evaluate(() => window.__done), [3, 2, last + 1, 1, last + 1, 1]);
    await page.click('#p [role="tab"] >> text="5"');
    await settled(page, 'p');
    assertSentence(await read(page, 'p'), 4);
    await page.$eval('#p', (el) => el.setAttribute('sentence', '7'));
    await settled(page, 'p');
    assertSentence(await read(page, 'p'), 6);

    // Without the attribute, the paragraph is refused as before; with it back, tabs again.
    await page.$eval('#p', (el) => el.removeAttribute('split-sentences'));
    await page.waitForFunction(() => document.getElementById('p').state === 'error');
    p = await read(page, 'p');
    assert.match(p.error, /reads at most 100/);
    assert.equal(p.tabsShown, false);
    await page.$eval('#p', (el) => el.setAttribute('split-sentences', ''));
    await settled(page, 'p');
    assertSentence(await read(page, 'p'), 6);

    // Two short sentences: the attribute asks for them one at a time.
    const short = await read(page, 'short');
    assert.equal(short.tabs, 2);
    assert.equal(short.output, ref.translate('I am cold.').text);
    // No attribute: the page's old behaviour.
    const off = await read(page, 'off');
    assert.match(off.error, /reads at most 100/);
    assert.equal(off.tabsShown, false);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 500))); // the rows' fade-in
    await page.screenshot({ path: artifact('widget-sentences.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('hostile values: split-sentences="false" is still present (a boolean attribute), a bad sentence is the first, markup stays text', T, async () => {
    const page = await open('test-pages/sentences.html');
    await settled(page, 'hostile');
    const text = await page.getAttribute('#hostile', 'text');
    const sentences = ref.splitSentences(text);
    assert.ok(sentences.length >= 2);
    const shown = await read(page, 'hostile');
    assert.equal(shown.tabs, sentences.length);
    assert.equal(shown.selected, 0);
    assert.deepEqual(shown.titles, sentences);
    assert.equal(shown.source, sentences[0]);
    for (const bad of ['0', '-3', '1e3', '', ' 2x']) {
      await page.$eval('#hostile', (el, v) => el.setAttribute('sentence', v), bad);
      await settled(page, 'hostile');
      assert.equal((await read(page, 'hostile')).selected, 0, `sentence="${bad}"`);
    }
    await page.$eval('#hostile', (el) => el.setAttribute('sentence', '99'));
    await settled(page, 'hostile');
    // The state can still read 'done' from before the new sentence is drawn: wait for its rows
    // to have faded in, or axe below would judge half-transparent text.
    await page.waitForFunction(() => {
      const r = document.getElementById('hostile').shadowRoot;
      return r.querySelector('.bl-matrix-row') && !r.querySelector('.bl-matrix-row.is-new');
    });
    assert.equal((await read(page, 'hostile')).selected, sentences.length - 1, 'past the end: the last');
    const injected = await page.$eval('#hostile', (el) => el.shadowRoot.querySelectorAll('img, script').length);
    assert.equal(injected, 0);
    assert.deepEqual(page.dialogs, []);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the iframe route: embed.html?split-sentences=1&sentence=3, and the set message', T, async () => {
    const page = await open(`embed.html?split-sentences=1&sentence=3&speed=instant&text=${encodeURIComponent(paragraph)}`);
    await page.waitForSelector('attention-translator[data-state="done"]');
    const el = await page.$('attention-translator');
    const tab = () => el.evaluate((x) => [...x.shadowRoot.querySelectorAll('[role="tab"]')]
      .findIndex((t) => t.getAttribute('aria-selected') === 'true'));
    assert.equal(await tab(), 2);
    assert.equal(await el.evaluate((x) => x.shadowRoot.querySelector('[data-role="source"]').textContent), expected.sentences[2].source);
    // split-sentences=0 leaves it off, as panel=0 does.
    const off = await open(`embed.html?split-sentences=0&text=${encodeURIComponent(SHORT)}`);
    await off.waitForSelector('attention-translator[data-state="done"]');
    assert.equal(await off.$eval('attention-translator', (x) => x.hasAttribute('split-sentences')), false);
    assert.deepEqual(page.problems, []);
    assert.deepEqual(off.problems, []);
    await off.close();
    await page.close();
  });
});
