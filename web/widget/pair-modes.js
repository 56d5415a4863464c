// The widget's two-model modes, by the value of its mode attribute: each a view of two
// translators decoded in lockstep, with the models it shows when model-a / model-b are not
// given. Any other mode value keeps the single figure.

import { BOTTLENECK_DEFAULTS, BottleneckMode } from './bottleneck-mode.js';
import { COMPARE_DEFAULTS, CompareMode } from './compare-mode.js';
import { explain, modelError, sharedTranslator } from './engines.js';

export const PAIR_MODES = {
  compare: { Mode: CompareMode, defaults: COMPARE_DEFAULTS },
  bottleneck: { Mode: BottleneckMode, defaults: BOTTLENECK_DEFAULTS },
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
