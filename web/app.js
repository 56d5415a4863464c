// The page's wiring: the form, the worker, the figure (ui/figure.js, shared with the widget)
// and the views. The engine is in engine/ (a worker over lib/). Nothing here computes a number
// that is drawn: every weight, score and probability comes from the engine's steps.
// About 400 lines, on purpose: the wiring of the whole page reads in one place; each part it wires is
// its own module in app/ and ui/.

import { EngineClient } from './engine/client.js';
import { adoptEarly } from './app/early-model.js';
import { forcedSteps } from './engine/steps.js';
import { titleExamples } from './app/examples.js';
import { restoreText, wireTextBox } from './app/text-box.js';
import { ForceMode } from './app/force.js';
import { FixedContext } from './app/fixed-context.js';
import { PageEdits } from './app/edits.js';
import { hideErrorBox, loadErrorTitle, showErrorBox } from './app/errors.js';
import { figureSvg, wireExport } from './app/export-actions.js';
import { renderHypotheses } from './app/hypotheses.js';
import { applyStrings, labelLangToggle } from './app/i18n.js';
import { showInputNote } from './app/input-check.js';
import { LoadProgress } from './app/load-progress.js';
import { Paragraph } from './app/paragraph.js';
import { narrowLayout } from './app/narrow-layout.js';
import { highlightTokens, renderSourceTokens } from './app/source-tokens.js';
import { showStatus } from './app/status-line.js';
import { TransformerParts } from './app/transformer.js';
import { ModelMenu } from './app/model-menu.js';
import { TargetLanguage } from './app/target-lang.js';
import { TrainedModel } from './train/trained-model.js';
import { clampBeam, permalink, readParams } from './app/params.js';
import { currentView, redrawOnResize, showView, wireViews } from './app/views.js';
import { AlignmentView } from './ui/alignment.js';
import { gradientCss } from './ui/colormap.js';
import { h, pieces } from './ui/dom.js';
import { Figure } from './ui/figure.js';
import { AttentionMatrix } from './ui/matrix.js';
import { stepWithArrows } from './ui/playback-bar.js';
import { StepPanel } from './ui/step-panel.js';
import { TRANSFORMER_STRINGS, isMissingModel } from './ui/transformer-strings.js';

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const app = $('app');
const input = $('source-input');
const params = readParams(location);
// The model's target language (French, Chinese): the captions name it (app/target-lang.js).
const target = new TargetLanguage(params.model);

// What changes while the page is open, in one place. The pending* values come from a permalink
// and are used once: the word to stop at, the French to align, the paragraph's sentence on show.
const state = {
  lang: params.lang,
  S: target.strings(params.lang),
  client: null,
  engine: null, // {info, engine} once loaded
  sentence: null, // {text, beam, sourceTokens, result, msPerWord, pieces, modelSteps, modelPieces}
  pendingStep: params.step,
  pendingForce: params.force,
  pendingSentence: params.sentence,
  pendingEdits: params.edits, // {edits, refused} from edit= (ui/attention-edit.js)
  queued: Boolean(params.text), // translate as soon as the model is ready
};

