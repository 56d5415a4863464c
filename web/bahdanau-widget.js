// <attention-translator>: the page's attention figure as one custom element, for course
// material. One <script type="module" src=".../bahdanau-widget.js"> registers it; the engine
// (dist/), the models (models/) and the styles (ui/) are found next to this file through
// import.meta.url, so it also works from another origin.
//
//   <attention-translator text="The black cat is sleeping." autoplay panel></attention-translator>
//
// Attributes: widget/attributes.js (the table the element observes and reads them through).
// About 450 lines, on purpose: the element's life cycle (attributes, load, decode, play) reads in
// one place; each mode and view it drives is its own module in widget/ and ui/.
// Events: ready {info, engine}, step {index, word, weights, end} (each move of the figure),
// done {text, result, sentence (split-sentences: its number, from 1; else null)}, error
// {message}; in the two-model modes info, text and result are {a, b} and step is
// {index, a, b} with {word, weights, end} or null for each; in mode="timelapse", ready's info
// is the recorded run's facts (engine null) and step is {frame, frames, step, sentence}.
//
// Decision: it decodes on the main thread, not in a worker; why is in widget/engines.js.

import { DecodeSession } from './engine/session.js';
import { h, pieces } from './ui/dom.js';
import { Figure } from './ui/figure.js';
import { SIDES } from './ui/lockstep.js';
import { AttentionMatrix } from './ui/matrix.js';
import { SentenceTabs } from './ui/sentence-tabs.js';
import { StepPanel } from './ui/step-panel.js';
import { LANG_TAGS, STRINGS } from './ui/strings.js';
import { TARGET_TAGS } from './ui/pair-strings.js';
import { retarget } from './ui/target-strings.js';
import { PAIRS, pairOf } from './lib/catalogue.js';
import { TRANSFORMER_STRINGS } from './ui/transformer-strings.js';
import { whenNear } from './ui/when-near.js';
import { WIDGET_STRINGS } from './ui/widget-strings.js';
import { ATTRIBUTES, DEFAULT_TEXT, EFFECTS, OBSERVED, attr } from './widget/attributes.js';
import { explain, modelError, resolveWidgetModel, sharedTranslator } from './widget/engines.js';
import { HeadsControl, figureHeads, headsLines, widgetHeads } from './widget/heads.js';
import { PAIR_MODES, pairHost } from './widget/pair-modes.js';
import { buildShadow, labelShadow, showProgress, showStatus } from './widget/shadow.js';
import { WidgetEdits } from './widget/edit.js';
import { WidgetTheme } from './widget/theme.js';
import { WidgetLayout } from './widget/layout.js';

export { DEFAULT_TEXT, resolveWidgetModel };

const HERE = new URL('.', import.meta.url);

export class AttentionTranslator extends HTMLElement {
  static observedAttributes = OBSERVED;

