// The page's wiring: the form, the worker, the player and the views. Drawing lives in ui/
// (shared with the widget), the engine in engine/ (a worker over lib/). Nothing here computes
// a number that is drawn: every weight, score and probability comes from the engine's steps.

import { EngineClient } from './engine/client.js';
import { forcedSteps, isRow } from './engine/steps.js';
import { EXAMPLES, titleExamples } from './app/examples.js';
import { ForceMode } from './app/force.js';
import { hideErrorBox, loadErrorTitle, showErrorBox } from './app/errors.js';
import { wireExport } from './app/export-actions.js';
import { applyStrings } from './app/i18n.js';
import { inputCheck } from './app/input-check.js';
import { Paragraph } from './app/paragraph.js';
import { TransformerParts } from './app/transformer.js';
import { ModelMenu } from './app/model-menu.js';
import { permalink, readParams } from './app/params.js';
import { currentView, showView, wireViews } from './app/views.js';
import { MAX_BEAM } from './lib/catalogue.js';
import { RELAXED_REASON } from './lib/relaxed.js';
import { AlignmentView } from './ui/alignment.js';
import { gradientCss } from './ui/colormap.js';
import { emptyTranslationNote, fmt, h, pieces, tokenLabel } from './ui/dom.js';
import { matrixSvg } from './ui/export.js';
import { AttentionMatrix } from './ui/matrix.js';
import { Player } from './ui/player.js';
import { StepPanel } from './ui/step-panel.js';
import { LANG_TAGS, STRINGS } from './ui/strings.js';
import { TRANSFORMER_STRINGS, isMissingModel, modelKind } from './ui/transformer-strings.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const input = $('source-input');
const params = readParams(location);
const STORE_KEY = 'bahdanau-live:text';

let lang = params.lang;
let S = STRINGS[lang];
let client = null;
let engine = null; // {info, engine} once loaded
let sentence = null; // {text, beam, sourceTokens, result, msPerWord, pieces}
let pendingStep = params.step; // from a permalink: stop there once decoded
let pendingForce = params.force; // from a permalink: align this French once decoded
let pendingSentence = params.sentence; // from a permalink: the sentence of a paragraph on show
let queued = Boolean(params.text); // translate as soon as the model is ready
let lastPanelStep; // the step the panel shows; undefined forces a redraw (empty state too)
let hover = null; // {row, col}

const player = new Player({ onChange: () => render() });
const onFocusCell = (cell) => setHover(cell, 'matrix');
const matrix = new AttentionMatrix($('matrix-root'), { strings: S, onFocusCell });
const lines = new AlignmentView($('lines-root'), { strings: S, onFocusCell: (cell) => setHover(cell, 'lines') });
const panel = new StepPanel($('step-panel'), { strings: S });
// A Transformer's layer x head picker and encoder self-attention (app/transformer.js): a pick
// redraws the rows from the steps already decoded.
const tf = new TransformerParts($('heads-root'), $('encoder-root'), {
  lang,
  want: params.heads,
  onPick: () => {
    matrix.reset(sentence?.sourceTokens ?? []);
    lastPanelStep = undefined;
    render();
  },
});
const force = new ForceMode(
  { form: $('force-form'), input: $('force-input'), submit: $('force-submit'),
    summary: $('force-summary'), text: $('force-text'), back: $('force-back') },
  S,
  {
    align: (french) => client.align(sentence.text, french),
    show: showForced,
    restore: () => replaceRows(sentence.modelSteps, sentence.modelPieces),
    error: (message) => showError(S.errorForce, message),
  },
);
// Text longer than the model reads, in sentences (app/paragraph.js): a tab shows one of them.
const paragraph = new Paragraph($('paragraph'), {
  strings: S,
  panel: $('sentence-panel'),
  onSelect: () => {
    pendingStep = null;
    pendingForce = '';
    decode(paragraph.sentence, paragraph.beam);
  },
});

// Another model opens the page anew on it, with the same sentence and language.
const menu = new ModelMenu($('model-menu'), {
  current: params.model,
  go: (model) => location.assign(permalink(location, { text: input.value, model, step: null, beam: beamWidth(), simd: params.simd, lang })),
});

// ---- state and errors --------------------------------------------------------------------

function setState(state) {
  app.dataset.state = state;
  $('translate').disabled = state === 'loading';
}

