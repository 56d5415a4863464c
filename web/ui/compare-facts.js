// What the comparison view prints under one matrix: the scoring formula with the model's real
// sizes, the scoring function's parameter count, the measured time per step, and the mean
// entropy of the rows on show. Every number is the engine's (info(), scoringCost()) or
// computed from its alpha rows; the caller passes them in.
//
// A Transformer side (info().arch) shows its attention's formula and sizes instead, and, when
// the engine cannot time its scoring, "n/a" with the engine's reason.
//
// Automation hooks: data-role="formula", "dims", "params", "all-params", "cost", "entropy",
// "entropy-guided" (shown for a model trained with guided attention); the
// numbers carry data-value, the exact number (cost: the median); data-role="cost-spread" carries
// data-min and data-max (the fastest and the slowest batch) and data-batches.

import { h } from './dom.js';
import { num, us } from './compare-strings.js';

const sub = (text) => h('sub', { text });
const named = (name, index) => (index ? [name, sub(index)] : [name]);

// The score of each kind, in the paper's notation, and its matrices with their shapes. The dot
// model keeps the additive model's two projections as query and key (and drops v and tanh).
// q is the query state: sᵢ₋₁ in the paper's decoder, s′ᵢ (after reading yᵢ₋₁) in the
// conditional GRU's (info().decoder 'cgru').
const KINDS = {
  additive: {
    formula: (q) => [`eᵢⱼ = vᵀ tanh(W ${q} + U hⱼ)`],
    matrices: ({ A, D, H2 }) => [[['W'], A, D], [['U'], A, H2], [['v'], A]],
  },
  scaled_dot: {
    formula: (q) => ['eᵢⱼ = (', ...named('W', 'q'), ` ${q}) · (`, ...named('W', 'k'), ' hⱼ) / √A'],
    matrices: ({ A, D, H2 }) => [[named('W', 'q'), A, D], [named('W', 'k'), A, H2]],
  },
};

export function sizes(info) {
  return { A: info.attn, D: info.decHidden, H2: 2 * info.encHidden };
}

export class ModelFacts {
  #el = {};

  constructor() {
    const e = this.#el;
    const dd = (role, cls) => h('dd', { 'data-role': role, class: cls });
    e.formulaTerm = h('dt');
    e.formula = dd('formula', 'bl-cmp-formula');
    e.dims = dd('dims', 'bl-cmp-dims');
    e.dimsKey = h('dd', { class: 'bl-cmp-note' });
    e.paramsTerm = h('dt');
    e.params = dd('params', 'bl-cmp-value');
    e.paramsSum = h('dd', { class: 'bl-cmp-note' });
    e.allTerm = h('dt');
    e.all = dd('all-params', 'bl-cmp-value');
    e.costTerm = h('dt');
    e.cost = dd('cost', 'bl-cmp-value');
    e.costSpread = dd('cost-spread', 'bl-cmp-note');
    e.costNote = h('dd', { class: 'bl-cmp-note' });
    e.entropyTerm = h('dt');
    e.entropy = dd('entropy', 'bl-cmp-value');
    e.entropyScale = h('dd', { class: 'bl-cmp-note' });
    e.entropyGuided = h('dd', { class: 'bl-cmp-note', 'data-role': 'entropy-guided' });
    const group = (...kids) => h('div', { class: 'bl-cmp-fact' }, ...kids);
    this.element = h(
      'dl',
      { class: 'bl-cmp-facts' },
      group(e.formulaTerm, e.formula, e.dims, e.dimsKey),
      group(e.paramsTerm, e.params, e.paramsSum),
      group(e.costTerm, e.cost, e.costSpread, e.costNote),
      group(e.entropyTerm, e.entropy, e.entropyScale, e.entropyGuided),
      group(e.allTerm, e.all),
    );
  }

