// What a first visit tripped over on index.html (issue: "The page as a student meets it"):
// a failed translation's error box, the step panel after it, the error text when the box is
// empty, the partial export's caption, and one-letter column headers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { launch, pageModel, setSpeed, waitDone, waitReady } from './helpers.mjs';

const T = { timeout: 120_000 };
let browser;
let model;

before(async () => {
  model = pageModel();
  browser = await launch();
}, { timeout: 90_000 });

after(() => browser?.close());

async function open(query = '') {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?model=${model.name}${query}`);
  return page;
}

test('a failed translation: a clean error box, and an empty step panel', T, async () => {
  const page = await open();
  await waitReady(page);
  await setSpeed(page, 4);
  await page.fill('[data-role="source-input"]', 'I have a black cat.');
  await page.press('[data-role="source-input"]', 'Enter');
  await waitDone(page);
  assert.notEqual(await page.getAttribute('[data-role="step-panel"]', 'data-step'), '');

  // One sentence over the model's limit (a paragraph of several would be translated sentence
  // by sentence: paragraph.test.mjs).
  const long = `${Array(12).fill('the black cat is sleeping on the red sofa').join(' and ')}.`;
  await page.fill('[data-role="source-input"]', long);
  await page.press('[data-role="source-input"]', 'Enter');
  await page.waitForSelector('[data-role="error"]:not([hidden])');
  const box = await page.textContent('[data-role="error"]');
  assert.doesNotMatch(box, /null|undefined/);
  assert.match(box, /reads at most 100/);
  assert.match(box, /still in the box/);
  assert.equal(await page.inputValue('[data-role="source-input"]'), long, 'nothing typed is lost');
  // The previous sentence's last step is gone with its matrix.
  assert.equal(await page.getAttribute('[data-role="step-panel"]', 'data-step'), '');
  assert.equal(await page.$$eval('[data-role="matrix"] > [data-row]', (r) => r.length), 0);
  await page.close();
});

test('a model that fails to load does not say the (empty) box kept your text', T, async () => {
  const page = await browser.newPage();
  await page.route('**/*.safetensors', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${browser.url}?model=${model.name}`);
  await page.waitForSelector('[data-role="error"]:not([hidden])');
  const box = await page.textContent('[data-role="error"]');
  assert.doesNotMatch(box, /still in the box|null/);
  await page.close();
});