function showError(title, detail, { retry = false } = {}) {
  const again = retry ? h('button', { type: 'button', class: 'retry', text: S.retry, on: { click: () => loadModel() } }) : null;
  showErrorBox($('error'), S, title, detail, again);
}

// Clears the error box, except the notice that model= was refused: the page runs on the default
// model for as long as it is open, so that notice stays (the status line names the model used).
function hideError() {
  hideErrorBox($('error'));
  if (params.badModel) showError(S.errorTitle, S.errorModelParam);
}

// ---- loading -----------------------------------------------------------------------------

function showProgress({ loaded, total }) {
  const bar = $('progress-bar');
  const mb = (n) => (n / 1e6).toFixed(1);
  if (total) {
    bar.max = total;
    bar.value = loaded;
    $('progress-text').textContent = `${mb(loaded)} / ${mb(total)} MB`;
  } else {
    bar.removeAttribute('value'); // indeterminate: the server did not say how much
    $('progress-text').textContent = `${mb(loaded)} MB`;
  }
  if (total && loaded >= total) $('progress-label').textContent = S.loadingEngine;
}

async function loadModel() {
  hideError();
  setState('loading');
  $('progress').hidden = false;
  $('progress-label').textContent = S.loadingModel;
  $('progress-bar').removeAttribute('value');
  $('progress-text').textContent = '';
  if (typeof WebAssembly !== 'object') {
    finishLoadingWithError(S.errorNoWasm, '');
    return;
  }
  try {
    client?.dispose();
    client = new EngineClient();
    engine = await client.load({ model: params.model.url, simd: params.simd, onProgress: showProgress });
  } catch (e) {
    engine = null;
    tf.setInfo(null);
    const missing = isMissingModel(e) ? `${TRANSFORMER_STRINGS[lang].modelMissing(params.model.label)} ` : '';
    finishLoadingWithError(loadErrorTitle(e, S), `${missing}${params.model.label}: ${e.message}`);
    return;
  }
  tf.setInfo(engine.info);
  $('progress').hidden = true;
  setState('ready');
  renderStatus();
  if (queued && input.value.trim()) translate();
  queued = false;
}

function finishLoadingWithError(title, detail) {
  $('progress').hidden = true;
  setState('error');
  showError(title, detail, { retry: true });
  renderStatus();
}

// ---- translating -------------------------------------------------------------------------

function beamWidth() {
  const n = Math.round(Number($('beam').value));
  return Number.isFinite(n) ? Math.min(MAX_BEAM, Math.max(1, n)) : 1;
}

async function translate() {
  const text = input.value;
  if (!engine) {
    // Still loading (or failed: then try again): the sentence waits for the model.
    queued = true;
    if (app.dataset.state === 'error') loadModel();
    return;
  }
  if (!text.trim()) {
    input.focus();
    return;
  }
  hideError();
  setState('decoding');
  const beam = beamWidth();
  const source = await paragraph.open(client, text, { beam, maxSrcLen: engine.info.maxSrcLen, sentence: pendingSentence });
  if (source === null) return; // another translation was asked for meanwhile
  pendingSentence = null;
  await decode(source, beam);
}

// One sentence, decoded word by word: the whole text, or the sentence of a paragraph on show.
async function decode(text, beam) {
  hideError();
  sentence = { text, beam, sourceTokens: [], result: null, msPerWord: null, pieces: null };
  const mine = sentence;
  force.clear();
  force.setAvailable(false);
  tf.reset();
  tf.setBeam(beam);
  renderInputNote();
  lastPanelStep = undefined;
  hover = null;
  matrix.reset([]);
  renderSource();
  renderHypotheses();
  player.reset({ play: pendingStep === null });
  setState('decoding');
  try {
    const { result, msPerWord } = await client.translate(text, {
      beam,
      onStart: ({ sourceTokens }) => {
        mine.sourceTokens = sourceTokens;
        matrix.reset(sourceTokens);
        renderSource();
      },
      onStep: (step) => player.push(step),
    });
    if (sentence !== mine) return;
    mine.result = result;
    mine.msPerWord = msPerWord;
    mine.pieces = pieces(result.targetTokens, result.text);
    renderInputNote();
    player.finish();
    setState('done');
    mine.modelSteps = player.steps.slice();
    mine.modelPieces = mine.pieces;
    force.setAvailable(mine.sourceTokens.length > 0);
    renderHypotheses();
    renderStatus();
    tf.showEncoder(client, text);
    if (pendingForce) {
      const french = pendingForce;
      pendingForce = '';
      await force.submit(french);
    }
    if (pendingStep !== null) {
      player.seek(pendingStep);
      pendingStep = null;
    }
  } catch (e) {
    if (e.name === 'AbortError' || sentence !== mine) return;
    pendingForce = '';
    player.finish();
    setState(engine ? 'ready' : 'error');
    showError(S.errorTranslate, e.message);
  }
  paragraph.fill(client);
}

