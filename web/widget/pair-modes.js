// The widget's modes other than the single figure, by the value of its mode attribute: each a
// view of two translators decoded in lockstep, with the models it shows when model-a / model-b
// are not given, and timelapse (defaults null): a recorded training run, which loads no model,
// hosted here for the same shadow root, state, error box and life cycle. Any other mode value
// keeps the single figure.

import { explain, modelError, sharedTranslator } from './engines.js';

// name -> () => Promise<{Mode, defaults}>. Each mode's module (and its views: the comparison's,
// the bottleneck's, the timelapse's charts) is imported on first use, not with the element:
// they are a third of the element's code, which every single figure would otherwise fetch and
// compile before its first word (scripts/bench --first-visit).
export const PAIR_MODES = {
  compare: () => import('./compare-mode.js').then((m) => ({ Mode: m.CompareMode, defaults: m.COMPARE_DEFAULTS })),
  bottleneck: () => import('./bottleneck-mode.js').then((m) => ({ Mode: m.BottleneckMode, defaults: m.BOTTLENECK_DEFAULTS })),
  timelapse: () => import('./timelapse-mode.js').then((m) => ({ Mode: m.TimelapseMode, defaults: null })),
};

// What a two-model mode may do to the element that hosts it, and no more: fire its events,
// set its state and error box, show the download's progress, write its status line and its
// playback hooks, and load models through the page-wide translators. element: the
// <attention-translator>; parts: its shadow tree's (widget/shadow.js); the rest, its own
// methods (strings(): widget-strings.js's table; lang(): en or zh).
export function pairHost(element, parts, { strings, lang, setState, showError, progress }) {
  return {
    dispatch: (name, detail) => element.dispatchEvent(new CustomEvent(name, { detail })),
    load: sharedTranslator,
    explain: (err) => explain(err, strings()),
    modelError: (err, model) => modelError(err, model, strings(), lang()),
    strings,
    lang,
    setState,
    showError,
    progress,
    hideError: () => {
      parts.error.hidden = true;
    },
    attribute: (name) => element.getAttribute(name), // a mode's own attributes (timelapse's data, frame)
    // fn(name) at each change of these attributes, which the element itself does not observe.
    watch: (names, fn) => new MutationObserver((records) => {
      for (const name of new Set(records.map((r) => r.attributeName))) fn(name);
    }).observe(element, { attributes: true, attributeFilter: names }),
    status: (text, variant) => {
      parts.status.textContent = text;
      parts.status.dataset.variant = variant;
    },
    position: (player) => {
      parts.widget.dataset.position = String(player.position);
      parts.widget.dataset.playing = String(player.playing);
    },
  };
}
