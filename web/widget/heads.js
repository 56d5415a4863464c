// <attention-translator model="en-fr-transformer" layer="2" head="3">: which of a
// Transformer's cross-attention rows the single figure draws. layer counts decoder layers from
// 1 (default: the last); head counts heads from 1, or "avg" / "average" (the default: the
// mean of the layer's heads, the model's summary row). Attributes are data from any author:
// a value that is not one of those, or out of the model's range, is ignored and the figure
// says so in a note (and draws the default), never throws; on an RNN model they are ignored
// with a note too.

import { AVERAGE, defaultSelection, isTransformer } from '../ui/heads.js';
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