// Forced decoding: the user's French, aligned by the model, in place of its own rows. Each row
// keeps the engine's numbers; word is what the user typed, vocabWord what the model read.
function showForced(result, french) {
  hideError();
  replaceRows(forcedSteps(result), pieces(result.targetTokens.slice(0, -1), french));
}

function replaceRows(steps, rowPieces) {
  if (!sentence || !steps) return;
  sentence.pieces = rowPieces;
  lastPanelStep = undefined;
  hover = null;
  player.reset({ play: pendingStep === null });
  for (const st of steps) player.push(st);
  player.finish();
}

// The whole sentence on show: the user's French when aligning it, else the model's.
function shownText() {
  if (force.active) return { text: force.active.french, words: force.active.result.targetTokens.length - 1 };
  const r = sentence?.result;
  return r ? { text: r.text, words: r.targetTokens.length } : null;
}

// ---- drawing -----------------------------------------------------------------------------

function shownRows() {
  return player.steps
    .slice(0, player.position + 1)
    .filter(isRow)
    .map((st) => ({ word: st.word, weights: tf.row(st) }));
}

function render() {
  const steps = player.steps;
  const p = player.position;
  const step = p >= 0 ? steps[p] : null;
  const rows = shownRows();
  const current = step && isRow(step) ? p : -1;
  matrix.setRows(rows);
  matrix.setCurrent(current);
  tf.preview(step);
  $('empty').hidden = rows.length > 0 || (sentence?.sourceTokens.length ?? 0) > 0;
  if (!$('lines-root').closest('.view').hidden) {
    lines.render({ columns: sentence?.sourceTokens ?? [], rows, current });
  }
  renderOutput(rows.length, current);
  if (step !== lastPanelStep) {
    lastPanelStep = step;
    panel.render(step && {
      columns: sentence.sourceTokens,
      step: tf.panelStep(step),
      scoring: engine?.info.scoring,
      decoder: engine?.info.decoder,
      transformer: tf.active, // one layer and head of many: the captions say so
      guidance: engine?.info.attentionGuidance,
      beam: Boolean(step.beamOnly),
    });
  }
  app.dataset.position = String(p);
  app.dataset.playing = String(player.playing);
  renderControls();
  const whole = shownText();
  if (player.atEnd && whole && p >= 0) $('announce').textContent = `${S.translation}: ${whole.text}`;
}

function renderSource() {
  const el = $('source-tokens');
  el.replaceChildren(
    ...(sentence?.sourceTokens ?? []).flatMap((tok, j) => [
      j ? ' ' : '',
      h('span', { class: tok === '</s>' ? 'tok tok-end' : 'tok', 'data-col': j, text: tokenLabel(tok) }),
    ]),
  );
}

function renderOutput(n, current) {
  const el = $('output');
  const words = player.steps.filter(isRow).slice(0, n);
  el.replaceChildren(
    ...words.flatMap((st, i) => {
      const piece = sentence?.pieces?.[i] ?? { sep: i ? ' ' : '', text: st.word };
      const cls = ['tok', i === current ? 'is-current' : '', hover?.row === i ? 'is-hl' : ''].join(' ').trim();
      return [piece.sep, h('span', { class: cls, 'data-token': i, text: piece.text })];
    }),
  );
  if (player.finished && player.steps.length > 0 && words.length === 0) el.replaceChildren(emptyTranslationNote(S));
}

