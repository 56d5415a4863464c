// The pages' model menus (index.html's model, compare.html's a and b): the four models of the site's story (LINEAGE: no attention,
// additive, scaled dot, the Transformer), and the model on show if it is another. Picking one
// opens the page on it with the same sentence and language (a new load: each model is its own
// download), so the link and the menu always agree.

import { LINEAGE, LINEAGE_KINDS as KIND } from '../lib/catalogue.js';
import { h } from '../ui/dom.js';
import { TRANSFORMER_STRINGS } from '../ui/transformer-strings.js';

export class ModelMenu {
  #select;
  #label;
  #current;

  #name;

  // current: the model on show ({name, label}); go(name): open the page on another. name(T):
  // the menu's label (default: T.modelPick); role: its data-role.
  constructor(root, { current, go, name = (T) => T.modelPick, role = 'model' }) {
    this.#current = current;
    this.#name = name;
    this.#label = h('span');
    this.#select = h('select', { 'data-role': role, on: { change: () => go(this.#select.value) } });
    root.replaceChildren(h('label', { class: 'model-field' }, this.#label, this.#select));
  }

  setLang(lang) {
    const T = TRANSFORMER_STRINGS[lang];
    this.#label.textContent = this.#name(T);
    const names = LINEAGE.includes(this.#current.name) ? LINEAGE : [...LINEAGE, this.#current.name];
    this.#select.replaceChildren(...names.map((name) =>
      h('option', { value: name, text: KIND[name] ? `${name} · ${T.kinds[KIND[name]]}` : this.#current.label })));
    this.#select.value = this.#current.name;
  }
}
