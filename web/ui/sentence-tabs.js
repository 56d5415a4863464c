// A row of sentence tabs, for text longer than the model reads: it is translated one sentence
// at a time, and the user picks the sentence whose matrix is shown. The WAI-ARIA tabs pattern
// with automatic activation: one tab stop (roving tabindex); Left and Right move to the
// previous and next tab (wrapping) and select it, Home and End go to the first and last. A tab
// shows its number, is named "Sentence 2 of 5", and carries its sentence as its title (its
// accessible description). Used by the page and the widget, so it works in a shadow root.

import { h } from './dom.js';

let made = 0; // tab ids must be unique in their document or shadow root

export class SentenceTabs {
  #root;
  #S;
  #onSelect;
  #panel;
  #prefix;
  #tabs = [];
  #sentences = [];
  #selected = -1;

  // root: an element of its own, made the tablist. strings: a STRINGS table (sentenceTab,
  // sentenceTabs). onSelect(k) once the user picks sentence k (from 0). panel: the element the
  // tabs control, a tabpanel while there are tabs. labelledBy: the id of a visible label, else
  // the tablist is named by strings.sentenceTabs.
  constructor(root, { strings, onSelect, panel = null, labelledBy = null }) {
    this.#root = root;
    this.#onSelect = onSelect;
    this.#panel = panel;
    this.#prefix = `bl-sentence-${++made}`;
    root.setAttribute('role', 'tablist');
    root.classList.add('bl-tabs');
    if (labelledBy) root.setAttribute('aria-labelledby', labelledBy);
    if (panel && !panel.id) panel.id = `${this.#prefix}-panel`;
    root.addEventListener('click', (e) => {
      const tab = e.target.closest?.('[role="tab"]');
      if (tab && root.contains(tab)) this.#pick(Number(tab.dataset.sentence), false);
    });
    root.addEventListener('keydown', (e) => this.#onKey(e));
    this.set([]);
    this.setStrings(strings);
  }

  get selected() {
    return this.#selected;
  }

  get count() {
    return this.#tabs.length;
  }

  // The sentences the tabs stand for, as given to set().
  get sentences() {
    return this.#sentences;
  }

  // One tab per sentence, sentence `selected` chosen (clamped); fewer than two sentences hide
  // the row. Tells no one: the caller decodes what it selected. -> the index selected.
  set(sentences, selected = 0) {
    this.#sentences = sentences;
    this.#tabs = sentences.map((text, k) =>
      h('button', { type: 'button', role: 'tab', class: 'bl-tab', id: `${this.#prefix}-${k}`, 'data-sentence': k,
        title: text, 'aria-controls': this.#panel?.id }, String(k + 1)));
    this.#root.replaceChildren(...this.#tabs);
    this.#root.hidden = this.#tabs.length < 2;
    this.#label();
    this.#mark(Math.min(Math.max(0, selected), this.#tabs.length - 1));
    return this.#selected;
  }

  // A sentence that could not be translated is marked on its tab (data-failed).
  setFailed(k, failed) {
    this.#tabs[k]?.toggleAttribute('data-failed', failed);
  }

  setStrings(strings) {
    this.#S = strings;
    if (!this.#root.hasAttribute('aria-labelledby')) this.#root.setAttribute('aria-label', strings.sentenceTabs);
    this.#label();
  }

  #label() {
    const n = this.#tabs.length;
    this.#tabs.forEach((tab, k) => tab.setAttribute('aria-label', this.#S?.sentenceTab(k + 1, n) ?? String(k + 1)));
  }

  #mark(k) {
    this.#selected = k;
    this.#tabs.forEach((tab, i) => {
      tab.setAttribute('aria-selected', String(i === k));
      tab.tabIndex = i === k ? 0 : -1;
    });
    const panel = this.#panel;
    if (!panel) return;
    if (this.#tabs.length >= 2) {
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', this.#tabs[k].id);
    } else {
      panel.removeAttribute('role');
      panel.removeAttribute('aria-labelledby');
    }
  }

  #pick(k, focus) {
    if (!(k >= 0 && k < this.#tabs.length)) return;
    if (focus) this.#tabs[k].focus();
    if (k === this.#selected) return;
    this.#mark(k);
    this.#onSelect(k);
  }

  #onKey(e) {
    const n = this.#tabs.length;
    if (!n || e.altKey || e.ctrlKey || e.metaKey || !e.target.closest?.('[role="tab"]')) return;
    const at = this.#selected;
    const next = { ArrowRight: (at + 1) % n, ArrowLeft: (at - 1 + n) % n, Home: 0, End: n - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault(); // the page's own arrow keys (step through the words) stay out of it
    this.#pick(next, true);
  }
}