const progress = new LoadProgress($);
// ?model=trained: the snapshot train.html kept in this browser, with a note saying so.
const trained = params.model.trained ? new TrainedModel($('status'), state.lang) : null;
const onFocusCell = (cell) => setHover(cell, 'matrix');
const onActivateCell = (cell) => edits.apply({ step: cell.row, column: cell.col }); // "look here instead"
const matrix = new AttentionMatrix($('matrix-root'), { strings: state.S, onFocusCell, onActivateCell, canActivate: () => edits.editable });
const panel = new StepPanel($('step-panel'), { strings: state.S, onEdit: (edit) => edits.apply(edit) });
const lines = new AlignmentView($('lines-root'), { strings: state.S, onFocusCell: (cell) => setHover(cell, 'lines') });
// A Transformer's layer x head picker and encoder self-attention (app/transformer.js): a pick
// redraws the rows from the steps already decoded.
const tf = new TransformerParts($('heads-root'), $('encoder-root'), { lang: state.lang, want: params.heads, onPick: () => figure.reset() });
const fixed = new FixedContext($('fixed-root'), { app, hint: $('force-form').querySelector('.hint'), lang: state.lang }); // no attention: c
const figure = new Figure({
  controls: {
    first: $('first'), back: $('step-back'), play: $('play'), forward: $('step-forward'), last: $('last'),
    speed: $('speed'), speedValue: $('speed-value'), position: $('position'),
  },
  matrix, panel, output: $('output'), host: app, strings: state.S, heads: tf,
  info: () => state.engine?.info ?? null,
  wholeText: shownText,
  decodingNote: true,
  onRender: renderViews,
  canEdit: () => edits.editable,
});
const { player } = figure;
const force = new ForceMode(
  { form: $('force-form'), input: $('force-input'), submit: $('force-submit'),
    summary: $('force-summary'), text: $('force-text'), back: $('force-back') },
  state.S,
  {
    align: (french) => state.client.align(state.sentence.text, french),
    show: showForced,
    restore: () => {
      replaceRows(state.sentence.modelSteps, state.sentence.modelPieces);
      edits.rebase();
    },
    error: (message) => showError(state.S.errorForce, message),
  },
);
// "What if it looked elsewhere?" (app/edits.js): the sentence decoded again with attention
// edits by the worker, greedy or forced; the rows on show are then the edited decode's.
const edits = new PageEdits($('edit-view'), $('edit-findings'), { state, label: params.model.label, force: () => force.active,
  replaceRows, seek: (i) => player.seek(i), error: showError, refresh: () => figure.refreshPanel() });
// Several sentences, a tab each (app/paragraph.js), or at once when "as one sequence" (whole=1).
const paragraph = new Paragraph($('paragraph'), {
  strings: state.S,
  panel: $('sentence-panel'),
  choice: $('whole'), whole: params.whole, onChoice: () => state.sentence && translate(),
  onSelect: () => {
    state.pendingStep = null;
    state.pendingForce = '';
    decode(paragraph.sentence, paragraph.beam);
  },
});

// Another model opens the page anew on it, with the same sentence and language.
// The language pair choice before it: a pair opens on its first model.
const menu = new ModelMenu($('model-menu'), {
  current: params.model,
  pairs: true,
  go: (model) => location.assign(permalink(location, { text: input.value, model, step: null, beam: beamWidth(), simd: params.simd, lang: state.lang, whole: paragraph.whole })),
});

// ---- errors ------------------------------------------------------------------------------

function setState(phase) {
  app.dataset.state = phase;
  progress.setWaiting(phase === 'loading', state.S); // greyed, saying why, and a tap queues
}

function showError(title, detail, { retry = false } = {}) {
  const again = retry ? h('button', { type: 'button', class: 'retry', text: state.S.retry, on: { click: () => loadModel() } }) : null;
  showErrorBox($('error'), state.S, title, detail, again);
}

// Clears the error box, except the notice that model= was refused: the page runs on the default
// model for as long as it is open, so that notice stays (the status line names the model used).
function hideError() {
  hideErrorBox($('error'));
  if (params.badModel) showError(state.S.errorTitle, state.S.errorModelParam);
}

// ---- loading -----------------------------------------------------------------------------

async function loadModel() {
  hideError();
  setState('loading');
  progress.start(state.S);
  if (typeof WebAssembly !== 'object') {
    finishLoadingWithError(state.S.errorNoWasm, '');
    return;
  }
  try {
    state.client?.dispose();
    const early = adoptEarly({ url: params.model.url, simd: params.simd }); // started at navigation
    state.client = early?.client ?? new EngineClient();
    const model = trained ? await trained.bytes() : params.model.url;
    state.engine = await state.client.load({ model, simd: params.simd, onProgress: (p) => progress.show(p, state.S) });
  } catch (e) {
    state.engine = null;
    tf.setInfo(null), fixed.setInfo(null);
    const missing = isMissingModel(e) ? `${TRANSFORMER_STRINGS[state.lang].modelMissing(params.model.label)} ` : '';
    finishLoadingWithError(loadErrorTitle(e, state.S), `${missing}${params.model.label}: ${e.message}`);
    return;
  }
  tf.setInfo(state.engine.info), fixed.setInfo(state.engine.info);
  if (target.setInfo(state.engine.info)) setLanguage(state.lang); // a model by URL into another language
  progress.hide();
  setState('ready');
  renderStatus();
  if (state.queued && input.value.trim()) translate();
  state.queued = false;
}

