// Every page in Chinese (lang=zh), walked once it has finished decoding: no English may be left
// in what a reader sees or hears (text, sr-only text included, and the title, aria-label and
// placeholder attributes), in the page or in a widget's shadow root. The model's own words are
// excepted, and so is a short, explicit list of names and notation that Chinese text keeps as
// they are, each with its reason.
//
// Pages: index.html, compare.html, why.html, train.html (before training), and embed.html (the
// widget: the single figure with its panel, mode="compare", mode="bottleneck"). embed-docs.html
// has no Chinese mode: it is the English guide for course authors; its lang="zh" example is the
// widget, walked here through embed.html.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, pageModel } from './helpers.mjs';

// Where the model's words are shown (they are English or French by nature): no text inside
// these is checked. Their attributes are checked unless MODEL_ATTRS says otherwise.
const MODEL_TEXT = [
  '.tok', // the source and the translation, token by token (index.html)
  '[data-role="output"]', // a translation (the two-model views, the widget)
  '[data-role="source"]', // the widget's sentence as its author wrote it
  '[data-role="announce"]', // "译文: <the French>", read out once decoded
  '.bl-col-text, .bl-rowhead', // the matrix's column (English) and row (French) headers
  'table th', // the same headers in the matrix's screen-reader table (its corner is checked: .bl-corner-text)
  '.bl-bar-label, .bl-cand-word, .bl-context i', // the step panel's words: columns, candidates, hⱼ of the mix
  '.bl-tooltip', // a cell's pair of words, on hover
  '.chip', // example sentences: English input for the model (their titles are checked)
  '[lang="fr"], [lang="en"]:not(html)', // text the page marks as French or English: sentences, references, the language switch
  'code, pre', // commands and code, quoted as typed
  'cite', // paper titles, cited in their original language as Chinese references do
  '.eyebrow', // the brand, bahdanau-live
];
// Elements whose attributes carry model words with numbers ("have → j': 权重 0.023").
const MODEL_ATTRS = ['[data-weight]', '.bl-bar-row', '.bl-bar-label'];

// Latin words that may stay, with the reason.
const KEEP = new Map(Object.entries({
  // people, as Chinese text names them
  Bahdanau: 'author', Cho: 'author', Bengio: 'author', Vaswani: 'author', Sennrich: 'author',
  Jain: 'author', Wallace: 'author', Wiegreffe: 'author', Pinter: 'author', // attention edits' section
  van: 'author (van Merriënboer)', Merriënboer: 'author', Gulcehre: 'author', Bougares: 'author', Schwenk: 'author',
  Tatoeba: 'the corpus, a proper name',
  // names of things that Chinese technical writing does not translate
  Transformer: 'model name', RNN: 'acronym', RNNencdec: 'the paper’s name for its baseline', BLEU: 'metric name',
  WebAssembly: 'technology name', SIMD: 'acronym', Web: 'the Web Worker API', Worker: 'the Web Worker API',
  Chromium: 'browser name', IBM: 'model name (IBM 模型 1, the statistical aligner of guided training)',
  SVG: 'file format', PNG: 'file format', Enter: 'key name', Shift: 'key name',
  // notation of the paper's formulas (the letters of vectors and matrices are single letters)
  softmax: 'function name', tanh: 'function name', exp: 'function name', log: 'function name (log₂)',
  TV: 'the symbol of total variation, defined where it is used',
  query: 'English term glossed after its translation (查询向量（query）)', key: 'idem (键向量（key）)',
  // units and the licence
  MB: 'unit', kB: 'unit (the tiny test models\' size)', 'CC-BY': 'licence name', FR: 'licence name (CC-BY 2.0 FR)',
  d_model: 'notation: the Transformer\'s width, as Vaswani et al. write it',
  bf16: 'number format (bfloat16), as training tools and data/train-speed.json name it',
}));
// Identifiers and addresses, kept as typed. (The engine's reasons, ?simd=0's included, are
// checked by tests/node/zh-strings.test.mjs.)
const KEEP_PATTERNS = [
  [/^bahdanau-live$/, 'the project’s name'],
  [/^en-fr(-dot|-noattn|-f32|-transformer)?$/, 'model names, as in the models/ folder and the URL parameters'],
  [/^(int8|q4|f32)$/, 'weight formats (dtype), as in the model files'],
  [/^[\w.-]+\/[\w./-]*$/, 'paths: scripts/eval, data/*.json'],
  [/^([\w-]+\.)+(org|com|json)$/, 'domains and file names'],
  [/^https?:\/\/\S+$/, 'addresses'],
];

let browser;
let model;

before(async () => {
  model = pageModel();
  browser = await launch();
}, { timeout: 90_000 });

after(() => browser?.close());

