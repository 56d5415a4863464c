// The watched sentence's attention matrix at one measurement, in one of its two views
// (train/watch.js): the model reading the reference word by word (the default), or writing its
// own translation. Drawn by the translator's own matrix (ui/matrix.js), with a caption that
// names the view and always gives the model's own translation as text (the reference view must
// never hide that it still writes nonsense), and whether the flip (train/flip.js) is there yet
// in the view on show. Which measurement is shown is the scrubber's choice
// (train/scrubber.js); which sentence, the page's select; the view stays as picked across both.
//
// Automation hooks (stable): data-role="watched" carries data-steps (the measurement's step
// count), data-flip ("true" | "false", of the view on show), data-source (the sentence) and
// data-view ("reference" | "own"); inside it the view's radios (train/view-toggle.js),
// data-role="watched-caption" with data-role="reference-text" and "own-text" (the two French
// sentences), "flip", and the matrix's own hooks (data-role="matrix", data-row, data-weight).

import { h } from '../ui/dom.js';
import { AttentionMatrix } from '../ui/matrix.js';
import { findFlip, flipHistory } from './flip.js';
import { ViewToggle } from './view-toggle.js';

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
  #toggle;
  #frame = 0; // the pending requestAnimationFrame of a drawing in progress
  #history; // () -> the run's records so far, oldest first (the scrubber's)

  // root: the element to draw in. strings: ui/strings.js's table with train/strings.js's over it.
  // history: () -> the records so far, oldest first (the scrubber's), for the flip's story
  // across them (flip.js's flipHistory); without it the flip line speaks of this matrix alone.
  constructor(root, { strings, history = () => [] }) {
    this.#history = history;
    this.#root = root;
    this.#S = strings;
    const e = this.#e;
    e.caption = h('p', { class: 'tr-watched-caption', 'data-role': 'watched-caption' });
    e.flip = h('p', { class: 'tr-flip', 'data-role': 'flip' });
    e.empty = h('p', { class: 'empty', 'data-role': 'watched-empty' });
    e.matrix = h('div', { class: 'tr-watched-matrix' });
    e.toggle = h('div', { class: 'tr-view-root' });
    root.dataset.role = 'watched';
    root.replaceChildren(e.toggle, e.empty, e.matrix, e.caption, e.flip);
    this.#matrix = new AttentionMatrix(e.matrix, { strings });
    this.#toggle = new ViewToggle(e.toggle, { strings, onChange: () => this.#reshow() });
    this.show(null, 0);
  }

  setStrings(S) {
    this.#S = S;
    this.#matrix.setStrings(S);
    this.#toggle.setStrings(S);
    this.#reshow();
  }

  #reshow() {
    this.show(this.#shown?.record ?? null, this.#shown?.index ?? 0);
  }

  // record: a recording ({steps, watched: [{source, reference, own}]}, each view {sourceTokens,
  // targetTokens, attention, text}: train/watch.js's pairViews) or null; index: the watched
  // sentence's place in record.watched.
  show(record, index) {
    const S = this.#S;
    const e = this.#e;
    const view = this.#toggle.view;
    this.#shown = { record, index };
    this.#root.dataset.view = view;
    cancelAnimationFrame(this.#frame);
    const pair = record?.watched?.[index] ?? null;
    const w = pair?.[view] ?? null;
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
    e.caption.replaceChildren(...caption(S, view, record.steps, pair));
    const flip = attends ? findFlip(w) : null;
    e.flip.replaceChildren(...(flip
      ? [S.flipYes[0], h('span', { lang: 'fr', text: flip.words[0] }), S.flipYes[1], h('span', { lang: 'fr', text: flip.words[1] }), S.flipYes[2], this.#since(record, index, view, true)]
      : attends ? [this.#since(record, index, view, false) || S.flipNo] : [S.accNone]));
    Object.assign(this.#root.dataset, { steps: String(record.steps), flip: String(Boolean(flip)), source: w.source });
  }

  // What the records up to this one say of the flip: '' when it has never been there, else
  // when it first was and how often since (a line of its own when this matrix has none).
  // flipNow: whether this matrix has it (show() has already looked).
  #since(record, index, view, flipNow) {
    const all = this.#history();
    const at = all.indexOf(record);
    const { first, shown, of } = flipHistory(at < 0 ? [record] : all.slice(0, at + 1), index, view);
    const S = this.#S;
    if (first === null) return '';
    if (!flipNow) return S.flipGone(first, shown, of);
    return of === 1 ? S.flipFirstTime : S.flipSince(first, shown, of);
  }

  // The first n rows now, the rest n more each frame (AttentionMatrix keeps the rows it has).
  #drawRows(rows, n) {
    this.#matrix.setRows(rows.slice(0, n));
    if (n < rows.length) this.#frame = requestAnimationFrame(() => this.#drawRows(rows, n + ROWS_PER_FRAME));
  }
}

// The caption's words around the two French sentences, the one on show first.
function caption(S, view, steps, pair) {
  const french = (role, text) => h('span', { lang: 'fr', 'data-role': role, text: text || '—' });
  const reference = french('reference-text', pair.reference.text);
  const own = french('own-text', pair.own.text);
  const [a, b, c] = view === 'own' ? S.watchedCaptionOwn(steps) : S.watchedCaptionReference(steps);
  return view === 'own' ? [a, own, b, reference, c] : [a, reference, b, own, c];
}
