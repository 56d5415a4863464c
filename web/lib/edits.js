// Attention edits (issue 26, docs/attention-edits.md): the `edits` option of translate(),
// translateBatch(), steps() and align(). A decoder step mixes its context c_i from given weights
// instead of its own softmax: "what if it had looked there?"
//
// Checked here: what JS can see (an array of plain objects with known keys, integers, numbers,
// booleans), with TypeError or RangeError like every other option. Left to the core, whose
// refusals come back as Errors: the weights' length, finiteness and signs (not all 0), a column
// in range, layer and head against the model (an RNN has neither), ablate on an RNN, a step the
// translation does not reach, and beam search.
import { checkInt, describe } from './args.js';
import { MAX_EDITS } from './catalogue.js';

export const EDIT_KEYS = ['step', 'weights', 'column', 'layer', 'head', 'ablate', 'hold'];
const INT32_MAX = 2 ** 31 - 1; // the bindings read these as C++ ints

// -> the edits as the engine reads them ([] when left out), or throws.
export function editsArg(edits, method) {
  if (edits === undefined || edits === null) return [];
  if (!Array.isArray(edits)) {
    throw new TypeError(`${method}(): edits must be an array of {${EDIT_KEYS.join(', ')}}, got ${describe(edits)}`);
  }
  if (edits.length > MAX_EDITS) {
    throw new RangeError(`${method}(): at most ${MAX_EDITS} edits per call, got ${edits.length}`);
  }
  return edits.map((e, k) => editArg(e, `${method}(): edits[${k}]`));
}

function editArg(e, where) {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) {
    throw new TypeError(`${where} must be an object {step, weights or column, ...}, got ${describe(e)}`);
  }
  const unknown = Object.keys(e).find((k) => !EDIT_KEYS.includes(k));
  if (unknown !== undefined) {
    throw new TypeError(`${where} has no key ${JSON.stringify(unknown)} (an edit's keys: ${EDIT_KEYS.join(', ')})`);
  }
  const { step, weights, column = -1, layer = -1, head = -1, ablate = false, hold = false } = e;
  checkInt(`${where}.step`, step, 0, INT32_MAX);
  for (const [key, v] of [['column', column], ['layer', layer], ['head', head]]) {
    checkInt(`${where}.${key}`, v, -1, INT32_MAX);
  }
  for (const [key, v] of [['ablate', ablate], ['hold', hold]]) {
    if (typeof v !== 'boolean') throw new TypeError(`${where}.${key} must be true or false, got ${describe(v)}`);
  }
  const out = { step, column, layer, head, ablate, hold };
  if (weights !== undefined) out.weights = weightsArg(weights, `${where}.weights`);
  return out;
}

// An Array of numbers, or a Float32Array / Float64Array (copied into an Array).
function weightsArg(w, what) {
  const list = w instanceof Float32Array || w instanceof Float64Array ? Array.from(w) : w;
  if (!Array.isArray(list)) {
    throw new TypeError(`${what} must be an array of numbers, one per column, got ${describe(w)}`);
  }
  const bad = list.findIndex((x) => typeof x !== 'number');
  if (bad >= 0) throw new TypeError(`${what}[${bad}] must be a number, got ${describe(list[bad])}`);
  return list;
}

// translate() of a paragraph (splitSentences) cannot take edits: a step index names a row of
// one sentence's matrix.
export function checkOneSentence(edits) {
  if (edits.length) {
    throw new RangeError('edits apply to one sentence: translate without splitSentences (or split the text with splitSentences() and edit the sentence you mean)');
  }
}