const text = encodeURIComponent('I have a black cat.');
const PAGES = [
  ['index.html', () => `?model=${model?.name}&text=${text}&lang=zh&step=1`,
    '[data-role="app"][data-state="done"][data-playing="false"]'],
  ['compare.html', () => `?text=${text}&lang=zh`, '[data-role="app"][data-state="done"][data-analysis="done"]'],
  ['why.html', () => '?lang=zh', '[data-role="app"][data-state="done"]'],
  // Before training (tests/browser/train.test.mjs checks its words while it trains).
  ['train.html', () => '?lang=zh', '[data-role="app"][data-state="ready"]'],
  ['embed.html', () => `?text=${text}&lang=zh&panel=1&step=1`, 'attention-translator[data-state="done"]'],
  ['embed.html', () => `?text=${text}&lang=zh&mode=compare`, 'attention-translator[data-state="done"]'],
  ['embed.html', () => `?text=${text}&lang=zh&mode=bottleneck`, 'attention-translator[data-state="done"]'],
  // The Transformer's parts: the tiny one writes nothing of its own, so its rows are forced.
  ['index.html', () => `?model=tiny-transformer&text=${text}&lang=zh&step=1&force=${encodeURIComponent('Le chat noir dort.')}`,
    '[data-role="encoder-attention"][data-state="shown"]'],
  ['compare.html', () => `?a=tiny&b=tiny-transformer&text=${text}&lang=zh`, '[data-role="app"][data-state="done"][data-analysis="done"]'],
  // An attention edit made (edit=): the edit view, the marked row, the step panel's sliders.
  ['index.html', () => `?model=${model?.name}&text=${text}&lang=zh&edit=1:1`,
    '[data-role="app"][data-state="done"][data-playing="false"] [data-role="edit-view"][data-state="active"]'],
  ['compare.html', () => `?text=${text}&lang=zh&edit=1:1`, '[data-role="app"][data-state="done"][data-analysis="done"] [data-role="edit-view"][data-state="active"]'],
];

// In the page: every visible string outside MODEL_TEXT, as {where, text}, shadow roots included.
function visibleStrings({ modelText, modelAttrs }) {
  const out = [];
  const skipText = modelText.join(', ');
  const skipAttrs = modelAttrs.join(', ');
  const where = (el) => `${el.tagName.toLowerCase()}${el.dataset.role ? `[data-role=${el.dataset.role}]` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
  const shown = (el) => el.checkVisibility({ visibilityProperty: true }) && !el.closest('[hidden], [aria-hidden="true"]');
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'HEAD', 'META', 'LINK'].includes(el.tagName)) continue;
      if (!shown(el)) continue;
      if (!el.closest(skipAttrs)) {
        for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
          const v = el.getAttribute(a);
          if (v) out.push({ where: `${where(el)}@${a}`, text: v });
        }
      }
      if (el.closest(skipText)) continue;
      for (const node of el.childNodes) {
        if (node.nodeType === Node.TEXT_NODE && node.textContent.trim()) out.push({ where: where(el), text: node.textContent.trim() });
      }
    }
  };
  walk(document);
  return out;
}

// Latin letters (accented ones too; not the subscripts and superscripts of the notation: eⱼ, vᵀ).
const L = 'A-Za-zÀ-ÖØ-öø-ÿ';
const WORD = new RegExp(`[${L}][${L}\\d_./:=?-]*`, 'g');
const TWO = new RegExp(`[${L}]{2}`);

// The English left in one string: its words of two or more Latin letters, minus quoted model
// words (“…”: the pages quote the model's words so) and what KEEP and KEEP_PATTERNS allow.
function englishIn(s) {
  const words = s.replace(/“[^”]*”/g, ' ').match(WORD) ?? [];
  return words
    .map((w) => w.replace(/[.:]+$/, ''))
    .filter((w) => TWO.test(w))
    .filter((w) => !KEEP.has(w) && !KEEP_PATTERNS.some(([re]) => re.test(w)));
}

for (const [file, query, ready] of PAGES) {
  const mode = /mode=(\w+)/.exec(query())?.[1];
  const tf = /tiny-transformer/.test(query()) ? ' (Transformer)' : '';
  const edit = /edit=/.test(query()) ? ' (an attention edit)' : '';
  test(`${file}${mode ? ` (mode=${mode})` : ''}${tf}${edit} in Chinese shows no English but the model's words`, { timeout: 180_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}${file}${query()}`);
    await page.waitForSelector(ready, { timeout: 150_000 });
    const strings = await page.evaluate(visibleStrings, { modelText: MODEL_TEXT, modelAttrs: MODEL_ATTRS });
    assert.ok(strings.length > 20, `the walk found the page's text (${strings.length} strings)`);
    const left = strings.map((s) => ({ ...s, english: englishIn(s.text) })).filter((s) => s.english.length);
    assert.deepEqual(left.map((s) => `${s.where}: ${s.english.join(' ')} — “${s.text.slice(0, 120)}”`), []);
    assert.deepEqual(page.problems, []);
    await page.close();
  });
}
