// The Transformer on the site's pages, on the engine's own numbers: index.html (the layer x
// head picker over the cross-attention matrix, the step panel following it, the encoder's
// self-attention, the permalink), compare.html with a Transformer beside an RNN, the widget's
// model/layer/head attributes (hostile values included), and the "not available" states.
// Model: en-fr-transformer when models/ has it, else the tiny random Transformer fixture,
// which stops at once when it translates, so its rows come from forced decoding (force=).
// The engine must run Transformers (src/core/transformer*, web/dist rebuilt): until it does,
// the tests that need one are skipped with the engine's reason.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT, artifact, axeViolations, launch, widgetRun } from './helpers.mjs';

const REAL = path.join(ROOT, 'models', 'en-fr-transformer.safetensors');
const TINY = path.join(ROOT, 'tests', 'fixtures', 'tiny-transformer-f32.safetensors');
const MODEL = existsSync(REAL) ? { name: 'en-fr-transformer', file: REAL } : { name: 'tiny-transformer', file: TINY };
const TEXT = 'The black cat is sleeping.';
const FRENCH = 'Le chat noir dort.';
const T = { timeout: 180_000 };

// Whether this engine runs a Transformer, asked of web/lib in Node on the model under test.
let ref = null;
let skip = false;
try {
  ref = await createTranslator({ model: MODEL.file });
  if (ref.info().arch !== 'transformer') skip = `the engine reads ${MODEL.name} but info().arch is ${ref.info().arch}`;
} catch (e) {
  skip = `the engine in web/dist cannot run a Transformer yet: ${e.message}`;
}
const needs = { ...T, skip };

let browser;
before(async () => {
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  ref?.dispose();
  await browser?.close();
});

const mean = (rows) => rows[0].map((_, j) => rows.reduce((s, r) => s + r[j], 0) / rows.length);

const readRows = (page, root = '[data-role="matrix-root"]') => page.$$eval(`${root} [data-role="matrix"] > [data-row]`, (rows) =>
  rows.map((r) => [...r.querySelectorAll('[data-weight]')].map((c) => Number(c.dataset.weight))));

function close(actual, expected, eps, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((x, j) => assert.ok(Math.abs(x - expected[j]) <= eps, `${what}[${j}]: ${x} vs ${expected[j]}`));
}

// The rows the page shows: the model's own translation, or the tiny model's forced French.
async function expectedSteps() {
  if (MODEL.name === 'tiny-transformer') return ref.align(TEXT, FRENCH).steps.slice(0, -1);
  const steps = [];
  for await (const st of ref.steps(TEXT)) if (!(st.done && st.word === '</s>')) steps.push(st);
  return steps;
}

async function openIndex(query = '', options) {
  const page = await browser.newPage(options);
  const force = MODEL.name === 'tiny-transformer' ? `&force=${encodeURIComponent(FRENCH)}` : '';
  await page.goto(`${browser.url}index.html?model=${MODEL.name}&text=${encodeURIComponent(TEXT)}${force}&speed=instant${query}`);
  await page.waitForSelector('[data-role="app"][data-state="done"][data-playing="false"]', { timeout: 120_000 });
  await page.waitForSelector('[data-role="encoder-attention"][data-state="shown"]', { timeout: 60_000 });
  if (force) await page.waitForSelector('[data-role="force-summary"]:not([hidden])');
  return page;
}

