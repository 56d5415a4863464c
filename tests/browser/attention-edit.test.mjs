// Attention edits ("what if it looked elsewhere?", issue 26) in real Chromium, on the pages as
// scripts/demo serves them: a click on a cell of the matrix (or Enter on it, or the step
// panel's bars) decodes the sentence again with that word's attention given; the edited row
// is marked and all on the clicked word, the model's own row is drawn under it, the two top-5
// lists and the two translations are the engine's (checked against web/lib in Node), one click
// undoes it, a permalink keeps it, hostile edit= values are left out with a note, the
// comparison page edits both models, the widget with controls="full" edits too, a model
// without attention says it cannot be edited (the recorded measurement's section:
// edit-findings.test.mjs). Screenshots go to tests/browser/artifacts/attention-edit-*.png.
// Over 400 lines on purpose: the tests share one browser, one reference translator in Node and
// one chosen edit (a search over the sentence's cells); split, each file would start and search again.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { MAX_EDITS, fitEdits, formatEdit, parseEdits, setWeight, withEdit } from '../../web/ui/attention-edit.js';
import { COMPARE_FILES, COMPARE_NAMES, ROOT, artifact, axeViolations, launch, pageModel, readMatrix, waitDone } from './helpers.mjs';

const SENTENCE = 'The black cat is sleeping.';
const T = { timeout: 180_000 };

let browser;
let model;
let ref; // the page's model in Node: the numbers the page must show
let plain; // ref.translate(SENTENCE)
let edit; // {step, column}: an edit that changes the word written there

async function collect(it) {
  const out = [];
  for await (const s of it) out.push(s);
  return out;
}

before(async () => {
  model = pageModel();
  ref = await createTranslator({ model: model.file, simd: true });
  plain = ref.translate(SENTENCE);
  // The first edit (from word 2 on) that makes the model write another word there.
  const steps = await collect(ref.steps(SENTENCE));
  for (let i = 1; i < plain.targetTokens.length && !edit; i++) {
    for (let j = 0; j < plain.sourceTokens.length && !edit; j++) {
      const r = ref.translate(SENTENCE, { edits: [{ step: i, column: j }] });
      if (r.targetIds[i] !== plain.targetIds[i] && steps[i]) edit = { step: i, column: j };
    }
  }
  assert.ok(edit, 'some edit changes a word of the test sentence');
  browser = await launch();
}, { timeout: 120_000 });

after(async () => {
  ref?.dispose();
  await browser?.close();
});

const url = (query = '') => `${browser.url}?model=${model.name}&text=${encodeURIComponent(SENTENCE)}&speed=instant${query}`;

async function decoded(query = '', options) {
  const page = await browser.newPage(options);
  await page.goto(url(query));
  await waitDone(page);
  return page;
}

// Waits for the edit view to show an edit, decoded, at rest on the edited word.
async function edited(page, step) {
  await page.waitForSelector('[data-role="edit-view"][data-state="active"]');
  await page.waitForSelector(`[data-role="app"][data-state="done"][data-playing="false"][data-position="${step}"]`);
}

const cell = (row, col) => `[data-role="matrix"] > [data-row="${row}"] [data-col="${col}"]`;
const ownWeights = (page, row) => page.$$eval(`[data-role="matrix"] > [data-own-row="${row}"] [data-own-weight]`,
  (cells) => cells.map((c) => Number(c.dataset.ownWeight)));
const probs = (page, role) => page.$$eval(`[data-role="${role}"] .bl-cand`, (li) => li.map((x) => Number(x.dataset.prob)));
const words = (page, role) => page.$$eval(`[data-role="${role}"] .bl-cand-word`, (li) => li.map((x) => x.textContent));
const oneHot = (n, j) => Array.from({ length: n }, (_, k) => (k === j ? 1 : 0));