  #root;
  #el; // parts of the shadow tree (widget/shadow.js)
  #figure;
  #tabs; // split-sentences: one tab per sentence
  #watching = false;
  #visible = false;
  #translator = null;
  #modelUrl = null;
  #modelLabel = '';
  // The model's target language: from the catalogue while a named model loads, then from its
  // info(); the captions and the output's lang= follow it.
  #target = 'fr';
  #loading = null;
  #sentence = null; // {text, beam, sourceTokens, result, pieces}
  #pending = false;
  #pairs = {}; // mode name -> its two-model mode (widget/pair-modes.js), made on first use
  #pairLoads = {}; // mode name -> the promise of it, while its module is imported
  #heads = { sel: null, notes: [] }; // a Transformer's layer and head drawn (widget/heads.js)
  #headsControl; // their picker, with controls="full"
  #edits; // attention edits, with controls="full" or the edit attribute (widget/edit.js)
  #theme; // light or dark, auto following the system (widget/theme.js)
  #layoutView; // layout="slide" | "article" (widget/layout.js)
  state = 'idle';

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    const e = buildShadow(this.#root, HERE, Object.keys(PAIR_MODES));
    this.#el = e;
    this.#theme = new WidgetTheme(e.widget, () => this.getAttribute('theme'));
    e.form.addEventListener('submit', (ev) => this.#onSubmit(ev));
    this.#headsControl = new HeadsControl(e.headsRoot, this);
    this.#figure = new Figure({
      controls: e,
      matrix: new AttentionMatrix(e.matrixRoot, { strings: this.#S, onActivateCell: (cell) => this.#edits.click(cell), canActivate: () => this.#edits?.editable }),
      panel: new StepPanel(e.panelRoot, { strings: this.#S, onEdit: (edit) => this.#edits.apply(edit) }),
      output: e.output, host: e.widget, strings: this.#S,
      heads: figureHeads(() => this.#heads.sel, this.#headsControl),
      info: () => this.#translator?.info() ?? null,
      wholeText: () => this.#edits.wholeText(this.#sentence), // after an edit, as the model went on
      events: this,
      canEdit: () => this.#edits.editable,
    });
    this.#edits = new WidgetEdits(e.editRoot, this, this.#figure,
      { translator: () => this.#translator, sentence: () => this.#sentence, error: (m) => this.#showError(m) });
    this.#tabs = new SentenceTabs(e.tabs, { strings: this.#S, panel: e.figure, onSelect: (k) => {
      this.removeAttribute('edit'); // an edit names a word of the sentence on show
      this.#translate(this.#tabs.sentences[k]);
    } });
    this.#layoutView = new WidgetLayout(e, this, () => this.#player);
  }

  // ---- attributes -------------------------------------------------------------------------

  get #lang() {
    return attr(this, 'lang');
  }

  // The captions, naming the model's target language (French, Chinese: ui/target-strings.js).
  get #S() {
    return retarget(STRINGS[this.#lang], this.#lang, this.#target);
  }

  get #W() {
    return WIDGET_STRINGS[this.#lang];
  }

  get #player() {
    return this.#figure.player;
  }

  // The two-model mode on show, once made.
  get #pair() {
    const name = attr(this, 'mode');
    return name ? this.#pairs[name] ?? null : null;
  }

