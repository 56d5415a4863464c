// Which of the watched sentence's two matrices is on show (train/watch.js): the model reading
// the reference (the default: the rows are the right words, so the flip can be seen as soon as
// the attention has learned it) or writing its own translation. Two radios in the site's
// segmented control, so the platform's own keys move between them (arrows, Tab, Space).
//
// Automation hooks (stable): data-role="view" on each radio, value reference | own.

import { h } from '../ui/dom.js';
import { VIEWS } from './watch.js';

const KEYS = { reference: 'viewReference', own: 'viewOwn' };
let nextId = 0;

export class ViewToggle {
  #e = {};

  // onChange(view): the reader picked a view.
  constructor(root, { strings, view = 'reference', onChange }) {
    const name = `tr-view-${++nextId}`;
    const e = this.#e;
    e.legend = h('legend');
    e.radios = VIEWS.map((value) => {
      const input = h('input', { type: 'radio', name, value, 'data-role': 'view', checked: value === view,
        on: { change: () => input.checked && onChange(value) } });
      const text = h('span');
      return { value, input, text, label: h('label', {}, input, text) };
    });
    root.replaceChildren(h('fieldset', { class: 'tr-view' }, e.legend, h('div', { class: 'segmented' }, e.radios.map((r) => r.label))));
    this.setStrings(strings);
  }

  get view() {
    return this.#e.radios.find((r) => r.input.checked)?.value ?? VIEWS[0];
  }

  setStrings(S) {
    this.#e.legend.textContent = S.viewLegend;
    for (const r of this.#e.radios) r.text.textContent = S[KEYS[r.value]];
  }
}
