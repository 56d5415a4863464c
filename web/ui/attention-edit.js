// Attention edits as the pages hold them: "what if word i had looked there?". An edit is
// {step, column} (all the weight on one source column) or {step, weights} (one weight per
// column, source tokens then </s>); the engine scales weights to sum 1 and decodes step i from
// them instead of its own softmax, then goes on with its own attention (web/lib's
// AttentionEdit; no layer or head: on a Transformer, every layer and head).
//
// The pages keep a short list, one edit per step in increasing order. Editing word i keeps
// the edits before it (the words up to i stay as shown) and drops those after it: the words
// after i are decoded anew, so an edit there would name a word that may no longer exist.
//
// An edit may hold ({hold: true}): the same weights for every later word too, until a later
// edit takes over (the engine's AttentionEdit.hold).
//
// In a link: edit=S:J (step S, column J, both from 0) or edit=S:w0,w1,... (the weights), with
// a final "+" when it holds, the parameter repeated for each edit. Links come from anyone: a value that is not exactly this
// is dropped, never thrown on.

export const MAX_EDITS = 8;
const MAX_COLUMNS = 1024;
const MAX_STEP = 1000;

const INT = /^\d{1,4}$/;
const WEIGHT = /^\d{1,3}(\.\d{1,6})?$/;

// One edit= value -> an edit, or null for anything else.
export function parseEdit(value) {
  if (typeof value !== 'string' || value.length > 12 * MAX_COLUMNS) return null;
  const m = /^(\d{1,4}):(.+?)(\+?)$/.exec(value.trim());
  if (!m) return null;
  const step = Number(m[1]);
  if (step > MAX_STEP) return null;
  const rest = m[2];
  const held = m[3] === '+' ? { hold: true } : {};
  if (INT.test(rest)) {
    const column = Number(rest);
    return column < MAX_COLUMNS ? { step, column, ...held } : null;
  }
  const parts = rest.split(',');
  if (parts.length < 2 || parts.length > MAX_COLUMNS || !parts.every((p) => WEIGHT.test(p))) return null;
  const weights = parts.map(Number);
  if (!weights.every(Number.isFinite) || !weights.some((w) => w > 0)) return null;
  return { step, weights, ...held };
}

// All edit= values of a link -> {edits (in step order, one per step, at most MAX_EDITS),
// refused (how many values were dropped)}.
export function parseEdits(values) {
  const edits = [];
  let refused = 0;
  for (const v of (values ?? []).slice(0, 4 * MAX_EDITS)) {
    const e = parseEdit(v);
    if (!e || edits.some((x) => x.step === e.step) || edits.length >= MAX_EDITS) refused++;
    else edits.push(e);
  }
  refused += Math.max(0, (values?.length ?? 0) - 4 * MAX_EDITS);
  edits.sort((a, b) => a.step - b.step);
  return { edits, refused };
}

// An edit as its edit= value.
export function formatEdit(edit) {
  const held = edit.hold ? '+' : '';
  if (Number.isInteger(edit.column)) return `${edit.step}:${edit.column}${held}`;
  return `${edit.step}:${edit.weights.map(formatWeight).join(',')}${held}`;
}

// The same edit, held for the later words or not.
export const holding = (edit, hold) => {
  const { hold: _was, ...rest } = edit;
  return hold ? { ...rest, hold: true } : rest;
};

function formatWeight(w) {
  return String(Number(w.toFixed(4)));
}

// The edits that fit a sentence of n columns (</s> included) -> {edits, dropped}: a column
// past the last, or weights of another length, cannot be this sentence's.
export function fitEdits(edits, n) {
  const fit = (e) => (Number.isInteger(e.column) ? e.column < n : e.weights.length === n);
  return { edits: edits.filter(fit), dropped: edits.filter((e) => !fit(e)) };
}

// The list after editing word edit.step: earlier edits kept, this one set, later ones dropped.
export function withEdit(edits, edit) {
  return [...edits.filter((e) => e.step < edit.step), edit].slice(-MAX_EDITS);
}

// The list without its last edit (the state just before it).
export const beforeLast = (edits) => edits.slice(0, -1);

// What the engine is given: web/lib's AttentionEdit objects.
export function apiEdits(edits) {
  return edits.map((e) => ({
    ...(Number.isInteger(e.column) ? { step: e.step, column: e.column } : { step: e.step, weights: e.weights.slice() }),
    ...(e.hold ? { hold: true } : {}),
  }));
}

// The given row an edit sets, n columns long.
export function editRow(edit, n) {
  if (Number.isInteger(edit.column)) return Array.from({ length: n }, (_, j) => (j === edit.column ? 1 : 0));
  const sum = edit.weights.reduce((a, b) => a + b, 0) || 1;
  return edit.weights.map((w) => w / sum);
}

// Dragging one weight: column j set to v (0..1), the others scaled so that all still sum to 1
// (spread evenly when they were all 0), rounded to 4 decimals (what a link keeps).
export function setWeight(weights, j, v) {
  const x = Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));
  const rest = weights.reduce((a, w, k) => (k === j ? a : a + w), 0);
  const others = weights.length - 1;
  const out = weights.map((w, k) => {
    if (k === j) return x;
    if (rest > 0) return (w / rest) * (1 - x);
    return others > 0 ? (1 - x) / others : 0;
  });
  const rounded = out.map((w) => Math.round(w * 1e4) / 1e4);
  return rounded.some((w) => w > 0) ? rounded : out.map((_, k) => (k === j ? 1 : 0));
}

// The edit a row of weights makes: all on one column when it is exactly that, else the weights.
export function editFromWeights(step, weights) {
  const ones = weights.filter((w) => w === 1).length;
  if (ones === 1 && weights.every((w) => w === 0 || w === 1)) return { step, column: weights.indexOf(1) };
  return { step, weights: weights.slice() };
}

// The edited steps of a decode, by index: the engine marks them (Step.edited).
export const editedIndexes = (steps) => steps.filter((st) => st?.edited).map((st) => st.index);

// The edits the engine did not apply (a step past the end of the translation).
export function unapplied(edits, steps) {
  const done = new Set(editedIndexes(steps));
  return edits.filter((e) => !done.has(e.step));
}

// Whether a model's attention can be edited: 'ok', 'none' (no attention: one fixed context
// vector) or 'beam' (beam search: edits decode greedily).
export function editability(info, beam = 1) {
  if (!info) return 'none';
  if (info.arch !== 'transformer' && info.scoring === 'none') return 'none';
  return beam > 1 ? 'beam' : 'ok';
}