test('index.html: the picker shows exactly the engine\'s rows for each layer and head; the step panel follows', needs, async () => {
  const page = await openIndex();
  const steps = await expectedSteps();
  const info = ref.info();
  const picker = '[data-role="heads-root"] [data-role="head-picker"]';
  assert.equal(await page.$eval(picker, (el) => el.hidden), false);
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), [String(info.decLayers), 'avg']);
  assert.match(await page.$eval('[data-role="status"]', (el) => el.textContent), /Transformer: \d+ encoder and \d+ decoder layers/);
  const shown = await readRows(page);
  assert.equal(shown.length, steps.length);
  shown.forEach((r, i) => {
    assert.deepEqual(r, steps[i].alpha.map(Number), `row ${i}: the default is the step's own summary row`);
    close(r, mean(steps[i].cross.alpha[info.decLayers - 1]), 1e-6, `row ${i} = the mean of the last layer's heads`);
  });
  const head = Math.min(3, info.heads);
  await page.selectOption(`${picker} [data-role="layer"]`, { value: String(info.decLayers - 1) });
  await page.selectOption(`${picker} [data-role="head"]`, { value: String(head - 1) });
  (await readRows(page)).forEach((r, i) => assert.deepEqual(r, steps[i].cross.alpha[info.decLayers - 1][head - 1], `row ${i}`));
  await page.selectOption(`${picker} [data-role="layer"]`, { value: '0' });
  await page.selectOption(`${picker} [data-role="head"]`, { value: 'avg' });
  (await readRows(page)).forEach((r, i) => close(r, mean(steps[i].cross.alpha[0]), 1e-12, `row ${i}`));
  // The step panel shows the picked row's weights and scores, for the word on show; the grid
  // shows every layer and head at that word, and follows the player.
  await page.click('[data-role="first"]');
  const strip = (l, h) => page.$$eval(`[data-role="head-grid"] [data-layer="${l}"][data-head="${h}"] [data-weight]`,
    (els) => els.map((e) => Number(e.dataset.weight)));
  assert.deepEqual(await strip(1, 1), steps[0].cross.alpha[0][0]);
  await page.click('[data-role="step-forward"]');
  assert.deepEqual(await strip(1, 1), steps[1].cross.alpha[0][0]);
  assert.deepEqual(await strip(info.decLayers, 'avg'), steps[1].alpha.map(Number));
  await page.click('[data-role="first"]');
  const panel = await page.$$eval('[data-role="step-panel"] [data-role="weights"] [data-value]', (els) => els.map((e) => Number(e.dataset.value)));
  close(panel, mean(steps[0].cross.alpha[0]), 1e-12, 'panel weights');
  const scores = await page.$$eval('[data-role="step-panel"] [data-role="scores"] [data-value]', (els) => els.map((e) => Number(e.dataset.value)));
  close(scores, mean(steps[0].cross.e[0]), 1e-9, 'panel scores');
  // The mix names value vectors and z, not the RNN's annotations h and context c.
  assert.match(await page.textContent('[data-role="step-panel"] .bl-formula'), /^Σⱼ αⱼ vⱼ = .*·v\(/);
  assert.match(await page.textContent('[data-role="step-panel"] .bl-strip-meta'), /length ‖z‖/);
  // The encoder's self-attention is the engine's, per layer and head.
  const self = ref.selfAttention(TEXT);
  await page.selectOption('[data-role="encoder-attention"] [data-role="layer"]', { value: '0' });
  await page.selectOption('[data-role="encoder-attention"] [data-role="head"]', { value: '0' });
  assert.deepEqual(await readRows(page, '[data-role="encoder-attention"]'), self.weights[0][0].map((r) => r.map(Number)));
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('index.html: the permalink keeps the layer and head, and opens on them', needs, async () => {
  const page = await openIndex('&layer=1&head=2');
  const picker = '[data-role="heads-root"] [data-role="head-picker"]';
  assert.deepEqual(await page.$eval(picker, (el) => [el.dataset.layer, el.dataset.head]), ['1', '2']);
  const steps = await expectedSteps();
  (await readRows(page)).forEach((r, i) => assert.deepEqual(r, steps[i].cross.alpha[0][1]));
  await page.click('[data-role="permalink"]');
  const link = new URL(await page.$eval('[data-role="permalink-field"]', (el) => el.value));
  assert.deepEqual([link.searchParams.get('layer'), link.searchParams.get('head')], ['1', '2']);
  // The exported SVG draws the same rows and says which layer and head they are.
  const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-role="export-svg"]')]);
  const source = readFileSync(await svg.path(), 'utf8');
  assert.match(source, /decoder layer 1 of \d+, head 2 of \d+/);
  const cells = [...source.matchAll(/data-weight="([^"]+)"/g)].map((m) => Number(m[1]));
  assert.deepEqual(cells, steps.flatMap((st) => st.cross.alpha[0][1]));
  await page.close();
});

