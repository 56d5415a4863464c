// The layer × head picker: two native selects (a layer; a head or the average of the layer's
// heads), so the keyboard, screen readers and phones get the platform's own control; for the
// cross-attention, a grid of every layer's and head's row at the word on show
// (ui/head-grid.js), to compare them and pick one by pointer or arrow keys; and a note saying
// in words what the matrix now shows. It holds only the choice; the views read
// the rows for it with ui/heads.js. Built inside the given container (a document or a shadow
// root).
//
// Automation hooks (stable): data-role="head-picker" (data-layer: from 1, data-head: from 1
// or "avg"), its data-role="layer" and data-role="head" selects, data-role="head-note".

import { h } from './dom.js';
import { HeadGrid } from './head-grid.js';
import { AVERAGE, defaultSelection, validSelection } from './heads.js';

let nextId = 0;

export class HeadPicker {
  element;
  #layer;
  #head;
  #legend;
  #layerLabel;
  #headLabel;
  #note;
  #shape = { layers: 0, heads: 0 };
  #sel = { layer: 0, head: AVERAGE };
  #T = null;
  #kind;
  #onChange;
  #grid = null; // cross-attention only
  #disabledReason = null; // why the picker is off (beam search), said in its note

  // kind: 'cross' (decoder layers, with a note) or 'encoder'. onChange(selection) after a pick.
  constructor(container, { kind = 'cross', onChange } = {}) {
    this.#kind = kind;
    this.#onChange = onChange ?? (() => {});
    const id = `bl-heads-${++nextId}`;
    this.#layer = h('select', { id: `${id}-layer`, 'data-role': 'layer', on: { change: () => this.#picked() } });
    this.#head = h('select', { id: `${id}-head`, 'data-role': 'head', on: { change: () => this.#picked() } });
    this.#legend = h('legend', { class: 'bl-heads-legend' });
    this.#layerLabel = h('label', { for: `${id}-layer` });
    this.#headLabel = h('label', { for: `${id}-head` });
    this.#note = h('p', { class: 'bl-heads-note', 'data-role': 'head-note', 'aria-live': 'polite' });
    if (kind === 'cross') this.#grid = new HeadGrid({ onPick: (sel) => this.#picked(sel) });
    this.element = h('fieldset', { class: 'bl-heads', 'data-role': 'head-picker', hidden: true },
      this.#legend,
      h('span', { class: 'bl-heads-field' }, this.#layerLabel, this.#layer),
      h('span', { class: 'bl-heads-field' }, this.#headLabel, this.#head),
      this.#grid?.element,
      this.#note);
    container.append(this.element);
  }

  get selection() {
    return { ...this.#sel };
  }

  get shape() {
    return { ...this.#shape };
  }

  // layers × heads (0: no Transformer, the picker hides); want: a {layer, head} to start on,
  // kept when it exists, else the default (the last layer, averaged).
  setShape(layers, heads, want = null) {
    this.#shape = { layers, heads };
    this.#sel = layers > 0 ? validSelection(layers, heads, want) : defaultSelection(0);
    this.element.hidden = !(layers > 0 && heads > 0);
    this.#fill();
    this.#grid?.select(this.#sel);
  }

  // The word on show (a step with cross, or null): the grid draws its every layer and head.
  preview(step) {
    this.#grid?.render(this.element.hidden ? null : step, this.#shape);
  }

  // T: TRANSFORMER_STRINGS[lang].
  setStrings(T) {
    this.#T = T;
    this.#grid?.setStrings(T);
    this.#fill();
  }

  // Disabled (beam search has only the summary row) with a note saying why; null re-enables.
  setDisabled(reason) {
    this.#layer.disabled = Boolean(reason);
    this.#head.disabled = Boolean(reason);
    this.element.dataset.disabled = String(Boolean(reason));
    this.#disabledReason = reason;
    this.#renderNote();
  }

  // A pick from the selects, or from the grid (sel).
  #picked(sel = null) {
    const head = this.#head.value === AVERAGE ? AVERAGE : Number(this.#head.value);
    this.#sel = validSelection(this.#shape.layers, this.#shape.heads, sel ?? { layer: Number(this.#layer.value), head });
    this.#layer.value = String(this.#sel.layer);
    this.#head.value = String(this.#sel.head);
    this.#grid?.select(this.#sel);
    this.#stamp();
    this.#renderNote();
    this.#onChange(this.selection);
  }

  #fill() {
    const T = this.#T;
    if (!T) return;
    const { layers, heads } = this.#shape;
    this.#legend.textContent = this.#kind === 'cross' ? T.pickCross : T.pickEncoder;
    this.#layerLabel.textContent = this.#kind === 'cross' ? T.decoderLayer : T.encoderLayer;
    this.#headLabel.textContent = T.head;
    const option = (value, text) => h('option', { value: String(value), text });
    this.#layer.replaceChildren(...Array.from({ length: layers }, (_, i) => option(i, T.layerOption(i + 1, layers))));
    this.#head.replaceChildren(option(AVERAGE, T.average(heads)),
      ...Array.from({ length: heads }, (_, k) => option(k, T.headOption(k + 1))));
    this.#layer.value = String(this.#sel.layer);
    this.#head.value = String(this.#sel.head);
    this.#stamp();
    this.#renderNote();
  }

  #stamp() {
    this.element.dataset.layer = String(this.#sel.layer + 1);
    this.element.dataset.head = this.#sel.head === AVERAGE ? AVERAGE : String(this.#sel.head + 1);
  }

  #renderNote() {
    const T = this.#T;
    if (!T) return;
    const { layers, heads } = this.#shape;
    const shown = { layer: this.#sel.layer + 1, head: this.#sel.head === AVERAGE ? AVERAGE : this.#sel.head + 1 };
    this.#note.textContent = this.#disabledReason ?? (this.#kind === 'cross' ? T.crossNote(shown, layers, heads) : '');
    this.#note.hidden = !this.#note.textContent;
  }
}
