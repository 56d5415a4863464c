// index.html's view of a model without attention (info().scoring 'none', en-fr-noattn): it has
// no matrix, no lines, no legend and no weights to edit, so those are hidden (app.css, by
// data-attention="none" on the app), and what it does read is drawn instead: the one fixed
// context vector c, as on why.html (ui/c-strip.js), with a line on what is missing and why.
// The step panel shows only the step it has (ui/step-panel.js, scoring 'none').
//
// Automation hooks (stable): data-attention="none" on [data-role="app"] while such a model is
// loaded; data-role="fixed-context" (the section), "no-attention-note" and the strip's own.

import { CStrip } from '../ui/c-strip.js';
import { h } from '../ui/dom.js';
import { STRINGS } from '../ui/strings.js';
import { WHY_STRINGS } from '../ui/why-strings.js';

export class FixedContext {
  #app;
  #root;
  #note;
  #strip;
  #hint;
  #lang;
  #active = false;
  #steps = null; // the player's steps the strip was checked against (a new sentence: new array)

  // root: the section's container; app: the element that carries data-attention; hint: the
  // force form's hint ("see where it looks"), said otherwise for this model.
  constructor(root, { app, hint, lang = 'en' }) {
    this.#app = app;
    this.#root = root;
    this.#hint = hint;
    this.#lang = lang;
    this.#note = h('p', { class: 'no-attention-note', 'data-role': 'no-attention-note' });
    const stripRoot = h('div');
    this.#strip = new CStrip(stripRoot, { strings: WHY_STRINGS[lang] });
    root.replaceChildren(h('div', { class: 'fixed-context', 'data-role': 'fixed-context' }, this.#note, stripRoot));
    root.hidden = true;
    this.setLang(lang);
  }

  get active() {
    return this.#active;
  }

  // The loaded model's info() (null while none is).
  setInfo(info) {
    this.#active = info?.scoring === 'none';
    this.#root.hidden = !this.#active;
    if (this.#active) this.#app.dataset.attention = 'none';
    else delete this.#app.dataset.attention;
    this.setLang(this.#lang);
  }

  // After the page's strings were applied (they reset the force hint).
  setLang(lang) {
    this.#lang = lang;
    const S = STRINGS[lang];
    this.#note.textContent = S.noAttentionNote;
    this.#strip.setStrings(WHY_STRINGS[lang]);
    if (this.#active) this.#hint.textContent = S.forceHintNoAttention;
  }

  // At each move of the player: the c of the step on show, and how many steps have read it.
  render(player) {
    if (!this.#active) return;
    if (player.steps !== this.#steps || player.steps.length === 0) {
      this.#strip.reset();
      this.#steps = player.steps;
    }
    this.#strip.check(player.steps);
    const read = player.steps.slice(0, player.position + 1);
    const last = read.at(-1);
    this.#strip.show((last ?? player.steps[0])?.c ?? null, { index: read.length - 1, word: last ? last.word : null, reads: read.length });
  }
}