function finishLoadingWithError(title, detail) {
  progress.hide();
  setState('error');
  showError(title, detail, { retry: true });
  renderStatus();
}

// ---- translating -------------------------------------------------------------------------

const beamWidth = () => clampBeam($('beam').value);

async function translate() {
  const text = input.value;
  if (!state.engine) {
    // Still loading (or failed: then try again): the sentence waits for the model.
    state.queued = true;
    if (app.dataset.state === 'error') loadModel();
    else if (text.trim()) progress.queue(text, state.S);
    return;
  }
  if (!text.trim()) {
    input.focus();
    return;
  }
  hideError();
  setState('decoding');
  const beam = beamWidth();
  const source = await paragraph.open(state.client, text, { beam, maxSrcLen: state.engine.info.maxSrcLen, sentence: state.pendingSentence });
  if (source === null) return; // another translation was asked for meanwhile
  state.pendingSentence = null;
  await decode(source, beam);
}

// One sentence, decoded word by word: the whole text, or the sentence of a paragraph on show.
async function decode(text, beam) {
  hideError();
  state.sentence = { text, beam, sourceTokens: [], result: null, msPerWord: null, pieces: null };
  const mine = state.sentence;
  force.clear();
  force.setAvailable(false);
  edits.setBase(null);
  tf.reset();
  tf.setBeam(beam);
  renderInputNote();
  figure.hover = null;
  figure.sentence = state.sentence;
  renderSource();
  renderBeam();
  player.reset({ play: state.pendingStep === null });
  setState('decoding');
  try {
    const { result, msPerWord } = await state.client.translate(text, {
      beam,
      onStart: ({ sourceTokens }) => {
        mine.sourceTokens = sourceTokens;
        figure.reset();
        renderSource();
      },
      onStep: (step) => player.push(step),
    });
    if (state.sentence !== mine) return;
    mine.result = result;
    mine.msPerWord = msPerWord;
    mine.pieces = pieces(result.targetTokens, result.text);
    renderInputNote();
    player.finish();
    setState('done');
    mine.modelSteps = player.steps.slice();
    mine.modelPieces = mine.pieces;
    force.setAvailable(mine.sourceTokens.length > 0);
    edits.rebase();
    renderBeam();
    renderStatus();
    tf.showEncoder(state.client, text);
    if (state.pendingForce) {
      const french = state.pendingForce;
      state.pendingForce = '';
      await force.submit(french);
    }
    if (state.pendingEdits) await edits.applyAll(state.pendingEdits);
    state.pendingEdits = null;
    if (state.pendingStep !== null) {
      player.seek(state.pendingStep);
      state.pendingStep = null;
    }
  } catch (e) {
    if (e.name === 'AbortError' || state.sentence !== mine) return;
    state.pendingForce = '';
    player.finish();
    setState(state.engine ? 'ready' : 'error');
    showError(state.S.errorTranslate, e.message);
  }
  paragraph.fill(state.client);
}

// Forced decoding: the user's French, aligned by the model, in place of its own rows. Each row
// keeps the engine's numbers; word is what the user typed, vocabWord what the model read.
function showForced(result, french) {
  hideError();
  replaceRows(forcedSteps(result), pieces(result.targetTokens.slice(0, -1), french));
  edits.rebase();
}

function replaceRows(steps, rowPieces) {
  if (!state.sentence || !steps) return;
  state.sentence.pieces = rowPieces;
  figure.hover = null;
  player.reset({ play: state.pendingStep === null });
  for (const st of steps) player.push(st);
  player.finish();
}

// The whole sentence on show: the user's French when aligning it, else the model's (as edited).
function shownText() {
  if (force.active) return { text: force.active.french, words: force.active.result.targetTokens.length - 1 };
  const r = edits.run?.result ?? state.sentence?.result;
  return r ? { text: r.text, words: r.targetTokens.length } : null;
}

// ---- drawing -----------------------------------------------------------------------------

// What the page draws beside the figure at each move: the empty state, the lines view, the
// export buttons and, at the end, the whole translation for screen readers.
function renderViews({ rows, current }) {
  const columns = state.sentence?.sourceTokens ?? [];
  $('empty').hidden = rows.length > 0 || columns.length > 0;
  if (!$('lines-root').closest('.view').hidden) lines.render({ columns, rows, current });
  for (const r of ['export-svg', 'export-png', 'permalink']) $(r).disabled = columns.length === 0;
  fixed.render(player);
  const whole = shownText();
  if (player.atEnd && whole && player.position >= 0) $('announce').textContent = `${state.S.translation}: ${whole.text}`;
}

