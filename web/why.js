// why.html's wiring: the measured numbers (data/*.json, written by scripts/eval) into the
// charts, two engines (app/engine-pair.js: one worker per model, as on compare.html) into the
// side-by-side figure, and the live experiment (app/bleu-experiment.js) into its progress
// line and chart. The views draw; this file only moves data into them.

import { BleuExperiment, interleave } from './app/bleu-experiment.js';
import { EnginePair } from './app/engine-pair.js';
import { hideErrorBox, loadErrorTitle, showErrorBox } from './app/errors.js';
import { applyStrings, labelLangToggle } from './app/i18n.js';
import { measureWhenVisible } from './app/lineage.js';
import { readCompareParams, resolveModel } from './app/params.js';
import { submitOnEnter } from './app/text-box.js';
import { LINEAGE, LINEAGE_KINDS, WHY_MODELS } from './lib/catalogue.js';
import { BleuChart } from './ui/bleu-chart.js';
import { BottleneckView } from './ui/bottleneck-view.js';
import { h } from './ui/dom.js';
import { LineageStrip } from './ui/lineage-strip.js';
import { SIDES } from './ui/lockstep.js';
import { stepWithArrows } from './ui/playback-bar.js';
import { STRINGS } from './ui/strings.js';
import { WHY_STRINGS } from './ui/why-strings.js';
import { PAIR_STRINGS } from './ui/pair-strings.js';

// The experiment's wall time in headless Chromium on this project's loaded two-core test
// machine, as the page states it: tests/browser/why.test.mjs prints each run's. Measured with
// the shipped en-fr-noattn and en-fr on the 180 bundled inputs, decoded in translateBatch()
// chunks: median of 8 runs (4.8 to 5.9 s) while a training run shared the machine, so a laptop
// should do better. One translate() per sentence took a median 8.3 s in the same runs.
const MEASURED = { sentences: 180, seconds: 5.0 };
const DEFAULT_BUCKET = '31-40'; // the side-by-side's default: a sentence of 31 to 40 words

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const input = $('source-input');
const card = $('run-card');
const params = readCompareParams(location, WHY_MODELS);

let lang = params.lang;
let S = { ...STRINGS[lang], ...WHY_STRINGS[lang] };
const pair = new EnginePair();
const { clients, engines } = pair;
let data = null; // {bleu, sample} once fetched
let job = 0; // the sentence on show; older engines' replies are dropped
let decoding = Promise.resolve(); // the side-by-side's translations, which hold the workers
let experiment = null; // the running BleuExperiment
let outcome = null; // the last run's {status, done, ms}
let lastRun = null; // the last finished BleuExperiment, whose outputs are listed

const view = new BottleneckView($('bottleneck-root'), { lang, controls: 'full' });
const chart = new BleuChart($('chart'), { strings: S });
const runChart = new BleuChart($('run-chart'), { strings: S, only: ['none', 'additive'] });
// scripts/train-speed times en-fr's recipe ('rnn') and the Transformer's; the other two share
// en-fr's RNN but were not timed, so they get no training numbers.
const TRAIN_SPEED_KEYS = { 'en-fr': 'rnn', 'en-fr-transformer': 'transformer' };
// The four models of the story, with their sizes and scoring times (app/lineage.js measures).
const lineage = new LineageStrip($('lineage-root'), {
  strings: S,
  models: LINEAGE.map((name) => ({ name, kind: LINEAGE_KINDS[name], train: TRAIN_SPEED_KEYS[name] })),
});

const ready = () => pair.ready;

function setState(state) {
  app.dataset.state = state;
  $('go').disabled = state === 'loading' || Boolean(experiment);
  $('run').disabled = !ready() || !data || Boolean(experiment);
  $('run-waiting').hidden = ready() && Boolean(data);
}

function showError(title, detail) {
  showErrorBox($('error'), S, title, detail);
}

// Clears the last error; a refused a= or b= stays said, since its fallback stays on screen.
function hideError() {
  hideErrorBox($('error'));
  if (params.badModel) showError(S.errorTitle, S.errorModelParam);
  else if (params.pairRefused) { // a= and b= into two languages, or en-zh twice (app/params.js)
    const { kind, a, b } = params.pairRefused;
    const P = PAIR_STRINGS[lang];
    showError(S.errorTitle, `${kind === 'mixed' ? P.compareMixed(a, b) : P.compareSame(a)} ${P.fallback}`);
  }
}

async function fetchJson(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r.json();
}

