// The pages' model menus (index.html's model, compare.html's a and b): the models of the pair
// on show (catalogue.js PAIRS: for English->French the site's story, no attention, additive,
// scaled dot, the Transformer, with the additive model trained with an aligner's hint after the
// two attention RNNs), and the model on show if it is another. Each says its kind, and a guided
// model says so. Picking one opens the page on it with the same sentence and language (a new
// load: each model is its own download), so the link and the menu always agree.
//
// The language pair choice (English→French, English→Chinese) sits before it: a pair is a set
// of models (catalogue.js's PAIRS), so the model menu then lists that pair's models only, and
// picking a pair opens the page on its first model. A page may grey a pair out with its reason
// (compare.html: English→Chinese has one model, nothing to compare it with), said beside the
// choice, not only in a tooltip, so a phone shows it too.

import { DEFAULT_MODEL, GUIDED_MODELS, MODEL_KINDS as KIND, PAIRS, pairOf } from '../lib/catalogue.js';
import { h } from '../ui/dom.js';
import { PAIR_STRINGS } from '../ui/pair-strings.js';
import { TRANSFORMER_STRINGS } from '../ui/transformer-strings.js';

// The pair choice alone (compare.html has one for its two model menus). current: the pair on
// show, or null for a model of no pair (a URL); go(pair): open the page on it; refuse(pair, P):
// why that pair cannot be picked here (P: PAIR_STRINGS[lang]), or null.
export class PairChoice {
  #select;
  #label;
  #note;
  #current;
  #refuse;

  constructor(root, { current, go, refuse = () => null, role = 'pair' }) {
    this.#current = current;
    this.#refuse = refuse;
    this.#label = h('span');
    this.#select = h('select', { 'data-role': role, on: { change: () => go(this.#select.value) } });
    this.#note = h('span', { class: 'hint pair-note', 'data-role': `${role}-note`, hidden: true });
    root.replaceChildren(h('label', { class: 'model-field pair-field' }, this.#label, this.#select), this.#note);
  }

  setLang(lang) {
    const P = PAIR_STRINGS[lang];
    this.#label.textContent = P.pairPick;
    const reasons = [];
    this.#select.replaceChildren(...Object.keys(PAIRS).map((pair) => {
      const why = pair === this.#current ? null : this.#refuse(pair, P);
      if (why) reasons.push(why);
      return h('option', { value: pair, text: P.pairs[pair], disabled: Boolean(why), title: why ?? '' });
    }));
    // A model outside every pair (a URL): the choice shows no pair as chosen.
    if (this.#current === null) this.#select.prepend(h('option', { value: '', text: '—', disabled: true }));
    this.#select.value = this.#current ?? '';
    this.#note.textContent = reasons.join(' ');
    this.#note.hidden = reasons.length === 0;
  }
}

export class ModelMenu {
  #select;
  #label;
  #current;
  #pair;

  #name;

  // current: the model on show ({name, label}); go(name): open the page on another. name(T):
  // the menu's label (default: T.modelPick); role: its data-role. pairs: also the language pair
  // choice before it (a pick opens the pair's first model through go).
  constructor(root, { current, go, name = (T) => T.modelPick, role = 'model', pairs = false }) {
    this.#current = current;
    this.#name = name;
    this.#label = h('span');
    this.#select = h('select', { 'data-role': role, on: { change: () => go(this.#select.value) } });
    const field = h('label', { class: 'model-field' }, this.#label, this.#select);
    if (pairs) {
      const pairRoot = h('span', { class: 'pair-menu' });
      root.replaceChildren(pairRoot, field);
      this.#pair = new PairChoice(pairRoot, { current: pairOf(current.name), go: (pair) => go(PAIRS[pair].open) });
    } else {
      root.replaceChildren(field);
    }
  }

  setLang(lang) {
    const T = TRANSFORMER_STRINGS[lang];
    this.#pair?.setLang(lang);
    this.#label.textContent = this.#name(T);
    // A model of no pair (a URL, a test model) is listed after the default pair's models.
    const models = PAIRS[pairOf(this.#current.name) ?? pairOf(DEFAULT_MODEL)].models;
    const names = models.includes(this.#current.name) ? models : [...models, this.#current.name];
    this.#select.replaceChildren(...names.map((name) =>
      h('option', { value: name, text: KIND[name] ? `${name} · ${kindText(name, T)}` : this.#current.label })));
    this.#select.value = this.#current.name;
  }
}

// A named model's kind in a menu: its attention, and for a model trained with an aligner's hint,
// that too (two additive models sit in one menu).
function kindText(name, T) {
  const kind = T.kinds[KIND[name]];
  return GUIDED_MODELS.includes(name) ? T.guidedKind(kind) : kind;
}