function renderControls() {
  const n = player.steps.length;
  const p = player.position;
  const words = player.steps.filter(isRow).length;
  $('step-back').disabled = p <= 0;
  $('first').disabled = p <= 0;
  $('step-forward').disabled = p >= n - 1;
  $('last').disabled = p >= n - 1;
  $('play').disabled = n === 0;
  const playBtn = $('play');
  playBtn.dataset.playing = String(player.playing);
  playBtn.setAttribute('aria-label', player.playing ? S.pause : S.play);
  playBtn.title = player.playing ? S.pause : S.play;
  const step = p >= 0 ? player.steps[p] : null;
  let text = '';
  if (step && !isRow(step)) text = S.positionEnd(words);
  else if (step) text = S.position(p + 1, player.finished ? words : `${words}+`);
  if (!player.finished && n > 0) text += ` · ${S.decoding}`;
  $('position').textContent = text;
  const speed = $('speed');
  speed.value = String(player.speed);
  $('speed-value').textContent = S.speedValues[player.speed];
  speed.setAttribute('aria-valuetext', S.speedValues[player.speed]);
  const exportable = (sentence?.sourceTokens.length ?? 0) > 0;
  for (const r of ['export-svg', 'export-png', 'permalink']) $(r).disabled = !exportable;
}

function renderHypotheses() {
  const box = $('beam-results');
  const hyps = sentence?.result?.hypotheses ?? [];
  box.hidden = !(sentence?.beam > 1 && hyps.length);
  $('hypotheses').replaceChildren(
    ...hyps.map((hyp, k) =>
      h(
        'li',
        { class: k === 0 ? 'hyp is-best' : 'hyp', 'data-score': String(hyp.score) },
        h('span', { class: 'hyp-text', text: hyp.tokens.join(' ') }),
        h('span', { class: 'hyp-score', text: `${S.hypScore} ${fmt(hyp.score, 3)} · ${S.hypNorm} ${fmt(hyp.norm, 3)}` }),
        hyp.finished ? null : h('span', { class: 'hyp-cut', text: S.hypUnfinished }),
      ),
    ),
  );
}

function renderStatus() {
  const el = $('status');
  if (!engine) {
    el.textContent = `${S.engine}: —`;
    return;
  }
  const { info, engine: eng } = engine;
  const reason = params.simd === false ? 'forced by ?simd=0'
    : eng.kernels === 'wasm-relaxed' ? RELAXED_REASON : eng.reason;
  const parts = [
    `${S.engine}: ${S.engineUsed(eng.variant, reason)}`,
    `${S.modelLabel(params.model.label)}: ${bytes(info.fileBytes)}, ${info.dtype}, ${S.paramCount(info.numParams)}, ${modelKind(S, TRANSFORMER_STRINGS[lang], info)}`,
  ];
  if (sentence?.msPerWord != null) parts.push(`${sentence.msPerWord.toFixed(2)} ${S.msPerWord}`);
  el.textContent = parts.join(' · ');
  el.dataset.variant = eng.variant;
}

// "This model reads English: 3 of 3 words are unknown to it", when the input does not look
// like English (app/input-check.js); the translation and its matrix still show.
function renderInputNote() {
  const r = sentence?.result;
  const check = r ? inputCheck(sentence.text, r.sourceTokens, r.sourceIds) : null;
  $('input-note').hidden = !check;
  $('input-note').textContent = check ? S.notEnglish(check.unknown, check.words) : '';
}