function renderSource() {
  renderSourceTokens($('source-tokens'), state.sentence?.sourceTokens ?? [], state.sentence?.result?.sourceIds, state.S);
}

function renderBeam() {
  renderHypotheses($('beam-results'), $('hypotheses'), state.sentence, state.S);
}

function renderStatus() {
  showStatus($('status'), state.S, TRANSFORMER_STRINGS[state.lang], state.engine, params, state.sentence?.msPerWord);
}

// The note under the translation (app/input-check.js): not English, or the words it does not know.
function renderInputNote() {
  showInputNote($('input-note'), state.sentence, state.S);
  renderSource(); // the words it does not know marked, once the ids are known
}

// One pair highlighted everywhere: the two sentences, the other view, the step panel.
function setHover(cell, from) {
  figure.hover = cell;
  highlightTokens(document, $('source-tokens'), $('output'), cell);
  if (from !== 'matrix') matrix.highlight(cell);
  if (from !== 'lines') lines.highlight(cell);
  panel.highlightColumn(cell ? cell.col : -1);
}

// ---- language ----------------------------------------------------------------------------

function setLanguage(next) {
  state.lang = next;
  state.S = target.strings(state.lang);
  applyStrings(document, state.S, state.lang);
  target.tag(document);
  labelLangToggle($('lang'), state.S, state.lang); // the other language, named in it
  titleExamples($('examples'), target.examples, state.lang);
  figure.setStrings(state.S);
  lines.setStrings(state.S);
  force.setStrings(state.S);
  paragraph.setStrings(state.S);
  tf.setLang(state.lang), fixed.setLang(state.lang);
  menu.setLang(state.lang);
  trained?.setLang(state.lang);
  edits.setLang(state.lang, target.target);
  renderStatus();
  renderInputNote();
  renderBeam();
}

// ---- export ------------------------------------------------------------------------------

function currentSvg() {
  return figureSvg({ sentence: state.sentence, rows: figure.rows(), whole: shownText(), caption: tf.caption, legend: state.S.legend });
}

function currentLink() {
  return permalink(location, {
    text: paragraph.active ? paragraph.text : state.sentence?.text ?? input.value,
    model: params.model.name,
    step: player.position >= 0 ? player.position : null,
    beam: state.sentence?.beam ?? beamWidth(),
    simd: params.simd,
    lang: state.lang,
    force: force.active?.french ?? '',
    speed: player.speed,
    view: currentView(document),
    sentence: paragraph.active ? paragraph.selected + 1 : null,
    whole: paragraph.whole,
    heads: tf.linkSelection,
    edits: edits.linkValues,
  });
}

// ---- events ------------------------------------------------------------------------------

function wire() {
  wireTextBox({
    form: $('form'),
    input,
    examples: $('examples'),
    list: target.examples,
    onSubmit: () => {
      state.pendingStep = null;
      translate();
    },
  });
  $('beam').addEventListener('change', () => {
    $('beam').value = String(beamWidth());
    if (state.sentence) translate();
  });
  // Left and right arrows step through the words from anywhere but a text field or the
  // matrix (whose cells use the arrows themselves): a teacher at the keyboard needs no mouse.
  stepWithArrows(document, player);
  wireViews(document, () => figure.render());
  wireExport($, { svg: currentSvg, link: currentLink, strings: () => state.S, error: (m) => showError(state.S.errorTitle, m) });
  $('lang').addEventListener('click', () => setLanguage(state.lang === 'zh' ? 'en' : 'zh'));
  $('legend-bar').style.background = gradientCss();
  redrawOnResize($('lines-root'), () => figure.render());
}

function start() {
  wire();
  narrowLayout(document, { reveal: Boolean(params.text) }); // one column: the player in view, the steps by it
  restoreText(input, params.text);
  $('beam').value = String(params.beam);
  showView(document, params.view);
  if (params.speed !== null) player.setSpeed(params.speed);
  setLanguage(state.lang);
  figure.render();
  loadModel();
}

start();
