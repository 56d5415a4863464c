// The widget's shadow tree, built in one place: the placeholder and error box, the typed
// sentence's form, the sentence tabs, the single figure (sentences, control bar, Transformer
// heads, matrix, legend, step panel), a root per two-model mode and the status line. Returns
// the parts the element wires, by name.
//
// Automation hooks (stable): the data-role attributes below.

import { MAX_TEXT } from '../lib/catalogue.js';
import { gradientCss } from '../ui/colormap.js';
import { h } from '../ui/dom.js';
import { controlParts } from '../ui/playback-bar.js';
import { modelKind } from '../ui/transformer-strings.js';

// widget-dark.css last: the dark theme's colours (widget/theme.js) over every sheet's.
const STYLES = ['ui/ui.css', 'ui/widget.css', 'ui/compare.css', 'ui/bottleneck.css', 'ui/transformer.css', 'ui/edit.css', 'ui/widget-layout.css', 'ui/widget-dark.css'];

// root: the shadow root; base: where the styles are (next to bahdanau-widget.js); pairNames:
// the two-model modes, one root each.
export function buildShadow(root, base, pairNames) {
  const e = {};
  e.progressLabel = h('span', { 'data-role': 'progress-label' });
  e.progressBar = h('progress', { 'data-role': 'progress-bar', max: '1' });
  e.placeholder = h('div', { class: 'placeholder', 'data-role': 'placeholder' }, e.progressLabel, e.progressBar);
  e.error = h('div', { class: 'error', 'data-role': 'error', role: 'alert', hidden: true });
  e.source = h('span', { class: 'source', 'data-role': 'source' });
  e.output = h('span', { class: 'tokens output', 'data-role': 'output' });
  e.sentences = h('p', { class: 'sentences' }, e.source, h('span', { class: 'arrow', 'aria-hidden': 'true', text: ' → ' }), e.output);
  e.input = h('input', { type: 'text', 'data-role': 'source-input', maxlength: String(MAX_TEXT), spellcheck: 'false', autocomplete: 'off' });
  e.submit = h('button', { type: 'submit', 'data-role': 'translate', class: 'go' });
  e.form = h('form', { class: 'own', 'data-role': 'form' }, e.input, e.submit);
  Object.assign(e, controlParts({ button: 'icon', position: 'position', speed: 'speed', speedText: { 'data-role': 'speed-label' } }, { part: 'button' }));
  e.controls = h('div', { class: 'controls', 'data-role': 'controls', role: 'group' },
    e.first, e.back, e.play, e.forward, e.last, e.position, e.speedLabel);
  e.matrixRoot = h('div', { 'data-role': 'matrix-root' });
  e.legendLabel = h('span', { class: 'legend-label', 'data-role': 'legend-label' });
  e.legend = h('div', { class: 'legend', 'aria-hidden': 'true' }, h('span', { text: '0' }),
    h('span', { class: 'legend-bar', style: { background: gradientCss() } }), h('span', { text: '1' }), e.legendLabel);
  e.editRoot = h('div', { hidden: true }); // attention edits (widget/edit.js)
  e.panelRoot = h('div', {});
  e.panelBox = h('div', { class: 'panel', hidden: true }, e.panelRoot);
  e.status = h('p', { class: 'status', 'data-role': 'status', role: 'status' });
  e.headsNote = h('p', { class: 'heads-note', 'data-role': 'heads-note', hidden: true });
  e.headsRoot = h('div', { 'data-role': 'heads-root' });
  e.figure = h('div', { class: 'figure', 'data-role': 'figure' }, e.sentences, e.controls, e.headsRoot, e.headsNote, e.matrixRoot, e.legend, e.editRoot, e.panelBox);
  e.tabs = h('div', { 'data-role': 'sentence-tabs' });
  e.pairRoots = Object.fromEntries(pairNames.map((name) =>
    [name, h('div', { class: 'compare-root', 'data-role': `${name}-root`, hidden: true })]));
  e.widget = h('div', { class: 'widget', part: 'widget', 'data-role': 'widget', 'data-state': 'idle' },
    e.placeholder, e.error, e.form, e.tabs, e.figure, Object.values(e.pairRoots), e.status);
  const css = (file) => h('link', { rel: 'stylesheet', href: new URL(file, base).href });
  root.append(...STYLES.map(css), e.widget);
  return e;
}

// The download's progress in the placeholder (p null: starting, size unknown; W: the words).
export function showProgress(e, p, W) {
  if (!p) {
    e.progressLabel.textContent = W.loading;
    e.progressBar.removeAttribute('value');
  } else if (p.total) {
    e.progressBar.max = p.total;
    e.progressBar.value = p.loaded;
  }
}

// The status line: the model, the engine variant and the model's kind (translator null: none).
export function showStatus(e, translator, label, S, T) {
  if (!translator) {
    e.status.textContent = '';
    return;
  }
  e.status.textContent = `${S.modelLabel(label)} · ${S.variantName(translator.engine.variant)} · ${modelKind(S, T, translator.info())}`;
  e.status.dataset.variant = translator.engine.variant;
}

// The tree's words in the figure's language: S, strings.js's table; W, widget-strings.js's.
export function labelShadow(e, S, W) {
  e.controls.setAttribute('aria-label', S.playback);
  e.first.setAttribute('aria-label', S.first);
  e.back.setAttribute('aria-label', S.back);
  e.forward.setAttribute('aria-label', S.forward);
  e.last.setAttribute('aria-label', S.last);
  e.speedLabel.firstChild.textContent = S.speed;
  e.input.setAttribute('aria-label', W.typeHere);
  e.input.placeholder = W.typeHere;
  e.submit.textContent = S.translate;
  e.legendLabel.textContent = S.legend;
}
