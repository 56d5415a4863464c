// compare.html's ready-made pairs, as links beside its two model menus: the site's first story
// (additive beside scaled dot, the page's defaults) and how attention learns (en-fr, trained by
// translation alone, beside en-fr-guided, trained with an aligner's hint). The menus can set any
// two models side by side; these say which two are worth it, in one click. Each link keeps the
// sentence in the box, the caption language and ?simd=0, read again when it is used (as
// app/compare-link.js does), and the pair on show is marked, so the links also name it.
//
// Automation hooks: data-role="compare-preset" with data-preset="kinds" | "guidance", and
// aria-current="page" on the pair on show.

import { COMPARE_MODELS, GUIDANCE_MODELS } from '../lib/catalogue.js';
import { COMPARE_STRINGS } from '../ui/compare-strings.js';
import { h } from '../ui/dom.js';

export const COMPARE_PRESETS = { kinds: COMPARE_MODELS, guidance: GUIDANCE_MODELS };

export class ComparePresets {
  #links;
  #href;

  // root: where the links go; current: {a, b}, the names on show; href(a, b): the link to the
  // page on that pair, as things stand now.
  constructor(root, { current, href }) {
    this.#href = href;
    this.#links = Object.entries(COMPARE_PRESETS).map(([id, [a, b]]) => {
      const link = h('a', { class: 'preset', 'data-role': 'compare-preset', 'data-preset': id,
        'aria-current': current.a === a && current.b === b ? 'page' : null });
      for (const ev of ['focus', 'pointerdown', 'click']) link.addEventListener(ev, () => this.#update(link));
      return link;
    });
    root.replaceChildren(...this.#links);
  }

  setLang(lang) {
    const P = COMPARE_STRINGS[lang].presets;
    for (const link of this.#links) {
      link.textContent = P[link.dataset.preset];
      this.#update(link);
    }
  }

  #update(link) {
    link.href = this.#href(...COMPARE_PRESETS[link.dataset.preset]);
  }
}