// What the engine says the edit gives: its steps, its translation, and the plain steps.
async function expectedEdit(edits) {
  return {
    steps: await collect(ref.steps(SENTENCE, { edits })),
    plainSteps: await collect(ref.steps(SENTENCE)),
    result: ref.translate(SENTENCE, { edits }),
  };
}

test('edit= values: what a link keeps reads back; anything else is refused, never thrown on', () => {
  assert.deepEqual(parseEdits(['2:3+', '4:0.5,0.5+']).edits, [{ step: 2, column: 3, hold: true }, { step: 4, weights: [0.5, 0.5], hold: true }]);
  assert.equal(formatEdit({ step: 2, column: 3, hold: true }), '2:3+');
  assert.equal(parseEdits(['2:3++', '2:+', '2:3 +']).edits.length, 0);
  const edits = [{ step: 2, column: 3 }, { step: 4, weights: [0.25, 0.5, 0.25] }];
  assert.deepEqual(parseEdits(edits.map(formatEdit)), { edits, refused: 0 });
  const hostile = ['', ':', '1', '1:', ':1', 'a:1', '1:a', '-1:1', '1:-1', '1:1.5', '1:1e3', '1:0x10', '1:Infinity,1', '1:NaN,1',
    '1:0,0', '1:1,,1', '1:1,', '12345:1', '1:12345', '1001:1', `1:${'1,'.repeat(1100)}1`, '1:1;2:2', '1 :1', '１:1', null, 42, {}];
  for (const v of hostile) assert.deepEqual(parseEdits([v]), { edits: [], refused: 1 }, String(v));
  assert.deepEqual(parseEdits(['3:1', '3:2', '1:0']), { edits: [{ step: 1, column: 0 }, { step: 3, column: 1 }], refused: 1 }, 'one edit per step');
  assert.equal(parseEdits(Array.from({ length: 50 }, (_, i) => `${i}:0`)).edits.length, MAX_EDITS);
  assert.deepEqual(fitEdits([{ step: 0, column: 6 }, { step: 1, column: 7 }, { step: 2, weights: [1, 0] }], 7).dropped.length, 2);
  // Editing a word keeps the edits before it and drops those after it.
  assert.deepEqual(withEdit([{ step: 1, column: 0 }, { step: 5, column: 2 }], { step: 3, column: 1 }), [{ step: 1, column: 0 }, { step: 3, column: 1 }]);
  // A dragged weight: the others scale so that all sum to 1, kept to what a link writes.
  assert.deepEqual(setWeight([0.2, 0.3, 0.5], 1, 0.9), [0.0286, 0.9, 0.0714]);
  assert.deepEqual(setWeight([0, 1, 0], 1, 0.4), [0.3, 0.4, 0.3]);
});