// The training speeds are one line per card, not the page's subject: a missing or bad file
// says "not available" there, with no error box.
async function loadTrainSpeed() {
  try {
    const json = await fetchJson('data/train-speed.json');
    if (!json?.models || typeof json.models !== 'object') throw new Error('data/train-speed.json: no models');
    lineage.setTrainSpeed(json);
  } catch (e) {
    lineage.setTrainSpeed({ error: e.message });
  }
}

async function loadData() {
  try {
    const [bleu, sample] = await Promise.all([fetchJson('data/bleu-by-length.json'), fetchJson('data/long-sample.json')]);
    data = { bleu, sample };
  } catch (e) {
    showError(S.errorData, e.message);
    return;
  }
  chart.setData(data.bleu);
  runChart.setData(data.bleu);
  lineage.setBleu(data.bleu);
  measureWhenVisible($('lineage-root'), {
    models: LINEAGE.map((name) => ({ name, url: resolveModel(name, location.href).url })),
    view: lineage,
    text: () => defaultItem()?.en ?? input.value,
    simd: params.simd,
  });

  if (!params.text) input.value = defaultItem()?.en ?? '';
  renderText();
  setState(app.dataset.state);
}

// The side-by-side's default sentence: the first of its band in the bundled sample.
function defaultItem() {
  const items = data?.sample.items ?? [];
  return items.find((it) => it.bucket === DEFAULT_BUCKET) ?? items.at(-1) ?? null;
}

async function loadModels() {
  try {
    await pair.load(params, { simd: params.simd, view, bar: $('progress-bar'), text: $('progress-text') });
  } catch (e) {
    finishWithError(loadErrorTitle(e, S), e.message);
    return;
  }
  $('progress').hidden = true;
  setState('ready');
  renderStatus();
}

function finishWithError(title, detail) {
  $('progress').hidden = true;
  setState('error');
  showError(title, detail);
}

// One sentence through both models, in lockstep on the figure.
async function translate() {
  const text = input.value;
  if (!ready() || experiment) return;
  if (!text.trim()) {
    input.focus();
    return;
  }
  hideError();
  const mine = ++job;
  const live = () => job === mine;
  const item = defaultItem();
  view.reset();
  view.setReference(item && text.trim() === item.en ? item.fr : null);
  $('sample-attribution').hidden = !(item && text.trim() === item.en);
  setState('decoding');
  decoding = pair.translate(text, view, live);
  const failed = await decoding;
  if (!live()) return;
  if (failed) showError(S.errorTranslate, failed.message);
  setState('done');
}

// ---- the live experiment ------------------------------------------------------------------

async function runExperiment() {
  if (experiment || !ready() || !data) return;
  const { sample } = data;
  const exp = new BleuExperiment({
    clients,
    scorer: clients.b, // the attention model's target tokenizer, as scripts/eval uses
    items: interleave(sample.items, sample.buckets),
    buckets: sample.buckets,
    onProgress: (p) => {
      renderRun(exp, p);
      renderRunText(p);
    },
  });
  experiment = exp;
  outcome = null;
  await decoding; // the side-by-side's sentence first: the workers decode one at a time
  card.dataset.run = 'running';
  setState(app.dataset.state);
  $('cancel').hidden = false;
  $('run-progress').hidden = false;
  $('run-bar').max = exp.total;
  $('run-bar').value = 0;
  $('run-result').textContent = '';
  renderRun(exp, null);
  renderRunText({ done: 0, total: exp.total, leftMs: null });
  if (document.activeElement === $('run')) $('cancel').focus();
  outcome = await exp.run();
  experiment = null;
  card.dataset.run = outcome.status;
  card.dataset.done = String(outcome.done);
  card.dataset.ms = String(outcome.ms);
  const refocus = document.activeElement === $('cancel');
  $('cancel').hidden = true;
  setState(app.dataset.state);
  if (refocus) $('run').focus();
  lastRun = exp;
  renderRun(exp, outcome);
  renderRunResult();
  renderOutputs();
}

// The run's curves: BLEU x 100 per band for each model, as the experiment has scored them.
function renderRun(exp, last) {
  const scores = exp.scores();
  const models = SIDES.map((side) => ({
    model: params[side].name,
    scoring: engines[side].info.scoring,
    bleu: Object.fromEntries(Object.entries(scores[side]).map(([b, x]) => [b, x.bleu])),
    sentences: Object.fromEntries(Object.entries(scores[side]).map(([b, x]) => [b, x.sentences])),
  }));
  const partial = Boolean(last && last.status && last.status !== 'done') || exp.done < exp.total;
  runChart.setRun({ models, sentences: exp.done, partial });
  $('run-bar').value = exp.done;
}

