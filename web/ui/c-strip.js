// The one thing a decoder without attention reads of the English: the fixed context vector
// c = [→h_T; ←h_1], drawn as one strip of 2H cells on the diverging scale. A model with
// attention has a matrix row per word; this one has no row, so the strip is shown once, and
// each decoded word is marked as reading it again (the strip flashes and the caption names
// the word). The strip always shows the current step's own c, and says whether every step so
// far sent the same numbers: a claim the figure checks rather than assumes.
//
// Automation hooks (stable): data-role="c-strip" (data-size, data-reads, data-same), cells
// data-k and data-value (the engine's exact number), data-role="c-reuse" for the caption.

import { diverging, gradientCss } from './colormap.js';
import { fmt, h, tokenLabel } from './dom.js';

const PAGE = 32; // cells per PageUp / PageDown

export class CStrip {
  element;
  #W;
  #e = {};
  #values = null; // the c on show
  #first = null; // the first step's c, against which later steps are checked
  #same = true;
  #cursor = 0;
  #last = null; // the word on show: {index, word, reads}

  constructor(container, { strings }) {
    this.#W = strings;
    const e = this.#e;
    e.title = h('p', { class: 'bl-cstrip-title' });
    e.size = h('span', { class: 'bl-cstrip-size' });
    e.cells = h('div', {
      class: 'bl-cstrip-cells',
      role: 'slider',
      tabindex: '0',
      'aria-valuemin': '0',
      on: {
        keydown: (ev) => this.#onKey(ev),
        pointermove: (ev) => {
          const k = Number(ev.target.dataset?.k);
          if (Number.isInteger(k)) this.#point(k);
        },
        pointerleave: () => this.#readout(null),
        focus: () => this.#point(this.#cursor),
        blur: () => this.#readout(null),
      },
    });
    e.halves = h('div', { class: 'bl-cstrip-halves', 'aria-hidden': 'true' }, h('span'), h('span'));
    e.lo = h('span');
    e.hi = h('span');
    e.scaleText = h('span', { class: 'bl-cstrip-scale-text' });
    e.scale = h('div', { class: 'bl-strip-scale', 'aria-hidden': 'true' }, e.lo,
      h('span', { class: 'bl-strip-gradient', style: { background: gradientCss((t) => diverging(2 * t - 1)) } }), e.hi);
    e.readout = h('p', { class: 'bl-cstrip-readout', 'aria-hidden': 'true' });
    e.reuse = h('p', { class: 'bl-cstrip-reuse', 'data-role': 'c-reuse', 'aria-live': 'polite' });
    this.element = h('div', { class: 'bl-cstrip', 'data-role': 'c-strip' },
      e.title, e.cells, e.halves, e.scale, e.scaleText, e.readout, e.reuse);
    container.replaceChildren(this.element);
    this.reset();
  }

  setStrings(W) {
    this.#W = W;
    this.#label();
    this.#caption(this.#last);
  }

  // A new sentence: no c yet.
  reset() {
    this.#values = null;
    this.#first = null;
    this.#same = true;
    this.#last = null;
    this.#cursor = 0;
    this.#e.cells.replaceChildren();
    this.element.dataset.size = '0';
    this.element.dataset.reads = '0';
    this.element.dataset.same = 'true';
    this.#label();
    this.#caption(null);
  }

