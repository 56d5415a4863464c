// compare.html's wiring: the form, two engines (app/engine-pair.js: one worker per model) and
// the shared comparison view. The view draws; this file only moves the engines' steps and
// analyses into it.

import { CompareEdits } from './app/compare-edits.js';
import { ComparePresets } from './app/compare-presets.js';
import { EnginePair } from './app/engine-pair.js';
import { hideErrorBox, loadErrorTitle, showErrorBox } from './app/errors.js';
import { COMPARE_EXAMPLES, exampleChips, titleExamples } from './app/examples.js';
import { applyStrings, labelLangToggle } from './app/i18n.js';
import { ModelMenu, PairChoice } from './app/model-menu.js';
import { compareLink, readCompareParams } from './app/params.js';
import { submitOnEnter } from './app/text-box.js';
import { COMPARE_STRINGS } from './ui/compare-strings.js';
import { PAIR_STRINGS } from './ui/pair-strings.js';
import { PAIRS, pairOf } from './lib/catalogue.js';
import { compareStory } from './ui/compare-story.js';
import { CompareView } from './ui/compare-view.js';
import { SIDES } from './ui/lockstep.js';
import { stepWithArrows } from './ui/playback-bar.js';
import { STRINGS } from './ui/strings.js';
import { TRANSFORMER_STRINGS, isMissingModel, modelKind } from './ui/transformer-strings.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const input = $('source-input');
const params = readCompareParams(location);

let lang = params.lang;
// The page's words; with a Transformer on a side, or two models whose attention learned
// differently (ui/compare-story.js), its own title and tagline (the two no longer differ only
// in their score).
const words = () => {
  const story = compareStory(SIDES.map((side) => engines[side]?.info));
  const page = { transformer: TRANSFORMER_STRINGS[lang].comparePage, guidance: COMPARE_STRINGS[lang].guidancePage }[story];
  return { ...STRINGS[lang], ...COMPARE_STRINGS[lang], ...page };
};
let S = { ...STRINGS[lang], ...COMPARE_STRINGS[lang] };
const pair = new EnginePair();
const { clients, engines } = pair;
let pendingStep = params.step;
let pendingEdits = params.edits; // edit= ({edits, refused}), made once both have decoded
let queued = Boolean(params.text);
let job = 0; // the sentence on show; older engines' replies are dropped
let sentence = params.text; // the text decoded last

const view = new CompareView($('compare-root'), { lang, controls: 'full', onEdit: (edit) => edits.apply(edit) });
// One attention edit for both models (app/compare-edits.js); the address bar keeps it.
const edits = new CompareEdits(view, { clients, lang, text: () => sentence, error: (t, m) => showError(t, m), changed: keepLink });
// Any two models side by side (the Transformer beside an RNN): a pick reopens the page on them.
const menus = SIDES.map((side) => new ModelMenu($(`menu-${side}`), {
  current: params[side],
  role: `model-${side}`,
  name: (T) => T.sidePick(side),
  go: (name) => location.assign(compareLink(location.href,
    { text: input.value, simd: params.simd, lang, a: params.a.name, b: params.b.name, [side]: name, edits: edits.linkValues })),
}));

// Ready-made pairs (additive beside scaled dot; learned by itself beside an aligner's hint).
const presets = new ComparePresets($('compare-presets'), {
  current: { a: params.a.name, b: params.b.name },
  href: (a, b) => compareLink(location.href, { text: input.value, simd: params.simd, lang, a, b }),
});

// The language pair choice: a comparison needs two models into one language, and English→Chinese
// has one so far, so it is offered greyed out with that reason beside it.
const pairChoice = new PairChoice($('pair-choice'), {
  current: pairOf(params.a.name),
  refuse: (p, P) => (PAIRS[p].models.length < 2 ? P.compareOnlyOne : null),
  go: () => location.assign(compareLink(location.href, { text: input.value, simd: params.simd, lang })),
});

function setState(state) {
  app.dataset.state = state;
  $('go').disabled = state === 'loading';
}

function showError(title, detail) {
  showErrorBox($('error'), S, title, detail);
}

// Clears the last error; a refused a= or b= stays said, since its fallback stays on screen.
function hideError() {
  hideErrorBox($('error'));
  if (params.badModel) showError(S.errorTitle, S.errorModelParam);
  else if (params.pairRefused) showError(S.errorTitle, refusal(params.pairRefused));
}