function renderRunText(p) {
  $('run-text').textContent = p.done === 0 && p.leftMs === null ? S.runStarting(p.total) : S.runProgress(p.done, p.total, p.leftMs);
}

function renderRunResult() {
  const el = $('run-result');
  if (!outcome) {
    el.textContent = '';
    return;
  }
  const n = data.sample.items.length;
  if (outcome.status === 'done') el.textContent = S.runDone(n, outcome.ms);
  else if (outcome.status === 'cancelled') el.textContent = S.runCancelled(outcome.done, n);
  else el.textContent = S.runFailed(outcome.error?.message ?? String(outcome.error));
  $('run-text').textContent = S.runCount(outcome.done, n);
}

// What each model wrote for each scored sentence, under a disclosure: the numbers' raw material.
function renderOutputs() {
  const exp = lastRun;
  if (!exp) return;
  const outs = exp.outputs();
  const items = interleave(data.sample.items, data.sample.buckets).slice(0, exp.done);
  const line = (label, text, lang) => h('p', {}, h('strong', { text: `${label}: ` }), h('span', { lang, text }));
  $('run-output-list').replaceChildren(...items.map((it, k) => h('li', { 'data-bucket': it.bucket },
    line(S.outEnglish, it.en, 'en'),
    line(S.outReference, it.fr, 'fr'),
    SIDES.map((side) => h('p', { 'data-side': side }, h('strong', { text: `${params[side].label}: ` }),
      h('span', { lang: 'fr', 'data-role': 'run-output', text: outs[side][k] }))))));
  $('run-outputs').hidden = items.length === 0;
}

// ---- text and language --------------------------------------------------------------------

function renderText() {
  const sample = data?.sample;
  const bleu = data?.bleu;
  if (bleu) {
    const per = Math.max(...bleu.models.flatMap((m) => Object.values(m.sentences)));
    $('chart-caption').textContent = S.chartCaption(bleu, per);
    $('chart-command').textContent = bleu.command;
  }
  if (sample) {
    $('attribution').textContent = S.sampleSource(sample.attribution);
    $('run-intro').textContent = S.runIntro(sample.items.length, sample.per_bucket, MEASURED);
    $('run-note').textContent = S.runNote(sample.per_bucket);
  }
  if (experiment) renderRunText({ done: experiment.done, total: experiment.total, leftMs: null });
  else renderRunResult();
}

function renderStatus() {
  const el = $('status');
  el.textContent = pair.status(S, params, { simd: params.simd, kind: (info) => S.kind[info.scoring] ?? info.scoring });
  if (pair.ready) el.dataset.variant = engines.a.engine.variant;
}

function setLanguage(next) {
  lang = next;
  S = { ...STRINGS[lang], ...WHY_STRINGS[lang] };
  applyStrings(document, S, lang);
  labelLangToggle($('lang'), S, lang);
  updateLinks();
  view.setLang(lang);
  chart.setStrings(S);
  runChart.setStrings(S);
  lineage.setStrings(S);
  renderText();
  renderStatus();
  renderOutputs();
}

// The ways out keep the language (and, to the main page, the sentence).
function updateLinks() {
  const back = new URL('./', location.href);
  if (input.value && input.value.trim() !== defaultItem()?.en) back.searchParams.set('text', input.value);
  const compare = new URL('compare.html', location.href);
  if (lang === 'zh') {
    back.searchParams.set('lang', 'zh');
    compare.searchParams.set('lang', 'zh');
  }
  $('back').href = back.href;
  $('compare-nav').href = compare.href;
}

function wire() {
  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    translate();
  });
  submitOnEnter(input, $('form'));
  input.addEventListener('input', updateLinks);
  $('run').addEventListener('click', runExperiment);
  $('cancel').addEventListener('click', () => experiment?.cancel());
  stepWithArrows(document, view.player, '[data-role="c-strip"]'); // both sides; the strip reads c with them
  $('lang').addEventListener('click', () => setLanguage(lang === 'zh' ? 'en' : 'zh'));
}

wire();
input.value = params.text;
setLanguage(lang);
hideError();
setState('loading');
// The sentence decodes once both the models and (for the default sentence) the sample are in.
loadTrainSpeed();
Promise.all([loadData(), loadModels()]).then(() => {
  if (ready()) translate();
});
