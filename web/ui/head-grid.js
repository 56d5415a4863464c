// The layer × head grid: for the word on show, every decoder layer's every head (and each
// layer's average) as one small strip of its weights over the source columns, so the heads can
// be compared at a glance, and a click (or Enter on a focused strip) picks one. Arrow keys move
// between strips (one tab stop for the whole grid). It draws the engine's rows (ui/heads.js);
// ui/head-picker.js owns the choice and keeps its selects in step with it.
//
// Automation hooks (stable): data-role="head-grid"; each strip a button data-layer (from 1)
// data-head (from 1, or avg) aria-pressed, its cells data-weight.

import { h } from './dom.js';
import { AVERAGE, crossRow } from './heads.js';
import { viridis } from './colormap.js';

export class HeadGrid {
  element;
  #onPick;
  #shape = { layers: 0, heads: 0 };
  #sel = { layer: 0, head: AVERAGE };
  #focus = { layer: 0, col: 0 }; // the roving tab stop: col H is the average
  #T = null;
  #key = ''; // the shape and language the strips were built for
  #step = null; // the word drawn

  // onPick({layer, head}) when a strip is chosen.
  constructor({ onPick }) {
    this.#onPick = onPick;
    this.element = h('div', { class: 'bl-head-grid', 'data-role': 'head-grid', role: 'group', hidden: true,
      on: { keydown: (e) => this.#onKey(e) } });
  }

  setStrings(T) {
    this.#T = T;
    this.element.setAttribute('aria-label', T.gridLabel);
    if (this.#step) this.render(this.#step, this.#shape); // the strips' names, in the new language
  }

  // The selection drawn as pressed.
  select(sel) {
    this.#sel = { ...sel };
    this.#focus = { layer: sel.layer, col: sel.head === AVERAGE ? this.#shape.heads : sel.head };
    this.#stamp();
  }

  // step: the word on show (a steps() or align() step with cross), or null: the grid hides.
  render(step, { layers, heads }) {
    this.#shape = { layers, heads };
    this.#step = step;
    const show = Boolean(step?.cross) && layers > 0;
    this.element.hidden = !show;
    if (!show) {
      this.element.replaceChildren();
      this.#key = '';
      return;
    }
    // The same layers, heads and columns as drawn (the next word of the same sentence): the
    // strips stay, their cells take the new weights, and focus and pressed state stay put.
    const key = `${layers}x${heads}x${step.cross.alpha[0][0].length}:${this.#T?.gridAverage}`;
    if (key === this.#key) {
      for (const b of this.#strips()) {
        const head = b.dataset.head === AVERAGE ? AVERAGE : Number(b.dataset.head) - 1;
        const row = crossRow(step, { layer: Number(b.dataset.layer) - 1, head });
        [...b.children].forEach((cell, j) => {
          cell.dataset.weight = String(row[j]);
          cell.style.backgroundColor = viridis(row[j]);
        });
      }
      return;
    }
    this.#key = key;
    const T = this.#T;
    const strip = (layer, head) => {
      const row = crossRow(step, { layer, head });
      const label = T.gridStrip(layer + 1, head === AVERAGE ? AVERAGE : head + 1);
      return h('button', { type: 'button', class: 'bl-head-strip', 'data-layer': layer + 1,
        'data-head': head === AVERAGE ? AVERAGE : head + 1, 'aria-label': label, title: label, tabindex: '-1',
        on: { click: () => this.#pick({ layer, head }) } },
      row.map((w) => h('span', { class: 'bl-head-cell', 'data-weight': String(w), style: { backgroundColor: viridis(w) } })));
    };
    const headers = [h('span', { class: 'bl-head-corner', 'aria-hidden': 'true' }),
      ...Array.from({ length: heads }, (_, k) => h('span', { class: 'bl-head-col', 'aria-hidden': 'true', text: T.gridHead(k + 1) })),
      h('span', { class: 'bl-head-col', 'aria-hidden': 'true', text: T.gridAverage })];
    const rows = Array.from({ length: layers }, (_, l) => [
      h('span', { class: 'bl-head-row', 'aria-hidden': 'true', text: T.gridLayer(l + 1) }),
      ...Array.from({ length: heads }, (_, k) => strip(l, k)),
      strip(l, AVERAGE),
    ]);
    // Built anew (another sentence, shape or language): a strip that had the focus gets it back.
    const focused = this.element.contains(this.element.getRootNode().activeElement);
    this.element.style.setProperty('--heads', String(heads + 1));
    this.element.replaceChildren(...headers, ...rows.flat());
    this.#stamp();
    if (focused) this.element.querySelector('.bl-head-strip[tabindex="0"]')?.focus();
  }

  #pick(sel) {
    this.select(sel);
    this.#onPick(sel);
  }

  #strips() {
    return [...this.element.querySelectorAll('.bl-head-strip')];
  }

  #stamp() {
    const { heads } = this.#shape;
    for (const b of this.#strips()) {
      const layer = Number(b.dataset.layer) - 1;
      const col = b.dataset.head === AVERAGE ? heads : Number(b.dataset.head) - 1;
      const on = layer === this.#sel.layer && col === (this.#sel.head === AVERAGE ? heads : this.#sel.head);
      b.setAttribute('aria-pressed', String(on));
      b.tabIndex = layer === this.#focus.layer && col === this.#focus.col ? 0 : -1;
    }
  }

  #onKey(e) {
    const { layers, heads } = this.#shape;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const m = moves[e.key];
    if (!m || !e.target.closest?.('.bl-head-strip')) return;
    e.preventDefault();
    e.stopPropagation(); // the page's own arrows (the player) stay out of the grid
    this.#focus = {
      layer: Math.max(0, Math.min(layers - 1, this.#focus.layer + m[0])),
      col: Math.max(0, Math.min(heads, this.#focus.col + m[1])),
    };
    this.#stamp();
    this.element.querySelector('.bl-head-strip[tabindex="0"]')?.focus();
  }
}