test('index.html with beam search: only the summary rows exist, so the picker is off and says why', needs, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}index.html?model=${MODEL.name}&text=${encodeURIComponent(TEXT)}&beam=2&speed=instant`);
  await page.waitForSelector('[data-role="app"][data-state="done"][data-playing="false"]', { timeout: 120_000 });
  const picker = '[data-role="heads-root"] [data-role="head-picker"]';
  assert.equal(await page.$eval(picker, (el) => el.dataset.disabled), 'true');
  assert.equal(await page.$eval(`${picker} [data-role="head"]`, (el) => el.disabled), true);
  assert.match(await page.$eval(`${picker} [data-role="head-note"]`, (el) => el.textContent), /Beam search reports only the summary row/);
  assert.equal(await page.$eval('[data-role="head-grid"]', (el) => el.hidden), true);
  const result = ref.translate(TEXT, { beam: 2 });
  assert.deepEqual(await readRows(page), result.attention.map((r) => r.map(Number)));
  assert.deepEqual(page.problems, []);
  await page.close();
});

for (const [name, options] of [['wide-light', {}], ['wide-dark', { colorScheme: 'dark' }], ['phone-dark', { viewport: { width: 390, height: 844 }, colorScheme: 'dark' }]]) {
  test(`index.html with the Transformer: axe and screenshot, ${name}`, needs, async () => {
    const page = await openIndex('&step=2', options);
    await page.waitForFunction(() => document.getAnimations().length === 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px`);
    assert.deepEqual(await axeViolations(page), []);
    await page.screenshot({ path: artifact(`transformer-${name}.png`), fullPage: true });
    await page.close();
  });
}

