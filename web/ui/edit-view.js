// The result of an attention edit, side by side: at the edited word, the model's own five
// likeliest next words and those under the given weights; below, the translation as the model
// wrote it and as it goes on after the edit (or, for a typed French, its log-probability both
// ways); one sentence on what was changed; and the button that undoes it. Before any edit it
// says how to make one, or why this model cannot be edited. Shared by the page and the
// widget: built inside the given container, every number the engine's own (two decodes).
//
// Automation hooks (stable): data-role="edit-view" (data-state: off, hint, none, beam,
// active), and inside it edit-hint, edit-explain, edit-own and edit-given (each with the step
// panel's candidate list), edit-verdict, edit-original, edit-continuation (words with
// data-changed where they differ from the original), edit-forced, edit-note, edit-reset.

import { candidates } from './step-panel.js';
import { fmt, h, pieces, tokenLabel } from './dom.js';
import { EDIT_STRINGS } from './edit-strings.js';
import { retarget } from './target-strings.js';
import { STRINGS } from './strings.js';

export class EditView {
  #root;
  #lang = 'en';
  #target = 'fr';
  #state = { status: 'off' };
  #onReset;
  #onHold;

  constructor(container, { lang = 'en', onReset, onHold = null }) {
    this.#root = container;
    this.#onReset = onReset;
    this.#onHold = onHold;
    container.classList.add('bl-edit');
    container.dataset.role = 'edit-view';
    this.setLang(lang);
  }

  // target: the model's target language ('fr' when left out), named in the hints and notes
  // (ui/target-strings.js).
  setLang(lang, target = this.#target) {
    this.#lang = lang === 'zh' ? 'zh' : 'en';
    this.#target = target;
    this.render(this.#state);
  }

  // state: {status: 'off' | 'hint' | 'notes' (the notes alone) | 'none' | 'beam' | 'active', label (the model's, for
  // 'none'), transformer, notes: [string], and for 'active': edits, columns, before and after
  // ({steps, result, forced, french}: the decode without the last edit, and with it)}.
  render(state) {
    this.#state = state;
    const E = retarget(EDIT_STRINGS[this.#lang], this.#lang, this.#target);
    const root = this.#root;
    root.dataset.state = state.status;
    root.hidden = state.status === 'off';
    const notes = (state.notes ?? []).map((text) => h('p', { class: 'bl-edit-note', 'data-role': 'edit-note', text }));
    if (state.status !== 'active') {
      const text = state.status === 'none' ? E.none(state.label ?? '') : state.status === 'beam' ? E.beam : E.hint;
      const hint = state.status === 'notes' ? null : h('p', { class: 'bl-edit-hint', 'data-role': 'edit-hint', text });
      root.replaceChildren(...[hint, ...notes].filter(Boolean));
      return;
    }
    root.replaceChildren(
      h('h3', { class: 'bl-edit-title', text: E.title }),
      ...this.#active(state, E),
      ...this.#holdBox(state.edits, E),
      ...notes,
      h('button', { type: 'button', class: 'bl-edit-reset', 'data-role': 'edit-reset', text: E.reset, on: { click: () => this.#onReset() } }),
    );
  }

  // "Keep it for the words after": the last edit held (AttentionEdit.hold), or not.
  #holdBox(edits, E) {
    if (!this.#onHold || !edits?.length) return [];
    const held = Boolean(edits[edits.length - 1].hold);
    const box = h('input', { type: 'checkbox', 'data-role': 'edit-hold', on: { change: (ev) => this.#onHold(ev.target.checked) } });
    box.checked = held;
    return [h('label', { class: 'bl-edit-hold' }, box, ' ', E.hold),
      ...(held ? [h('p', { class: 'bl-edit-note', 'data-role': 'edit-held', text: E.held })] : [])];
  }

  #active({ edits, columns, before, after, transformer }, E) {
    const S = retarget(STRINGS[this.#lang], this.#lang, this.#target);
    const edit = edits[edits.length - 1];
    const k = edit.step;
    const own = before.steps[k];
    const given = after.steps[k];
    if (!own || !given) return [];
    const src = (j) => tokenLabel(columns[j] ?? '');
    const peak = (row) => row.indexOf(Math.max(...row));
    const ownRow = given.ownAlpha ?? own.alpha;
    const what = Number.isInteger(edit.column) ? E.allOn(src(edit.column)) : E.mixOn(src(peak(given.alpha)), fmt(Math.max(...given.alpha), 2));
    const lines = [h('p', { class: 'bl-edit-explain', 'data-role': 'edit-explain',
      text: E.explain(k + 1, tokenLabel(own.word), what, E.ownOn(src(peak(ownRow)), fmt(Math.max(...ownRow), 2))) })];
    if (edits.length > 1) lines.push(h('p', { class: 'bl-edit-note', text: E.several(edits.length) }));
    if (transformer) lines.push(h('p', { class: 'bl-edit-note', text: E.transformer }));
    const side = (role, title, step) => h('section', { class: 'bl-edit-side', 'data-role': role },
      h('h4', { text: title }), h('p', { class: 'bl-edit-sub', text: E.nextWord(k + 1) }), candidates(step, S));
    const [a, b] = [own.topWords[0], given.topWords[0]].map(tokenLabel);
    lines.push(
      h('div', { class: 'bl-edit-pair' }, side('edit-own', E.ownSide, own), side('edit-given', E.givenSide, given)),
      h('p', { class: 'bl-edit-verdict', 'data-role': 'edit-verdict', 'data-changed': String(a !== b), text: a === b ? E.same(a) : E.changed(a, b) }),
    );
    if (after.forced) {
      const p = (st) => `${fmt(st.prob * 100, 1)}%`;
      lines.push(h('p', { class: 'bl-edit-forced', 'data-role': 'edit-forced' },
        E.forcedLogp(fmt(before.result.logProb, 2), fmt(after.result.logProb, 2)), ' ', E.forcedWord(tokenLabel(own.word), p(own), p(given))));
      return lines;
    }
    const ownWords = words(before.result);
    const newWords = words(after.result);
    lines.push(h('dl', { class: 'bl-edit-texts' },
      h('dt', { text: edits.length > 1 ? E.beforeLast : E.original }),
      h('dd', { class: 'bl-edit-text', 'data-role': 'edit-original' }, sentence(ownWords, k, null)),
      h('dt', { text: E.after }),
      h('dd', { class: 'bl-edit-text', 'data-role': 'edit-continuation' }, sentence(newWords, k, ownWords))));
    return lines;
  }
}

// A translation's words with the text's own spacing.
export function words(result) {
  return pieces(result.targetTokens, result.text);
}

// The words, those from the edited one on marked; against `other`, those that differ from it.
export function sentence(list, k, other) {
  return list.flatMap((piece, i) => {
    const changed = other !== null && other[i]?.text.toLowerCase() !== piece.text.toLowerCase();
    const cls = ['tok', i === k ? 'is-edited' : '', i >= k ? 'is-after' : '', changed ? 'is-changed' : ''].filter(Boolean).join(' ');
    return [piece.sep, h('span', { class: cls, 'data-token': i, ...(changed ? { 'data-changed': 'true' } : {}), text: piece.text })];
  });
}
