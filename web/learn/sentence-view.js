// The chosen sentence at the current frame: a choice of the file's sentences, its attention
// matrix drawn by the translator's own (ui/matrix.js, as train/watched-matrix.js uses it), the
// key link outlined in it and named ("noir → black"), and the line that says from which step
// the key French word looks at its English word for good, or that it has not by the last frame.
//
// Automation hooks (stable): data-role="sentence" (the select), data-role="learn-matrix" with
// data-frame and data-sentence, the matrix's own hooks (data-role="matrix", data-row,
// data-weight), the key cell data-key="true", data-role="key-link" and "settles" (data-settled,
// data-step).

import { h } from '../ui/dom.js';
import { AttentionMatrix } from '../ui/matrix.js';
import { keyLink, matrixAt, settlesLine } from './timelapse.js';

export class SentenceView {
  #S;
  #data = null;
  #matrix;
  #e = {};
  #shown = { frame: 0, sentence: 0 };

  // onChoose(k): the reader chose sentence k.
  constructor(root, { strings, onChoose }) {
    this.#S = strings;
    const e = this.#e;
    e.label = h('label', { for: 'lr-sentence', class: 'lr-sentence-label' });
    e.select = h('select', { id: 'lr-sentence', 'data-role': 'sentence', on: { change: () => onChoose(Number(e.select.value)) } });
    e.key = h('p', { class: 'lr-key-line', 'data-role': 'key-link' });
    e.matrix = h('div', { class: 'lr-matrix', 'data-role': 'learn-matrix' });
    e.settles = h('p', { class: 'lr-settles', 'data-role': 'settles' });
    e.choose = h('div', { class: 'lr-choose' }, e.label, e.select);
    root.replaceChildren(e.choose, e.key, e.matrix, e.settles);
    this.#matrix = new AttentionMatrix(e.matrix, { strings });
    this.setStrings(strings);
  }

  // Off: the chooser leaves the page (the widget's controls="none"); the matrix stays.
  showChooser(on) {
    this.#e.choose.hidden = !on;
  }

  setStrings(S) {
    this.#S = S;
    this.#e.label.textContent = S.sentenceLabel;
    this.#matrix.setStrings(S);
    if (this.#data) this.show(this.#shown.frame, this.#shown.sentence);
  }

  setData(data) {
    this.#data = data;
    this.#e.select.replaceChildren(...data.sentences.map((s, k) => h('option', { value: k, lang: 'en', text: `${s.en} → ${s.fr}` })));
  }

  get sentence() {
    return this.#shown.sentence;
  }

  // Frame i of sentence k. Every cell changes between two frames, so the matrix is drawn anew.
  show(i, k) {
    const data = this.#data;
    if (!data) return;
    const S = this.#S;
    const e = this.#e;
    this.#shown = { frame: i, sentence: k };
    e.select.value = String(k);
    const m = matrixAt(data, i, k);
    this.#matrix.reset(m.columns);
    this.#matrix.setRows(m.rows);
    const cell = e.matrix.querySelector(`[data-role="matrix"] > [data-row="${m.key.row}"] > .bl-cell[data-col="${m.key.col}"]`);
    if (cell) {
      cell.dataset.key = 'true';
      cell.classList.add('lr-key');
    }
    Object.assign(e.matrix.dataset, { frame: String(i), sentence: String(k) });
    const { fr, en } = keyLink(data.sentences[k]);
    e.key.replaceChildren(...around(S.keyLine, fr, en));
    const line = settlesLine(data, k);
    e.settles.replaceChildren(...around(line.settled ? S.settled(line.step, line.minutes) : S.unsettled, fr, en));
    e.settles.dataset.settled = String(line.settled);
    if (line.settled) e.settles.dataset.step = String(line.step);
    else delete e.settles.dataset.step;
  }
}

// [a, b, c] around a French and an English word: a, fr, b, en, c.
function around([a, b, c], fr, en) {
  return [a, h('span', { lang: 'fr', class: 'lr-word-fr', text: fr }), b, h('span', { lang: 'en', class: 'lr-word-en', text: en }), c];
}
