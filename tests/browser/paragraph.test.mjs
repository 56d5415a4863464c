// A paragraph on index.html (web/app/paragraph.js, web/ui/sentence-tabs.js): text of several
// sentences is translated sentence by sentence, cut by the core's own tokenizer, with a row of
// sentence tabs (keyboard: the WAI-ARIA tabs pattern) choosing the sentence whose matrix,
// permalink and export are shown; over the model's limit always, under it unless "as one
// sequence" (whole=1) is chosen. Also the tab row on a phone (390×844, screenshot) and axe in
// both languages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { artifact, axeViolations, launch, pageModel, readMatrix, waitDone } from './helpers.mjs';

// 11 sentences, 108 tokens with en-fr: over its 100.
const PARAGRAPH = 'The black cat is sleeping on the red sofa. I have a small dog and two cats. ' +
  'We are going to the beach tomorrow morning. My brother drives his old car to work every day. ' +
  'She reads a book in the garden after lunch. Tom is looking for his keys in the kitchen. ' +
  'The children are playing in the park near the school. I would like a cup of coffee, please. ' +
  'It is raining, so we will stay at home tonight. Where is the nearest train station? ' +
  'My mother makes a delicious cake every Sunday.';
const T = { timeout: 180_000 };

let browser;
let model;
let ref; // the JS API on the same model: what the page must show
let expected; // translate(PARAGRAPH, {splitSentences: true})

before(async () => {
  model = pageModel();
  browser = await launch();
  ref = await createTranslator({ model: model.file });
  expected = ref.translate(PARAGRAPH, { splitSentences: true });
}, { timeout: 90_000 });

after(async () => {
  ref?.dispose();
  await browser?.close();
});

async function open(query, options) {
  const page = await browser.newPage(options);
  await page.goto(`${browser.url}?model=${model.name}&${query}`);
  return page;
}

// The page's sentence tabs: {count, selected (from 0), tabStops (tabindex 0), names, focused}.
const readTabs = (page) => page.$$eval('[data-role="sentence-tabs"] [role="tab"]', (tabs) => ({
  count: tabs.length,
  selected: tabs.findIndex((t) => t.getAttribute('aria-selected') === 'true'),
  tabStops: tabs.filter((t) => t.tabIndex === 0).length,
  names: tabs.map((t) => t.getAttribute('aria-label')),
  titles: tabs.map((t) => t.title),
  focused: tabs.indexOf(document.activeElement),
}));

// Decoded, playback stopped, and the whole paragraph's translation back.
async function settled(page) {
  await waitDone(page);
  await page.waitForSelector('[data-role="paragraph"][data-state="done"]');
}

function assertShowsSentence(rows, k) {
  const s = expected.sentences[k];
  assert.deepEqual(rows.map((r) => r.word), s.targetTokens, `sentence ${k + 1}'s words`);
  rows.forEach((r, i) => assert.deepEqual(r.weights, s.attention[i], `sentence ${k + 1}, row ${i}`));
}

const assertNoProblems = (page) => assert.deepEqual(page.problems, []);

