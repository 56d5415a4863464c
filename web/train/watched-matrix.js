// The watched sentence's attention matrix, as the model being trained translates it at one
// measurement: drawn by the translator's own matrix (ui/matrix.js), with the output it wrote
// and whether the flip (train/flip.js) is there yet. Which measurement is shown is the
// scrubber's choice (train/scrubber.js); which sentence, the page's select.
//
// Automation hooks (stable): data-role="watched" carries data-steps (the measurement's step
// count), data-flip ("true" | "false") and data-source (the sentence); inside it the matrix's
// own hooks (data-role="matrix", data-row, data-weight).

import { h } from '../ui/dom.js';
import { AttentionMatrix } from '../ui/matrix.js';
import { findFlip } from './flip.js';

// Rows added per frame. The matrix is drawn anew at each measurement, and early on the model
// writes long nonsense (20 and more rows): drawn in one go, that was a 110 ms task on the main
// thread of the loaded test machine, over the page's 100 ms goal; a few rows a frame keep each
// task short, and the rows come in as they do when a sentence decodes.
const ROWS_PER_FRAME = 4;

export class WatchedMatrix {
  #root;
  #S;
  #matrix;
  #e = {};
  #shown = null; // {record, index}
  #frame = 0; // the pending requestAnimationFrame of a drawing in progress

  // root: the element to draw in. strings: ui/strings.js's table with train/strings.js's over it.
  constructor(root, { strings }) {
    this.#root = root;
    this.#S = strings;
    const e = this.#e;
    e.caption = h('p', { class: 'tr-watched-caption', 'data-role': 'watched-caption' });
    e.flip = h('p', { class: 'tr-flip', 'data-role': 'flip' });
    e.empty = h('p', { class: 'empty', 'data-role': 'watched-empty' });
    e.matrix = h('div', { class: 'tr-watched-matrix' });
    root.dataset.role = 'watched';
    root.replaceChildren(e.empty, e.matrix, e.caption, e.flip);
    this.#matrix = new AttentionMatrix(e.matrix, { strings });
    this.show(null, 0);
  }

  setStrings(S) {
    this.#S = S;
    this.#matrix.setStrings(S);
    this.show(this.#shown?.record ?? null, this.#shown?.index ?? 0);
  }

  // record: a 'measure' report ({steps, watched: [{source, sourceTokens, targetTokens,
  // attention, text}]}) or null; index: the watched sentence's place in record.watched.
  show(record, index) {
    const S = this.#S;
    const e = this.#e;
    this.#shown = { record, index };
    cancelAnimationFrame(this.#frame);
    const w = record?.watched?.[index] ?? null;
    e.empty.textContent = S.watchedEmpty;
    e.empty.hidden = Boolean(w);
    e.matrix.hidden = !w;
    if (!w) {
      this.#matrix.reset([]);
      e.caption.textContent = '';
      e.flip.replaceChildren();
      delete this.#root.dataset.steps;
      delete this.#root.dataset.flip;
      return;
    }
    // Every cell changes between two measurements, so the matrix is drawn anew each time.
    this.#matrix.reset(w.sourceTokens);
    // A model without attention (scoring 'none') has empty rows: its decoder reads one c.
    const attends = w.attention.some((row) => row.length > 0);
    const rows = attends ? w.attention.map((weights, i) => ({ word: w.targetTokens[i] ?? '', weights })) : [];
    this.#drawRows(rows, ROWS_PER_FRAME);
    e.caption.replaceChildren(S.watchedCaption(record.steps), h('span', { lang: 'fr', text: w.text || '—' }));
    const flip = attends ? findFlip(w) : null;
    e.flip.replaceChildren(...(flip
      ? [S.flipYes[0], h('span', { lang: 'fr', text: flip.words[0] }), S.flipYes[1], h('span', { lang: 'fr', text: flip.words[1] }), S.flipYes[2]]
      : attends ? [S.flipNo] : [S.accNone]));
    Object.assign(this.#root.dataset, { steps: String(record.steps), flip: String(Boolean(flip)), source: w.source });
  }

  // The first n rows now, the rest n more each frame (AttentionMatrix keeps the rows it has).
  #drawRows(rows, n) {
    this.#matrix.setRows(rows.slice(0, n));
    if (n < rows.length) this.#frame = requestAnimationFrame(() => this.#drawRows(rows, n + ROWS_PER_FRAME));
  }
}