test('compare.html: the Transformer beside an RNN, with its picker, its sizes and the real self-attention', needs, async () => {
  const page = await browser.newPage();
  // Beside the shipped additive model when the real Transformer is there, else the tiny RNN.
  const rnn = MODEL.name === 'en-fr-transformer' ? 'en-fr' : 'tiny';
  await page.goto(`${browser.url}compare.html?a=${rnn}&b=${MODEL.name}&text=${encodeURIComponent(TEXT)}`);
  await page.waitForSelector('[data-role="app"][data-state="done"][data-analysis="done"]', { timeout: 120_000 });
  const info = ref.info();
  const side = '[data-role="side"][data-side="b"]';
  assert.equal(await page.$eval(side, (el) => el.dataset.arch), 'transformer');
  assert.equal(await page.$eval(`${side} [data-role="head-picker"]`, (el) => el.hidden), false);
  assert.equal(await page.$eval('[data-side="a"] [data-role="head-picker"]', (el) => el.hidden), true);
  assert.equal(await page.$eval(`${side} [data-role="all-params"]`, (el) => Number(el.dataset.value)), info.numParams);
  const cost = await page.$eval(`${side} [data-role="cost"]`, (el) => ({ value: el.dataset.value, text: el.textContent }));
  assert.ok(cost.value !== undefined || /^n\/a: ./.test(cost.text), `a time or n/a with a reason: ${cost.text}`);
  // The real encoder self-attention replaces the illustration.
  assert.equal(await page.$eval('[data-role="self-attention"]', (el) => el.hidden), true);
  const self = ref.selfAttention(TEXT);
  assert.equal(await page.$eval('[data-role="encoder-attention"]', (el) => el.dataset.state), 'shown');
  await page.selectOption('[data-role="encoder-attention"] [data-role="head"]', { value: '0' });
  assert.deepEqual(await readRows(page, '[data-role="encoder-attention"]'), self.weights[self.layers - 1][0].map((r) => r.map(Number)));
  assert.equal(await page.$eval('[data-role="model-b"]', (el) => el.value), MODEL.name);
  assert.equal(await page.textContent('h1'), 'An RNN with attention beside the Transformer');
  assert.equal(await page.$eval('.bl-cmp-explain .bl-cmp-text', (el) => el.dataset.story), 'transformer');
  assert.match(await page.textContent('.bl-cmp-explain'), /has no recurrence/);
  await page.waitForFunction(() => document.getAnimations().length === 0); // rows fade in
  assert.deepEqual(await axeViolations(page), []);
  await page.screenshot({ path: artifact('transformer-compare.png'), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('the widget: model, layer and head; the step event carries the picked row; hostile values get a note', needs, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}test-pages/compare.html`);
  await page.waitForFunction(() => customElements.get('attention-translator'));
  const info = ref.info();
  const layer = info.decLayers;
  const head = Math.min(3, info.heads);
  const run = (attrs) => widgetRunNote(page, attrs);
  const steps = [];
  for await (const st of ref.steps(TEXT)) steps.push(st);
  const good = await run({ model: MODEL.name, text: TEXT, layer: String(layer), head: String(head) });
  assert.equal(good.state, 'done');
  assert.match(good.note, new RegExp(`decoder layer ${layer} of ${layer}, head ${head} of ${info.heads}`));
  const last = good.events.at(-1);
  assert.deepEqual(last.weights, steps[last.index].cross.alpha[layer - 1][head - 1]);
  await page.locator('attention-translator').screenshot({ path: artifact('widget-transformer.png') });
  for (const [attrs, note] of [
    [{ layer: '<img src=x onerror=alert(1)>' }, /layer="<img src=x onerror=a…" is ignored/],
    [{ head: '0' }, /head="0" is ignored/],
    [{ layer: '99', head: 'avg' }, /layer="99" is ignored/],
  ]) {
    const r = await run({ model: MODEL.name, text: TEXT, ...attrs });
    assert.equal(r.state, 'done', JSON.stringify(attrs));
    assert.match(r.note, note);
    // Drawn with the default instead: the last layer averaged over heads, the summary row.
    const end = r.events.at(-1);
    close(end.weights, steps[end.index].alpha, 1e-6, `${JSON.stringify(attrs)}: the default row`);
  }
  // controls="full": the picker in the figure; a pick sets the attributes, the figure follows.
  const full = await run({ model: MODEL.name, text: TEXT, controls: 'full' });
  assert.equal(full.state, 'done');
  const picked = await page.evaluate(async (value) => {
    const el = document.querySelector('attention-translator');
    const events = [];
    el.addEventListener('step', (e) => events.push(e.detail));
    const select = el.shadowRoot.querySelector('[data-role="head-picker"] [data-role="head"]');
    select.value = value;
    select.dispatchEvent(new Event('change'));
    await new Promise((r) => setTimeout(r, 100));
    return { layer: el.getAttribute('layer'), head: el.getAttribute('head'), events,
      hidden: el.shadowRoot.querySelector('[data-role="head-picker"]').hidden,
      strips: el.shadowRoot.querySelectorAll('[data-role="head-grid"] [data-layer]').length };
  }, String(head - 1));
  assert.deepEqual([picked.hidden, picked.layer, picked.head], [false, String(layer), String(head)]);
  assert.equal(picked.strips, layer * (info.heads + 1));
  assert.deepEqual(picked.events.at(-1).weights, steps[picked.events.at(-1).index].cross.alpha[layer - 1][head - 1]);
  assert.deepEqual(page.problems, []);
  // (axe applies inline styles, which this host page's CSP refuses and logs: checked after.)
  await page.waitForFunction(() => document.querySelector('attention-translator').shadowRoot.getAnimations().length === 0);
  assert.deepEqual(await axeViolations(page), []);
  await page.close();
});

test('the widget\'s mode="compare" with the Transformer as model-b: its picker, its count, its real self-attention', needs, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}test-pages/compare.html`);
  await page.waitForFunction(() => customElements.get('attention-translator'));
  const r = await page.evaluate((model) => new Promise((resolve) => {
    const el = document.createElement('attention-translator');
    el.addEventListener('done', () => {
      // The analysis (the self-attention) follows decoding in the same run: wait for it.
      const poll = () => {
        const root = el.shadowRoot;
        const enc = root.querySelector('[data-role="encoder-attention"]');
        if (enc?.dataset.state !== 'shown') return setTimeout(poll, 50);
        resolve({
          arch: root.querySelector('[data-side="b"]').dataset.arch,
          picker: root.querySelector('[data-side="b"] [data-role="head-picker"]').hidden,
          pickerA: root.querySelector('[data-side="a"] [data-role="head-picker"]').hidden,
          params: Number(root.querySelector('[data-side="b"] [data-role="all-params"]').dataset.value),
          illustration: root.querySelector('[data-role="self-attention"]').hidden,
          rows: [...enc.querySelectorAll('[data-role="matrix"] > [data-row]')].length,
        });
      };
      poll();
    });
    el.addEventListener('error', (e) => resolve({ error: e.detail.message }));
    for (const [k, v] of Object.entries({ mode: 'compare', 'model-a': 'tiny', 'model-b': model, text: 'The black cat is sleeping.' })) el.setAttribute(k, v);
    document.getElementById('host').replaceChildren(el);
  }), MODEL.name);
  assert.equal(r.error, undefined);
  assert.deepEqual(r, { arch: 'transformer', picker: false, pickerA: true, params: ref.info().numParams, illustration: true,
    rows: ref.selfAttention(TEXT).tokens.length });
  assert.deepEqual(page.problems, []);
  await page.close();
});

// The widget host page: a run of one widget with the given attributes -> its events and note.
const widgetRunNote = (page, attrs) => widgetRun(page, attrs, { note: '[data-role="heads-note"]' });

// These need no Transformer engine.
test('the widget on an RNN model: layer and head are ignored, with a note; the rows stay its own', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}test-pages/compare.html`);
  await page.waitForFunction(() => customElements.get('attention-translator'));
  const r = await widgetRunNote(page, { model: 'tiny', text: TEXT, layer: '2', head: '<b>x</b>' });
  assert.equal(r.state, 'done');
  assert.match(r.note, /apply to a Transformer model/);
  const tiny = await createTranslator({ model: path.join(ROOT, 'tests', 'fixtures', 'tiny-additive-f32.safetensors') });
  const steps = [];
  for await (const st of tiny.steps(TEXT)) steps.push(st);
  tiny.dispose();
  assert.ok(r.events.length > 0);
  for (const e of r.events) assert.deepEqual(e.weights, Array.from(steps[e.index].alpha), `step ${e.index}`);
  const plain = await widgetRunNote(page, { model: 'tiny', text: TEXT });
  assert.equal(plain.note, '', 'no note without the attributes');
  assert.deepEqual(page.problems, []);
  await page.close();
});

test('a model whose file is missing is "not available", in words, and the page stays usable', T, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}index.html?model=/models/none-such.safetensors&text=${encodeURIComponent(TEXT)}`);
  await page.waitForSelector('[data-role="app"][data-state="error"]');
  assert.match(await page.$eval('[data-role="error"]', (el) => el.textContent), /is not available here: its file is not on this server yet/);
  assert.equal(await page.$eval('[data-role="model"]', (el) => el.value), '/models/none-such.safetensors');
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  await page.close();
});

