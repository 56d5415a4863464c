// Going back over the matrices recorded so far: every 'measure' report of the run is kept
// (its watched sentences' matrices, a few kB each), and a range input picks one. At the right
// end the view follows each new measurement; moved back, it stays where it was put until the
// reader returns to the end (or ticks "Follow the latest").
//
// Automation hooks (stable): data-role="scrubber" (the range input: value, max),
// data-role="scrubber-value" (its words), data-role="follow" (the checkbox).

import { h } from '../ui/dom.js';

let nextId = 0;

export class Scrubber {
  #S;
  #records = [];
  #onPick;
  #e = {};

  // onPick(record | null): the record to show, at each move and at each new record followed.
  constructor(root, { strings, onPick }) {
    this.#S = strings;
    this.#onPick = onPick;
    const id = `tr-scrub-${++nextId}`;
    const e = this.#e;
    e.label = h('label', { for: id, class: 'tr-scrub-label' });
    e.range = h('input', { id, type: 'range', min: '0', max: '0', step: '1', value: '0', 'data-role': 'scrubber', disabled: true,
      'aria-describedby': `${id}-value`, on: { input: () => this.#moved() } });
    e.value = h('output', { id: `${id}-value`, class: 'tr-scrub-value', 'data-role': 'scrubber-value', for: id });
    e.follow = h('input', { type: 'checkbox', 'data-role': 'follow', checked: true, on: { change: () => this.#followChanged() } });
    e.followText = h('span');
    root.replaceChildren(h('div', { class: 'tr-scrubber' }, e.label, e.range, e.value,
      h('label', { class: 'tr-follow' }, e.follow, e.followText)));
    this.setStrings(strings);
  }

  setStrings(S) {
    this.#S = S;
    this.#e.label.textContent = S.scrubberLabel;
    this.#e.followText.textContent = S.scrubberLive;
    this.#renderValue();
  }

  get records() {
    return this.#records;
  }

  get current() {
    return this.#records[Number(this.#e.range.value)] ?? null;
  }

  reset() {
    this.#records = [];
    const { range, follow } = this.#e;
    range.max = '0';
    range.value = '0';
    range.disabled = true;
    follow.checked = true;
    this.#renderValue();
    this.#onPick(null);
  }

  add(record) {
    this.#records.push(record);
    const { range, follow } = this.#e;
    range.max = String(this.#records.length - 1);
    range.disabled = this.#records.length < 2;
    if (follow.checked) {
      range.value = range.max;
      this.#onPick(record);
    }
    this.#renderValue();
  }

  #moved() {
    const { range, follow } = this.#e;
    follow.checked = range.value === range.max;
    this.#renderValue();
    this.#onPick(this.current);
  }

  #followChanged() {
    const { range, follow } = this.#e;
    if (!follow.checked) return;
    range.value = range.max;
    this.#moved();
  }

  #renderValue() {
    const r = this.current;
    const text = r ? this.#S.scrubberValue(Number(this.#e.range.value) + 1, this.#records.length, r.steps, r.seconds) : '';
    this.#e.value.textContent = text;
    this.#e.range.setAttribute('aria-valuetext', text || '—');
  }
}
