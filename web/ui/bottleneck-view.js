// The bottleneck figure: one sentence, a translator without attention beside one with it,
// decoded in lockstep under one Player. A model without attention (info().scoring 'none') has
// no matrix: its side shows the fixed context c as a strip (c-strip.js), read again by every
// word; a model with attention shows its matrix growing a row per word. Either side may be
// either kind, so a wrong model choice still draws truthfully. Shared by why.html and
// <attention-translator mode="bottleneck">: built inside the given container (a document or a
// shadow root), fed by its owner with the engine's steps; it computes nothing from them but
// the strip's sameness check.
//
// Automation hooks (stable): data-role="bottleneck" on the root (data-position, data-playing,
// data-finished); data-role="side" data-side="a"|"b" per model (data-scoring, data-rows,
// data-current), holding a data-role="matrix" or a data-role="c-strip"; data-role="output"
// per side; data-role="reference"; the playback buttons of playback-bar.js.

import { gradientCss } from './colormap.js';
import { CStrip } from './c-strip.js';
import { h } from './dom.js';
import { SIDES } from './lockstep.js';
import { PairView } from './pair-sides.js';
import { STRINGS } from './strings.js';
import { WHY_STRINGS } from './why-strings.js';

export class BottleneckView extends PairView {
  #lang = 'en';
  #el = {};
  #side = {}; // per side: pair-sides.js's record, plus {stripRoot, strip}
  #onChange;

  // controls: 'full' (also first, last and speed), 'minimal' or 'none'. onChange(view) after
  // every move of the player.
  constructor(container, { lang = 'en', controls = 'full', onChange } = {}) {
    super(); // this.pair: the sides, the player and its bar (pair-sides.js)
    this.#onChange = onChange ?? (() => {});
    const e = this.#el;
    e.pair = h('div', { class: 'bl-cmp-pair' }, SIDES.map((side) => this.#buildSide(side)));
    e.legendLabel = h('span', { class: 'bl-cmp-legend-label' });
    e.legend = h('div', { class: 'bl-cmp-legend', 'aria-hidden': 'true' }, h('span', { text: '0' }),
      h('span', { class: 'bl-cmp-legend-bar', style: { background: gradientCss() } }), h('span', { text: '1' }), e.legendLabel);
    e.refLabel = h('strong');
    e.refText = h('span', { lang: 'fr' });
    e.reference = h('p', { class: 'bl-bn-reference', 'data-role': 'reference', hidden: true }, e.refLabel, ' ', e.refText);
    e.root = h('div', { class: 'bl-compare bl-bottleneck', 'data-role': 'bottleneck' },
      this.pair.bar.element, e.pair, e.reference, e.legend);
    container.replaceChildren(e.root);
    this.setControls(controls);
    this.setLang(lang);
  }

  #buildSide(side) {
    const stripRoot = h('div', { hidden: true });
    const s = this.pair.build(side, { before: [stripRoot] });
    s.output.lastChild.setAttribute('lang', 'fr');
    Object.assign(s, { stripRoot, strip: new CStrip(stripRoot, { strings: WHY_STRINGS.en }) });
    this.#side[side] = s;
    return s.el;
  }

  get #W() {
    return WHY_STRINGS[this.#lang];
  }

  get #S() {
    return STRINGS[this.#lang];
  }

  // Without attention: the strip instead of the matrix.
  #fixed(side) {
    return this.#side[side].model?.info.scoring === 'none';
  }

  setControls(mode) {
    this.pair.bar.setMode(mode);
  }

  setLang(lang) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    const e = this.#el;
    this.pair.bar.setStrings(this.#S);
    e.legendLabel.textContent = this.#S.legend;
    e.refLabel.textContent = this.#W.reference;
    for (const side of SIDES) {
      this.#side[side].strip.setStrings(this.#W);
      this.pair.label(side, this.#W, this.#S);
    }
    this.render();
  }

  // model: {info, label} of the side's translator, once loaded.
  setModel(side, model) {
    const s = this.#side[side];
    s.model = model;
    s.stripRoot.hidden = !this.#fixed(side);
    s.matrixRoot.hidden = this.#fixed(side);
    this.pair.label(side, this.#W, this.#S);
    this.render();
  }

  // The reference translation of the sentence on show, or null when there is none.
  setReference(text) {
    this.#el.reference.hidden = !text;
    this.#el.refText.textContent = text ?? '';
  }

  // A new sentence: no rows and no c; columns come with setColumns.
  reset({ play = true } = {}) {
    for (const side of SIDES) this.#side[side].strip.reset();
    this.pair.reset({ play });
  }

  render() {
    for (const side of SIDES) {
      this.pair.render(side, { matrix: !this.#fixed(side) });
      if (this.#fixed(side)) this.#renderStrip(side);
    }
    this.pair.renderControls(this.#W, this.#S);
    this.pair.stamp(this.#el.root);
    this.#onChange(this);
  }

  // The strip shows the c of the latest step this side has on show (its own last one once it
  // has finished and the other side goes on), and counts every step that read it, the one
  // that ends the sentence included.
  #renderStrip(side) {
    const { strip } = this.#side[side];
    const received = this.pair.received(side);
    strip.check(received);
    const read = this.player.steps.slice(0, this.player.position + 1).map((st) => st[side]).filter(Boolean);
    const last = read.at(-1);
    strip.show((last ?? received[0])?.c ?? null, { index: read.length - 1, word: last ? last.word : null, reads: read.length });
  }
}