test('why.html\'s lineage strip: the four models in order, sizes, scoring and decoding times from the engine, training speeds from data/train-speed.json', { timeout: 300_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${browser.url}why.html`);
  await page.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
  const cards = '[data-role="lineage-model"]';
  assert.deepEqual(await page.$$eval(cards, (els) => els.map((e) => e.dataset.model)), ['en-fr-noattn', 'en-fr', 'en-fr-dot', 'en-fr-transformer']);
  assert.ok((await page.$$eval(cards, (els) => els.map((e) => e.dataset.state))).every((s) => s === 'waiting'), 'nothing is loaded before the strip is in view');
  await page.$eval('[data-role="lineage-card"]', (el) => el.scrollIntoView());
  await page.waitForFunction(() => [...document.querySelectorAll('[data-role="lineage-model"]')]
    .every((e) => ['ready', 'missing', 'failed'].includes(e.dataset.state)), null, { timeout: 240_000 });
  const read = await page.$$eval(cards, (els) => els.map((e) => ({
    model: e.dataset.model,
    state: e.dataset.state,
    params: e.querySelector('[data-role="lineage-params"]').dataset.value,
    cost: e.querySelector('[data-role="lineage-cost"]'),
    train: { ...e.querySelector('[data-role="lineage-train"]').dataset, text: e.querySelector('[data-role="lineage-train"]').textContent },
    decode: { ...e.querySelector('[data-role="lineage-decode"]').dataset, text: e.querySelector('[data-role="lineage-decode"]').textContent },
  })).map((c) => ({ ...c, cost: { value: c.cost.dataset.value, text: c.cost.textContent } })));
  // Training: en-fr and the Transformer show the JSON's numbers as written; the other two none.
  const speed = JSON.parse(readFileSync(path.join(ROOT, 'web', 'data', 'train-speed.json'), 'utf8'));
  const keys = { 'en-fr': 'rnn', 'en-fr-transformer': 'transformer' };
  for (const c of read) {
    const m = speed.models[keys[c.model]];
    if (!m) {
      assert.equal(c.train.text, 'not measured', c.model);
      continue;
    }
    assert.equal(Number(c.train.tokensPerS), m.target_tokens_per_s, c.model);
    assert.equal(Number(c.train.epochMinutes), m.epoch_minutes, c.model);
    assert.ok(c.train.text.includes(`${m.target_tokens_per_s.toLocaleString('en-US')} target tokens/s, ${m.epoch_minutes.toFixed(1)} min per epoch`), c.train.text);
  }
  assert.ok(read[3].train.text.includes(`${speed.transformer_vs_rnn_tokens_per_s.toFixed(2)}× en-fr’s`), read[3].train.text);
  assert.ok((await page.$eval('[data-role="lineage-train-note"]', (el) => el.textContent)).includes(speed.command));
  // Decoding in this browser: every model that loaded shows a positive time per output word.
  for (const c of read.filter((x) => x.state === 'ready')) {
    assert.ok(Number(c.decode.msPerWord) > 0 && Number(c.decode.encodeMs) >= 0, `${c.model}: ${c.decode.text}`);
    assert.match(c.decode.text, /ms\/word/, c.model);
  }
  for (const c of read.slice(0, 3)) {
    assert.equal(c.state, 'ready', c.model);
    const tr = await createTranslator({ model: path.join(ROOT, 'models', `${c.model}.safetensors`) });
    assert.equal(Number(c.params), tr.info().numParams, c.model);
    tr.dispose();
  }
  assert.equal(read[0].cost.value, undefined, 'no scoring to time without attention');
  assert.match(read[0].cost.text, /nothing to score/);
  assert.ok(Number(read[1].cost.value) > 0 && Number(read[2].cost.value) > 0);
  const t = read[3];
  if (existsSync(REAL) && !skip) assert.equal(t.state, 'ready');
  else if (!existsSync(REAL)) assert.equal(t.state, 'missing');
  await page.$eval('[data-role="lineage-card"]', (el) => el.scrollIntoView());
  await page.screenshot({ path: artifact('why-lineage.png') });
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  await page.close();
});

test('why.html\'s lineage strip without data/train-speed.json: a quiet "not available", no error box', T, async () => {
  const page = await browser.newPage();
  await page.route('**/data/train-speed.json', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${browser.url}why.html`);
  await page.waitForSelector('[data-role="app"][data-state="done"]', { timeout: 120_000 });
  const train = await page.$$eval('[data-role="lineage-train"]', (els) => els.map((e) => e.textContent));
  assert.deepEqual(train, Array(4).fill('not available: data/train-speed.json could not be read'));
  assert.equal(await page.$eval('[data-role="lineage-train-note"]', (el) => el.hidden), true);
  assert.equal(await page.$eval('[data-role="error"]', (el) => el.hidden), true);
  assert.deepEqual(page.problems.filter((p) => !/404/.test(p)), []);
  await page.close();
});
