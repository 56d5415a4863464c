// A Transformer's attention comes per layer and per head, and a view shows one choice of them
// at a time: {layer (from 0), head (from 0, or AVERAGE: the mean over the layer's heads)}.
// These read that choice out of the engine's own numbers: a steps() or align() step's
// cross = {layers, heads, alpha[layer][head][col], e[layer][head][col]}, or a Transformer's
// selfAttention() = {layers, heads, weights[layer][head][i][j], scores: same}. An RNN step has
// no cross: its own alpha and e are the row. Nothing here invents a number: a head's row is
// the engine's array, the average is the plain mean of the heads' rows (the mean of the
// softmaxes, which is what the step's own summary row is for the last layer; not a softmax of
// mean scores).

export const AVERAGE = 'avg';

export const isTransformer = (info) => info?.arch === 'transformer';

// What a view shows before anyone picks: the last layer, averaged over heads, which is the
// step's own summary row (the one every RNN-era view draws).
export function defaultSelection(layers) {
  return { layer: Math.max(0, layers - 1), head: AVERAGE };
}

// The column-wise mean of equally long rows, summed in head order.
export function meanRows(rows) {
  if (!rows?.length) return [];
  const out = new Array(rows[0].length).fill(0);
  for (const r of rows) for (let j = 0; j < out.length; j++) out[j] += r[j];
  return out.map((x) => x / rows.length);
}

// One layer's per-head arrays, at the selection's head (or their mean); null when the
// selection is outside what the engine sent.
function pickHead(perHead, head) {
  if (!Array.isArray(perHead) || perHead.length === 0) return null;
  if (head === AVERAGE) return meanRows(perHead);
  return perHead[head] ?? null;
}

// A step's row for the selection: key 'alpha' (weights) or 'e' (raw scores). Without cross
// (an RNN step, a beam-search row) or without a selection, the step's own row; and for the
// last layer's average too, since that is what the step's own row is (the engine's numbers,
// averaged in its float32, rather than a second mean of them here).
export function crossRow(step, sel, key = 'alpha') {
  const cross = step?.cross;
  if (!cross || !sel) return step?.[key];
  const layers = cross[key]?.length ?? 0;
  if (sel.head === AVERAGE && sel.layer === layers - 1 && step[key]) return step[key];
  return pickHead(cross[key]?.[sel.layer], sel.head) ?? step[key];
}

// The step as a view shows it for the selection: its e and alpha those of the chosen layer and
// head (everything else, c and the candidates, is the step's own); an edited step's ownAlpha
// too, the model's own row there.
export function stepFor(step, sel) {
  if (!step?.cross || !sel) return step;
  const own = step.edited ? { ownAlpha: ownRow(step, sel) } : {};
  return { ...step, e: crossRow(step, sel, 'e'), alpha: crossRow(step, sel, 'alpha'), ...own };
}

// An edited step's own row (what its softmax computed, before the edit replaced it) for the
// selection; null for a step that was not edited. A Transformer's own rows are per layer and
// head (cross.ownAlpha), picked like crossRow's; an RNN's is the step's ownAlpha.
export function ownRow(step, sel) {
  if (!step?.edited) return null;
  const perHead = step.cross?.ownAlpha;
  if (!perHead || !sel) return step.ownAlpha ?? null;
  return crossRow({ alpha: step.ownAlpha, cross: { alpha: perHead } }, sel) ?? step.ownAlpha ?? null;
}

// A Transformer selfAttention() result's n x n weights (or 'scores') for the selection.
export function selfRows(self, sel, key = 'weights') {
  const layer = self?.[key]?.[sel.layer];
  if (!Array.isArray(layer) || layer.length === 0) return [];
  if (sel.head !== AVERAGE) return layer[sel.head] ?? [];
  return layer[0].map((_, i) => meanRows(layer.map((head) => head[i])));
}

// The selection from the shape and a wanted {layer, head} (from a link or an attribute),
// clamped to what exists; anything out of range falls back to the default.
export function validSelection(layers, heads, want) {
  const sel = defaultSelection(layers);
  if (!want) return sel;
  const layer = Number.isInteger(want.layer) && want.layer >= 0 && want.layer < layers ? want.layer : sel.layer;
  const head = want.head === AVERAGE || (Number.isInteger(want.head) && want.head >= 0 && want.head < heads) ? want.head : AVERAGE;
  return { layer, head };
}
