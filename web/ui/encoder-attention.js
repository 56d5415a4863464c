// A Transformer's encoder self-attention, per layer and head: the engine's selfAttention()
// weights for one sentence ({tokens, layers, heads, weights[layer][head][i][j]}), drawn as a
// square matrix (rows: queries, columns: keys, both the English tokens) with a layer × head
// picker. Labelled as what it is: part of the translator, unlike the comparison page's
// illustration built from an RNN's projections. Shared by index.html, compare.html and the
// widget's compare mode; built inside the given container.
//
// Automation hooks (stable): data-role="encoder-attention" (data-state: empty, pending, shown,
// failed), its data-role="head-picker" and data-role="matrix" (cells data-weight).

import { h } from './dom.js';
import { HeadPicker } from './head-picker.js';
import { selfRows } from './heads.js';
import { AttentionMatrix } from './matrix.js';
import { STRINGS } from './strings.js';
import { TRANSFORMER_STRINGS } from './transformer-strings.js';

export class EncoderAttention {
  element;
  #title = h('h3');
  #note = h('p', { class: 'bl-enc-note' });
  #status = h('p', { class: 'bl-enc-status', 'data-role': 'encoder-status', role: 'status' });
  #matrixRoot = h('div');
  #picker;
  #matrix = null; // made with the first data: a page without a Transformer gets no second grid
  #data = null;
  #lang = 'en';

  constructor(container, { lang = 'en' } = {}) {
    this.element = h('section', { class: 'bl-enc', 'data-role': 'encoder-attention', 'data-state': 'empty', hidden: true },
      this.#title, this.#note);
    this.#picker = new HeadPicker(this.element, { kind: 'encoder', onChange: () => this.#draw() });
    this.element.append(this.#status, this.#matrixRoot);
    container.append(this.element);
    this.setLang(lang);
  }

  get #T() {
    return TRANSFORMER_STRINGS[this.#lang];
  }

  // Hidden (not a Transformer, or no sentence), or waiting for the engine's answer.
  clear({ pending = false } = {}) {
    this.#data = null;
    this.element.dataset.state = pending ? 'pending' : 'empty';
    if (!pending) this.element.hidden = true;
    this.#status.textContent = pending ? this.#T.encPending : '';
    this.#matrix?.reset([]);
  }

  // selfAttention() of a Transformer: its tokens are the rows and the columns.
  setData(self) {
    this.#data = self;
    this.#matrix ??= new AttentionMatrix(this.#matrixRoot, { strings: STRINGS[this.#lang] });
    this.element.hidden = false;
    this.element.dataset.state = 'shown';
    this.#status.textContent = '';
    this.#picker.setShape(self.layers, self.heads, this.#picker.shape.layers === self.layers ? this.#picker.selection : null);
    this.#labels();
    this.#draw();
  }

  // The engine refused (the reason in its words).
  failed(why) {
    this.#data = null;
    this.element.hidden = false;
    this.element.dataset.state = 'failed';
    this.#status.textContent = this.#T.encFailed(why);
    this.#matrix?.reset([]);
  }

  get selection() {
    return this.#picker.selection;
  }

  setLang(lang) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    this.#picker.setStrings(this.#T);
    if (this.element.dataset.state === 'pending') this.#status.textContent = this.#T.encPending;
    this.#labels();
  }

  #labels() {
    const T = this.#T;
    const S = STRINGS[this.#lang];
    const { layers, heads } = this.#data ?? { layers: 0, heads: 0 };
    const sel = this.#picker.selection;
    this.#title.textContent = T.encTitle;
    this.#note.textContent = T.encNote(layers, heads);
    this.#matrix?.setStrings({ ...S, matrixLabel: T.encLabel(sel.layer + 1, sel.head === 'avg' ? 'avg' : sel.head + 1),
      matrixDescription: (rows, cols) => T.encDescription(cols), tableCaption: T.encCaption, corner: T.encCorner });
  }

  #draw() {
    const d = this.#data;
    if (!d) return;
    const rows = selfRows(d, this.#picker.selection);
    this.#matrix.reset(d.tokens);
    this.#matrix.setRows(d.tokens.map((word, i) => ({ word, weights: rows[i] })));
    this.#labels();
    const sel = this.#picker.selection;
    this.element.dataset.layer = String(sel.layer + 1);
    this.element.dataset.head = sel.head === 'avg' ? 'avg' : String(sel.head + 1);
  }
}
