// The widget's modes other than the single figure, by the value of its mode attribute: each a
// view of two translators decoded in lockstep, with the models it shows when model-a / model-b
// are not given, and timelapse (defaults null): a recorded training run, which loads no model,
// hosted here for the same shadow root, state, error box and life cycle. Any other mode value
// keeps the single figure.

import { BOTTLENECK_DEFAULTS, BottleneckMode } from './bottleneck-mode.js';
import { COMPARE_DEFAULTS, CompareMode } from './compare-mode.js';
import { explain, modelError, sharedTranslator } from './engines.js';
import { TimelapseMode } from './timelapse-mode.js';

export const PAIR_MODES = {
  compare: { Mode: CompareMode, defaults: COMPARE_DEFAULTS },
  bottleneck: { Mode: BottleneckMode, defaults: BOTTLENECK_DEFAULTS },
  timelapse: { Mode: TimelapseMode, defaults: null },
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
