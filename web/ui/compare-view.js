// The comparison view: one sentence, two models' attention matrices side by side, driven by one
// Player (position i shows rows 0..i of each), with each model's scoring facts underneath,
// the row where the two alignments differ most, a short explanation, and a self-attention
// matrix as an illustration. Shared by compare.html and <attention-translator mode="compare">:
// everything is built inside the given container (a document or a shadow root), and the
// owner feeds it the engine's steps and analyses; it computes only entropy and TV from them.
//
// Automation hooks (stable): data-role="compare" on the root (data-position, data-playing,
// data-finished); data-role="side" data-side="a"|"b" per model (data-scoring, data-rows,
// data-current), each with a data-role="matrix"; data-role="tv" (data-row, data-tv) and rows
// marked data-tv-max; data-role="self-attention" with its own matrix; the playback buttons
// first, step-back, play, step-forward, last.

import { gradientCss } from './colormap.js';
import { h, pieces, tokenLabel } from './dom.js';
import { meanEntropyBits, mostDifferentRow } from './attention-stats.js';
import { ModelFacts } from './compare-facts.js';
import { COMPARE_STRINGS } from './compare-strings.js';
import { icon } from './icons.js';
import { Lockstep, SIDES, isRow, rowsAt } from './lockstep.js';
import { AttentionMatrix } from './matrix.js';
import { Player, SPEEDS_MS, syncControls } from './player.js';
import { STRINGS } from './strings.js';

export class CompareView {
  player;
  #lockstep;
  #lang = 'en';
  #el = {};
  #side = {}; // per side: {el, kind, label, output, matrix, facts, columns, model, cost, pieces}
  #self; // {el, note, method, matrix, data}
  #sentence = false; // a sentence has been started (its cost is being measured)
  #onChange;

  // controls: 'full' (also first, last and speed), 'minimal' or 'none'. onChange(view) after
  // every move of the player.
  constructor(container, { lang = 'en', controls = 'full', onChange } = {}) {
    this.#onChange = onChange ?? (() => {});
    this.player = new Player({ onChange: () => this.render() });
    this.#lockstep = new Lockstep(this.player);
    const e = this.#el;
    const button = (role, name) =>
      h('button', { type: 'button', class: 'bl-cmp-btn', 'data-role': role }, icon(name), name === 'play' ? icon('pause') : null);
    e.first = button('first', 'first');
    e.back = button('step-back', 'back');
    e.play = button('play', 'play');
    e.forward = button('step-forward', 'forward');
    e.last = button('last', 'last');
    e.position = h('span', { class: 'bl-cmp-position', 'data-role': 'position' });
    e.speed = h('input', { type: 'range', min: '0', max: String(SPEEDS_MS.length - 1), step: '1', 'data-role': 'speed' });
    e.speedLabel = h('label', { class: 'bl-cmp-speed' }, h('span'), e.speed);
    e.controls = h('div', { class: 'bl-cmp-controls', role: 'group' },
      e.first, e.back, e.play, e.forward, e.last, e.position, e.speedLabel);
    e.tvTitle = h('strong', { class: 'bl-cmp-tv-title' });
    e.tvText = h('span');
    e.tv = h('p', { class: 'bl-cmp-tv', 'data-role': 'tv' }, e.tvTitle, ' ', e.tvText);
    e.pair = h('div', { class: 'bl-cmp-pair' }, SIDES.map((side) => this.#buildSide(side)));
    e.legendLabel = h('span', { class: 'bl-cmp-legend-label' });
    e.legend = h('div', { class: 'bl-cmp-legend', 'aria-hidden': 'true' }, h('span', { text: '0' }),
      h('span', { class: 'bl-cmp-legend-bar', style: { background: gradientCss() } }), h('span', { text: '1' }), e.legendLabel);
    e.explainTitle = h('h3');
    e.explain = h('div', { class: 'bl-cmp-text' });
    this.#self = { title: h('h3'), note: h('p', { class: 'bl-cmp-note' }), methodLabel: h('p', { class: 'bl-cmp-note' }),
      method: h('p', { class: 'bl-cmp-method', 'data-role': 'self-method' }), root: h('div'), data: null, pending: true };
    const self = this.#self;
    self.el = h('section', { class: 'bl-cmp-self', 'data-role': 'self-attention' },
      self.title, self.note, self.methodLabel, self.method, self.root);
    self.matrix = new AttentionMatrix(self.root, { strings: STRINGS.en });
    e.root = h('div', { class: 'bl-compare', 'data-role': 'compare' }, e.controls, e.tv, e.pair, e.legend,
      h('section', { class: 'bl-cmp-explain' }, e.explainTitle, e.explain), self.el);
    container.replaceChildren(e.root);

    e.play.addEventListener('click', () => this.player.toggle());
    e.back.addEventListener('click', () => this.player.back());
    e.forward.addEventListener('click', () => this.player.forward());
    e.first.addEventListener('click', () => this.player.first());
    e.last.addEventListener('click', () => this.player.last());
    e.speed.addEventListener('input', () => this.player.setSpeed(Number(e.speed.value)));
    this.setControls(controls);
    this.setLang(lang);
  }

  #buildSide(side) {
    const s = { columns: [], model: null, cost: null, pieces: null };
    s.kind = h('span', { class: 'bl-cmp-kind' });
    s.label = h('span', { class: 'bl-cmp-label' });
    s.outputLabel = h('span', { class: 'bl-sr-only' });
    s.output = h('p', { class: 'bl-cmp-output' }, s.outputLabel, h('span', { 'data-role': 'output' }));
    s.matrixRoot = h('div');
    s.matrix = new AttentionMatrix(s.matrixRoot, { strings: STRINGS.en });
    s.facts = new ModelFacts();
    s.el = h('section', { class: 'bl-cmp-side', 'data-role': 'side', 'data-side': side },
      h('h3', { class: 'bl-cmp-head' }, s.kind, ' ', s.label), s.output, s.matrixRoot, s.facts.element);
    this.#side[side] = s;
    return s.el;
  }

