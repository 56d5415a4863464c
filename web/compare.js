// compare.html's wiring: the form, two engines (one worker per model: the page's CSP has no
// 'unsafe-eval', so Embind may only run in workers) and the shared comparison view. The view
// draws; this file only moves the engines' steps and analyses into it.

import { EngineClient } from './engine/client.js';
import { hideErrorBox, loadErrorTitle, showErrorBox } from './app/errors.js';
import { COMPARE_EXAMPLES } from './app/examples.js';
import { applyStrings } from './app/i18n.js';
import { readCompareParams } from './app/params.js';
import { COMPARE_STRINGS } from './ui/compare-strings.js';
import { CompareView } from './ui/compare-view.js';
import { h } from './ui/dom.js';
import { SIDES } from './ui/lockstep.js';
import { LANG_TAGS, STRINGS } from './ui/strings.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const input = $('source-input');
const params = readCompareParams(location);

let lang = params.lang;
let S = { ...STRINGS[lang], ...COMPARE_STRINGS[lang] };
const clients = {};
const engines = {}; // side -> {info, engine} once loaded
const progress = {}; // side -> {loaded, total}
let pendingStep = params.step;
let queued = Boolean(params.text);
let job = 0; // the sentence on show; older engines' replies are dropped

const view = new CompareView($('compare-root'), { lang, controls: 'full' });

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
}

// Both downloads as one bar: the sum of what each has received of what each announced.
function showProgress() {
  const bar = $('progress-bar');
  const parts = SIDES.map((s) => progress[s]).filter(Boolean);
  const loaded = parts.reduce((n, p) => n + p.loaded, 0);
  const total = parts.length === SIDES.length && parts.every((p) => p.total) ? parts.reduce((n, p) => n + p.total, 0) : 0;
  if (total) {
    bar.max = total;
    bar.value = loaded;
  } else bar.removeAttribute('value');
  $('progress-text').textContent = `${(loaded / 1e6).toFixed(1)}${total ? ` / ${(total / 1e6).toFixed(1)}` : ''} MB`;
}

async function load() {
  hideError();
  setState('loading');
  if (typeof WebAssembly !== 'object') {
    finishWithError(S.errorNoWasm, '');
    return;
  }
  try {
    await Promise.all(SIDES.map(async (side) => {
      clients[side] = new EngineClient();
      engines[side] = await clients[side].load({
        model: params[side].url,
        simd: params.simd,
        onProgress: (p) => {
          progress[side] = p;
          showProgress();
        },
      });
      view.setModel(side, { info: engines[side].info, label: params[side].label });
    }));
  } catch (e) {
    finishWithError(loadErrorTitle(e, S), `${SIDES.map((s) => params[s].label).join(', ')}: ${e.message}`);
    return;
  }
  $('progress').hidden = true;
  setState('ready');
  renderStatus();
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
  if (!SIDES.every((s) => engines[s])) {
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
  view.reset({ play: pendingStep === null });
  setState('decoding');
  app.dataset.analysis = 'pending';
  const runs = SIDES.map((side) =>
    clients[side]
      .translate(text, {
        onStart: ({ sourceTokens }) => live() && view.setColumns(side, sourceTokens),
        onStep: (step) => live() && view.push(side, step),
      })
      .then(({ result }) => {
        if (!live()) return;
        view.setResult(side, result);
        view.finish(side);
      })
      .catch((e) => {
        if (!live()) return;
        view.finish(side); // the other model goes on
        throw e;
      }));
  const outcomes = await Promise.allSettled(runs);
  if (!live()) return;
  const failed = outcomes.find((o) => o.status === 'rejected' && o.reason?.name !== 'AbortError');
  if (failed) showError(S.errorTranslate, failed.reason.message);
  setState('done');
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
  if (!SIDES.every((s) => engines[s])) {
    el.textContent = `${S.engine}: —`;
    return;
  }
  const { engine } = engines.a;
  const reason = params.simd === false ? 'forced by ?simd=0' : engine.reason;
  const models = SIDES.map((s) => {
    const { info } = engines[s];
    const size = info.fileBytes >= 1e6 ? `${(info.fileBytes / 1e6).toFixed(1)} MB` : `${(info.fileBytes / 1e3).toFixed(1)} kB`;
    return `${params[s].label}: ${size}, ${info.dtype}, ${info.scoring} attention`;
  });
  el.textContent = [`${S.engine}: ${engine.variant} (${reason})`, ...models].join(' · ');
  el.dataset.variant = engine.variant;
}

function setLanguage(next) {
  lang = next;
  S = { ...STRINGS[lang], ...COMPARE_STRINGS[lang] };
  applyStrings(document, S, lang);
  const btn = $('lang');
  btn.textContent = S.language;
  btn.setAttribute('lang', lang === 'zh' ? LANG_TAGS.en : LANG_TAGS.zh);
  btn.title = S.languageLabel;
  updateBackLink();
  view.setLang(lang);
  renderStatus();
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
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      $('form').requestSubmit();
    }
  });
  input.addEventListener('input', updateBackLink);
  $('examples').replaceChildren(...COMPARE_EXAMPLES.map(({ text, why }) =>
    h('button', {
      type: 'button',
      class: 'chip',
      title: why,
      text,
      on: {
        click: () => {
          input.value = text;
          $('form').requestSubmit();
        },
      },
    })));
  // Left and right arrows step both matrices, except in a text field or a matrix (whose
  // cells use the arrows themselves).
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (e.target.closest?.('textarea, input, [data-role="matrix"], select')) return;
    if (e.key === 'ArrowLeft') view.player.back();
    else if (e.key === 'ArrowRight') view.player.forward();
    else return;
    e.preventDefault();
  });
  $('lang').addEventListener('click', () => setLanguage(lang === 'zh' ? 'en' : 'zh'));
}

wire();
input.value = params.text;
setLanguage(lang);
load();
