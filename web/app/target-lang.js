// The main page's target language: which language the model on show translates into, and what
// follows from it: the captions name it (ui/target-strings.js), the example chips are its own
// (app/examples.js), and the elements that hold target text carry its lang= tag, so a browser
// draws Chinese with Chinese glyph forms and the typed translation gets a Chinese keyboard.
//
// Known from the catalogue before the model loads (the captions are right from the first
// paint); a model given by URL says it itself once loaded (info().tgtLang).

import { PAIRS, pairOf } from '../lib/catalogue.js';
import { TARGET_TAGS } from '../ui/pair-strings.js';
import { STRINGS } from '../ui/strings.js';
import { retarget } from '../ui/target-strings.js';
import { examplesFor } from './examples.js';

// The page's elements whose text is in the target language.
const TARGET_ROLES = ['output', 'force-input'];

export class TargetLanguage {
  #target;

  // model: readParams()'s {name, ...}.
  constructor(model) {
    const pair = pairOf(model?.name);
    this.#target = pair ? PAIRS[pair].target : 'fr';
  }

  get target() {
    return this.#target;
  }

  // info: the loaded model's. -> true when it names another target than assumed (the page then
  // sets its captions again).
  setInfo(info) {
    const t = info?.tgtLang;
    if (!t || t === this.#target || !Object.hasOwn(TARGET_TAGS, t)) return false;
    this.#target = t;
    return true;
  }

  // The page's caption table in UI language lang, naming this target.
  strings(lang) {
    return retarget(STRINGS[lang], lang, this.#target);
  }

  get examples() {
    return examplesFor(this.#target);
  }

  // lang= on the target text's elements of document doc.
  tag(doc) {
    for (const role of TARGET_ROLES) doc.querySelector(`[data-role="${role}"]`)?.setAttribute('lang', TARGET_TAGS[this.#target]);
  }
}
