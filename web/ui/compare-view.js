// The comparison view: one sentence, two models' attention matrices side by side, driven by one
// Player (position i shows rows 0..i of each), with each model's scoring facts underneath,
// the row where the two alignments differ most, a short explanation, and a self-attention
// matrix: a Transformer's real encoder self-attention when one side is a Transformer (with a
// layer × head picker over its matrix too), else the illustration. Shared by compare.html and <attention-translator mode="compare">:
// everything is built inside the given container (a document or a shadow root), and the
// owner feeds it the engine's steps and analyses; it computes only entropy and TV from them.
//
// Automation hooks (stable): data-role="compare" on the root (data-position, data-playing,
// data-finished); data-role="side" data-side="a"|"b" per model (data-scoring, data-rows,
// data-current), each with a data-role="matrix"; data-role="tv" (data-row, data-tv, data-peaks
// "differ" or "agree": whether the two models look most at different columns there) and rows
// marked data-tv-max; data-role="self-attention" with its own matrix, its data-role="self-method"
// and data-role="self-diagonal" (why the diagonal is bright); the playback buttons
// first, step-back, play, step-forward, last.

import { gradientCss } from './colormap.js';
import { fmt, h, tokenLabel } from './dom.js';
import { differingRow, meanEntropyBits } from './attention-stats.js';
import { ModelFacts } from './compare-facts.js';
import { compareStory } from './compare-story.js';
import { COMPARE_STRINGS } from './compare-strings.js';
import { EncoderAttention } from './encoder-attention.js';
import { HeadPicker } from './head-picker.js';
import { crossRow, isTransformer, ownRow } from './heads.js';
import { SIDES } from './lockstep.js';
import { AttentionMatrix } from './matrix.js';
import { PairView } from './pair-sides.js';
import { STRINGS } from './strings.js';
import { TRANSFORMER_STRINGS } from './transformer-strings.js';

export class CompareView extends PairView {
  #lang = 'en';
  #el = {};
  #side = {}; // per side: pair-sides.js's record, plus {facts, cost, costFailed}
  #self; // {el, note, method, matrix, data}
  #encoder; // a Transformer side's real encoder self-attention (ui/encoder-attention.js)
  #real = false; // the real one is on show: the illustration steps aside
  #sentence = false; // a sentence has been started (its cost is being measured)
  #onChange;
  #onEdit;

  // controls: 'full' (also first, last and speed), 'minimal' or 'none'. onChange(view) after
  // every move of the player. onEdit({step, column}): a cell of either matrix was clicked (or
  // got Enter): the page makes that attention edit for both models (editRoots: where it says so).
  constructor(container, { lang = 'en', controls = 'full', onChange, onEdit = null } = {}) {
    super(); // this.pair: the sides, the player and its bar (pair-sides.js)
    this.#onChange = onChange ?? (() => {});
    this.#onEdit = onEdit;
    const e = this.#el;
    e.tvTitle = h('strong', { class: 'bl-cmp-tv-title' });
    e.tvText = h('span');
    e.tv = h('p', { class: 'bl-cmp-tv', 'data-role': 'tv' }, e.tvTitle, ' ', e.tvText);
    e.edit = h('div', { class: 'bl-cmp-edits' });
    e.pair = h('div', { class: 'bl-cmp-pair' }, SIDES.map((side) => this.#buildSide(side)));
    e.legendLabel = h('span', { class: 'bl-cmp-legend-label' });
    e.legend = h('div', { class: 'bl-cmp-legend', 'aria-hidden': 'true' }, h('span', { text: '0' }),
      h('span', { class: 'bl-cmp-legend-bar', style: { background: gradientCss() } }), h('span', { text: '1' }), e.legendLabel);
    e.explainTitle = h('h3');
    e.explain = h('div', { class: 'bl-cmp-text' });
    this.#self = { title: h('h3'), note: h('p', { class: 'bl-cmp-note' }), methodLabel: h('p', { class: 'bl-cmp-note' }),
      method: h('p', { class: 'bl-cmp-method', 'data-role': 'self-method' }),
      diagonal: h('p', { class: 'bl-cmp-note', 'data-role': 'self-diagonal' }), root: h('div'), data: null, pending: true };
    const self = this.#self;
    self.el = h('section', { class: 'bl-cmp-self', 'data-role': 'self-attention' },
      self.title, self.note, self.methodLabel, self.method, self.diagonal, self.root);
    self.matrix = new AttentionMatrix(self.root, { strings: STRINGS.en });
    e.root = h('div', { class: 'bl-compare', 'data-role': 'compare' }, this.pair.bar.element, e.tv, e.edit, e.pair, e.legend,
      h('section', { class: 'bl-cmp-explain' }, e.explainTitle, e.explain), self.el);
    this.#encoder = new EncoderAttention(e.root, { lang });
    container.replaceChildren(e.root);

    this.setControls(controls);
    this.setLang(lang);
  }

  #buildSide(side) {
    const facts = new ModelFacts();
    const pickRoot = h('div');
    const editRoot = h('div', { class: 'bl-cmp-side-edit' });
    const onActivateCell = this.#onEdit ? (cell) => this.#onEdit({ step: cell.row, column: cell.col }) : null;
    const s = this.pair.build(side, { before: [editRoot, pickRoot], after: [facts.element], onActivateCell });
    // A Transformer side's rows follow its own layer × head picker; a pick redraws its matrix.
    const picker = new HeadPicker(pickRoot, { kind: 'cross', onChange: () => {
      s.matrix.reset(s.columns);
      this.render();
    } });
    Object.assign(s, { facts, picker, editRoot, cost: null, costFailed: false, costError: null });
    this.#side[side] = s;
    return s.el;
  }