describe('attention edits on the page', { timeout: 900_000 }, () => {
  test('a click on a cell: the row is marked and all on that word, the two top-5 lists and translations are the engine\'s, one click undoes it', T, async () => {
    const page = await decoded();
    const own = await readMatrix(page);
    assert.equal(await page.getAttribute('[data-role="edit-view"]', 'data-state'), 'hint');
    await page.click(cell(edit.step, edit.column));
    await edited(page, edit.step);

    const exp = await expectedEdit([edit]);
    const rows = await readMatrix(page);
    const n = plain.sourceTokens.length;
    assert.deepEqual(rows[edit.step].weights, oneHot(n, edit.column), 'all the weight on the clicked word');
    assert.equal(rows[edit.step].word, exp.result.targetTokens[edit.step]);
    assert.equal(await page.getAttribute(`[data-role="matrix"] > [data-row="${edit.step}"]`, 'data-edited'), 'true');
    assert.deepEqual(await ownWeights(page, edit.step), plain.attention[edit.step], 'the model\'s own row, beside it');
    for (let i = 0; i < edit.step; i++) {
      assert.deepEqual(rows[i], own[i], `row ${i}, before the edit, is the model's own`);
      assert.equal(await page.getAttribute(`[data-role="matrix"] > [data-row="${i}"]`, 'data-edited'), null);
    }
    // The model's own next words and those under the edit, side by side.
    assert.deepEqual(await probs(page, 'edit-own'), exp.plainSteps[edit.step].topProbs);
    assert.deepEqual(await probs(page, 'edit-given'), exp.steps[edit.step].topProbs);
    assert.deepEqual(await words(page, 'edit-given'), exp.steps[edit.step].topWords.map((w) => (w === '</s>' ? '⟨/s⟩' : w)));
    assert.equal(await page.getAttribute('[data-role="edit-verdict"]', 'data-changed'), 'true');
    // The rest of the translation as the model writes it after the edit, next to the original.
    assert.equal((await page.textContent('[data-role="edit-original"]')).trim(), plain.text);
    assert.equal((await page.textContent('[data-role="edit-continuation"]')).trim(), exp.result.text);
    assert.ok(await page.$('[data-role="edit-continuation"] [data-changed="true"]'), 'the words that changed are marked');
    const explain = await page.textContent('[data-role="edit-explain"]');
    assert.match(explain, /not the model’s own/);
    assert.match(explain, /decoded by the model from there/);
    // The step panel: the given weights, the model's own marked on each bar.
    assert.equal(await page.getAttribute('[data-role="step-panel"]', 'data-edited'), 'true');
    assert.match(await page.textContent('[data-role="weights"]'), /You gave these weights/);
    assert.equal(await page.locator('[data-role="weights"] [data-role="own-mark"]').count(), n);
    // The hover says both weights.
    await page.hover(cell(edit.step, (edit.column + 1) % n));
    assert.match(await page.textContent('[data-role="tooltip"]'), /given α = .*the model’s own α =/s);
    await page.screenshot({ path: artifact('attention-edit-wide.png'), fullPage: true });

    await page.click('[data-role="edit-reset"]');
    await page.waitForSelector('[data-role="edit-view"][data-state="hint"]');
    await page.click('[data-role="last"]');
    assert.deepEqual(await readMatrix(page).then((r) => r.map((x) => x.weights)), own.map((x) => x.weights), 'back to the model\'s own rows');
    assert.equal(await page.locator('[data-role="matrix"] [data-edited], [data-own-row]').count(), 0);
    assert.equal(await page.getAttribute('[data-role="output"]', 'data-text'), plain.text);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('a permalink keeps the edit, and reads back as it', T, async () => {
    const page = await decoded();
    await page.click(cell(edit.step, edit.column));
    await edited(page, edit.step);
    await page.click('[data-role="permalink"]');
    const link = new URL(await page.inputValue('[data-role="permalink-field"]'));
    assert.deepEqual(link.searchParams.getAll('edit'), [`${edit.step}:${edit.column}`]);
    const again = await browser.newPage();
    await again.goto(link.href);
    await edited(again, edit.step);
    assert.deepEqual(await readMatrix(again), await readMatrix(page));
    assert.equal((await again.textContent('[data-role="edit-continuation"]')).trim(), ref.translate(SENTENCE, { edits: [edit] }).text);
    assert.deepEqual([page.problems, again.problems], [[], []]);
    await again.close();
    await page.close();
  });

  test('hold: the edit stays on for every later word, each row marked; the link keeps it with a "+"', T, async () => {
    const page = await decoded();
    await page.click(cell(edit.step, edit.column));
    await edited(page, edit.step);
    assert.equal(await page.isChecked('[data-role="edit-hold"]'), false);
    await page.check('[data-role="edit-hold"]');
    await page.waitForSelector('[data-role="edit-held"]');
    const held = ref.translate(SENTENCE, { edits: [{ ...edit, hold: true }] });
    await page.click('[data-role="last"]');
    const rows = await readMatrix(page);
    assert.equal(rows.length, held.targetTokens.length);
    assert.deepEqual(held.edited, held.targetTokens.map((_, i) => i).filter((i) => i >= edit.step));
    for (let i = 0; i < rows.length; i++) {
      const mark = await page.getAttribute(`[data-role="matrix"] > [data-row="${i}"]`, 'data-edited');
      assert.equal(mark, i >= edit.step ? 'true' : null, `row ${i}`);
      if (i >= edit.step) assert.deepEqual(rows[i].weights, oneHot(plain.sourceTokens.length, edit.column), `row ${i}`);
    }
    assert.equal((await page.textContent('[data-role="edit-continuation"]')).trim(), held.text);
    await page.click('[data-role="permalink"]');
    const link = new URL(await page.inputValue('[data-role="permalink-field"]'));
    assert.deepEqual(link.searchParams.getAll('edit'), [`${edit.step}:${edit.column}+`]);
    await page.uncheck('[data-role="edit-hold"]');
    await page.waitForSelector('[data-role="edit-held"]', { state: 'detached' });
    assert.equal((await page.textContent('[data-role="edit-continuation"]')).trim(), ref.translate(SENTENCE, { edits: [edit] }).text);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('keyboard: Enter on a matrix cell edits; the step panel\'s word buttons and sliders too', T, async () => {
    const page = await decoded();
    await page.focus(cell(plain.targetTokens.length - 1, 0)); // the tab stop: the last row
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < edit.step; i++) await page.keyboard.press('ArrowDown');
    for (let j = 0; j < edit.column; j++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await edited(page, edit.step);
    assert.deepEqual((await readMatrix(page))[edit.step].weights, oneHot(plain.sourceTokens.length, edit.column));

    // "Look at … instead" in the Normalise step, then the End key on another word's slider.
    const j = (edit.column + 1) % (plain.sourceTokens.length - 1);
    await page.click(`[data-role="weights"] [data-role="look-here"][data-col="${j}"]`);
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.weight === '1', cell(edit.step, j));
    assert.deepEqual((await readMatrix(page))[edit.step].weights, oneHot(plain.sourceTokens.length, j));
    const slider = `[data-role="weights"] [data-role="weight-slider"][data-col="${edit.column}"]`;
    await page.focus(slider);
    await page.keyboard.press('End'); // all of it on that word
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.weight === '1', cell(edit.step, edit.column));
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.role), 'weight-slider', 'the slider keeps the focus');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('dragging a Normalise bar sets any distribution; the link keeps the weights', T, async () => {
    const page = await decoded(`&step=${edit.step}`);
    await page.waitForSelector(`[data-role="app"][data-position="${edit.step}"]`);
    const slider = page.locator(`[data-role="weights"] [data-role="weight-slider"][data-col="${edit.column}"]`);
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    await edited(page, edit.step);
    await page.click('[data-role="permalink"]');
    const [value] = new URL(await page.inputValue('[data-role="permalink-field"]')).searchParams.getAll('edit');
    const parsed = parseEdits([value]).edits[0];
    assert.ok(parsed?.weights, `the link keeps the weights: ${value}`);
    assert.ok(Math.abs(parsed.weights[edit.column] - 0.6) < 0.05, `about 0.6 on the dragged word: ${value}`);
    const exp = ref.translate(SENTENCE, { edits: [parsed] });
    assert.deepEqual((await readMatrix(page))[edit.step].weights, exp.attention[edit.step], 'the engine\'s row for those weights');
    assert.ok(Math.abs(parsed.weights.reduce((a, b) => a + b, 0) - 1) < 1e-3, 'the others scaled to sum 1');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('hostile edit= values are left out with a note; a good one among them still applies', T, async () => {
    const bad = ['abc', '1:', '1:99', '99999:1', '1:-1', '1:1e5', '1:NaN,1', '<img src=x onerror=alert(1)>', '1:0,0,0,0,0,0,0',
      `2:${'1,'.repeat(3000)}1`, '1:0.5,0.5'];
    const query = bad.map((v) => `&edit=${encodeURIComponent(v)}`).join('');
    const page = await browser.newPage();
    page.on('dialog', (d) => page.problems.push(`dialog: ${d.message()}`));
    await page.goto(url(query));
    await waitDone(page);
    await page.waitForSelector('[data-role="edit-note"]');
    assert.match(await page.textContent('[data-role="edit-view"]'), /\d+ edits in the link did not fit this sentence/);
    assert.deepEqual((await readMatrix(page)).map((r) => r.weights), plain.attention, 'the model\'s own rows');
    // A step past what the engine decodes: refused by it, said in the view, not an error box.
    const far = await browser.newPage();
    await far.goto(url('&edit=900:1'));
    await waitDone(far);
    await far.waitForSelector('[data-role="edit-note"]');
    assert.ok(await far.isHidden('[data-role="error"]'));
    assert.deepEqual((await readMatrix(far)).map((r) => r.weights), plain.attention);
    // A good one among bad ones.
    const mixed = await browser.newPage();
    await mixed.goto(url(`&edit=zz&edit=${edit.step}:${edit.column}`));
    await edited(mixed, edit.step);
    assert.deepEqual((await readMatrix(mixed))[edit.step].weights, oneHot(plain.sourceTokens.length, edit.column));
    assert.match(await mixed.textContent('[data-role="edit-view"]'), /1 edit in the link did not fit/);
    assert.deepEqual([page.problems, far.problems, mixed.problems], [[], [], []]);
    for (const p of [page, far, mixed]) await p.close();
  });

  test('your own French, aligned, edited: its log-probability with the model\'s attention and with yours', T, async () => {
    const french = plain.text;
    const page = await decoded(`&force=${encodeURIComponent(french)}`);
    await page.waitForSelector('[data-role="force-summary"]:not([hidden])');
    await page.click(cell(edit.step, edit.column));
    await edited(page, edit.step);
    const given = ref.align(SENTENCE, french, { edits: [edit] });
    const own = ref.align(SENTENCE, french);
    const line = await page.textContent('[data-role="edit-forced"]');
    assert.ok(line.includes(own.logProb.toFixed(2)) && line.includes(given.logProb.toFixed(2)), line);
    assert.deepEqual((await readMatrix(page))[edit.step].weights, given.steps[edit.step].alpha);
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('beam search and a model without attention cannot be edited, and say so', T, async () => {
    const beam = await decoded('&beam=3');
    assert.equal(await beam.getAttribute('[data-role="edit-view"]', 'data-state'), 'beam');
    assert.match(await beam.textContent('[data-role="edit-view"]'), /set the beam width to 1/);
    await beam.click(cell(0, 0));
    assert.equal(await beam.locator('[data-role="matrix"] [data-edited]').count(), 0);
    const none = await browser.newPage();
    await none.goto(`${browser.url}?model=en-fr-noattn&text=${encodeURIComponent(SENTENCE)}&speed=instant&edit=1:1`);
    await waitDone(none);
    await none.waitForSelector('[data-role="edit-view"][data-state="none"]');
    assert.match(await none.textContent('[data-role="edit-view"]'), /has no attention to edit: its decoder reads one fixed vector c/);
    assert.equal(await none.locator('[data-role="weight-slider"], [data-role="look-here"]').count(), 0);
    assert.deepEqual([beam.problems, none.problems], [[], []]);
    await beam.close();
    await none.close();
  });

  test('Chinese captions and a phone (390 × 844): the edit still reads, nothing sideways', T, async () => {
    const page = await decoded(`&edit=${edit.step}:${edit.column}&lang=zh`, { viewport: { width: 390, height: 844 } });
    await edited(page, edit.step);
    assert.match(await page.textContent('[data-role="edit-explain"]'), /不是模型自己的/);
    assert.match(await page.textContent('[data-role="edit-reset"]'), /回到模型自己的注意力/);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide`);
    await page.screenshot({ path: artifact('attention-edit-phone-zh.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('axe finds nothing on an edited view, light and dark', T, async () => {
    for (const colorScheme of ['light', 'dark']) {
      const page = await decoded(`&edit=${edit.step}:${edit.column}`, { colorScheme });
      await edited(page, edit.step);
      assert.deepEqual(await axeViolations(page), [], colorScheme);
      if (colorScheme === 'dark') await page.screenshot({ path: artifact('attention-edit-dark.png'), fullPage: true });
      await page.close();
    }
  });

  test('a Transformer: the edit covers every layer and head', T, async () => {
    const file = path.join(ROOT, 'models', 'en-fr-transformer.safetensors');
    const tr = await createTranslator({ model: file, simd: true });
    try {
      const page = await browser.newPage();
      await page.goto(`${browser.url}?model=en-fr-transformer&text=${encodeURIComponent(SENTENCE)}&speed=instant`);
      await waitDone(page);
      await page.click(cell(1, 1));
      await edited(page, 1);
      const exp = tr.translate(SENTENCE, { edits: [{ step: 1, column: 1 }] });
      assert.deepEqual((await readMatrix(page))[1].weights, exp.attention[1]);
      assert.equal((await page.textContent('[data-role="edit-continuation"]')).trim(), exp.text);
      assert.match(await page.textContent('[data-role="edit-view"]'), /every decoder layer and every head/);
      // Another layer and head: its row is the given one too, its own row beside it.
      await page.selectOption('[data-role="heads-root"] [data-role="layer"]', '0');
      const steps = await collect(tr.steps(SENTENCE, { edits: [{ step: 1, column: 1 }] }));
      const headMean = (k) => steps[1].cross.ownAlpha[0].map((h) => h[k]).reduce((a, b) => a + b, 0) / steps[1].cross.heads;
      const own = await ownWeights(page, 1);
      own.forEach((w, k) => assert.ok(Math.abs(w - headMean(k)) < 1e-6, `layer 1's own mean, column ${k}`));
      assert.deepEqual(page.problems, []);
      await page.close();
    } finally {
      tr.dispose();
    }
  });
});

describe('attention edits on the comparison page and in the widget', { timeout: 900_000 }, () => {
  async function compared(query) {
    const page = await browser.newPage();
    await page.goto(`${browser.url}compare.html?text=${encodeURIComponent(SENTENCE)}${query}`);
    await page.waitForSelector('[data-role="app"][data-state="done"][data-analysis="done"]', { timeout: 120_000 });
    return page;
  }
  const sideRow = (page, side, row) => page.$$eval(`[data-side="${side}"] [data-role="matrix"] > [data-row="${row}"] [data-weight]`,
    (cells) => cells.map((c) => Number(c.dataset.weight)));

  test('compare.html: both models get the same edit; the address bar keeps it', T, async () => {
    const refs = {};
    for (const [side, name] of Object.entries(COMPARE_NAMES)) refs[side] = await createTranslator({ model: path.join(ROOT, COMPARE_FILES[name]) });
    try {
      const page = await compared(`&a=${COMPARE_NAMES.a}&b=${COMPARE_NAMES.b}`);
      await page.click(`[data-side="b"] ${cell(1, 1)}`);
      await page.waitForSelector('[data-role="edit-view"][data-state="active"]');
      for (const side of ['a', 'b']) {
        const exp = refs[side].translate(SENTENCE, { edits: [{ step: 1, column: 1 }] });
        assert.deepEqual(await sideRow(page, side, 1), oneHot(exp.sourceTokens.length, 1), side);
        assert.equal(await page.getAttribute(`[data-side="${side}"] [data-role="matrix"] > [data-row="1"]`, 'data-edited'), 'true');
        assert.ok(await page.$(`[data-side="${side}"] [data-own-row="1"]`), `${side}: its own row beside it`);
        assert.equal((await page.textContent(`[data-side="${side}"] [data-role="edit-continuation"]`)).trim(), exp.text, side);
      }
      assert.match(await page.textContent('[data-role="edit-explain"]'), /in both models/);
      assert.deepEqual(new URL(page.url()).searchParams.getAll('edit'), ['1:1']);
      const again = await compared(new URL(page.url()).search.replace(/^\?text=[^&]*/, ''));
      await again.waitForSelector('[data-role="edit-view"][data-state="active"]');
      for (const side of ['a', 'b']) assert.deepEqual(await sideRow(again, side, 1), await sideRow(page, side, 1));
      await again.click('[data-role="edit-reset"]');
      await again.waitForSelector('[data-role="edit-view"][data-state="hint"]');
      assert.equal(await again.locator('[data-role="matrix"] [data-edited]').count(), 0);
      assert.deepEqual(new URL(again.url()).searchParams.getAll('edit'), []);
      assert.deepEqual([page.problems, again.problems], [[], []]);
      await page.close();
      await again.close();
    } finally {
      for (const t of Object.values(refs)) t.dispose();
    }
  });

  test('compare.html with a model without attention: it says so, the other is edited', T, async () => {
    const page = await compared('&a=en-fr-noattn&b=en-fr&edit=1:1');
    await page.waitForSelector('[data-role="edit-view"][data-state="active"]');
    assert.match(await page.textContent('[data-side="a"] [data-role="edit-none"]'), /no attention to edit/);
    assert.equal(await page.getAttribute('[data-side="b"] [data-role="matrix"] > [data-row="1"]', 'data-edited'), 'true');
    assert.equal(await page.locator('[data-side="a"] [data-edited]').count(), 0);
    await page.screenshot({ path: artifact('attention-edit-compare.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('the widget with controls="full": a click edits and writes the edit attribute; the attribute edits any widget', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}test-pages/edits.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('attention-translator')].every((e) => e.state === 'done'), null, { timeout: 120_000 });
    const shadow = (id, sel) => page.locator(`#${id}`).locator(sel);
    await page.evaluate(() => {
      window.editEvents = [];
      document.getElementById('full').addEventListener('edit', (e) => window.editEvents.push(e.detail));
    });
    await shadow('full', cell(edit.step, edit.column)).click();
    await page.waitForFunction(() => document.getElementById('full').getAttribute('edit') !== null);
    const exp = ref.translate(SENTENCE, { edits: [edit] });
    assert.equal(await page.getAttribute('#full', 'edit'), `${edit.step}:${edit.column}`);
    await shadow('full', '[data-role="edit-view"][data-state="active"]').waitFor();
    assert.equal(await shadow('full', `[data-role="matrix"] > [data-row="${edit.step}"]`).getAttribute('data-edited'), 'true');
    assert.equal((await shadow('full', '[data-role="edit-continuation"]').textContent()).trim(), exp.text);
    assert.deepEqual(await page.evaluate(() => window.editEvents.map((d) => d.text)), [exp.text]);
    // The attribute set by the page, with bad parts: the good one applies, the rest is said.
    await shadow('linked', '[data-role="edit-view"][data-state="active"]').waitFor();
    assert.match(await shadow('linked', '[data-role="edit-view"]').textContent(), /2 edits in the link did not fit/);
    assert.equal(await page.getAttribute('#linked', 'edit'), '1:1');
    // No attention: the figure says it cannot be edited.
    assert.match(await shadow('noattn', '[data-role="edit-view"]').textContent(), /no attention to edit/);
    await shadow('full', '[data-role="edit-reset"]').click();
    await page.waitForFunction(() => document.getElementById('full').getAttribute('edit') === null);
    assert.equal(await shadow('full', '[data-role="matrix"] [data-edited]').count(), 0);
    await page.screenshot({ path: artifact('attention-edit-widget.png'), fullPage: true });
    assert.deepEqual(page.problems, []);
    await page.close();
  });
});
