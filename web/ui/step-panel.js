// The paper's four steps for one output word, with the engine's numbers: raw scores e_j,
// softmax weights α_j, the context vector c_i (its mix of h_j and its values), and the top
// next-word candidates. Built inside the given container (Shadow-DOM friendly); the page and
// the widget pass the same step objects that web/lib's steps() yields.

import { isRow, isUnknown, topIsUnknown } from '../engine/steps.js';
import { clear, fmt, h, tokenLabel } from './dom.js';
import { diverging, gradientCss, inkOn, viridis } from './colormap.js';
import { weightEditor } from './weight-editor.js';

export class StepPanel {
  #root;
  #strings;
  #last = null;
  #hlCol = -1;
  #onEdit;
  #refocus = null; // {step, role, col}: the control to focus again once the edit is drawn

  // onEdit(edit): the student edited the weights (ui/weight-editor.js), where views may be
  // editable ({editable: true}); the page decodes the edit and shows its step again.
  constructor(container, { strings, onEdit = null } = {}) {
    this.#root = container;
    this.#strings = strings;
    this.#onEdit = onEdit;
    clear(container).classList.add('bl-steps');
    container.dataset.role = 'step-panel';
    this.render(null);
  }

  setStrings(strings) {
    this.#strings = strings;
    this.render(this.#last);
  }

  // view: null (nothing yet), or {columns, step, scoring, decoder, transformer, guidance}.
  // transformer: the step is one layer and head of a Transformer's. step is a steps() step
  // ({index, word, e, alpha, c, cNorm, topWords, topProbs, token, topIds, done}); in beam mode
  // only {index, word, alpha} is known, and beam is true. A row of align() (the user's own
  // French) has forced: true, word the typed token and vocabWord what the model read. An
  // edited step (edited: true) has the given weights as alpha and the model's own as ownAlpha;
  // editable: the weights can be edited here.
  render(view) {
    this.#last = view;
    const S = this.#strings;
    const root = this.#root;
    if (!view || !view.step) {
      root.dataset.step = '';
      root.replaceChildren(h('p', { class: 'bl-steps-empty', text: S.stepNone }));
      return;
    }
    const { columns, step, scoring = 'additive', decoder = 'paper', transformer = false, guidance = 'none', beam = false } = view;
    const forced = Boolean(step.forced);
    const isEnd = !isRow(step);
    root.dataset.step = String(step.index);
    root.dataset.word = step.word;
    const title = isEnd ? S.stepEnd : S.stepHeading(step.index + 1, tokenLabel(step.word));
    const parts = [];
    if (isEnd && !forced) parts.push(h('p', { class: 'bl-steps-note', text: S.captionEnd }));
    if (beam) parts.push(h('p', { class: 'bl-steps-note', text: S.captionBeam }));
    if (forced) {
      const p = `${fmt(step.prob * 100, 1)}%`;
      parts.push(h('p', { class: 'bl-steps-note', 'data-role': 'forced-note',
        text: isEnd ? S.forcedEnd(p) : S.forcedStep(p, tokenLabel(step.topWords[0])) }));
      if (isUnknown(step)) parts.push(h('p', { class: 'bl-steps-note', text: S.forcedUnk(step.word) }));
    } else if (!beam && isUnknown(step) && !isEnd) {
      parts.push(h('p', { class: 'bl-steps-note', text: S.captionUnk(step.word) }));
    } else if (!beam && topIsUnknown(step) && scoring !== 'none') {
      // The copy rule (docs/model-format.md): this <unk> would have copied a lower-case English word.
      // A token with no letter or digit ("。") is a mark, not a lower-case word.
      const copied = tokenLabel(columns[attended(step.alpha)] ?? '');
      const caption = /[\p{L}\p{N}]/u.test(copied) ? S.captionUnkBanned : S.captionUnkBannedMark;
      parts.push(h('p', { class: 'bl-steps-note', 'data-role': 'unk-banned', text: caption(copied) }));
    }
    // Where a word (not the end) puts most of its weight on </s>, say why: trained models do
    // this often, above all for the first word, and it is the brightest cell of many matrices.
    const peak = step.alpha?.length ? step.alpha.indexOf(Math.max(...step.alpha)) : -1;
    if (!isEnd && step.word !== '</s>' && peak >= 0 && columns[peak] === '</s>') {
      parts.push(h('p', { class: 'bl-steps-note', 'data-role': 'eos-note', text: S.captionEosPeak }));
    }
    const grid = h('div', { class: 'bl-steps-grid' });
    // A model without attention (scoring 'none') has no scores, weights or mix: one fixed c.
    if (scoring === 'none') {
      if (!beam) grid.append(section(4, S.stepTitles[3], S.captionGenerate, candidates(step, S), 'candidates'));
      parts.push(h('p', { class: 'bl-steps-note', 'data-role': 'no-attention-note', text: S.captionNoAttention }));
      root.replaceChildren(h('h3', { class: 'bl-steps-title', text: title }), ...parts, grid);
      delete root.dataset.edited;
      return;
    }
    const tf = transformer; // one layer and head of many: the captions say so
    if (!beam) {
      const captions = (decoder === 'cgru' ? S.captionScoreCgru : null) ?? S.captionScore;
      grid.append(section(1, S.stepTitles[0], tf ? S.captionScoreTransformer : captions[scoring] ?? captions.additive,
        scoreBars(columns, step.e), 'scores'));
    }
    // How these weights were learned (info().attentionGuidance): with an aligner's hint, or by
    // translation alone. Either way, so that a student comparing two models knows which is which.
    const learned = { 'ibm1-diag': S.captionWeightsGuided, none: S.captionWeightsAlone }[guidance];
    let weightsCaption = tf ? S.captionWeightsTransformer : learned ? `${S.captionWeights} ${learned}` : S.captionWeights;
    const editable = Boolean(view.editable && this.#onEdit) && !beam && !isEnd;
    if (step.edited) weightsCaption = S.captionWeightsEdited;
    else if (editable) weightsCaption += ` ${S.captionWeightsEdit}`;
    const commit = editable ? (edit, focus) => {
      this.#refocus = { step: step.index, ...focus };
      this.#onEdit(edit);
    } : null;
    grid.append(section(2, S.stepTitles[1], weightsCaption,
      editable || step.edited ? weightEditor(columns, step, S, commit) : weightBars(columns, step.alpha), 'weights'));
    if (!beam) {
      grid.append(section(3, S.stepTitles[2], tf ? S.captionMixTransformer : S.captionMix, context(columns, step, S, tf), 'context'));
      grid.append(section(4, S.stepTitles[3], S.captionGenerate, candidates(step, S), 'candidates'));
    }
    root.replaceChildren(h('h3', { class: 'bl-steps-title', text: title }), ...parts, grid);
    if (step.edited) root.dataset.edited = 'true';
    else delete root.dataset.edited;
    this.highlightColumn(this.#hlCol);
    const back = this.#refocus;
    if (back && back.step === step.index && step.edited) {
      this.#refocus = null;
      root.querySelector(`[data-role="${back.role}"][data-col="${back.col}"]`)?.focus();
    }
  }

  // Emphasise one source column's bars (the matrix or the lines are hovering it); -1 clears.
  highlightColumn(j) {
    this.#hlCol = j;
    for (const el of this.#root.querySelectorAll('.is-hl')) el.classList.remove('is-hl');
    if (j < 0) return;
    for (const el of this.#root.querySelectorAll(`[data-col="${j}"]`)) el.classList.add('is-hl');
  }
}

// The source column (</s>, the last, excluded) with the largest weight, ties to the earlier:
// the word an <unk> would copy.
function attended(alpha) {
  let best = 0;
  for (let j = 1; j < alpha.length - 1; j++) if (alpha[j] > alpha[best]) best = j;
  return best;
}

function section(n, title, caption, body, role) {
  return h(
    'section',
    { class: 'bl-step', 'data-role': role },
    h('h4', {}, h('span', { class: 'bl-step-num', 'aria-hidden': 'true', text: String(n) }), title),
    h('p', { class: 'bl-step-caption', text: caption }),
    body,
  );
}

// e_j can be negative: bars grow left or right from a zero axis placed where 0 falls.
function scoreBars(columns, e) {
  const lo = Math.min(0, ...e);
  const hi = Math.max(0, ...e);
  const span = hi - lo || 1;
  const zero = (-lo / span) * 100;
  return bars(columns, e, (v) => {
    const a = ((Math.min(v, 0) - lo) / span) * 100;
    const b = ((Math.max(v, 0) - lo) / span) * 100;
    return {
      left: `${a}%`,
      width: `${Math.max(b - a, 0.5)}%`,
      background: v >= 0 ? 'var(--bl-pos)' : 'var(--bl-neg)',
    };
  }, (v) => fmt(v, 2), zero);
}

// α_j on an absolute 0..1 axis (not rescaled to the largest), coloured as in the matrix.
function weightBars(columns, alpha) {
  return bars(columns, alpha, (v) => ({
    left: '0%',
    width: `${Math.max(v * 100, 0.5)}%`,
    background: viridis(v),
  }), (v) => fmt(v, 3), null);
}

function bars(columns, values, geometry, label, zero) {
  return h(
    'div',
    { class: 'bl-bars', role: 'list' },
    values.map((v, j) =>
      h(
        'div',
        { class: 'bl-bar-row', role: 'listitem', 'data-col': j, 'data-value': String(v) },
        h('span', { class: 'bl-bar-label', text: tokenLabel(columns[j] ?? '') }),
        h(
          'span',
          { class: 'bl-bar-track', 'aria-hidden': 'true' },
          zero === null ? null : h('span', { class: 'bl-bar-zero', style: { left: `${zero}%` } }),
          h('span', { class: 'bl-bar', style: geometry(v) }),
        ),
        h('span', { class: 'bl-bar-value', text: label(v) }),
      ),
    ),
  );
}

// The mix (each source word's share α_j of c_i) and the vector itself as a colour strip. The
// strip's scale is symmetric around 0 and reaches this vector's largest |value|, printed at
// its ends: on a fixed -1..1 scale (GRU outputs) a real model's small values would all be
// near-white.
// A Transformer's (tf) weights mix each head's value vectors vⱼ, not the annotations, and the
// vector it reports is zᵢ, the decoder's final state: the formula and the strip say so.
function context(columns, step, S, tf = false) {
  const { alpha, c } = step;
  const [lhs, name, norm] = tf ? ['Σⱼ αⱼ vⱼ = ', 'v', S.contextNormTransformer] : ['cᵢ = ', 'h', S.contextNorm];
  const m = Math.max(...c.map(Math.abs)) || 1;
  const mix = h(
    'div',
    { class: 'bl-mix', 'aria-hidden': 'true' },
    alpha.map((a, j) =>
      h(
        'span',
        {
          class: 'bl-mix-part',
          'data-col': j,
          title: `${tokenLabel(columns[j])}: ${fmt(a, 3)}`,
          style: { flexGrow: String(a), backgroundColor: viridis(a), color: inkOn(a) },
        },
        a >= 0.12 ? tokenLabel(columns[j]) : '',
      ),
    ),
  );
  const order = alpha.map((a, j) => j).sort((x, y) => alpha[y] - alpha[x]);
  const top = order.slice(0, 3).filter((j) => alpha[j] >= 0.005);
  const rest = 1 - top.reduce((acc, j) => acc + alpha[j], 0);
  const formula = h(
    'p',
    { class: 'bl-formula' },
    lhs,
    top.flatMap((j, k) => [
      k ? ' + ' : '',
      h('b', { text: fmt(alpha[j], 2) }),
      `·${name}(`,
      h('i', { text: tokenLabel(columns[j]) }),
      ')',
    ]),
    rest > 0.005 ? ` + … (${fmt(rest, 2)})` : '',
  );
  const strip = h('canvas', {
    class: 'bl-strip',
    'data-role': 'context-strip',
    width: String(c.length),
    height: '1',
    role: 'img',
    'aria-label': `${tf ? 'z' : 'c'}: ${S.contextSize(c.length)}, ${norm} ${fmt(step.cNorm, 3)}`,
  });
  const ctx = strip.getContext('2d');
  c.forEach((v, k) => {
    ctx.fillStyle = diverging(v / m);
    ctx.fillRect(k, 0, 1, 1);
  });
  const scale = h(
    'div',
    { class: 'bl-strip-scale', 'aria-hidden': 'true' },
    h('span', { text: `−${fmt(m, 2)}` }),
    h('span', { class: 'bl-strip-gradient', style: { background: gradientCss((t) => diverging(2 * t - 1)) } }),
    h('span', { text: `+${fmt(m, 2)}` }),
  );
  const meta = h('p', { class: 'bl-strip-meta', text: `${S.contextSize(c.length)} · ${norm} = ${fmt(step.cNorm, 3)}` });
  return h('div', { class: 'bl-context' }, mix, formula, strip, scale, meta);
}

// The top next-word candidates of a step, its chosen word marked (also the edit view's pair).
export function candidates(step, S) {
  // A forced word outside the model's top k still gets its line: the user asked about it.
  const extra = step.forced && !step.topIds.includes(step.token)
    ? h('li', { class: 'bl-cand is-chosen is-forced', 'data-prob': String(step.prob) },
      h('span', { class: 'bl-cand-word', text: tokenLabel(step.vocabWord ?? step.word) }),
      h('span', { class: 'bl-bar-track', 'aria-hidden': 'true' },
        h('span', { class: 'bl-bar', style: { left: '0%', width: `${Math.max(step.prob * 100, 0.5)}%` } })),
      h('span', { class: 'bl-bar-value', text: `${fmt(step.prob * 100, 1)}%` }),
      h('span', { class: 'bl-cand-chosen', text: `✓ ${S.yourWord}` }))
    : null;
  return h(
    'ol',
    { class: 'bl-cands' },
    extra,
    step.topWords.map((w, k) => {
      const p = step.topProbs[k];
      const chosen = step.topIds[k] === step.token;
      return h(
        'li',
        { class: chosen ? 'bl-cand is-chosen' : 'bl-cand', 'data-prob': String(p) },
        h('span', { class: 'bl-cand-word', text: tokenLabel(w) }),
        h('span', { class: 'bl-bar-track', 'aria-hidden': 'true' },
          h('span', { class: 'bl-bar', style: { left: '0%', width: `${Math.max(p * 100, 0.5)}%` } })),
        h('span', { class: 'bl-bar-value', text: `${fmt(p * 100, 1)}%` }),
        chosen ? h('span', { class: 'bl-cand-chosen', text: `✓ ${step.forced ? S.yourWord : S.chosen}` }) : null,
      );
    }),
  );
}