  get #C() {
    return COMPARE_STRINGS[this.#lang];
  }

  get #S() {
    return STRINGS[this.#lang];
  }

  // Where attention edits are said: once for both models (shared), and under each side's output.
  get editRoots() {
    return { shared: this.#el.edit, a: this.#side.a.editRoot, b: this.#side.b.editRoot };
  }

  setControls(mode) {
    this.pair.bar.setMode(mode);
  }

  setLang(lang) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    const C = this.#C;
    const S = this.#S;
    const e = this.#el;
    this.pair.bar.setStrings(S);
    e.tvTitle.textContent = C.tvTitle;
    e.legendLabel.textContent = S.legend;
    e.explainTitle.textContent = C.explainTitle;
    this.#renderExplain();
    const self = this.#self;
    self.title.textContent = C.selfTitle;
    self.note.textContent = C.selfNote;
    self.diagonal.textContent = C.selfDiagonal;
    self.matrix.setStrings({ ...S, matrixLabel: C.selfLabel, matrixDescription: (rows, cols) => C.selfDescription(cols),
      tableCaption: C.selfCaption, corner: C.selfCorner });
    for (const side of SIDES) this.#side[side].picker.setStrings(TRANSFORMER_STRINGS[this.#lang]);
    this.#encoder.setLang(this.#lang);
    for (const side of SIDES) this.#labelSide(side);
    this.#renderSelf();
    this.render();
  }

  // model: {info, label} of the side's translator, once loaded (null while loading).
  setModel(side, model) {
    this.#side[side].model = model;
    const info = model?.info;
    this.#side[side].picker.setShape(isTransformer(info) ? info.decLayers : 0, isTransformer(info) ? info.heads : 0);
    this.#renderExplain();
    this.#labelSide(side);
    this.render();
  }

  // A new sentence: no rows, no analysis; columns come with setColumns.
  reset({ play = true } = {}) {
    for (const side of SIDES) {
      const s = this.#side[side];
      s.cost = null;
      s.costFailed = false;
      s.costError = null;
    }
    this.#real = false;
    this.#encoder.clear({ pending: SIDES.some((side) => isTransformer(this.#side[side].model?.info)) });
    this.#self.data = null;
    this.#self.pending = true;
    this.#sentence = true;
    this.pair.reset({ play });
    this.#renderSelf();
  }

  // Another decode of the same sentence (an attention edit, or the way back from one): runs
  // {a, b} ({steps, result}) replace the rows on show, stopped before the first word; the
  // analyses stay, since they belong to the sentence.
  replaceSteps(runs) {
    this.pair.reset({ play: false });
    for (const side of SIDES) {
      const run = runs[side];
      if (!run?.result) continue;
      this.pair.setColumns(side, run.result.sourceTokens);
      for (const st of run.steps) this.pair.push(side, st);
      this.pair.setResult(side, run.result);
    }
    for (const side of SIDES) this.pair.finish(side);
    this.render();
  }

  // Every step one side has decoded so far.
  received(side) {
    return this.pair.received(side).slice();
  }

  // An EngineClient.analyze() result for one side (selfAttention null for an additive model;
  // a Transformer's, with its layers, is the real thing and replaces the illustration).
  setAnalysis(side, { scoringCost, scoringCostError = null, selfAttention }) {
    this.#side[side].cost = scoringCost;
    this.#side[side].costError = scoringCostError;
    if (selfAttention?.layers) {
      this.#real = true;
      this.#encoder.setData(selfAttention);
      this.#renderSelf();
    } else if (selfAttention && !this.#real && (side === 'b' || !this.#self.data)) {
      // The illustration comes from a scaled-dot model: b's when both are, else whichever is.
      this.#self.data = selfAttention;
      this.#renderSelf();
    }
    this.render();
  }

  // The engine refused this side's analysis (the sentence itself was refused): say so instead
  // of "measuring…".
  analysisFailed(side) {
    this.#side[side].costFailed = true;
    this.render();
  }

