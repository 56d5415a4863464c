// The same attention weights as the matrix, drawn as lines between the two sentences: source
// tokens on top, output words below, one line per pair whose weight is visible at all, its
// width and opacity growing with the weight. The current output word's lines use the accent
// colour. Built inside the given container only (Shadow-DOM friendly).

import { clear, fmt, s, textWidth as measure, tokenLabel } from './dom.js';
import { watchOverflow } from './overflow-cue.js';

const FONT_PX = 15;
const GAP = 14; // between words
const PAD = 10;
const ROW_GAP = 140; // between the two sentences
const MIN_WEIGHT = 0.02; // below this a line would be noise

// Words left to right, centred; spare width is shared out as extra gaps (up to MAX_GAP), so a
// short sentence spreads across the view instead of huddling in the middle.
const MAX_GAP = 72;
// Sentences wider than the view are drawn smaller, down to this scale (15 px text at 0.6 is
// 9 px: still legible on a phone); beyond it the view scrolls, with the edge cue.
const MIN_FIT = 0.6;

function layout(tokens, font, width) {
  const widths = tokens.map((t) => Math.ceil(measure(tokenLabel(t), font)) + 8);
  const natural = widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, tokens.length - 1);
  const gap = tokens.length > 1
    ? Math.min(MAX_GAP, GAP + Math.max(0, width - 2 * PAD - natural) / (tokens.length - 1))
    : GAP;
  const total = natural + (gap - GAP) * Math.max(0, tokens.length - 1);
  let x = (width - total) / 2;
  return widths.map((w) => {
    const box = { x, w, cx: x + w / 2 };
    x += w + gap;
    return box;
  });
}

export class AlignmentView {
  #root;
  #strings;
  #onFocusCell;
  #svg;
  #data = { columns: [], rows: [], current: -1 };
  #hl = null;

  constructor(container, { strings, onFocusCell } = {}) {
    this.#root = container;
    this.#strings = strings;
    this.#onFocusCell = onFocusCell ?? (() => {});
    clear(container).classList.add('bl-align-root');
    this.#svg = s('svg', { class: 'bl-align', 'data-role': 'alignment', role: 'img' });
    container.append(this.#svg);
    watchOverflow(container); // the container scrolls when even the smallest fit is too wide
    this.#svg.addEventListener('pointerover', (e) => {
      const target = e.target.closest?.('[data-cell]');
      if (!target) return;
      const [row, col] = target.dataset.cell.split(',').map(Number);
      this.#onFocusCell({ row, col });
      this.highlight({ row, col });
    });
    this.#svg.addEventListener('pointerleave', () => {
      this.#onFocusCell(null);
      this.highlight(null);
    });
  }

  setStrings(strings) {
    this.#strings = strings;
    this.#label();
  }

  // columns: source tokens (</s> last); rows: [{word, weights}] drawn so far; current: the row
  // being explained (-1: none).
  render({ columns, rows, current = -1 }) {
    this.#data = { columns, rows, current };
    const font = `${FONT_PX}px ${getComputedStyle(this.#root).fontFamily || 'sans-serif'}`;
    const words = rows.map((r) => r.word);
    const natural = (toks) =>
      toks.reduce((a, t) => a + Math.ceil(measure(tokenLabel(t), font)) + 8 + GAP, 0);
    const avail = this.#root.clientWidth || 320;
    const width = Math.max(avail, natural(columns) + 2 * PAD, natural(words) + 2 * PAD);
    const scale = avail / width >= MIN_FIT ? avail / width : 1;
    const height = PAD * 2 + FONT_PX * 2 + ROW_GAP + 12;
    const top = layout(columns, font, width);
    const bottom = layout(words, font, width);
    const yTop = PAD + FONT_PX + 4;
    const yBottom = yTop + ROW_GAP;
    this.#svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
    this.#svg.setAttribute('width', String(Math.floor(width * scale)));
    this.#svg.setAttribute('height', String(Math.ceil(height * scale)));

    const lines = s('g', { class: 'bl-align-lines' });
    rows.forEach((r, i) => {
      r.weights.forEach((w, j) => {
        if (w < MIN_WEIGHT || !top[j] || !bottom[i]) return;
        const y1 = yTop + 6;
        const y2 = yBottom - FONT_PX - 2;
        const mid = (y1 + y2) / 2;
        const path = s('path', {
          d: `M${top[j].cx},${y1} C${top[j].cx},${mid} ${bottom[i].cx},${mid} ${bottom[i].cx},${y2}`,
          class: `bl-line${i === current ? ' is-current' : ''}${r.edited ? ' is-edited' : ''}`, // edited: given weights
          'data-cell': `${i},${j}`,
          'data-weight': String(w),
          style: { strokeWidth: String(0.75 + 6 * w), strokeOpacity: String(0.12 + 0.88 * w) },
        });
        path.append(s('title', { text: `${tokenLabel(columns[j])} → ${tokenLabel(r.word)}: ${fmt(w, 4)}` }));
        lines.append(path);
      });
    });

    const word = (tok, box, y, cls, attrs) =>
      s('text', { x: box.cx, y, class: cls, 'text-anchor': 'middle', ...attrs, text: tokenLabel(tok) });
    const src = s('g', { class: 'bl-align-src' }, columns.map((t, j) => word(t, top[j], yTop, 'bl-word', { 'data-col': j })));
    const tgt = s(
      'g',
      { class: 'bl-align-tgt' },
      words.map((t, i) =>
        word(t, bottom[i], yBottom, `bl-word${i === current ? ' is-current' : ''}${rows[i]?.edited ? ' is-edited' : ''}`, { 'data-row': i }),
      ),
    );
    this.#svg.replaceChildren(lines, src, tgt);
    this.#label();
    this.highlight(this.#hl);
  }

  // Emphasise one pair (from the matrix, or our own hover); null clears.
  highlight(cell) {
    this.#hl = cell;
    for (const el of this.#svg.querySelectorAll('.is-hl')) el.classList.remove('is-hl');
    this.#svg.classList.toggle('has-hl', Boolean(cell));
    if (!cell) return;
    this.#svg.querySelector(`[data-cell="${cell.row},${cell.col}"]`)?.classList.add('is-hl');
    this.#svg.querySelector(`.bl-align-src [data-col="${cell.col}"]`)?.classList.add('is-hl');
    this.#svg.querySelector(`.bl-align-tgt [data-row="${cell.row}"]`)?.classList.add('is-hl');
  }

  #label() {
    if (!this.#strings) return;
    const { rows, columns } = this.#data;
    this.#svg.setAttribute('aria-label', `${this.#strings.viewLines}: ${this.#strings.matrixDescription(rows.length, columns.length)}`);
  }
}
