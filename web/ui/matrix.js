// The attention matrix: one column per source token (</s> last), one row per output word,
// each cell coloured by its weight. Rows are added and removed one at a time, so a player can
// grow and shrink it without redrawing. Reused by the page and the widget: everything is
// built inside the given container, and found again through it, never through `document`.
//
// Automation hooks (stable): the grid has data-role="matrix"; each row data-row="i"; each cell
// data-col="j" and data-weight, the exact number the engine computed (as JS prints it). A row
// whose attention was given by an edit (ui/attention-edit.js) has data-edited="true", and the
// model's own row for it follows as data-own-row="i" (its cells data-own-weight), not a row of
// the matrix: the edited row is never to be taken for the model's own.

import { clear, fmt, h, tokenLabel } from './dom.js';
import { inkOn, viridis } from './colormap.js';
import { watchOverflow } from './overflow-cue.js';

let nextId = 0;

export class AttentionMatrix {
  #root;
  #strings;
  #onFocusCell;
  #onActivate;
  #canActivate;
  #grid;
  #desc;
  #table;
  #tbody;
  #tooltip;
  #columns = [];
  #rows = []; // {word, weights, own (the model's own row of an edited one, or null), el, ownEl}
  #current = -1;
  #focus = { row: 0, col: 0 }; // the roving tab stop
  #hl = null; // {row, col} highlighted now