  // All analyses are in: a missing self-attention now means "no scaled-dot model", or, when
  // there is one, that the engine refused the sentence.
  analysisDone() {
    this.#self.pending = false;
    if (!this.#real && this.#encoder.element.dataset.state === 'pending') this.#encoder.clear();
    this.#renderSelf();
  }

  // What you are seeing: the two RNNs' story, or how the pair on show differs from it (a
  // Transformer on a side; attention learned by itself beside one with an aligner's hint).
  #renderExplain() {
    const story = compareStory(SIDES.map((side) => this.#side[side]?.model?.info));
    const paragraphs = { transformer: TRANSFORMER_STRINGS[this.#lang].compareExplain, guidance: this.#C.explainGuidance }[story] ?? this.#C.explain;
    this.#el.explain.replaceChildren(...paragraphs.map((text) => h('p', { text })));
    this.#el.explain.dataset.story = story;
  }

  render() {
    const rows = {};
    for (const side of SIDES) rows[side] = this.#renderSide(side);
    this.#renderTv(rows);
    this.pair.renderControls(this.#C, this.#S);
    this.pair.stamp(this.#el.root);
    this.#onChange(this);
  }

  #labelSide(side) {
    this.pair.label(side, this.#C, this.#S);
  }

  #renderSide(side) {
    const s = this.#side[side];
    const tf = isTransformer(s.model?.info);
    const rowOf = tf ? (st) => crossRow(st, s.picker.selection) : undefined;
    const ownOf = tf ? (st) => ownRow(st, s.picker.selection) : undefined;
    const { shown } = this.pair.render(side, { rowOf, ownOf });
    const p = this.player;
    s.picker.preview(p.position >= 0 ? p.steps[p.position]?.[side] ?? null : null);
    s.facts.render(this.#C, {
      info: s.model?.info ?? null,
      cost: s.cost,
      costFailed: Boolean(s.costFailed),
      costError: s.costError,
      sentence: this.#sentence,
      entropy: { bits: meanEntropyBits(shown.map((r) => r.weights)), rows: shown.length, columns: s.columns.length },
    }, TRANSFORMER_STRINGS[this.#lang]);
    return shown;
  }

  #renderTv(rows) {
    const { a, b } = this.#side;
    const C = this.#C;
    const e = this.#el;
    const comparable = a.columns.length === b.columns.length;
    // A model without attention has rows without weights: nothing to compare them with.
    const weighed = SIDES.every((side) => rows[side].every((r) => r.weights.length === this.#side[side].columns.length));
    const best = comparable && weighed ? differingRow(rows.a.map((r) => r.weights), rows.b.map((r) => r.weights)) : null;
    for (const s of [a, b]) {
      for (const el of s.matrixRoot.querySelectorAll('[data-tv-max]')) el.removeAttribute('data-tv-max');
      if (best) s.matrixRoot.querySelector(`[data-role="matrix"] > [data-row="${best.row}"]`)?.setAttribute('data-tv-max', 'true');
    }
    e.tv.hidden = (a.columns.length === 0 && b.columns.length === 0) || !weighed;
    if (!best) {
      e.tvText.textContent = comparable ? C.tvNone : C.tvColumns;
      for (const k of ['row', 'tv', 'peaks']) delete e.tv.dataset[k];
      return;
    }
    const column = (s, j) => tokenLabel(s.columns[j] ?? '');
    const describe = (s, r, k) => ({
      who: this.pair.who(SIDES[k], C, this.#S),
      word: tokenLabel(r.word),
      peak: column(s, best.peaks[k]),
      atPeak: fmt(r.weights[best.peaks[k]], 2),
      atGap: fmt(r.weights[best.gap], 2),
    });
    const sides = [describe(a, rows.a[best.row], 0), describe(b, rows.b[best.row], 1)];
    // Peaks that agree: say what differs (the spread), and where the weights part most.
    const gap = best.peaksDiffer || best.gap === best.peaks[0] ? null : column(a, best.gap);
    e.tvText.textContent = best.peaksDiffer ? C.tv(best.row, ...sides, best.tv) : C.tvSpread(best.row, ...sides, gap, best.tv);
    e.tv.dataset.row = String(best.row);
    e.tv.dataset.tv = String(best.tv);
    e.tv.dataset.peaks = best.peaksDiffer ? 'differ' : 'agree';
  }

  #renderSelf() {
    const self = this.#self;
    const C = this.#C;
    const data = self.data;
    self.el.hidden = (!data && self.pending) || this.#real;
    if (!data) {
      const dot = SIDES.some((side) => this.#side[side].model?.info?.scoring === 'scaled_dot');
      self.methodLabel.textContent = self.pending ? '' : dot ? C.selfFailed : C.selfNone;
      self.method.textContent = '';
      self.matrix.reset([]);
      self.root.hidden = true;
      self.diagonal.hidden = true;
      return;
    }
    self.root.hidden = false;
    self.diagonal.hidden = false;
    self.methodLabel.textContent = C.selfMethod;
    self.method.textContent = C.selfMethodText(data.method);
    self.matrix.reset(data.tokens);
    self.matrix.setRows(data.tokens.map((word, i) => ({ word, weights: data.weights[i] })));
  }
}
