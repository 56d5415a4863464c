// The step panel's Normalise bars when a student may edit them: "what if it had looked
// elsewhere?". Each English word's name is a button that puts all the weight on it, and each
// bar is a slider (drag it, or use the arrow keys): the word's weight is set and the others
// scale so that all still sum to 1 (ui/attention-edit.js setWeight). Letting go hands the
// edit ({step, column} or {step, weights}) to the page, which decodes it.
//
// An edited step's bars show the given weights, with a thin mark at the model's own weight on
// each (its softmax's, which the edit replaced). Without commit, the bars only show.
//
// Automation hooks (stable): data-role="look-here" (buttons) and data-role="weight-slider"
// (role="slider"), each with data-col; data-role="own-mark" with data-own-weight.

import { editFromWeights, setWeight } from './attention-edit.js';
import { fmt, h, tokenLabel } from './dom.js';
import { viridis } from './colormap.js';

const KEY_STEPS = { ArrowRight: 0.05, ArrowUp: 0.05, ArrowLeft: -0.05, ArrowDown: -0.05, PageUp: 0.25, PageDown: -0.25 };

// columns: the source tokens then </s>; step: {index, alpha, edited, ownAlpha}; S: the page's
// strings; commit(edit, focus {role, col}) or null (shown, not editable).
export function weightEditor(columns, step, S, commit) {
  let weights = Array.from(step.alpha);
  const own = step.edited && step.ownAlpha?.length === weights.length ? step.ownAlpha : null;
  const rows = weights.map((_, j) => buildRow(columns, j, own, S, commit));
  const list = h('div', { class: `bl-bars bl-weight-edit${commit ? ' is-editable' : ''}`, role: 'list' }, rows.map((r) => r.el));

  const draw = () => rows.forEach((r, j) => {
    const v = weights[j];
    r.el.dataset.value = String(v);
    Object.assign(r.bar.style, { width: `${Math.max(v * 100, 0.5)}%`, background: viridis(v) });
    r.value.textContent = fmt(v, 3);
    if (r.slider) {
      r.slider.setAttribute('aria-valuenow', String(Number(v.toFixed(4))));
      r.slider.setAttribute('aria-valuetext', own ? `${fmt(v, 2)} (${S.ownMark(fmt(own[j], 2))})` : fmt(v, 2));
    }
  });
  draw();
  if (!commit) return list;

  const done = (j, role) => commit(editFromWeights(step.index, weights), { role, col: j });
  rows.forEach((r, j) => {
    r.look.addEventListener('click', () => commit({ step: step.index, column: j }, { role: 'look-here', col: j }));
    let start = null; // the weights when the drag began
    const at = (e) => {
      const box = r.slider.getBoundingClientRect();
      weights = setWeight(start, j, box.width > 0 ? (e.clientX - box.left) / box.width : 0);
      draw();
    };
    r.slider.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      r.slider.focus();
      r.slider.setPointerCapture?.(e.pointerId);
      start = weights.slice();
      at(e);
    });
    r.slider.addEventListener('pointermove', (e) => start && at(e));
    const release = (e) => {
      if (!start) return;
      start = null;
      r.slider.releasePointerCapture?.(e.pointerId);
      done(j, 'weight-slider');
    };
    r.slider.addEventListener('pointerup', release);
    r.slider.addEventListener('pointercancel', release);
    r.slider.addEventListener('keydown', (e) => {
      const delta = KEY_STEPS[e.key];
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? 1 : delta === undefined ? null : weights[j] + delta;
      if (to === null) return;
      e.preventDefault();
      e.stopPropagation(); // the page's arrow keys step through the words elsewhere
      const next = setWeight(weights, j, to);
      if (next.every((w, k) => w === weights[k])) return; // already there: nothing to decode
      weights = next;
      draw();
      done(j, 'weight-slider');
    });
  });
  return list;
}

function buildRow(columns, j, own, S, commit) {
  const label = tokenLabel(columns[j] ?? '');
  const r = {};
  r.bar = h('span', { class: 'bl-bar', style: { left: '0%' } });
  r.value = h('span', { class: 'bl-bar-value' });
  const mark = own ? h('span', { class: 'bl-own-mark', 'data-role': 'own-mark', 'data-own-weight': String(own[j]),
    title: S.ownMark(fmt(own[j], 3)), style: { left: `${Math.min(own[j], 1) * 100}%` } }) : null;
  if (commit) {
    r.look = h('button', { type: 'button', class: 'bl-bar-label bl-look', 'data-role': 'look-here', 'data-col': j,
      'aria-label': S.lookHere(label), title: S.lookHere(label), text: label });
    r.slider = h('span', { class: 'bl-bar-track bl-weight-slider', role: 'slider', tabindex: '0', 'data-role': 'weight-slider',
      'data-col': j, 'aria-label': S.weightOn(label), 'aria-valuemin': '0', 'aria-valuemax': '1' }, r.bar, mark);
  } else {
    r.look = h('span', { class: 'bl-bar-label', text: label });
  }
  const track = r.slider ?? h('span', { class: 'bl-bar-track', 'aria-hidden': 'true' }, r.bar, mark);
  r.el = h('div', { class: 'bl-bar-row', role: 'listitem', 'data-col': j }, r.look, track, r.value);
  return r;
}
