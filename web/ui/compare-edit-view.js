// An attention edit on the two-model view (ui/compare-view.js): the same edit for both models.
// Once, above the matrices: how to make one, what was changed, and the way back; under each
// model's output: its next word with its own row and with the edit, and its translation
// before and after, or that it has no attention to edit. EditMode (ui/edit-mode.js) drives
// it like the single figure's ui/edit-view.js.
//
// Automation hooks (stable): data-role="edit-view" (data-state) with edit-hint, edit-explain,
// edit-note and edit-reset; in each side data-role="side-edit" (data-state: none, active or
// empty) with edit-verdict, edit-original, edit-continuation and edit-none.

import { fmt, h, tokenLabel } from './dom.js';
import { EDIT_STRINGS } from './edit-strings.js';
import { sentence, words } from './edit-view.js';
import { SIDES } from './lockstep.js';

export class CompareEditView {
  #roots; // {shared, a, b}
  #lang = 'en';
  #onReset;
  #state = { status: 'off' };
  #sides = { a: null, b: null }; // {status: 'ok' | 'none', label}

  constructor(roots, { lang = 'en', onReset }) {
    this.#roots = roots;
    this.#onReset = onReset;
    roots.shared.classList.add('bl-edit');
    roots.shared.dataset.role = 'edit-view';
    for (const side of SIDES) roots[side].dataset.role = 'side-edit';
    this.setLang(lang);
  }

  setLang(lang) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    this.render(this.#state);
  }

  // Each model: {status: 'ok' | 'none', label}, or null before it is known.
  setSides(sides) {
    this.#sides = { ...sides };
    this.render(this.#state);
  }

  // EditMode's state; before and after are {a, b} runs (or null for a side).
  render(state) {
    this.#state = state;
    const E = EDIT_STRINGS[this.#lang];
    const { shared } = this.#roots;
    shared.dataset.state = state.status;
    shared.hidden = state.status === 'off';
    const notes = (state.notes ?? []).map((text) => h('p', { class: 'bl-edit-note', 'data-role': 'edit-note', text }));
    const active = state.status === 'active';
    if (!active) {
      const text = state.status === 'columns' ? E.compareColumns : state.status === 'none' ? '' : E.compareHint;
      shared.replaceChildren(...(text ? [h('p', { class: 'bl-edit-hint', 'data-role': 'edit-hint', text })] : []), ...notes);
    } else {
      shared.replaceChildren(h('h3', { class: 'bl-edit-title', text: E.title }), this.#explain(state, E), ...notes,
        h('button', { type: 'button', class: 'bl-edit-reset', 'data-role': 'edit-reset', text: E.compareReset, on: { click: () => this.#onReset() } }));
    }
    for (const side of SIDES) this.#renderSide(side, state, E);
  }

  #explain({ edits, columns, after }, E) {
    const edit = edits[edits.length - 1];
    const given = SIDES.map((side) => after?.[side]?.steps[edit.step]).find((st) => st?.edited);
    const src = (j) => tokenLabel(columns[j] ?? '');
    const peak = given ? given.alpha.indexOf(Math.max(...given.alpha)) : 0;
    const what = Number.isInteger(edit.column) ? E.allOn(src(edit.column)) : E.mixOn(src(peak), fmt(given ? given.alpha[peak] : 0, 2));
    return h('p', { class: 'bl-edit-explain', 'data-role': 'edit-explain', text: E.compareExplain(edit.step + 1, what) });
  }

  #renderSide(side, state, E) {
    const root = this.#roots[side];
    const info = this.#sides[side];
    if (info?.status === 'none' && state.status !== 'off') {
      root.dataset.state = 'none';
      root.replaceChildren(h('p', { class: 'bl-edit-note', 'data-role': 'edit-none', text: E.compareNone(info.label) }));
      return;
    }
    const k = state.edits?.[state.edits.length - 1]?.step;
    const before = state.before?.[side];
    const after = state.after?.[side];
    const own = before?.steps[k];
    const given = after?.steps[k];
    if (state.status !== 'active' || !own || !given?.edited) {
      root.dataset.state = 'empty';
      root.replaceChildren();
      return;
    }
    root.dataset.state = 'active';
    const [a, b] = [own.topWords[0], given.topWords[0]].map(tokenLabel);
    const ownWords = words(before.result);
    root.replaceChildren(
      h('p', { class: 'bl-edit-verdict', 'data-role': 'edit-verdict', 'data-changed': String(a !== b), text: E.compareSide(a, b) }),
      h('dl', { class: 'bl-edit-texts' },
        h('dt', { text: state.edits.length > 1 ? E.beforeLast : E.original }),
        h('dd', { class: 'bl-edit-text', 'data-role': 'edit-original' }, sentence(ownWords, k, null)),
        h('dt', { text: E.after }),
        h('dd', { class: 'bl-edit-text', 'data-role': 'edit-continuation' }, sentence(words(after.result), k, ownWords))),
    );
  }
}
