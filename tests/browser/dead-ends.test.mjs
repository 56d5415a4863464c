// Issue 24, part 2: no dead ends on the page. Playback ends on the last word (the </s> step is
// one step forward), the wording, the model without attention's own view, and unknown words
// named. One browser for the whole file.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { axeViolations, pageModel, sharedBrowser, waitDone } from './helpers.mjs';

const T = { timeout: 120_000 };
const browser = sharedBrowser();
let model;

before(() => {
  model = pageModel();
});

async function open(query) {
  const page = await browser.newPage();
  await page.goto(`${browser.url}?${query}`);
  return page;
}

const attr = (page, name) => page.getAttribute('[data-role="app"]', name);
const positionLine = (page) => page.textContent('[data-role="position"]');
const rowCount = (page) => page.locator('[data-role="matrix"] > [data-row]').count();

describe('playback', () => {
  test('play ends on the last word; forward reaches the </s> step, last comes back', T, async () => {
    const page = await open(`model=${model.name}&speed=instant&text=${encodeURIComponent('The black cat is sleeping.')}`);
    await waitDone(page);
    const rows = await rowCount(page);
    assert.ok(rows >= 2);
    assert.equal(Number(await attr(page, 'data-position')), rows - 1, 'play stops on the last word');
    assert.doesNotMatch(await positionLine(page), /end of sentence/);
    assert.equal(await page.isDisabled('[data-role="step-forward"]'), false);
    assert.equal(await page.isDisabled('[data-role="last"]'), true, 'already on the last word');
    await page.click('[data-role="step-forward"]');
    assert.equal(Number(await attr(page, 'data-position')), rows);
    assert.match(await positionLine(page), /end of sentence/);
    assert.equal(await page.isDisabled('[data-role="step-forward"]'), true);
    await page.click('[data-role="first"]');
    await page.click('[data-role="last"]');
    assert.equal(Number(await attr(page, 'data-position')), rows - 1, 'last is the last word');
    // Play again from the end replays and stops on the last word once more.
    await page.click('[data-role="play"]');
    await waitDone(page);
    assert.equal(Number(await attr(page, 'data-position')), rows - 1);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

describe('playback in the widget', () => {
  test('an autoplaying widget ends on the last word too', T, async () => {
    const widget = await browser.newPage();
    await widget.goto(`${browser.url}embed.html?model=${model.name}&autoplay=1&speed=instant&text=${encodeURIComponent('The black cat is sleeping.')}`);
    const state = await widget.waitForFunction(() => {
      const el = document.querySelector('attention-translator');
      const root = el?.shadowRoot?.querySelector('[data-role="widget"]');
      if (!root || el.state !== 'done' || root.dataset.playing !== 'false' || root.dataset.position === '-1') return false;
      return { position: Number(root.dataset.position), rows: el.shadowRoot.querySelectorAll('[data-role="matrix"] > [data-row]').length };
    }, null, { timeout: 90_000 }).then((h) => h.jsonValue());
    assert.ok(state.rows >= 2);
    assert.equal(state.position, state.rows - 1, 'autoplay stops on the last word, not on </s>');
    assert.deepEqual(widget.problems, []);
    await widget.close();
  });
});

describe('wording', () => {
  test('plurals, the mark that is not a word, in both languages', T, async () => {
    const page = await open(`model=${model.name}`);
    await page.waitForSelector('[data-role="app"]:is([data-state="ready"], [data-state="done"])', { timeout: 60_000 });
    const seen = await page.evaluate(async () => {
      const { STRINGS } = await import('/ui/strings.js');
      const { StepPanel } = await import('/ui/step-panel.js');
      const box = document.body.appendChild(document.createElement('div'));
      // The copy rule refused ⟨unk⟩ where the attended column is "。".
      const step = { index: 0, word: 'le', e: [0, 0, 0], alpha: [0.1, 0.8, 0.1], c: [0.1], cNorm: 0.1,
        topWords: ['<unk>', 'le'], topProbs: [0.5, 0.4], topIds: [1, 9], token: 9, done: false };
      const banned = (lang) => {
        new StepPanel(box, { strings: STRINGS[lang] }).render({ columns: ['hello', '。', '</s>'], step, scoring: 'additive' });
        return box.querySelector('[data-role="unk-banned"]').textContent;
      };
      return {
        end1: STRINGS.en.positionEnd(1), end3: STRINGS.en.positionEnd(3),
        force1: STRINGS.en.forceSummary(1, 1, '-2.00'), force3: STRINGS.en.forceSummary(3, 2, '-2.00'),
        banned: banned('en'), bannedZh: banned('zh'),
      };
    });
    assert.equal(seen.end1, 'end of sentence (1 word)');
    assert.equal(seen.end3, 'end of sentence (3 words)');
    assert.match(seen.force1, /Your French, 1 word,.*; 1 of them is not/);
    assert.match(seen.force3, /3 words,.*; 2 of them are not/);
    assert.doesNotMatch(seen.banned, /lower-case English word/);
    assert.match(seen.banned, /“。”.*punctuation mark/);
    assert.doesNotMatch(seen.bannedZh, /小写的英文词/);
    await page.close();
  });

  test('the note on non-English input says "above" and keeps clear of the next heading', T, async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open(`model=${model.name}&lang=${lang}&text=${encodeURIComponent('我爱你，你爱我吗')}`);
      await waitDone(page);
      const note = page.locator('[data-role="input-note"]');
      assert.equal(await note.isVisible(), true);
      const text = await note.textContent();
      assert.doesNotMatch(text, lang === 'en' ? /below/ : /下面/);
      assert.match(text, lang === 'en' ? /above/ : /上面/);
      const gap = await page.evaluate(() => {
        const n = document.querySelector('[data-role="input-note"]').getBoundingClientRect();
        const next = document.querySelector('[data-role="force-form"] label').getBoundingClientRect();
        return next.top - n.bottom;
      });
      assert.ok(gap >= 8, `${gap}px between the note and the next heading`);
      await page.close();
    }
  });

  test('an engine error is its own sentence, apart from the page\'s', T, async () => {
    const page = await open(`model=${model.name}&text=${encodeURIComponent(Array(130).fill('cat').join(' '))}`);
    await page.waitForSelector('[data-role="error"]:not([hidden])', { timeout: 90_000 });
    const text = await page.textContent('[data-role="error"]');
    assert.match(text, /could not be translated\. \S/, text);
    assert.match(await page.textContent('[data-role="error"] .error-detail'), /\.$/);
    await page.close();
  });

  test('beam hypotheses are written as the translation is', T, async () => {
    const page = await open(`model=${model.name}&beam=4&text=${encodeURIComponent('The black cat is sleeping.')}`);
    await waitDone(page);
    const best = await page.textContent('[data-role="hypotheses"] li.is-best .hyp-text');
    const whole = await page.getAttribute('[data-role="output"]', 'data-text');
    assert.equal(best, whole);
    assert.doesNotMatch(best, / \.$/);
    await page.close();
  });

  test('a new translation empties the box of typed French', T, async () => {
    const page = await open(`model=${model.name}&speed=instant&text=${encodeURIComponent('The black cat is sleeping.')}`);
    await waitDone(page);
    await page.fill('[data-role="force-input"]', 'Le chat noir dort.');
    await page.click('[data-role="force-submit"]');
    await page.waitForSelector('[data-role="force-summary"]:not([hidden])');
    await page.fill('[data-role="source-input"]', 'I like green apples.');
    await page.press('[data-role="source-input"]', 'Enter');
    await waitDone(page);
    assert.equal(await page.inputValue('[data-role="force-input"]'), '');
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});

describe('a model without attention on the main page', () => {
  test('shows its fixed vector c and the step it has, and says what is missing', T, async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open(`model=en-fr-noattn&lang=${lang}&speed=instant&text=${encodeURIComponent('The black cat is sleeping.')}`);
      await waitDone(page);
      assert.equal(await attr(page, 'data-attention'), 'none');
      // No matrix, lines or legend; the strip of c instead, with the engine's numbers.
      for (const sel of ['[data-role="matrix-root"]', '.view-bar .legend', '[data-role="view-lines"]', '[data-role="export-svg"]']) {
        assert.equal(await page.locator(sel).first().isVisible(), false, `${sel} hidden`);
      }
      const strip = page.locator('[data-role="c-strip"]');
      assert.equal(await strip.isVisible(), true);
      assert.equal(await strip.getAttribute('data-size'), '512');
      assert.equal(await strip.getAttribute('data-same'), 'true');
      assert.ok(Number(await strip.getAttribute('data-reads')) >= 1);
      assert.equal(await page.locator('[data-role="no-attention-note"]').first().isVisible(), true);
      // The step panel: no scores, weights or mix (no empty sum), only Generate, and why.
      const panel = page.locator('[data-role="step-panel"]');
      for (const role of ['scores', 'weights', 'context']) assert.equal(await panel.locator(`[data-role="${role}"]`).count(), 0, role);
      assert.equal(await panel.locator('[data-role="candidates"]').count(), 1);
      assert.equal(await panel.locator('[data-role="no-attention-note"]').count(), 1);
      assert.doesNotMatch(await page.textContent('[data-role="force-form"]'), lang === 'en' ? /where it looks/ : /注视哪里/);
      if (lang === 'zh') {
        for (const sel of ['[data-role="fixed-root"]', '[data-role="step-panel"] [data-role="no-attention-note"]', '[data-role="force-form"]']) {
          assert.doesNotMatch((await page.textContent(sel)).replace(/RNN/g, ''), /[A-Za-z]{2}/, `no English in ${sel}`);
        }
      }
      assert.deepEqual(await axeViolations(page), [], 'axe finds nothing in this view');
      assert.deepEqual(page.problems, []);
      await page.close();
    }
  });
});

describe('unknown words', () => {
  test('typos are marked in the source line and named beside the translation', T, async () => {
    for (const lang of ['en', 'zh']) {
      const page = await open(`model=${model.name}&lang=${lang}&speed=instant&text=${encodeURIComponent('The wether is very nice todya.')}`);
      await waitDone(page);
      const marked = await page.$$eval('[data-role="source-tokens"] [data-unknown="true"]', (els) => els.map((el) => el.textContent));
      assert.deepEqual(marked, ['wether', 'todya']);
      const note = page.locator('[data-role="input-note"]');
      assert.equal(await note.isVisible(), true);
      const text = await note.textContent();
      if (lang === 'en') assert.match(text, /^2 words are unknown to this model: wether, todya\./);
      else assert.match(text, /^这个模型不认识 2 个词：“wether”、“todya”。/);
      await page.close();
    }
    // A sentence it knows: nothing marked, no note.
    const page = await open(`model=${model.name}&speed=instant&text=${encodeURIComponent('The black cat is sleeping.')}`);
    await waitDone(page);
    assert.equal(await page.locator('[data-role="source-tokens"] [data-unknown]').count(), 0);
    assert.equal(await page.locator('[data-role="input-note"]').isVisible(), false);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