  get #C() {
    return COMPARE_STRINGS[this.#lang];
  }

  get #S() {
    return STRINGS[this.#lang];
  }

  setControls(mode) {
    const e = this.#el;
    e.controls.hidden = mode === 'none';
    for (const x of [e.first, e.last, e.speedLabel]) x.hidden = mode !== 'full';
  }

  setLang(lang) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    const C = this.#C;
    const S = this.#S;
    const e = this.#el;
    e.controls.setAttribute('aria-label', S.playback);
    for (const [el, key] of [[e.first, 'first'], [e.back, 'back'], [e.forward, 'forward'], [e.last, 'last']]) {
      el.setAttribute('aria-label', S[key]);
      el.title = S[key];
    }
    e.speedLabel.firstChild.textContent = S.speed;
    e.tvTitle.textContent = C.tvTitle;
    e.legendLabel.textContent = S.legend;
    e.explainTitle.textContent = C.explainTitle;
    e.explain.replaceChildren(...C.explain.map((text) => h('p', { text })));
    const self = this.#self;
    self.title.textContent = C.selfTitle;
    self.note.textContent = C.selfNote;
    self.matrix.setStrings({ ...S, matrixLabel: C.selfLabel, matrixDescription: (rows, cols) => C.selfDescription(cols),
      tableCaption: C.selfCaption, corner: C.selfCorner });
    for (const side of SIDES) this.#labelSide(side);
    this.#renderSelf();
    this.render();
  }

  // model: {info, label} of the side's translator, once loaded (null while loading).
  setModel(side, model) {
    this.#side[side].model = model;
    this.#labelSide(side);
    this.render();
  }

  // A new sentence: no rows, no analysis; columns come with setColumns.
  reset({ play = true } = {}) {
    for (const side of SIDES) {
      const s = this.#side[side];
      s.columns = [];
      s.cost = null;
      s.costFailed = false;
      s.pieces = null;
      s.matrix.reset([]);
    }
    this.#self.data = null;
    this.#self.pending = true;
    this.#sentence = true;
    this.#lockstep.reset({ play });
    this.#renderSelf();
  }

  setColumns(side, columns) {
    this.#side[side].columns = columns.slice();
    this.#side[side].matrix.reset(columns);
    this.render();
  }

  push(side, step) {
    this.#lockstep.push(side, step);
  }

  finish(side) {
    this.#lockstep.finish(side);
  }

  // The finished translation of one side: its words then show with the text's own spacing.
  setResult(side, result) {
    this.#side[side].pieces = pieces(result.targetTokens, result.text);
    this.render();
  }

  // An EngineClient.analyze() result for one side (selfAttention null for an additive model).
  setAnalysis(side, { scoringCost, selfAttention }) {
    this.#side[side].cost = scoringCost;
    // The illustration comes from a scaled-dot model: b's when both are, else whichever is.
    if (selfAttention && (side === 'b' || !this.#self.data)) {
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
    this.#renderSelf();
  }

  render() {
    const p = this.player;
    const rows = {};
    for (const side of SIDES) rows[side] = this.#renderSide(side);
    this.#renderTv(rows);
    this.#renderControls();
    const root = this.#el.root;
    root.dataset.position = String(p.position);
    root.dataset.playing = String(p.playing);
    root.dataset.finished = String(p.finished);
    this.#onChange(this);
  }

  #labelSide(side) {
    const s = this.#side[side];
    const C = this.#C;
    const info = s.model?.info;
    const kind = info ? C.kind[info.scoring] ?? info.scoring : '';
    s.kind.textContent = kind;
    s.label.textContent = s.model ? `· ${s.model.label}` : '';
    s.outputLabel.textContent = `${this.#S.translation}: `;
    s.el.dataset.scoring = info?.scoring ?? '';
    s.matrix.setStrings({ ...this.#S, matrixLabel: C.matrixLabel(kind || side) });
  }

  #renderSide(side) {
    const s = this.#side[side];
    const p = this.player;
    const shown = rowsAt(p.steps, p.position, side);
    const step = p.position >= 0 ? p.steps[p.position]?.[side] : null;
    const current = isRow(step) ? shown.length - 1 : -1;
    s.matrix.setRows(shown);
    s.matrix.setCurrent(current);
    const out = s.output.lastChild;
    out.replaceChildren(...shown.flatMap((r, i) => {
      const piece = s.pieces?.[i] ?? { sep: i ? ' ' : '', text: r.word };
      return [piece.sep, h('span', { class: i === current ? 'tok is-current' : 'tok', text: piece.text })];
    }));
    s.el.dataset.rows = String(shown.length);
    s.el.dataset.current = String(current);
    s.facts.render(this.#C, {
      info: s.model?.info ?? null,
      cost: s.cost,
      costFailed: Boolean(s.costFailed),
      sentence: this.#sentence,
      entropy: { bits: meanEntropyBits(shown.map((r) => r.weights)), rows: shown.length, columns: s.columns.length },
    });
    return shown;
  }

  #renderTv(rows) {
    const { a, b } = this.#side;
    const C = this.#C;
    const e = this.#el;
    const comparable = a.columns.length === b.columns.length;
    const best = comparable ? mostDifferentRow(rows.a.map((r) => r.weights), rows.b.map((r) => r.weights)) : null;
    for (const s of [a, b]) {
      for (const el of s.matrixRoot.querySelectorAll('[data-tv-max]')) el.removeAttribute('data-tv-max');
      if (best) s.matrixRoot.querySelector(`[data-role="matrix"] > [data-row="${best.row}"]`)?.setAttribute('data-tv-max', 'true');
    }
    e.tv.hidden = a.columns.length === 0 && b.columns.length === 0;
    if (!best) {
      e.tvText.textContent = comparable ? C.tvNone : C.tvColumns;
      delete e.tv.dataset.row;
      delete e.tv.dataset.tv;
      return;
    }
    const sameKind = a.model?.info.scoring === b.model?.info.scoring;
    const describe = (s, r) => {
      const w = r.weights;
      let peak = 0;
      for (let j = 1; j < w.length; j++) if (w[j] > w[peak]) peak = j;
      const who = sameKind || !s.model ? s.model?.label ?? '' : C.who[s.model.info.scoring] ?? s.model.label;
      return { who, word: tokenLabel(r.word), peak: tokenLabel(s.columns[peak] ?? '') };
    };
    e.tvText.textContent = C.tv(best.row, describe(a, rows.a[best.row]), describe(b, rows.b[best.row]), best.tv);
    e.tv.dataset.row = String(best.row);
    e.tv.dataset.tv = String(best.tv);
  }

  #renderControls() {
    const e = this.#el;
    const p = this.player;
    const S = this.#S;
    const C = this.#C;
    const n = p.steps.length;
    syncControls(e, p, S);
    const parts = [];
    if (p.position >= 0) parts.push(C.position(p.position + 1, p.finished ? n : `${n}+`));
    for (const side of SIDES) {
      const s = this.#side[side];
      if (!s.model || !s.columns.length) continue;
      const words = Number(s.el.dataset.rows);
      const ended = p.finished && p.position >= p.steps.filter((st) => st[side]).length - 1;
      parts.push(C.sideWords(C.who[s.model.info.scoring] ?? s.model.label, words, ended));
    }
    if (!p.finished && n > 0) parts.push(S.decoding);
    e.position.textContent = parts.join(' · ');
  }

  #renderSelf() {
    const self = this.#self;
    const C = this.#C;
    const data = self.data;
    self.el.hidden = !data && self.pending;
    if (!data) {
      const dot = SIDES.some((side) => this.#side[side].model?.info?.scoring === 'scaled_dot');
      self.methodLabel.textContent = self.pending ? '' : dot ? C.selfFailed : C.selfNone;
      self.method.textContent = '';
      self.matrix.reset([]);
      self.root.hidden = true;
      return;
    }
    self.root.hidden = false;
    self.methodLabel.textContent = C.selfMethod;
    self.method.textContent = data.method;
    self.matrix.reset(data.tokens);
    self.matrix.setRows(data.tokens.map((word, i) => ({ word, weights: data.weights[i] })));
  }
}