function bytes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`;
}

// One pair highlighted everywhere: the two sentences, the other view, the step panel.
function setHover(cell, from) {
  hover = cell;
  const root = document;
  for (const el of root.querySelectorAll('.tokens .is-hl')) el.classList.remove('is-hl');
  if (cell) {
    $('source-tokens').querySelector(`[data-col="${cell.col}"]`)?.classList.add('is-hl');
    $('output').querySelector(`[data-token="${cell.row}"]`)?.classList.add('is-hl');
  }
  if (from !== 'matrix') matrix.highlight(cell);
  if (from !== 'lines') lines.highlight(cell);
  panel.highlightColumn(cell ? cell.col : -1);
}

// ---- language ----------------------------------------------------------------------------

function setLanguage(next) {
  lang = next;
  S = STRINGS[lang];
  applyStrings(document, S, lang);
  // The button names the other language, in that language (a switcher, not a toggle).
  const btn = $('lang');
  btn.textContent = S.language;
  btn.setAttribute('lang', lang === 'zh' ? LANG_TAGS.en : LANG_TAGS.zh);
  btn.title = S.languageLabel;
  titleExamples($('examples'), EXAMPLES, lang);
  matrix.setStrings(S);
  lines.setStrings(S);
  panel.setStrings(S);
  force.setStrings(S);
  paragraph.setStrings(S);
  tf.setLang(lang);
  menu.setLang(lang);
  renderControls();
  renderStatus();
  renderInputNote();
  renderHypotheses();
}

// ---- export ------------------------------------------------------------------------------

function currentSvg() {
  const rows = shownRows();
  // The words shown so far as the output line shows them (detokenized: "J'ai un"), not tokens.
  const out = rows.map((r, i) => {
    const piece = sentence.pieces?.[i] ?? { sep: ' ', text: r.word };
    return (i ? piece.sep : '') + piece.text;
  }).join('');
  const whole = shownText();
  return matrixSvg({
    columns: sentence.sourceTokens,
    rows,
    caption: [
      sentence.text.trim(),
      `→ ${whole && rows.length === whole.words ? whole.text : `${out} …`}`,
      tf.caption, // a Transformer's layer and head
    ],
    legend: S.legend,
  });
}

function currentLink() {
  return permalink(location, {
    text: paragraph.active ? paragraph.text : sentence?.text ?? input.value,
    model: params.model.name,
    step: player.position >= 0 ? player.position : null,
    beam: sentence?.beam ?? beamWidth(),
    simd: params.simd,
    lang,
    force: force.active?.french ?? '',
    speed: player.speed,
    view: currentView(document),
    sentence: paragraph.active ? paragraph.selected + 1 : null,
    heads: tf.linkSelection,
  });
}

// ---- events ------------------------------------------------------------------------------

// On a phone the result card starts below the fold, so a tap on Translate or an example seemed
// to do nothing: bring the card's top into view (smoothly, unless reduced motion is asked for).
function revealResult() {
  const card = document.querySelector('.result-card');
  if (!card || card.getBoundingClientRect().top < window.innerHeight * 0.7) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  card.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
}

function wire() {
  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    pendingStep = null;
    translate();
    revealResult();
  });
  input.addEventListener('keydown', (e) => {
    // Enter translates; Shift+Enter is a new line; an IME composing Chinese keeps its Enter.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      $('form').requestSubmit();
    }
  });
  input.addEventListener('input', () => {
    try {
      sessionStorage.setItem(STORE_KEY, input.value);
    } catch {
      /* storage disabled: the text box still has it */
    }
  });
  $('examples').replaceChildren(
    ...EXAMPLES.map(({ text, why }) =>
      h('button', {
        type: 'button',
        class: 'chip',
        title: why,
        text,
        on: {
          click: () => {
            input.value = text;
            input.dispatchEvent(new Event('input'));
            $('form').requestSubmit();
          },
        },
      }),
    ),
  );
  $('beam').addEventListener('change', () => {
    $('beam').value = String(beamWidth());
    if (sentence) translate();
  });
  // Left and right arrows step through the words from anywhere but a text field or the
  // matrix (whose cells use the arrows themselves): a teacher at the keyboard needs no mouse.
  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    if (e.target.closest?.('textarea, input, [data-role="matrix"], select')) return;
    if (e.key === 'ArrowLeft') player.back();
    else if (e.key === 'ArrowRight') player.forward();
    else return;
    e.preventDefault();
  });
  $('play').addEventListener('click', () => player.toggle());
  $('step-back').addEventListener('click', () => player.back());
  $('step-forward').addEventListener('click', () => player.forward());
  $('first').addEventListener('click', () => player.first());
  $('last').addEventListener('click', () => player.last());
  $('speed').addEventListener('input', () => player.setSpeed(Number($('speed').value)));
  wireViews(document, () => render());
  wireExport($, { svg: currentSvg, link: currentLink, strings: () => S, error: (m) => showError(S.errorTitle, m) });
  $('lang').addEventListener('click', () => setLanguage(lang === 'zh' ? 'en' : 'zh'));
  $('legend-bar').style.background = gradientCss();
  // The lines view spreads the words over its width: redraw when that changes.
  let lastWidth = 0;
  new ResizeObserver(([entry]) => {
    const width = Math.round(entry.contentRect.width);
    if (width !== lastWidth) {
      lastWidth = width;
      render();
    }
  }).observe($('lines-root'));
}

function start() {
  wire();
  let saved = '';
  try {
    saved = sessionStorage.getItem(STORE_KEY) ?? '';
  } catch {
    /* storage disabled */
  }
  input.value = params.text || saved;
  $('beam').value = String(params.beam);
  showView(document, params.view);
  if (params.speed !== null) player.setSpeed(params.speed);
  setLanguage(lang);
  render();
  loadModel();
}

start();
