// <attention-translator>: the page's attention figure as one custom element, for course
// material. One <script type="module" src=".../bahdanau-widget.js"> registers it; the engine
// (dist/), the models (models/) and the styles (ui/) are found next to this file through
// import.meta.url, so it also works from another origin.
//
//   <attention-translator text="The black cat is sleeping." autoplay panel></attention-translator>
//
// Attributes (all optional; every value is data, never markup):
//   model     a name (en-fr, en-fr-f32, en-fr-dot, en-fr-noattn, en-fr-transformer, tiny) or the
//             URL of a .safetensors file (default en-fr)
//   text      the English sentence                    autoplay  play the words one by one
//   speed     words per second: 1, 2, 4, 10 or instant step      freeze at word N (from 0)
//   controls  none | minimal | full (default minimal) panel     show the four-step panel
//   lang      en | zh (captions)                      beam      1..8 (default 1)
//   height    a CSS length (400px, 30rem, 60vh): the figure scrolls inside it
//   split-sentences   a text of several sentences (a paragraph, longer than the model reads)
//             is translated one sentence at a time: a row of sentence tabs picks the one shown
//   sentence  with split-sentences, the sentence shown first, from 1 (default 1)
//   layer, head  a Transformer model (en-fr-transformer): the decoder layer (from 1, default
//             the last) and head (from 1, or avg: the default, the mean of the layer's heads)
//             whose cross-attention is drawn; a bad value is ignored with a note (widget/heads.js)
//   mode      compare: two models' matrices side by side on the same sentence (additive
//             model-a, default en-fr, and scaled-dot model-b, default en-fr-dot; names or URLs
//             as for model), decoded in lockstep, with each one's scoring formula, parameter
//             count, measured scoring time and attention entropy, the row where they differ
//             most, and a self-attention illustration (widget/compare-mode.js).
//             bottleneck: why.html's figure, a model without attention (model-a, default
//             en-fr-noattn) and its one fixed context vector c as a strip, beside one with
//             attention (model-b, default en-fr) and its matrix, in lockstep
//             (widget/bottleneck-mode.js). Any other value: the single figure. beam and
//             panel do not apply to either.
// Events: ready {info, engine}, step {index, word, weights, end} (each move of the figure),
// done {text, result, sentence (split-sentences: its number, from 1; else null)}, error
// {message}; in the two-model modes info, text and result are {a, b} and step is
// {index, a, b} with {word, weights, end} or null for each.
//
// Decision: the widget decodes on the main thread with web/lib directly, not in a worker.
// web/lib already keeps one wasm instance per variant (loader.js) and one download per model
// URL (model-cache.js) per page, and widget/engines.js keeps one translator per model, so every
// widget on a page shares them with no coordination; a worker could not even be started from
// another origin without a blob: wrapper (and a worker-src exception in the host's CSP). The
// model is small (about a millisecond per word), and steps() yields between words, so the
// host page stays responsive. The cost is stated in embed-docs.html: the host page's CSP
// must allow 'unsafe-eval' (Embind builds its invokers with new Function).

import { DecodeSession } from './engine/session.js';
import { isRow } from './engine/steps.js';
import { MAX_BEAM, MAX_TEXT } from './lib/catalogue.js';
import { gradientCss } from './ui/colormap.js';
import { emptyTranslationNote, h, pieces, tokenLabel } from './ui/dom.js';
import { icon } from './ui/icons.js';
import { SIDES } from './ui/lockstep.js';
import { AttentionMatrix } from './ui/matrix.js';
import { DEFAULT_SPEED, Player, SPEED_NAMES, SPEEDS_MS, syncControls } from './ui/player.js';
import { StepPanel } from './ui/step-panel.js';
import { LANG_TAGS, STRINGS } from './ui/strings.js';
import { explain, resolveWidgetModel, sharedTranslator } from './widget/engines.js';
import { SentenceTabs } from './ui/sentence-tabs.js';
import { PAIR_MODES } from './widget/pair-modes.js';
import { HeadsControl, headsLines, widgetHeads } from './widget/heads.js';
import { crossRow, stepFor } from './ui/heads.js';
import { TRANSFORMER_STRINGS, isMissingModel, modelKind } from './ui/transformer-strings.js';