// What a refused a= and b= pair is told (app/params.js refusePair), in the page's language.
function refusal({ kind, a, b }) {
  const P = PAIR_STRINGS[lang];
  return `${kind === 'mixed' ? P.compareMixed(a, b) : P.compareSame(a)} ${P.fallback}`;
}

async function load() {
  hideError();
  setState('loading');
  try {
    await pair.load(params, { simd: params.simd, view, bar: $('progress-bar'), text: $('progress-text') });
  } catch (e) {
    // A model whose file is not on the server (the Transformer before it is shipped): said so.
    const missing = isMissingModel(e) ? SIDES.map((side) => params[side]).find((m) => e.message.includes(m.url)) : null;
    finishWithError(loadErrorTitle(e, S), missing ? `${TRANSFORMER_STRINGS[lang].modelMissing(missing.label)} ${e.message}` : e.message);
    return;
  }
  $('progress').hidden = true;
  setState('ready');
  setLanguage(lang); // the title and tagline, now that the models' kinds are known
  if (queued && input.value.trim()) compare();
  queued = false;
}

function finishWithError(title, detail) {
  $('progress').hidden = true;
  setState('error');
  showError(title, detail);
}

async function compare() {
  const text = input.value;
  if (!pair.ready) {
    queued = true;
    return;
  }
  if (!text.trim()) {
    input.focus();
    return;
  }
  hideError();
  const mine = ++job;
  const live = () => job === mine;
  edits.setBase(null);
  sentence = text;
  view.reset({ play: pendingStep === null });
  setState('decoding');
  app.dataset.analysis = 'pending';
  const failed = await pair.translate(text, view, live);
  if (!live()) return;
  if (failed) showError(S.errorTranslate, failed.message);
  setState('done');
  if (!failed) {
    edits.rebase(Object.fromEntries(SIDES.map((s) => [s, { steps: view.received(s), result: pair.results[s] }])),
      { a: engines.a.info, b: engines.b.info }, { a: params.a.label, b: params.b.label });
    if (pendingEdits) await edits.applyAll(pendingEdits);
    if (!live()) return;
  }
  pendingEdits = null;
  if (pendingStep !== null) {
    view.player.seek(pendingStep);
    pendingStep = null;
  }
  // Timed after decoding, so the two workers' clocks are not shared with the decoders.
  await Promise.allSettled(SIDES.map((side) =>
    clients[side].analyze(text).then(
      (a) => live() && view.setAnalysis(side, a),
      () => live() && view.analysisFailed(side), // the sentence was refused: its error is shown
    )));
  if (!live()) return;
  view.analysisDone();
  app.dataset.analysis = 'done';
}

function renderStatus() {
  const el = $('status');
  el.textContent = pair.status(S, params, { simd: params.simd, kind: (info) => modelKind(S, TRANSFORMER_STRINGS[lang], info) });
  if (pair.ready) el.dataset.variant = engines.a.engine.variant;
}

function setLanguage(next) {
  lang = next;
  S = words();
  applyStrings(document, S, lang);
  labelLangToggle($('lang'), S, lang);
  titleExamples($('examples'), COMPARE_EXAMPLES, lang);
  updateBackLink();
  view.setLang(lang);
  edits.setLang(lang);
  for (const m of menus) m.setLang(lang);
  pairChoice.setLang(lang);
  presets.setLang(lang);
  renderStatus();
}

// The address bar as a link to what is on show once an edit is made or undone: the sentence,
// the models, the language and the edits.
function keepLink() {
  history.replaceState(null, '', compareLink(location.href,
    { text: sentence, simd: params.simd, lang, a: params.a.name, b: params.b.name, edits: edits.linkValues }));
}

// The way back keeps the sentence and the language.
function updateBackLink() {
  const back = new URL('./', location.href);
  if (input.value) back.searchParams.set('text', input.value);
  if (lang === 'zh') back.searchParams.set('lang', 'zh');
  $('back').href = back.href;
}

function wire() {
  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    pendingStep = null;
    compare();
  });
  submitOnEnter(input, $('form'));
  input.addEventListener('input', updateBackLink);
  exampleChips($('examples'), COMPARE_EXAMPLES, (text) => {
    input.value = text;
    $('form').requestSubmit();
  });
  stepWithArrows(document, view.player); // both matrices
  $('lang').addEventListener('click', () => setLanguage(lang === 'zh' ? 'en' : 'zh'));
}

wire();
input.value = params.text;
setLanguage(lang);
load();