test('a partial export is captioned with the words as the page shows them', T, async () => {
  const page = await open(`&text=${encodeURIComponent('I have a black cat.')}`);
  await waitReady(page);
  await setSpeed(page, 4);
  await waitDone(page);
  const whole = await page.textContent('[data-role="output"]');
  assert.match(whole, /^J'ai /, 'this model writes "J\'ai" here (else pick another sentence)');
  await page.click('[data-role="first"]');
  await page.click('[data-role="step-forward"]');
  const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="export-svg"]')]);
  const text = readFileSync(await svg.path(), 'utf8');
  const shown = await page.textContent('[data-role="output"]');
  assert.ok(text.includes(`→ ${shown} …`), `caption has "→ ${shown} …"`);
  assert.doesNotMatch(text, /→ j' ai/);

  // A one-letter column ("I") stands upright; longer ones are rotated.
  const modes = await page.$$eval('[data-role="matrix"] .bl-col-text', (els) =>
    els.map((e) => [e.textContent, getComputedStyle(e).writingMode]));
  assert.deepEqual(modes.find(([t]) => t === 'I'), ['I', 'horizontal-tb']);
  assert.deepEqual(modes.find(([t]) => t === 'black'), ['black', 'vertical-rl']);
  await page.close();
});

test('input that is not English says so next to the result, in both languages', T, async () => {
  const page = await open(`&text=${encodeURIComponent('我爱你')}`);
  await waitReady(page);
  await setSpeed(page, 4);
  await waitDone(page);
  const note = page.locator('[data-role="input-note"]');
  assert.equal(await note.isVisible(), true);
  // Every word unknown: one token for the whole run of ideographs, or one each, as the model's
  // tokenizer spec cuts them (the shipped en-fr: one each).
  assert.match(await note.textContent(), /This model reads English: (\d) of \1 words? (is|are) unknown to it/);
  // The model's own answer stays on show: its rows, or, when its first word was </s> (the
  // shipped models end at once on one unknown word without a closing mark), a sentence that
  // says so where the French would be.
  const rows = (await page.$$('[data-role="matrix"] > [data-row]')).length;
  const empty = page.locator('[data-role="output"] [data-role="empty-translation"]');
  assert.equal(await empty.isVisible(), rows === 0, `${rows} rows`);
  if (rows === 0) assert.match(await empty.textContent(), /first choice was the end marker/);
  await page.click('[data-role="lang"]');
  assert.match(await note.textContent(), /这个模型只读英文：(\d) 个词中有 \1 个它不认识/);
  await page.click('[data-role="lang"]');

  for (const [text, shown] of [['Zorglub blorp fnarg quux.', true], ['The black cat is sleeping.', false],
    ['Tom met Zanzibar.', false]]) {
    await page.fill('[data-role="source-input"]', text);
    await page.press('[data-role="source-input"]', 'Enter');
    await waitDone(page);
    assert.equal(await note.isVisible(), shown, text);
  }
  await page.close();
});

test('on a phone, an example chip brings the result into view', T, async () => {
  for (const reducedMotion of ['reduce', 'no-preference']) {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, reducedMotion });
    await page.goto(`${browser.url}?model=${model.name}`);
    await waitReady(page);
    const top = () => page.$eval('.result-card', (el) => el.getBoundingClientRect().top);
    assert.ok(await top() > 844 * 0.7, 'the result card starts below the fold (else this test tests nothing)');
    await page.click('[data-role="examples"] .chip');
    await page.waitForFunction(() => document.querySelector('.result-card').getBoundingClientRect().top < 100);
    assert.ok(await top() >= -1, 'the card top is in view, not scrolled past');
    await page.close();
  }
});

test('on a phone, the lines fit the width, and a matrix too wide for it shows an edge cue', T, async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const six = 'I would like to visit my old friends in the north of France next summer.';
  await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent(six)}`);
  await waitReady(page);
  await setSpeed(page, 4);
  await waitDone(page);
  const matrix = await page.$eval('.bl-matrix-scroll', (el) =>
    ({ overflow: el.dataset.overflow, wider: el.scrollWidth > el.clientWidth + 1 }));
  assert.equal(matrix.overflow, matrix.wider ? 'right' : '', 'the cue says exactly whether there is more');
  assert.ok(matrix.wider, 'this sentence is wider than a phone (else pick a longer one)');
  await page.$eval('.bl-matrix-scroll', (el) => { el.scrollLeft = el.scrollWidth; });
  await page.waitForFunction(() => document.querySelector('.bl-matrix-scroll').dataset.overflow === 'left');

  // A sentence of six or seven words a side fits once drawn a little smaller.
  await page.fill('[data-role="source-input"]', 'My brother reads a book in the garden.');
  await page.press('[data-role="source-input"]', 'Enter');
  await waitDone(page);
  await page.click('[data-role="view-lines"]');
  const lines = await page.$eval('[data-role="lines-root"]', (el) => ({
    scroll: el.scrollWidth - el.clientWidth,
    words: [...el.querySelectorAll('text')].filter((t) => {
      const r = t.getBoundingClientRect();
      return r.right <= el.getBoundingClientRect().right + 1;
    }).length,
    all: el.querySelectorAll('text').length,
  }));
  assert.ok(lines.scroll <= 1, `the lines fit the width (${lines.scroll} px to scroll)`);
  assert.equal(lines.words, lines.all, 'every word of both sentences is in view');
  await page.close();
});
