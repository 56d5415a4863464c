// The main page's side of "Open in the translator" (train/handoff.js): with ?model=trained,
// index.html runs the snapshot kept in this browser by train.html, and says so in a note under
// its status line (which model, how long it trained), in the page's language. app.js asks
// bytes() where it would give its worker a model URL.
//
// Automation hooks (stable): data-role="trained-note", with data-steps once the model is read.

import { h } from '../ui/dom.js';
import { readTrained } from './handoff.js';
import { TRAINED_NOTE } from './strings.js';

export class TrainedModel {
  #note;
  #meta = null;
  #missing = false;
  #lang;

  // after: the element the note goes under (the status line).
  constructor(after, lang) {
    this.#lang = lang;
    this.#note = h('p', { class: 'hint trained-note', 'data-role': 'trained-note', role: 'note' });
    after.after(this.#note);
    this.#render();
  }

  // -> Promise<Uint8Array>: the kept snapshot; throws, saying what to do, when there is none.
  async bytes() {
    const kept = await readTrained();
    this.#missing = !kept;
    this.#meta = kept?.meta ?? null;
    this.#render();
    if (!kept) throw new Error(TRAINED_NOTE[this.#lang].missing);
    return kept.bytes;
  }

  setLang(lang) {
    this.#lang = lang;
    this.#render();
  }

  #render() {
    const W = TRAINED_NOTE[this.#lang];
    this.#note.textContent = this.#meta ? W.note(this.#meta) : this.#missing ? W.missing : '';
    this.#note.hidden = !this.#meta && !this.#missing;
    if (this.#meta) this.#note.dataset.steps = String(this.#meta.steps);
  }
}