export { resolveWidgetModel };

const HERE = new URL('.', import.meta.url);
export const DEFAULT_TEXT = 'The black cat is sleeping.';

const WIDGET_STRINGS = {
  en: {
    loading: 'Loading the translator…',
    waiting: 'The translator loads when this figure is scrolled into view.',
    cspBlocked: (directive) =>
      `This page's Content-Security-Policy blocks the translator's engine (${directive}). ` +
      "The widget needs script-src 'unsafe-eval': Embind, which binds the C++ core to JavaScript, builds its functions with new Function.",
    badModel: 'The model attribute must be a known model name or an http(s) URL.',
    typeHere: 'Type an English sentence',
  },
  zh: {
    loading: '正在加载翻译器…',
    waiting: '滚动到此处时才会加载翻译器。',
    cspBlocked: (directive) =>
      `本页的内容安全策略（CSP）阻止了翻译引擎（${directive}）。` +
      "组件需要 script-src 'unsafe-eval'：连接 C++ 核心与 JavaScript 的 Embind 用 new Function 生成函数。",
    badModel: 'model 属性必须是已知的模型名或 http(s) 地址。',
    typeHere: '输入英文句子',
  },
};

const int = (value, lo, hi) => {
  if (value === null || !/^\s*\d{1,4}\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= lo && n <= hi ? n : null;
};

function cssLength(value) {
  const v = (value ?? '').trim();
  if (/^\d{1,4}(\.\d+)?$/.test(v)) return `${v}px`;
  return /^\d{1,4}(\.\d+)?(px|em|rem|vh|vw|%)$/.test(v) ? v : '';
}

// ---- the element ---------------------------------------------------------------------------

export class AttentionTranslator extends HTMLElement {
  static observedAttributes = ['model', 'text', 'autoplay', 'speed', 'step', 'controls', 'panel', 'lang', 'beam', 'height',
    'mode', 'model-a', 'model-b', 'split-sentences', 'sentence', 'layer', 'head'];

  #root;
  #el = {}; // parts of the shadow tree, by data-role
  #matrix;
  #panel;
  #tabs; // split-sentences: one tab per sentence
  #player;
  #observer = null;
  #visible = false;
  #translator = null;
  #modelUrl = null;
  #loading = null;
  #sentence = null; // {text, beam, sourceTokens, result}
  #lastShown = null;
  #pending = false;
  #pairs = {}; // mode name -> its two-model mode (widget/pair-modes.js), made on first use
  #heads = { sel: null, notes: [] }; // a Transformer's layer and head drawn (widget/heads.js)
  #headsControl; // their picker, with controls="full"
  state = 'idle';

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const css = (file) => h('link', { rel: 'stylesheet', href: new URL(file, HERE).href });
    const e = this.#el;
    const button = (role, name) =>
      h('button', { type: 'button', class: 'icon', 'data-role': role, part: 'button' }, icon(name), name === 'play' ? icon('pause') : null);
    e.progressLabel = h('span', { 'data-role': 'progress-label' });
    e.progressBar = h('progress', { 'data-role': 'progress-bar', max: '1' });
    e.placeholder = h('div', { class: 'placeholder', 'data-role': 'placeholder' }, e.progressLabel, e.progressBar);
    e.error = h('div', { class: 'error', 'data-role': 'error', role: 'alert', hidden: true });
    e.source = h('span', { class: 'source', 'data-role': 'source' });
    e.output = h('span', { class: 'tokens output', 'data-role': 'output' });
    e.sentences = h('p', { class: 'sentences' }, e.source, h('span', { class: 'arrow', 'aria-hidden': 'true', text: ' → ' }), e.output);
    e.input = h('input', { type: 'text', 'data-role': 'source-input', maxlength: String(MAX_TEXT), spellcheck: 'false', autocomplete: 'off' });
    e.form = h('form', { class: 'own', 'data-role': 'form', on: { submit: (ev) => this.#onSubmit(ev) } }, e.input,
      h('button', { type: 'submit', 'data-role': 'translate', class: 'go' }));
    e.first = button('first', 'first');
    e.back = button('step-back', 'back');
    e.play = button('play', 'play');
    e.forward = button('step-forward', 'forward');
    e.last = button('last', 'last');
    e.position = h('span', { class: 'position', 'data-role': 'position' });
    e.speed = h('input', { type: 'range', min: '0', max: String(SPEEDS_MS.length - 1), step: '1', 'data-role': 'speed' });
    e.speedLabel = h('label', { class: 'speed' }, h('span', { 'data-role': 'speed-label' }), e.speed);
    e.controls = h('div', { class: 'controls', 'data-role': 'controls', role: 'group' },
      e.first, e.back, e.play, e.forward, e.last, e.position, e.speedLabel);
    e.matrixRoot = h('div', { 'data-role': 'matrix-root' });
    e.legend = h('div', { class: 'legend', 'aria-hidden': 'true' }, h('span', { text: '0' }),
      h('span', { class: 'legend-bar', style: { background: gradientCss() } }), h('span', { text: '1' }),
      h('span', { class: 'legend-label', 'data-role': 'legend-label' }));
    e.panelRoot = h('div', {});
    e.panelBox = h('div', { class: 'panel', hidden: true }, e.panelRoot);
    e.status = h('p', { class: 'status', 'data-role': 'status', role: 'status' });
    e.headsNote = h('p', { class: 'heads-note', 'data-role': 'heads-note', hidden: true });
    e.headsRoot = h('div', { 'data-role': 'heads-root' });
    e.figure = h('div', { class: 'figure', 'data-role': 'figure' }, e.sentences, e.controls, e.headsRoot, e.headsNote, e.matrixRoot, e.legend, e.panelBox);
    e.tabs = h('div', { 'data-role': 'sentence-tabs' });
    e.pairRoots = Object.fromEntries(Object.keys(PAIR_MODES).map((name) =>
      [name, h('div', { class: 'compare-root', 'data-role': `${name}-root`, hidden: true })]));
    e.widget = h('div', { class: 'widget', part: 'widget', 'data-role': 'widget', 'data-state': 'idle' },
      e.placeholder, e.error, e.form, e.tabs, e.figure, Object.values(e.pairRoots), e.status);
    this.#root.append(css('ui/ui.css'), css('ui/widget.css'), css('ui/compare.css'), css('ui/bottleneck.css'), css('ui/transformer.css'), e.widget);

    this.#player = new Player({ onChange: () => this.#render() });
    this.#headsControl = new HeadsControl(e.headsRoot, this);
    this.#matrix = new AttentionMatrix(e.matrixRoot, { strings: this.#S });
    this.#panel = new StepPanel(e.panelRoot, { strings: this.#S });
    this.#tabs = new SentenceTabs(e.tabs, { strings: this.#S, panel: e.figure, onSelect: (k) => this.#translate(this.#tabs.sentences[k]) });
    e.play.addEventListener('click', () => this.#player.toggle());
    e.back.addEventListener('click', () => this.#player.back());
    e.forward.addEventListener('click', () => this.#player.forward());
    e.first.addEventListener('click', () => this.#player.first());
    e.last.addEventListener('click', () => this.#player.last());
    e.speed.addEventListener('input', () => this.#player.setSpeed(Number(e.speed.value)));
  }

  // ---- attributes -------------------------------------------------------------------------

  get #lang() {
    return this.getAttribute('lang') === 'zh' ? 'zh' : 'en';
  }

  get #S() {
    return STRINGS[this.#lang];
  }

  get #W() {
    return WIDGET_STRINGS[this.#lang];
  }

  get #text() {
    const t = this.getAttribute('text');
    return (t === null ? DEFAULT_TEXT : t).slice(0, MAX_TEXT);
  }

  get #beam() {
    return int(this.getAttribute('beam'), 1, MAX_BEAM) ?? 1;
  }

  get #step() {
    return int(this.getAttribute('step'), 0, 1000);
  }

  get #controlsMode() {
    const v = this.getAttribute('controls');
    return v === 'none' || v === 'full' ? v : 'minimal';
  }

  // A two-model mode's name; anything but a known value keeps the single figure.
  get #pairName() {
    const v = this.getAttribute('mode');
    return v !== null && Object.hasOwn(PAIR_MODES, v) ? v : null;
  }

  // The two-model mode on show, once made.
  get #pair() {
    const name = this.#pairName;
    return name ? this.#pairs[name] ?? null : null;
  }

  get #speedIndex() {
    // words per second -> Player speed index (SPEEDS_MS = 1000, 500, 250, 100, 0 ms)
    const i = SPEED_NAMES.indexOf((this.getAttribute('speed') ?? '').trim());
    return i >= 0 ? i : DEFAULT_SPEED;
  }

  connectedCallback() {
    this.#layout();
    if (this.#observer) return;
    if (typeof IntersectionObserver !== 'function') {
      this.#visible = true;
      this.#update();
      return;
    }
    // Lazy: nothing is downloaded until the figure comes within a screen of the viewport.
    this.#observer = new IntersectionObserver((entries) => {
      if (!entries.some((x) => x.isIntersecting)) return;
      this.#observer.disconnect();
      this.#visible = true;
      this.#update();
    }, { rootMargin: '200px' });
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#player.pause();
    for (const mode of Object.values(this.#pairs)) mode.view.player.pause();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    if (['controls', 'panel', 'lang', 'height', 'mode'].includes(name)) this.#layout();
    if (name === 'speed') (this.#pair ? this.#pair.view.player : this.#player).setSpeed(this.#speedIndex);
    if (['layer', 'head', 'lang', 'controls'].includes(name)) this.#applyHeads();
    if (name === 'step' || name === 'autoplay') {
      if (this.#pairName) this.#pair?.applyStep(this.#pairSettings());
      else this.#applyStep();
    }
    if (['model', 'text', 'beam', 'mode', 'model-a', 'model-b', 'split-sentences', 'sentence'].includes(name)) this.#update();
  }

  // The element's own API, for authors who script it.
  get translator() {
    return this.#translator;
  }

  // ---- layout and strings -----------------------------------------------------------------

  #layout() {
    const e = this.#el;
    const S = this.#S;
    const mode = this.#controlsMode;
    e.widget.setAttribute('lang', LANG_TAGS[this.#lang]);
    e.widget.dataset.controls = mode;
    e.controls.hidden = mode === 'none';
    e.form.hidden = mode !== 'full';
    for (const x of [e.first, e.last, e.speedLabel]) x.hidden = mode !== 'full';
    e.panelBox.hidden = !this.hasAttribute('panel');
    const pair = this.#pairName;
    e.figure.hidden = Boolean(pair);
    for (const [name, root] of Object.entries(e.pairRoots)) root.hidden = name !== pair;
    if (pair) e.form.hidden = true;
    for (const m of Object.values(this.#pairs)) {
      m.setLang(this.#lang);
      m.setControls(mode);
    }
    const height = cssLength(this.getAttribute('height'));
    for (const el of [e.figure, ...Object.values(e.pairRoots)]) {
      if (height) el.style.setProperty('max-height', height);
      else el.style.removeProperty('max-height');
      el.classList.toggle('has-height', Boolean(height));
    }
    e.controls.setAttribute('aria-label', S.playback);
    e.first.setAttribute('aria-label', S.first);
    e.back.setAttribute('aria-label', S.back);
    e.forward.setAttribute('aria-label', S.forward);
    e.last.setAttribute('aria-label', S.last);
    e.speedLabel.firstChild.textContent = S.speed;
    e.input.setAttribute('aria-label', this.#W.typeHere);
    e.input.placeholder = this.#W.typeHere;
    e.form.querySelector('button').textContent = S.translate;
    this.#root.querySelector('[data-role="legend-label"]').textContent = S.legend;
    this.#matrix.setStrings(S);
    this.#panel.setStrings(S);
    this.#tabs.setStrings(S);
    if (!this.#translator && this.state === 'idle') e.progressLabel.textContent = this.#W.waiting;
    this.#renderControls();
    this.#renderStatus();
  }

  #setState(state) {
    this.state = state;
    this.#el.widget.dataset.state = state;
    this.dataset.state = state;
  }

  #showError(message) {
    const e = this.#el;
    e.error.replaceChildren(h('p', { class: 'error-title', text: this.#S.errorTitle }), h('p', { class: 'error-detail', text: message }));
    e.error.hidden = false;
    e.placeholder.hidden = true;
    this.#setState('error');
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
  }

  // ---- loading and translating ------------------------------------------------------------

  // Coalesces attribute changes made in one go (model + text) into one load and translation.
  #update() {
    if (!this.#visible || this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      this.#run();
    });
  }

  async #run() {
    const pair = this.#pairName;
    for (const [name, m] of Object.entries(this.#pairs)) if (name !== pair) m.stop();
    if (pair) {
      this.#tabs.set([]);
      this.#player.pause();
      this.#sentence = null; // a single-view decode still running stops at its next step
      const { defaults } = PAIR_MODES[pair];
      this.#pairMode(pair).run(Object.fromEntries(SIDES.map((s) =>
        [s, resolveWidgetModel(this.getAttribute(`model-${s}`) || defaults[s])])), this.#pairSettings());
      return;
    }
    const model = resolveWidgetModel(this.getAttribute('model'));
    const e = this.#el;
    if (!model) {
      this.#translator = null;
      this.#modelUrl = null;
      this.#showError(this.#W.badModel);
      return;
    }
    if (model.url !== this.#modelUrl || !this.#translator) {
      this.#modelUrl = model.url;
      this.#translator = null;
      this.#player.reset({ play: false });
      this.#setState('loading');
      e.error.hidden = true;
      e.placeholder.hidden = false;
      e.progressLabel.textContent = this.#W.loading;
      e.progressBar.removeAttribute('value');
      const loading = sharedTranslator(model.url, ({ loaded, total }) => {
        if (total) {
          e.progressBar.max = total;
          e.progressBar.value = loaded;
        }
      });
      this.#loading = loading;
      let translator;
      try {
        translator = await loading;
      } catch (err) {
        if (this.#loading !== loading) return;
        const missing = isMissingModel(err) ? `${TRANSFORMER_STRINGS[this.#lang].modelMissing(model.label)} ` : '';
        this.#showError(`${missing}${model.label}: ${explain(err, this.#W)}`);
        return;
      }
      if (this.#loading !== loading) return; // the model changed meanwhile
      this.#translator = translator;
      this.#modelLabel = model.label;
      e.placeholder.hidden = true;
      this.#setState('ready');
      this.dispatchEvent(new CustomEvent('ready', { detail: { info: translator.info(), engine: translator.engine } }));
    }
    this.#start();
  }

  // The text, or with split-sentences and more than one sentence in it (cut by the core's
  // tokenizer, translator.splitSentences()), its sentence `sentence` behind a row of tabs.
  #start() {
    this.#applyHeads();
    const text = this.#text;
    let sentences = [];
    if (this.hasAttribute('split-sentences')) {
      try {
        sentences = this.#translator.splitSentences(text);
      } catch {
        // Translating the whole text shows what is wrong with it.
      }
    }
    if (sentences.length < 2) sentences = [];
    const k = this.#tabs.set(sentences, (int(this.getAttribute('sentence'), 1, 1000) ?? 1) - 1);
    this.#translate(sentences.length ? sentences[k] : text);
  }

  #modelLabel = '';

  // The layer and head attributes against the loaded model: the rows drawn, and a note that
  // says what is shown (a Transformer) or which value was ignored and why.
  #applyHeads() {
    const info = this.#translator?.info() ?? null;
    const heads = widgetHeads(this.getAttribute('layer'), this.getAttribute('head'), info, this.#lang);
    this.#heads = heads;
    const full = this.#controlsMode === 'full';
    this.#headsControl.update(heads, info, { full, lang: this.#lang });
    const lines = headsLines(heads, info, this.#lang, { picker: full });
    this.#el.headsNote.textContent = lines.join(' ');
    this.#el.headsNote.hidden = lines.length === 0;
    this.#matrix.reset(this.#sentence?.sourceTokens ?? []);
    this.#lastShown = null;
    this.#render();
  }

  #pairSettings() {
    return { text: this.#text, step: this.#step, autoplay: this.hasAttribute('autoplay'), speed: this.#speedIndex };
  }

  // A two-model view borrows the element's placeholder, error box, status line and events.
  #pairMode(name) {
    const e = this.#el;
    this.#pairs[name] ??= new PAIR_MODES[name].Mode(e.pairRoots[name], {
      element: this,
      parts: e,
      load: sharedTranslator,
      explain: (err) => explain(err, this.#W),
      strings: () => this.#W,
      setState: (state) => this.#setState(state),
      showError: (message) => this.#showError(message),
    }, { lang: this.#lang, controls: this.#controlsMode });
    return this.#pairs[name];
  }


  #onSubmit(ev) {
    ev.preventDefault();
    const text = this.#el.input.value;
    if (!text.trim()) return;
    this.setAttribute('text', text); // one source of truth: the attribute (re-renders)
  }

  async #translate(text) {
    const e = this.#el;
    const translator = this.#translator;
    if (!translator) return;
    const beam = this.#beam;
    e.error.hidden = true;
    if (e.input !== this.#root.activeElement) e.input.value = this.#text;
    const mine = { text, beam, sourceTokens: [], result: null };
    this.#sentence = mine;
    this.#lastShown = null;
    const autoplay = this.hasAttribute('autoplay') && this.#step === null;
    this.#player.setSpeed(this.#speedIndex);
    this.#player.reset({ play: autoplay });
    this.#matrix.reset([]);
    this.#renderSource();
    if (!text.trim()) {
      this.#player.finish();
      this.#setState('done');
      return;
    }
    this.#setState('decoding');
    try {
      const session = new DecodeSession(translator, text, { beam });
      mine.sourceTokens = session.sourceTokens;
      this.#matrix.reset(session.sourceTokens);
      this.#renderSource();
      for await (const step of session) {
        if (this.#sentence !== mine) return; // leaving the loop frees the C++ decoder now
        this.#player.push(step);
      }
      if (this.#sentence !== mine) return;
      const { result } = session;
      mine.result = result;
      mine.pieces = pieces(result.targetTokens, result.text);
      this.#player.finish();
      this.#setState('done');
      this.#applyStep();
      const sentence = this.#tabs.count ? this.#tabs.selected + 1 : null; // with split-sentences
      this.dispatchEvent(new CustomEvent('done', { detail: { text: result.text, result, sentence } }));
    } catch (err) {
      if (this.#sentence !== mine) return;
      this.#player.finish();
      this.#showError(explain(err, this.#W));
    }
    this.#renderStatus();
  }

  // Where playback rests once decoded: word `step`, else the end (autoplay plays to it).
  #applyStep() {
    const p = this.#player;
    if (!p.finished) return;
    const step = this.#step;
    if (step !== null) p.seek(step);
    else if (!this.hasAttribute('autoplay')) p.seek(p.steps.length - 1);
    else if (!p.playing && p.position < 0) p.play();
  }

  // ---- drawing ----------------------------------------------------------------------------

  #render() {
    const p = this.#player;
    const shown = p.steps.slice(0, p.position + 1).filter(isRow);
    const sel = this.#heads.sel;
    const rows = shown.map((st) => ({ word: st.word, weights: crossRow(st, sel) }));
    const step = p.position >= 0 ? p.steps[p.position] : null;
    const current = step && isRow(step) ? p.position : -1;
    this.#matrix.setRows(rows);
    this.#matrix.setCurrent(current);
    this.#headsControl.preview(step);
    const out = this.#el.output;
    const done = this.#sentence?.pieces; // the detokenized spacing, once the sentence is decoded
    out.replaceChildren(...shown.flatMap((st, i) => {
      const piece = done?.[i] ?? { sep: i ? ' ' : '', text: st.word };
      return [piece.sep, h('span', { class: i === current ? 'tok is-current' : 'tok', 'data-token': i, text: piece.text })];
    }));
    if (p.finished && p.steps.length > 0 && rows.length === 0) out.replaceChildren(emptyTranslationNote(this.#S));
    if (p.finished && this.#sentence?.result && rows.length === this.#sentence.result.targetTokens.length) {
      out.dataset.text = this.#sentence.result.text; // the detokenized translation
    } else delete out.dataset.text;
    if (step !== this.#lastShown) {
      this.#lastShown = step;
      this.#panel.render(step && this.#sentence && {
        columns: this.#sentence.sourceTokens,
        step: stepFor(step, sel),
        scoring: this.#translator?.info().scoring,
        decoder: sel ? 'transformer' : this.#translator?.info().decoder, // the panel's captions
        guidance: this.#translator?.info().attentionGuidance,
        beam: Boolean(step.beamOnly),
      });
      if (step) {
        // end: the step that emits </s> (its attention is not a row of the matrix).
        const detail = { index: step.index, word: step.word, weights: Array.from(crossRow(step, sel)), end: !isRow(step) };
        this.dispatchEvent(new CustomEvent('step', { detail }));
      }
    }
    this.#renderControls();
  }

  #renderSource() {
    // The sentence as the author wrote it (the matrix's columns show its tokens).
    this.#el.source.textContent = this.#sentence?.text.trim() ?? '';
  }

  #renderControls() {
    const e = this.#el;
    const p = this.#player;
    const S = this.#S;
    syncControls(e, p, S);
    const words = p.steps.filter(isRow).length;
    const step = p.position >= 0 ? p.steps[p.position] : null;
    let text = '';
    if (step && !isRow(step)) text = S.positionEnd(words);
    else if (step) text = S.position(p.position + 1, p.finished ? words : `${words}+`);
    e.position.textContent = text;
    e.widget.dataset.position = String(p.position);
    e.widget.dataset.playing = String(p.playing);
  }

  #renderStatus() {
    if (this.#pairName) return; // a two-model view writes its own
    const t = this.#translator;
    if (!t) {
      this.#el.status.textContent = '';
      return;
    }
    const info = t.info();
    const S = this.#S;
    this.#el.status.textContent = `${S.modelLabel(this.#modelLabel)} · ${S.variantName(t.engine.variant)} · ${modelKind(S, TRANSFORMER_STRINGS[this.#lang], info)}`;
    this.#el.status.dataset.variant = t.engine.variant;
  }
}

if (typeof customElements === 'object' && !customElements.get('attention-translator')) {
  customElements.define('attention-translator', AttentionTranslator);
}
