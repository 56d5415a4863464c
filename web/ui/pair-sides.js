// What the two-model views (compare-view.js, bottleneck-view.js) share: one Player moved by one
// playback bar over two models' steps in lockstep, and per model a side with its heading,
// its output line and its attention matrix. Each view adds its own parts to a side and
// arranges the whole; this keeps the sides' state and draws what is common to both.
//
// Automation hooks (stable): data-role="side" data-side="a"|"b" (data-scoring, data-rows,
// data-current), its data-role="output" and data-role="matrix"; the playback bar's.

import { h, pieces } from './dom.js';
import { isRow } from '../engine/steps.js';
import { Lockstep, SIDES, rowsAt } from './lockstep.js';
import { AttentionMatrix } from './matrix.js';
import { PlaybackBar } from './playback-bar.js';
import { kindOf } from './transformer-strings.js';
import { Player } from './player.js';
import { STRINGS } from './strings.js';

export class PairSides {
  player;
  bar;
  #lockstep;
  #sides = {}; // side -> {el, kind, label, outputLabel, output, matrixRoot, matrix, columns, model, pieces}

  // onMove(): after every change of the player.
  constructor(onMove) {
    this.player = new Player({ onChange: onMove });
    this.#lockstep = new Lockstep(this.player);
    this.bar = new PlaybackBar(this.player);
  }

  // One side's section: heading, output line, `before`, its matrix, `after` (the view's own
  // parts); -> the side's record, to which the view may add fields. onActivateCell({row, col}):
  // a cell of its matrix clicked (an attention edit, ui/matrix.js).
  build(side, { before = [], after = [], onActivateCell = null } = {}) {
    const s = { columns: [], model: null, pieces: null };
    s.kind = h('span', { class: 'bl-cmp-kind' });
    s.label = h('span', { class: 'bl-cmp-label' });
    s.outputLabel = h('span', { class: 'bl-sr-only' });
    s.output = h('p', { class: 'bl-cmp-output' }, s.outputLabel, h('span', { 'data-role': 'output' }));
    s.matrixRoot = h('div');
    s.matrix = new AttentionMatrix(s.matrixRoot, { strings: STRINGS.en, onActivateCell });
    s.el = h('section', { class: 'bl-cmp-side', 'data-role': 'side', 'data-side': side },
      h('h3', { class: 'bl-cmp-head' }, s.kind, ' ', s.label), s.output, before, s.matrixRoot, after);
    this.#sides[side] = s;
    return s;
  }

  get(side) {
    return this.#sides[side];
  }

  // A new sentence: no rows and no columns.
  reset({ play = true } = {}) {
    for (const side of SIDES) {
      const s = this.#sides[side];
      s.columns = [];
      s.pieces = null;
      s.matrix.reset([]);
    }
    this.#lockstep.reset({ play });
  }

  setColumns(side, columns) {
    const s = this.#sides[side];
    s.columns = columns.slice();
    s.matrix.reset(columns);
  }

  push(side, step) {
    this.#lockstep.push(side, step);
  }

  finish(side) {
    this.#lockstep.finish(side);
  }

  // All steps one side has sent so far, ahead of what the player shows.
  received(side) {
    return this.#lockstep.received(side);
  }

  // The finished translation of one side: its words then show with the text's own spacing.
  setResult(side, result) {
    this.#sides[side].pieces = pieces(result.targetTokens, result.text);
  }

  // The side's heading in the view's words W ({kind, matrixLabel}) and the page's S.
  label(side, W, S) {
    const s = this.#sides[side];
    const info = s.model?.info;
    const kind = info ? W.kind[kindOf(info)] ?? info.scoring : '';
    s.kind.textContent = kind;
    s.label.textContent = s.model ? `· ${S.modelLabel(s.model.label)}` : '';
    s.outputLabel.textContent = `${S.translation}: `;
    s.el.dataset.scoring = info?.scoring ?? '';
    s.el.dataset.arch = info?.arch ?? 'rnn';
    s.matrix.setStrings({ ...S, matrixLabel: W.matrixLabel(kind || side) });
  }

  // The rows one side shows at the player's position, in its matrix (unless matrix is false)
  // and its output line; rowOf(step) picks a row's weights, ownOf(step) an edited one's own
  // (lockstep.js's rowsAt). -> {shown: [{word, weights, edited, own}], current (row index or -1)}
  render(side, { matrix = true, rowOf, ownOf } = {}) {
    const s = this.#sides[side];
    const p = this.player;
    const shown = rowsAt(p.steps, p.position, side, rowOf, ownOf);
    const step = p.position >= 0 ? p.steps[p.position]?.[side] : null;
    const current = isRow(step) ? shown.length - 1 : -1;
    if (matrix) {
      s.matrix.setRows(shown);
      s.matrix.setCurrent(current);
    }
    const out = s.output.lastChild;
    out.replaceChildren(...shown.flatMap((r, i) => {
      const piece = s.pieces?.[i] ?? { sep: i ? ' ' : '', text: r.word };
      return [piece.sep, h('span', { class: i === current ? 'tok is-current' : 'tok', text: piece.text })];
    }));
    s.el.dataset.rows = String(shown.length);
    s.el.dataset.current = String(current);
    return { shown, current };
  }

  // The bar's buttons and its position line, in the view's words W ({position, sideWords, who}).
  renderControls(W, S) {
    const p = this.player;
    const n = p.steps.length;
    const parts = [];
    if (p.position >= 0) parts.push(W.position(p.position + 1, p.finished ? n : `${n}+`));
    for (const side of SIDES) {
      const s = this.#sides[side];
      if (!s.model || !s.columns.length) continue;
      const ended = p.finished && p.position >= p.steps.filter((st) => st[side]).length - 1;
      parts.push(W.sideWords(this.who(side, W, S), Number(s.el.dataset.rows), ended));
    }
    if (!p.finished && n > 0) parts.push(S.decoding);
    this.bar.render(S, parts.join(' · '));
  }

  // How the view's words W name a side's model: by its kind ("the additive model"), or by its
  // label (S.modelLabel) where the two sides are of one kind, which the kind would not tell
  // apart (en-fr beside en-fr-guided).
  who(side, W, S) {
    const s = this.#sides[side];
    if (!s.model) return '';
    const [a, b] = SIDES.map((x) => kindOf(this.#sides[x].model?.info));
    return (a !== b && W.who[kindOf(s.model.info)]) || S.modelLabel(s.model.label);
  }

  // The view root's hooks: where the player is.
  stamp(root) {
    const p = this.player;
    root.dataset.position = String(p.position);
    root.dataset.playing = String(p.playing);
    root.dataset.finished = String(p.finished);
  }
}

// The base of both two-model views: it creates their PairSides and passes a side's decoding
// events through, redrawing (the view's render()) where the view must. `pair` is the views'
// own handle on it; the page and the widget use only `player` and the methods.
export class PairView {
  constructor() {
    this.pair = new PairSides(() => this.render());
    this.player = this.pair.player;
  }

  setColumns(side, columns) {
    this.pair.setColumns(side, columns);
    this.render();
  }

  push(side, step) {
    this.pair.push(side, step);
  }

  finish(side) {
    this.pair.finish(side);
  }

  // The finished translation of one side: its words then show with the text's own spacing.
  setResult(side, result) {
    this.pair.setResult(side, result);
    this.render();
  }
}