  // info: the model's info() (null while loading); cost: scoringCost() or null (measuring
  // when a sentence is on show, else not yet; costError: the engine's reason it cannot be
  // timed); entropy: {bits, rows, columns} with bits null when no row is shown. T: the
  // Transformer's words (ui/transformer-strings.js).
  render(C, { info, cost, costFailed = false, costError = null, sentence, entropy }, T) {
    const e = this.#el;
    e.formulaTerm.textContent = C.formula;
    e.paramsTerm.textContent = C.params;
    e.allTerm.textContent = T.allParams;
    e.all.textContent = info ? num(info.numParams) : '';
    if (info) e.all.dataset.value = String(info.numParams);
    const transformer = info?.arch === 'transformer';
    e.costTerm.textContent = C.cost;
    e.entropyTerm.textContent = C.entropy;
    const kind = info && KINDS[info.scoring];
    const query = info?.decoder === 'cgru' ? 's′ᵢ' : 'sᵢ₋₁';
    if (!info) {
      for (const x of [e.formula, e.dims, e.dimsKey, e.params, e.paramsSum]) x.replaceChildren();
    } else if (transformer) {
      // Scores in every head of every decoder layer; the engine's sizes, said in words.
      e.formula.textContent = T.formula;
      e.dims.textContent = T.dims(info);
      e.dimsKey.textContent = T.dimsKey;
      const p = info.scoringParams;
      e.params.textContent = Number.isFinite(p) ? num(p) : T.costNA('—');
      if (Number.isFinite(p)) e.params.dataset.value = String(p);
      else delete e.params.dataset.value;
      e.paramsSum.hidden = true;
    } else {
      const dims = sizes(info);
      const matrices = kind ? kind.matrices(dims) : [];
      e.formula.replaceChildren(...(kind ? kind.formula(query) : [info.scoring]));
      e.dims.replaceChildren(...matrices.flatMap(([name, ...shape], k) =>
        [k ? ' · ' : '', ...name, `: ${shape.join('×')}`]));
      e.dimsKey.textContent = C.dimsKey(dims.A, dims.D, dims.H2);
      e.params.textContent = num(info.scoringParams);
      e.params.dataset.value = String(info.scoringParams);
      // The count broken down by matrix, only where the engine's total agrees with the shapes.
      const terms = matrices.map(([, ...shape]) => shape.reduce((x, y) => x * y, 1));
      const agrees = terms.length && terms.reduce((x, y) => x + y, 0) === info.scoringParams;
      e.paramsSum.textContent = agrees ? C.paramsSum(terms.map(num).join(' + ')) : '';
      e.paramsSum.hidden = !agrees;
    }
    if (cost) {
      e.cost.textContent = us(cost.stepUs);
      e.cost.dataset.value = String(cost.stepUs);
      // The spread over the batches, not a bare number: it moves with the machine's load.
      e.costSpread.textContent = C.costSpread(cost);
      Object.assign(e.costSpread.dataset, { min: String(cost.stepUsMin), max: String(cost.stepUsMax), batches: String(cost.batches) });
      e.costNote.textContent = C.costNote(cost, info?.engine ?? '', query);
    } else {
      e.cost.textContent = costError ? T.costNA(costError) : costFailed ? C.costFailed : sentence ? C.costPending : C.costNone;
      delete e.cost.dataset.value;
      for (const k of ['min', 'max', 'batches']) delete e.costSpread.dataset[k];
      e.costSpread.textContent = '';
      e.costNote.textContent = '';
    }
    e.costNote.hidden = !cost;
    e.costSpread.hidden = !cost;
    const n = entropy.columns;
    if (entropy.bits === null) {
      e.entropy.textContent = C.entropyNone;
      delete e.entropy.dataset.value;
    } else {
      e.entropy.textContent = C.entropyValue(entropy.bits, entropy.rows);
      e.entropy.dataset.value = String(entropy.bits);
    }
    e.entropyScale.textContent = n > 0 ? C.entropyScale(n, Math.log2(n)) : '';
    e.entropyScale.hidden = !(n > 0);
    e.entropyGuided.textContent = C.entropyGuided;
    e.entropyGuided.hidden = info?.attentionGuidance !== 'ibm1-diag';
  }
}