  connectedCallback() {
    this.#layout();
    this.#theme.connect();
    if (this.#watching) return;
    this.#watching = true;
    whenNear(this, () => { // lazy: nothing is downloaded until the figure is near the viewport
      this.#visible = true;
      this.#update();
    });
  }

  disconnectedCallback() {
    this.#theme.disconnect();
    this.#player.pause();
    for (const mode of Object.values(this.#pairs)) mode.view.player.pause();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    const effects = ATTRIBUTES[name].effects;
    for (const effect of EFFECTS.filter((x) => effects.includes(x))) this.#effects[effect]();
  }

  #effects = {
    layout: () => this.#layout(),
    theme: () => this.#theme.apply(),
    speed: () => (this.#pair ? this.#pair.view.player : this.#player).setSpeed(attr(this, 'speed')),
    heads: () => this.#applyHeads(),
    step: () => (attr(this, 'mode') ? this.#pair?.applyStep(this.#pairSettings()) : this.#applyStep()),
    edit: () => this.#edits.fromAttribute(),
    load: () => this.#update(),
  };

  // The element's own API, for authors who script it.
  get translator() {
    return this.#translator;
  }

  // ---- layout and strings -----------------------------------------------------------------

  #layout() {
    const e = this.#el;
    const S = this.#S;
    const mode = attr(this, 'controls');
    e.widget.setAttribute('lang', LANG_TAGS[this.#lang]);
    e.output.setAttribute('lang', TARGET_TAGS[this.#target] ?? 'fr');
    e.widget.dataset.controls = mode;
    e.controls.hidden = mode === 'none';
    e.form.hidden = mode !== 'full';
    for (const x of [e.first, e.last, e.speedLabel]) x.hidden = mode !== 'full';
    e.panelBox.hidden = !attr(this, 'panel');
    const pair = attr(this, 'mode');
    e.figure.hidden = Boolean(pair);
    for (const [name, root] of Object.entries(e.pairRoots)) root.hidden = name !== pair;
    if (pair) e.form.hidden = true;
    for (const m of Object.values(this.#pairs)) {
      m.setLang(this.#lang);
      m.setControls(mode);
    }
    const height = attr(this, 'height');
    for (const el of [e.figure, ...Object.values(e.pairRoots)]) {
      if (height) el.style.setProperty('max-height', height);
      else el.style.removeProperty('max-height');
      el.classList.toggle('has-height', Boolean(height));
    }
    labelShadow(e, S, this.#W);
    this.#layoutView.apply(attr(this, 'layout'), { panel: attr(this, 'panel'), pair, W: this.#W });
    this.#edits.setControls(mode);
    this.#edits.setLang(this.#lang, this.#target);
    this.#tabs.setStrings(S);
    if (!this.#translator && this.state === 'idle') e.progressLabel.textContent = this.#W.waiting;
    this.#figure.setStrings(S);
    this.#renderStatus();
  }

  // The placeholder shows while loading; a load, or a loaded model, clears the last error.
  #setState(state) {
    const e = this.#el;
    if (state === 'loading' || state === 'ready') e.error.hidden = true;
    e.placeholder.hidden = state !== 'loading';
    this.state = state;
    e.widget.dataset.state = state;
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

  // The download's progress (null: starting, size unknown).
  #progress(p) {
    showProgress(this.#el, p, this.#W);
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
    const pair = attr(this, 'mode');
    for (const [name, m] of Object.entries(this.#pairs)) if (name !== pair) m.stop();
    if (pair) {
      this.#tabs.set([]);
      this.#player.pause();
      this.#sentence = null; // a single-view decode still running stops at its next step
      let made;
      try {
        made = await this.#pairMode(pair);
      } catch (err) {
        if (attr(this, 'mode') === pair) this.#showError(explain(err, this.#W));
        return;
      }
      if (attr(this, 'mode') !== pair) return; // the mode changed while its module came in
      const { mode, defaults } = made; // defaults null: a mode that loads no model (timelapse)
      mode.run(defaults && Object.fromEntries(SIDES.map((s) =>
        [s, resolveWidgetModel(this.getAttribute(`model-${s}`) || defaults[s])])), this.#pairSettings());
      return;
    }
    const model = resolveWidgetModel(attr(this, 'model'));
    if (!model) {
      this.#translator = null;
      this.#modelUrl = null;
      this.#dropSentence();
      this.#showError(this.#W.badModel);
      return;
    }
    if (model.url !== this.#modelUrl || !this.#translator) {
      this.#modelUrl = model.url;
      this.#translator = null;
      this.#setTarget(pairOf(model.name) ? PAIRS[pairOf(model.name)].target : 'fr');
      this.#dropSentence();
      this.#setState('loading');
      this.#progress(null);
      const loading = sharedTranslator(model.url, (p) => this.#progress(p));
      this.#loading = loading;
      let translator;
      try {
        translator = await loading;
      } catch (err) {
        if (this.#loading !== loading) return;
        this.#showError(modelError(err, model, this.#W, this.#lang));
        return;
      }
      if (this.#loading !== loading) return; // the model changed meanwhile
      this.#translator = translator;
      this.#modelLabel = model.label;
      this.#setTarget(translator.info().tgtLang);
      this.#setState('ready');
      this.dispatchEvent(new CustomEvent('ready', { detail: { info: translator.info(), engine: translator.engine } }));
    }
    this.#start();
  }

  // A new target language re-labels the captions (the strings are retargeted in #S).
  #setTarget(target) {
    const t = Object.hasOwn(TARGET_TAGS, target) ? target : 'fr';
    if (t === this.#target) return;
    this.#target = t;
    if (this.#el) this.#layout();
  }

  // The model is bad or replaced: a decode still running stops at its next step (no done), and
  // the old model's rows leave the figure, so nothing under an error box passes for the new's.
  #dropSentence() {
    this.#sentence = null;
    this.#edits.setBase(null);
    this.#player.reset({ play: false });
    this.#figure.sentence = null;
    this.#renderSource();
  }

  // The text, or with split-sentences and more than one sentence in it (cut by the core's
  // tokenizer, translator.splitSentences()), its sentence `sentence` behind a row of tabs.
  #start() {
    this.#applyHeads();
    const text = attr(this, 'text');
    let sentences = [];
    if (attr(this, 'split-sentences')) {
      try {
        sentences = this.#translator.splitSentences(text);
      } catch {
        // Translating the whole text shows what is wrong with it.
      }
    }
    if (sentences.length < 2) sentences = [];
    const k = this.#tabs.set(sentences, attr(this, 'sentence') - 1);
    this.#translate(sentences.length ? sentences[k] : text);
  }

  // The layer and head attributes against the loaded model: the rows drawn, and a note that
  // says what is shown (a Transformer) or which value was ignored and why.
  #applyHeads() {
    const info = this.#translator?.info() ?? null;
    const heads = widgetHeads(attr(this, 'layer'), attr(this, 'head'), info, this.#lang);
    this.#heads = heads;
    const full = attr(this, 'controls') === 'full';
    this.#headsControl.update(heads, info, { full, lang: this.#lang });
    const lines = headsLines(heads, info, this.#lang, { picker: full });
    this.#el.headsNote.textContent = lines.join(' ');
    this.#el.headsNote.hidden = lines.length === 0;
    this.#figure.reset();
  }

  #pairSettings() {
    return { text: attr(this, 'text'), step: attr(this, 'step'), autoplay: attr(this, 'autoplay'), speed: attr(this, 'speed') };
  }

  // -> Promise<{mode, defaults}>: the mode, made on first use once its module is in (a failed
  // import is not kept, so a later run tries again).
  #pairMode(name) {
    this.#pairLoads[name] ??= PAIR_MODES[name]().then(({ Mode, defaults }) => {
      this.#pairs[name] ??= new Mode(this.#el.pairRoots[name], pairHost(this, this.#el, {
        strings: () => this.#W,
        lang: () => this.#lang,
        setState: (state) => this.#setState(state),
        showError: (message) => this.#showError(message),
        progress: (p) => this.#progress(p),
      }), { lang: this.#lang, controls: attr(this, 'controls') });
      return { mode: this.#pairs[name], defaults };
    }, (err) => {
      delete this.#pairLoads[name];
      throw err;
    });
    return this.#pairLoads[name];
  }

  #onSubmit(ev) {
    ev.preventDefault();
    const text = this.#el.input.value;
    if (!text.trim()) return;
    this.removeAttribute('edit'); // an edit names a word of the sentence on show
    this.setAttribute('text', text); // one source of truth: the attribute (re-renders)
  }

  async #translate(text) {
    const e = this.#el;
    const translator = this.#translator;
    if (!translator) return;
    const beam = attr(this, 'beam');
    e.error.hidden = true;
    if (e.input !== this.#root.activeElement) e.input.value = attr(this, 'text');
    const mine = { text, beam, sourceTokens: [], result: null, pieces: null };
    this.#sentence = mine;
    this.#edits.setBase(null);
    const autoplay = attr(this, 'autoplay') && attr(this, 'step') === null;
    this.#player.setSpeed(attr(this, 'speed'));
    this.#player.reset({ play: autoplay });
    this.#figure.sentence = mine;
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
      this.#figure.reset();
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
      await this.#edits.decoded(mine, this.#player.steps.slice(), translator.info(), this.#modelLabel);
      if (this.#sentence !== mine) return;
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
    const step = attr(this, 'step');
    if (step !== null) p.seek(step);
    else if (!attr(this, 'autoplay')) p.last(); // the last word, not the </s> step
    else if (!p.playing && p.position < 0) p.play();
  }

  // ---- drawing ----------------------------------------------------------------------------

  #renderSource() {
    // The sentence as the author wrote it (the matrix's columns show its tokens).
    this.#el.source.textContent = this.#sentence?.text.trim() ?? '';
  }

  #renderStatus() {
    // A two-model view writes its own.
    if (!attr(this, 'mode')) showStatus(this.#el, this.#translator, this.#modelLabel, this.#S, TRANSFORMER_STRINGS[this.#lang]);
  }
}

if (typeof customElements === 'object' && !customElements.get('attention-translator')) {
  customElements.define('attention-translator', AttentionTranslator);
}
