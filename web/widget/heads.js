// <attention-translator model="en-fr-transformer" layer="2" head="3">: which of a
// Transformer's cross-attention rows the single figure draws. layer counts decoder layers from
// 1 (default: the last); head counts heads from 1, or "avg" / "average" (the default: the
// mean of the layer's heads, the model's summary row). Attributes are data from any author:
// a value that is not one of those, or out of the model's range, is ignored and the figure
// says so in a note (and draws the default), never throws; on an RNN model they are ignored
// with a note too.

import { HeadPicker } from '../ui/head-picker.js';
import { AVERAGE, crossRow, defaultSelection, isTransformer, ownRow, stepFor } from '../ui/heads.js';
import { TRANSFORMER_STRINGS } from '../ui/transformer-strings.js';

const shown = (v) => JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v);

// -> {sel: {layer, head} (0-based; null for an RNN), notes: [string]} for the attributes'
// values (null when absent), the model's info() and the caption language.
export function widgetHeads(layerAttr, headAttr, info, lang) {
  const T = TRANSFORMER_STRINGS[lang === 'zh' ? 'zh' : 'en'];
  const given = layerAttr !== null || headAttr !== null;
  if (!isTransformer(info)) return { sel: null, notes: given && info ? [T.headsIgnored] : [] };
  const L = info.decLayers;
  const H = info.heads;
  const sel = defaultSelection(L);
  const notes = [];
  if (layerAttr !== null) {
    const n = /^\s*\d{1,3}\s*$/.test(layerAttr) ? Number(layerAttr) : NaN;
    if (n >= 1 && n <= L) sel.layer = n - 1;
    else notes.push(T.badLayer(shown(layerAttr), L));
  }
  if (headAttr !== null) {
    const v = headAttr.trim().toLowerCase();
    const n = /^\d{1,3}$/.test(v) ? Number(v) : NaN;
    if (v === 'avg' || v === 'average') sel.head = AVERAGE;
    else if (n >= 1 && n <= H) sel.head = n - 1;
    else notes.push(T.badHead(shown(headAttr), H));
  }
  return { sel, notes };
}

// The figure's line about them: what is drawn (unless the picker says it) and what was ignored.
export function headsLines({ sel, notes }, info, lang, { picker = false } = {}) {
  const T = TRANSFORMER_STRINGS[lang === 'zh' ? 'zh' : 'en'];
  if (!sel || picker) return notes;
  const shown = { layer: sel.layer + 1, head: sel.head === AVERAGE ? AVERAGE : sel.head + 1 };
  return [T.widgetShows(shown, info.decLayers, info.heads), ...notes];
}

// controls="full" on a Transformer: the page's layer x head picker in the figure. A pick sets
// the layer and head attributes, which stay the one source of truth (the figure redraws from
// them, and a script reading them sees what is shown).
export class HeadsControl {
  #picker;

  constructor(container, element) {
    this.#picker = new HeadPicker(container, { kind: 'cross', onChange: (sel) => {
      element.setAttribute('layer', String(sel.layer + 1));
      element.setAttribute('head', sel.head === AVERAGE ? AVERAGE : String(sel.head + 1));
    } });
  }

  // heads: widgetHeads()'s; shown only with full controls on a Transformer.
  update(heads, info, { full, lang }) {
    this.#picker.setStrings(TRANSFORMER_STRINGS[lang === 'zh' ? 'zh' : 'en']);
    const on = full && Boolean(heads.sel);
    this.#picker.setShape(on ? info.decLayers : 0, on ? info.heads : 0, heads.sel);
  }

  preview(step) {
    this.#picker.preview(step);
  }
}

// The rows the single figure (ui/figure.js) draws: the selection selected() reads (null for an
// RNN, whose rows are its own), previewed in the picker.
export function figureHeads(selected, control) {
  return {
    get active() {
      return Boolean(selected());
    },
    row: (step) => crossRow(step, selected()),
    ownRow: (step) => ownRow(step, selected()),
    panelStep: (step) => stepFor(step, selected()),
    preview: (step) => control.preview(step),
  };
}