  // container: an element (in a document or a shadow root). onFocusCell({row, col} | null) is
  // called when the pointer or keyboard focus enters or leaves a cell; onActivateCell({row,
  // col}), where given, when a cell is clicked or gets Enter or Space (the pages: "look here
  // instead", an attention edit), while canActivate() says so (the model has attention to edit).
  constructor(container, { strings, onFocusCell, onActivateCell = null, canActivate = () => true } = {}) {
    this.#root = container;
    this.#strings = strings;
    this.#onFocusCell = onFocusCell ?? (() => {});
    this.#onActivate = onActivateCell;
    this.#canActivate = canActivate;
    const id = `bl-matrix-${++nextId}`;
    this.#desc = h('p', { id: `${id}-desc`, class: 'bl-sr-only' });
    this.#grid = h('div', {
      class: 'bl-matrix',
      role: 'grid',
      'data-role': 'matrix',
      'aria-describedby': `${id}-desc`,
      on: {
        keydown: (e) => this.#onKey(e),
        focusin: (e) => this.#onCellEvent(e.target),
        focusout: (e) => {
          if (!this.#grid.contains(e.relatedTarget)) this.#setHighlight(null);
        },
        pointerover: (e) => this.#onCellEvent(e.target),
        click: (e) => this.#activate(e.target),
        pointerleave: () => {
          const active = this.#root.getRootNode().activeElement;
          if (this.#grid.contains(active)) this.#onCellEvent(active);
          else this.#setHighlight(null);
        },
      },
    });
    this.#tooltip = h('div', { class: 'bl-tooltip', role: 'tooltip', 'data-role': 'tooltip', hidden: true });
    this.#table = h('table'); // visually hidden through its wrapper: tables ignore width: 1px
    this.#tbody = h('tbody');
    clear(container).classList.add('bl-matrix-root');
    const scroller = h('div', { class: 'bl-matrix-scroll' }, this.#grid);
    container.append(
      scroller,
      this.#tooltip,
      this.#desc,
      h('div', { class: 'bl-sr-only' }, this.#table),
    );
    this.reset([]);
    watchOverflow(scroller);
  }

  setStrings(strings) {
    this.#strings = strings;
    this.#grid.setAttribute('aria-label', strings.matrixLabel);
    this.#describe();
    this.#table.querySelector('caption').textContent = strings.tableCaption;
    for (const el of this.#root.querySelectorAll('.bl-corner-text')) el.textContent = strings.corner;
    for (const r of this.#rows) {
      r.el.querySelectorAll('.bl-cell').forEach((c) => this.#labelCell(c, r));
      this.#labelEdited(r);
    }
    if (this.#hl) this.#showTooltip(this.#hl);
  }

  // A new sentence: its columns, and no rows yet.
  reset(columns) {
    this.#columns = columns.slice();
    this.#rows = [];
    this.#current = -1;
    this.#focus = { row: 0, col: 0 };
    this.#setHighlight(null);
    this.#grid.style.setProperty('--cols', String(Math.max(1, columns.length)));
    this.#grid.replaceChildren(
      h(
        'div',
        { class: 'bl-matrix-head', role: 'row' },
        h('span', { class: 'bl-corner', role: 'columnheader' }, h('span', { class: 'bl-sr-only bl-corner-text' })),
        columns.map((tok, j) =>
          h(
            'span',
            { class: 'bl-col', role: 'columnheader', 'data-col': j },
            // One or two letters stay upright: a rotated "I" reads as a dash.
            h('span', { class: `bl-col-text${[...tokenLabel(tok)].length <= 2 ? ' is-short' : ''}`, text: tokenLabel(tok) }),
          ),
        ),
      ),
    );
    this.#grid.hidden = columns.length === 0;
    this.#tbody = h('tbody');
    this.#table.replaceChildren(
      h('caption'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'bl-corner-text' }), columns.map((t) => h('th', { scope: 'col', text: tokenLabel(t) })))),
      this.#tbody,
    );
    if (this.#strings) this.setStrings(this.#strings);
  }

  get rowCount() {
    return this.#rows.length;
  }

  // rows: [{word, weights, edited, own}] — the first n rows of the current sentence; edited:
  // the weights were given by an edit, own: the model's own row at that step. Rows already
  // drawn are kept (their values cannot change within one sentence); extra ones are removed.
  setRows(rows) {
    while (this.#rows.length > rows.length) {
      const r = this.#rows.pop();
      for (const el of [r.el, r.tr, r.ownEl, r.ownTr]) el?.remove();
    }
    for (let i = this.#rows.length; i < rows.length; i++) this.#addRow(i, rows[i]);
    if (this.#focus.row >= this.#rows.length) this.#focus = { row: Math.max(0, this.#rows.length - 1), col: this.#focus.col };
    if (this.#hl && this.#hl.row >= this.#rows.length) this.#setHighlight(null);
    this.#updateTabStop();
    this.#describe();
  }

  // The row being explained now (-1: none): outlined, and announced to assistive technology.
  setCurrent(i) {
    this.#current = i;
    this.#rows.forEach((r, k) => {
      if (k === i) {
        r.el.dataset.current = 'true';
        r.el.setAttribute('aria-current', 'true');
      } else {
        delete r.el.dataset.current;
        r.el.removeAttribute('aria-current');
      }
    });
    if (i >= 0 && i < this.#rows.length && !this.#grid.contains(this.#root.getRootNode().activeElement)) {
      this.#focus = { row: i, col: this.#focus.col };
      this.#updateTabStop();
    }
  }

  // Highlight a cell from outside (another view hovering the same pair); null clears.
  highlight(cell) {
    this.#setHighlight(cell, false);
  }

  #addRow(i, { word, weights, edited = false, own = null }) {
    const row = { word, weights: Array.from(weights), own: edited && own?.length === weights.length ? Array.from(own) : null };
    const cells = row.weights.map((w, j) => {
      const cell = h('span', {
        class: 'bl-cell',
        role: 'gridcell',
        tabindex: '-1',
        'data-col': j,
        'data-weight': String(w),
        style: { backgroundColor: viridis(w), color: inkOn(w) },
      });
      return cell;
    });
    row.el = h(
      'div',
      { class: 'bl-matrix-row is-new', role: 'row', 'data-row': i },
      h('span', { class: 'bl-rowhead', role: 'rowheader', text: tokenLabel(word) }),
      cells,
    );
    row.el.addEventListener('animationend', () => row.el.classList.remove('is-new'), { once: true });
    row.tr = h(
      'tr',
      {},
      h('th', { scope: 'row', text: tokenLabel(word) }),
      row.weights.map((w) => h('td', { text: fmt(w, 3) })),
    );
    this.#rows.push(row);
    for (const c of cells) this.#labelCell(c, row);
    this.#grid.append(row.el);
    this.#tbody.append(row.tr);
    if (edited) this.#addOwnRow(i, row);
  }

  // An edited row: marked, and the model's own row drawn under it, smaller, named "own".
  #addOwnRow(i, row) {
    row.el.dataset.edited = 'true';
    if (!row.own) return this.#labelEdited(row);
    row.ownEl = h('div', { class: 'bl-matrix-row bl-own-row', role: 'row', 'data-own-row': i },
      h('span', { class: 'bl-rowhead bl-own-head', role: 'rowheader' }),
      row.own.map((w, j) => h('span', { class: 'bl-own-cell', role: 'gridcell', 'data-col': j, 'data-own-weight': String(w),
        style: { backgroundColor: viridis(w) } })));
    row.ownTr = h('tr', {}, h('th', { scope: 'row' }), row.own.map((w) => h('td', { text: fmt(w, 3) })));
    row.el.after(row.ownEl);
    row.tr.after(row.ownTr);
    this.#labelEdited(row);
  }