  // Every step the decoder has sent so far (the figure's player may show an earlier one).
  check(steps) {
    for (const st of steps) {
      if (!st?.c?.length) continue;
      if (!this.#first) this.#first = st.c;
      else if (this.#same && !sameNumbers(this.#first, st.c)) this.#same = false;
    }
    this.element.dataset.same = String(this.#same);
  }

  // The step on show: its c, its word (null before the first), and how many words have read c.
  show(c, { index = -1, word = null, reads = 0 } = {}) {
    if (c && c !== this.#values && !(this.#values && sameNumbers(c, this.#values))) this.#draw(c);
    const fresh = reads > Number(this.element.dataset.reads);
    this.element.dataset.reads = String(reads);
    this.#last = word === null ? null : { index, word, reads };
    this.#caption(this.#last);
    if (fresh) this.#flash();
  }

  #draw(c) {
    this.#values = c;
    const m = Math.max(...c.map(Math.abs)) || 1;
    this.#e.cells.replaceChildren(...c.map((v, k) =>
      h('span', { class: 'bl-cstrip-cell', 'data-k': String(k), 'data-value': String(v), style: { background: diverging(v / m) } })));
    this.#e.cells.style.setProperty('--n', String(c.length));
    this.#e.lo.textContent = `−${fmt(m, 2)}`;
    this.#e.hi.textContent = `+${fmt(m, 2)}`;
    this.element.dataset.size = String(c.length);
    this.#cursor = Math.min(this.#cursor, c.length - 1);
    this.#label();
  }

  #label() {
    const W = this.#W;
    const e = this.#e;
    const c = this.#values;
    e.title.replaceChildren(h('strong', { text: W.stripTitle }), c ? ' · ' : '', c ? h('span', { text: W.stripSize(c.length) }) : '');
    e.halves.children[0].textContent = W.stripHalves[0];
    e.halves.children[1].textContent = W.stripHalves[1];
    e.scaleText.textContent = W.stripScale;
    e.halves.hidden = e.scale.hidden = e.scaleText.hidden = !c;
    if (!c) {
      e.cells.setAttribute('aria-label', W.stripEmpty);
      e.cells.setAttribute('aria-valuemax', '0');
      e.cells.setAttribute('aria-valuenow', '0');
      e.cells.setAttribute('aria-valuetext', W.stripEmpty);
      return;
    }
    const lo = fmt(Math.min(...c), 3);
    const hi = fmt(Math.max(...c), 3);
    e.cells.setAttribute('aria-label', W.stripLabel(c.length, lo, hi));
    e.cells.setAttribute('aria-valuemax', String(c.length - 1));
    e.cells.setAttribute('aria-valuenow', String(this.#cursor));
    e.cells.setAttribute('aria-valuetext', W.stripValue(this.#cursor, fmt(c[this.#cursor], 4)));
  }

  #caption(last) {
    const W = this.#W;
    const parts = [];
    if (this.#values) parts.push(this.#same ? W.stripSame : W.stripDiffers);
    else parts.push(W.stripEmpty);
    if (last && this.#values) {
      parts.push(last.word === '</s>' ? W.stripReadEnd(last.reads) : W.stripRead(last.index + 1, tokenLabel(last.word), last.reads));
    }
    this.#e.reuse.textContent = parts.join(' ');
  }

  // The strip lights up as one more word reads it (CSS; none under reduced motion).
  #flash() {
    const cells = this.#e.cells;
    cells.classList.remove('is-read');
    void cells.offsetWidth; // restarts the animation
    cells.classList.add('is-read');
  }

  #onKey(ev) {
    const c = this.#values;
    if (!c) return;
    const moves = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1, PageDown: -PAGE, PageUp: PAGE };
    let k;
    if (ev.key in moves) k = this.#cursor + moves[ev.key];
    else if (ev.key === 'Home') k = 0;
    else if (ev.key === 'End') k = c.length - 1;
    else return;
    ev.preventDefault();
    this.#point(Math.max(0, Math.min(c.length - 1, k)));
  }

  #point(k) {
    const c = this.#values;
    if (!c) return;
    this.#cursor = k;
    for (const el of this.#e.cells.querySelectorAll('.is-cursor')) el.classList.remove('is-cursor');
    this.#e.cells.children[k]?.classList.add('is-cursor');
    this.#label();
    this.#readout(this.#W.stripValue(k, fmt(c[k], 4)));
  }

  #readout(text) {
    this.#e.readout.textContent = text ?? '';
  }
}

function sameNumbers(x, y) {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