describe('a paragraph on the page', { timeout: 900_000 }, () => {
  test('is cut by the core into sentences, each translated, with the first one\'s matrix on show', T, async () => {
    assert.ok(ref.tokenize(PARAGRAPH).length > ref.info().maxSrcLen, 'the paragraph is over the model\'s limit');
    assert.throws(() => ref.translate(PARAGRAPH), /split the text into sentences/);
    const page = await open(`speed=instant&text=${encodeURIComponent(PARAGRAPH)}`);
    await settled(page);
    assert.equal(await page.isVisible('[data-role="error"]'), false, 'not refused');
    const tabs = await readTabs(page);
    assert.equal(tabs.count, expected.sentences.length);
    assert.deepEqual(tabs.titles, ref.splitSentences(PARAGRAPH), 'the core\'s sentences, as typed');
    assert.equal(tabs.selected, 0);
    assert.equal(tabs.tabStops, 1, 'one tab stop (roving tabindex)');
    assert.equal(tabs.names[2], `Sentence 3 of ${expected.sentences.length}`);
    assertShowsSentence(await readMatrix(page), 0);
    assert.equal(await page.textContent('[data-role="output"]'), expected.sentences[0].text);
    assert.match(await page.textContent('[data-role="paragraph-note"]'), /108 tokens .* at most 100 .* 11 sentences/);
    // The whole translation, every sentence joined, the one on show marked.
    assert.equal(await page.textContent('[data-role="paragraph-output"]'), expected.text);
    assert.equal(await page.textContent('[data-role="paragraph-output"] .is-selected'), expected.sentences[0].text);
    // The result is the tabs' panel, named by the selected tab.
    const panel = await page.$eval('[data-role="sentence-panel"]', (el) => ({
      role: el.getAttribute('role'), by: el.getAttribute('aria-labelledby'),
      controls: document.querySelector('[role="tab"]').getAttribute('aria-controls'), id: el.id,
    }));
    assert.equal(panel.role, 'tabpanel');
    assert.equal(panel.controls, panel.id);
    assert.equal(await page.$eval(`#${panel.by}`, (t) => t.getAttribute('aria-selected')), 'true');
    assertNoProblems(page);
    await page.close();
  });

  test('the tabs are keyboard reachable: Right, Left, Home and End pick a sentence, which decodes word by word', T, async () => {
    const page = await open(`speed=instant&text=${encodeURIComponent(PARAGRAPH)}`);
    await settled(page);
    // Tab from the text box reaches the selected tab (one tab stop for the whole row).
    await page.focus('[data-role="source-input"]');
    let presses = 0;
    while ((await readTabs(page)).focused < 0) {
      assert.ok(++presses < 40, 'a sentence tab is reachable with Tab');
      await page.keyboard.press('Tab');
    }
    assert.equal((await readTabs(page)).focused, 0);
    const position = () => page.getAttribute('[data-role="app"]', 'data-position');
    const last = expected.sentences.length - 1;
    for (const [key, k] of [['ArrowRight', 1], ['ArrowRight', 2], ['ArrowLeft', 1], ['End', last], ['ArrowRight', 0],
      ['ArrowLeft', last], ['Home', 0], ['ArrowRight', 1]]) {
      await page.keyboard.press(key);
      await settled(page);
      const tabs = await readTabs(page);
      assert.deepEqual([tabs.selected, tabs.focused, tabs.tabStops], [k, k, 1], `${key} -> sentence ${k + 1}`);
      assertShowsSentence(await readMatrix(page), k);
      assert.equal(await page.textContent('[data-role="output"]'), expected.sentences[k].text);
      assert.equal(await page.textContent('[data-role="paragraph-output"] .is-selected'), expected.sentences[k].text);
      assert.equal(Number(await position()), expected.sentences[k].targetTokens.length - 1, 'played to its last word (</s> is one step further)');
    }
    // A click picks one too, and the new sentence plays word by word at the chosen speed.
    await page.$eval('[data-role="speed"]', (el) => {
      el.value = '3';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.evaluate(() => {
      window.__rows = [];
      const root = document.querySelector('[data-role="matrix-root"]');
      new MutationObserver(() => window.__rows.push(root.querySelectorAll('[data-role="matrix"] > [data-row]').length))
        .observe(root, { childList: true, subtree: true });
    });
    await page.click('[role="tab"] >> text="4"');
    await settled(page);
    assertShowsSentence(await readMatrix(page), 3);
    const counts = [...new Set(await page.evaluate(() => window.__rows))].filter((n) => n > 0);
    assert.deepEqual(counts, expected.sentences[3].targetTokens.map((_, i) => i + 1), 'rows appear one at a time');
    assertNoProblems(page);
    await page.close();
  });

  test('the permalink and the export follow the sentence on show; the link reopens it, forced French too', T, async () => {
    const page = await open(`speed=instant&text=${encodeURIComponent(PARAGRAPH)}`);
    await settled(page);
    await page.click('[role="tab"] >> text="3"');
    await settled(page);
    await page.click('[data-role="first"]');
    await page.click('[data-role="step-forward"]');
    const before = await readMatrix(page);
    assert.equal(before.length, 2);

    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="export-svg"]')]);
    const svgText = readFileSync(await svg.path(), 'utf8');
    assert.ok(svgText.includes(expected.sentences[2].source), 'the caption is sentence 3');
    assert.ok(!svgText.includes(expected.sentences[1].source), 'and only sentence 3');
    assert.equal((svgText.match(/data-weight=/g) ?? []).length, 2 * expected.sentences[2].sourceTokens.length);

    await page.click('[data-role="permalink"]');
    const link = new URL(await page.inputValue('[data-role="permalink-field"]'));
    assert.equal(link.searchParams.get('text'), PARAGRAPH, 'the whole text');
    assert.equal(link.searchParams.get('sentence'), '3');
    assert.equal(link.searchParams.get('step'), '1');

    const again = await browser.newPage();
    await again.goto(link.href);
    await again.waitForSelector('[data-role="app"][data-state="done"][data-position="1"]');
    assert.equal((await readTabs(again)).selected, 2);
    assert.deepEqual(await readMatrix(again), before);
    assert.equal(await again.inputValue('[data-role="source-input"]'), PARAGRAPH);
    await again.close();

    // Your own French is aligned to the sentence on show, and its link keeps both.
    await page.click('[data-role="last"]');
    await page.fill('[data-role="force-input"]', 'Nous irons à la plage demain.');
    await page.click('[data-role="force-submit"]');
    await page.waitForSelector('[data-role="force-summary"]:not([hidden])');
    const forced = ref.align(expected.sentences[2].source, 'Nous irons à la plage demain.');
    await page.click('[data-role="permalink"]');
    const forceLink = new URL(await page.inputValue('[data-role="permalink-field"]'));
    assert.equal(forceLink.searchParams.get('sentence'), '3');
    assert.equal(forceLink.searchParams.get('force'), 'Nous irons à la plage demain.');
    const third = await browser.newPage();
    await third.goto(forceLink.href);
    await third.waitForSelector('[data-role="force-summary"]:not([hidden])');
    await waitDone(third);
    const rows = await readMatrix(third);
    assert.equal(rows.length, forced.targetTokens.length - 1, 'one row per word of your French');
    rows.forEach((r, i) => assert.deepEqual(r.weights, forced.steps[i].alpha, `forced row ${i}`));
    assertNoProblems(page);
    assertNoProblems(third);
    await third.close();
    await page.close();
  });

  // Issue 24: under the limit too, text of several sentences is now cut by default (two
  // sentences decoded as one came out merged); "as one sequence" (whole=1) keeps one matrix.
  test('under the limit: sentence by sentence by default, one matrix as one sequence; a bad sentence= is ignored', T, async () => {
    const text = 'I am cold. Tom is here.';
    assert.equal(ref.splitSentences(text).length, 2);
    const cut = await open(`speed=instant&sentence=2&text=${encodeURIComponent(text)}`);
    await settled(cut);
    assert.equal((await readTabs(cut)).selected, 1);
    assert.deepEqual((await readMatrix(cut)).map((r) => r.word), ref.translate('Tom is here.').targetTokens);
    assert.match(await cut.textContent('[data-role="paragraph-note"]'), /2 sentences, each translated on its own/);
    assertNoProblems(cut);
    await cut.close();

    const page = await open(`speed=instant&whole=1&sentence=2&text=${encodeURIComponent(text)}`);
    await waitDone(page);
    assert.equal(await page.isVisible('[data-role="paragraph"]'), false);
    assert.equal(await page.getAttribute('[data-role="sentence-panel"]', 'role'), null);
    const whole = ref.translate(text);
    const rows = await readMatrix(page);
    assert.deepEqual(rows.map((r) => r.word), whole.targetTokens);
    await page.click('[data-role="permalink"]');
    const link = new URL(await page.inputValue('[data-role="permalink-field"]'));
    assert.equal(link.searchParams.get('sentence'), null);
    assert.equal(link.searchParams.get('whole'), '1');
    // A typed paragraph over the limit is cut whatever the choice, then a short text is one matrix again.
    await page.fill('[data-role="source-input"]', PARAGRAPH);
    await page.press('[data-role="source-input"]', 'Enter');
    await settled(page);
    assert.equal((await readTabs(page)).count, expected.sentences.length);
    await page.fill('[data-role="source-input"]', text);
    await page.press('[data-role="source-input"]', 'Enter');
    await waitDone(page);
    assert.equal(await page.isVisible('[data-role="paragraph"]'), false);
    assert.deepEqual((await readMatrix(page)).map((r) => r.word), whole.targetTokens);
    for (const bad of ['0', '-1', 'abc', '99999']) {
      const p = await open(`speed=instant&sentence=${bad}&text=${encodeURIComponent(PARAGRAPH)}`);
      await settled(p);
      assert.equal((await readTabs(p)).selected, 0, `sentence=${bad}`);
      assertNoProblems(p);
      await p.close();
    }
    const past = await open(`speed=instant&sentence=40&text=${encodeURIComponent(PARAGRAPH)}`);
    await settled(past);
    assert.equal((await readTabs(past)).selected, expected.sentences.length - 1, 'past the end: the last one');
    await past.close();
    assertNoProblems(page);
    await page.close();
  });

  test('on a phone (390×844) the tab row wraps inside the card; axe finds nothing, English and Chinese', T, async () => {
    const page = await open(`speed=instant&sentence=2&text=${encodeURIComponent(PARAGRAPH)}`, { viewport: { width: 390, height: 844 } });
    await settled(page);
    await page.waitForFunction(() => document.getAnimations().length === 0);
    const layout = await page.evaluate(() => {
      const card = document.querySelector('.result-card').getBoundingClientRect();
      const tabs = [...document.querySelectorAll('[role="tab"]')].map((t) => t.getBoundingClientRect());
      return {
        docWidth: document.documentElement.scrollWidth,
        inside: tabs.every((r) => r.left >= card.left && r.right <= card.right),
        minSize: Math.min(...tabs.map((r) => Math.min(r.width, r.height))),
      };
    });
    assert.ok(layout.docWidth <= 390, `no sideways scrolling (${layout.docWidth}px)`);
    assert.equal(layout.inside, true, 'every tab is inside the card');
    assert.ok(layout.minSize >= 24, `tabs are big enough to tap (${layout.minSize}px)`);
    await page.locator('.paragraph').scrollIntoViewIfNeeded();
    await page.screenshot({ path: artifact('paragraph-phone.png') });
    assert.deepEqual(await axeViolations(page), [], 'English');
    await page.click('[data-role="lang"]');
    assert.equal((await readTabs(page)).names[1], `第 2 句，共 ${expected.sentences.length} 句`);
    assert.match(await page.textContent('[data-role="paragraph-note"]'), /108 个词元/);
    assert.deepEqual(await axeViolations(page), [], 'Chinese');
    await page.close();
  });
});