  #labelEdited(row) {
    if (!row.el.dataset.edited) return;
    const S = this.#strings;
    row.el.firstChild.dataset.badge = S?.editedBadge ?? 'edited';
    if (!row.ownEl) return;
    row.ownEl.firstChild.textContent = S?.ownRow ?? 'own';
    row.ownEl.setAttribute('aria-label', S?.ownRowLabel?.(tokenLabel(row.word)) ?? 'own');
    row.ownTr.firstChild.textContent = `${tokenLabel(row.word)} (${S?.ownRow ?? 'own'})`;
    row.ownEl.querySelectorAll('.bl-own-cell').forEach((c, j) =>
      c.setAttribute('aria-label', `“${tokenLabel(this.#columns[j])}”: ${S?.ownRow ?? 'own'} ${fmt(row.own[j], 3)}`));
  }

  #labelCell(cell, row) {
    const j = Number(cell.dataset.col);
    const w = row.weights[j];
    const S = this.#strings;
    const weight = row.own && S?.cellGiven ? S.cellGiven(fmt(w, 3), fmt(row.own[j], 3)) : `${S?.weight ?? 'weight'} ${fmt(w, 3)}`;
    cell.setAttribute('aria-label', `${tokenLabel(this.#columns[j])} → ${tokenLabel(row.word)}: ${weight}`);
  }

  #describe() {
    const S = this.#strings;
    if (!S) return;
    const help = S.matrixEditHelp && this.#rows.length && this.#activatable ? ` ${S.matrixEditHelp}` : '';
    this.#desc.textContent = this.#columns.length === 0 ? S.matrixEmpty : S.matrixDescription(this.#rows.length, this.#columns.length) + help;
  }

  get #activatable() {
    return Boolean(this.#onActivate) && Boolean(this.#canActivate());
  }

  #activate(target) {
    const cell = target?.closest?.('.bl-cell');
    if (!this.#activatable || !cell || !this.#grid.contains(cell)) return;
    this.#onActivate({ row: Number(cell.parentElement.dataset.row), col: Number(cell.dataset.col) });
  }

  #cellAt({ row, col }) {
    return this.#rows[row]?.el.children[col + 1] ?? null;
  }

  #updateTabStop() {
    for (const c of this.#grid.querySelectorAll('.bl-cell[tabindex="0"]')) c.tabIndex = -1;
    const cell = this.#cellAt(this.#focus);
    if (cell) cell.tabIndex = 0;
  }

  #onCellEvent(target) {
    const cell = target?.closest?.('.bl-cell');
    if (!cell || !this.#grid.contains(cell)) return;
    const col = Number(cell.dataset.col);
    const row = Number(cell.parentElement.dataset.row);
    this.#setHighlight({ row, col }, true);
  }

  #setHighlight(cell, notify = true) {
    const same = cell && this.#hl && cell.row === this.#hl.row && cell.col === this.#hl.col;
    if (same || (!cell && !this.#hl)) return;
    for (const el of this.#grid.querySelectorAll('.is-hl')) el.classList.remove('is-hl');
    this.#hl = cell;
    if (cell && this.#rows[cell.row]) {
      this.#grid.querySelector(`.bl-col[data-col="${cell.col}"]`)?.classList.add('is-hl');
      this.#rows[cell.row].el.firstChild.classList.add('is-hl');
      this.#cellAt(cell)?.classList.add('is-hl');
      this.#showTooltip(cell);
    } else {
      this.#hl = null;
      this.#tooltip.hidden = true;
    }
    if (notify) this.#onFocusCell(this.#hl);
  }

  #showTooltip({ row, col }) {
    const r = this.#rows[row];
    const el = this.#cellAt({ row, col });
    if (!r || !el) return;
    const w = r.weights[col];
    const S = this.#strings;
    // Only real nodes: replaceChildren() would write a null as the text "null".
    this.#tooltip.replaceChildren(...[
      h('span', { class: 'bl-tip-pair' },
        h('span', { class: 'bl-tip-src', text: tokenLabel(this.#columns[col]) }),
        ' → ',
        h('span', { class: 'bl-tip-tgt', text: tokenLabel(r.word) })),
      h('span', { class: 'bl-tip-weight', text: `${(r.own ? S?.tipGiven : S?.weight) ?? 'weight'} α = ${fmt(w, 4)}` }),
      r.own && S?.tipOwn ? h('span', { class: 'bl-tip-own', 'data-role': 'tip-own', text: S.tipOwn(fmt(r.own[col], 4)) }) : null,
      this.#activatable && S?.tipEdit ? h('span', { class: 'bl-tip-edit', text: S.tipEdit }) : null,
    ].filter(Boolean));
    this.#tooltip.hidden = false;
    // Placed above the cell, inside the container (so it works in a shadow root), kept on
    // screen at the edges.
    const box = this.#root.getBoundingClientRect();
    const c = el.getBoundingClientRect();
    const tip = this.#tooltip.getBoundingClientRect();
    let x = c.left - box.left + c.width / 2 - tip.width / 2;
    x = Math.max(0, Math.min(x, box.width - tip.width));
    let y = c.top - box.top - tip.height - 6;
    if (y < 0) y = c.bottom - box.top + 6;
    this.#tooltip.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }

  #onKey(e) {
    const cell = e.target.closest?.('.bl-cell');
    if (!cell) return;
    const row = Number(cell.parentElement.dataset.row);
    const col = Number(cell.dataset.col);
    const lastRow = this.#rows.length - 1;
    const lastCol = this.#columns.length - 1;
    const moves = {
      ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1],
      ArrowUp: [row - 1, col],
      ArrowDown: [row + 1, col],
      Home: e.ctrlKey ? [0, 0] : [row, 0],
      End: e.ctrlKey ? [lastRow, lastCol] : [row, lastCol],
      PageUp: [0, col],
      PageDown: [lastRow, col],
    };
    if (e.key === 'Escape') {
      this.#tooltip.hidden = true;
      return;
    }
    if ((e.key === 'Enter' || e.key === ' ') && this.#activatable) {
      e.preventDefault();
      this.#activate(cell);
      return;
    }
    const to = moves[e.key];
    if (!to) return;
    e.preventDefault();
    const next = {
      row: Math.max(0, Math.min(lastRow, to[0])),
      col: Math.max(0, Math.min(lastCol, to[1])),
    };
    this.#focus = next;
    this.#updateTabStop();
    this.#cellAt(next)?.focus();
  }
}
