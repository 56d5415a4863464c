// <attention-translator mode="bottleneck">: why.html's side-by-side figure (ui/bottleneck-view.js)
// inside the widget's shadow root: a translator without attention, its one fixed context
// vector c drawn as a strip, beside one with attention, its matrix growing a row per word.
// Loading, lockstep decoding and events are the compare mode's (two shared main-thread
// translators stepped together); only the view differs, and there is no scoring to time (a
// model without attention has none).

import { WHY_MODELS } from '../lib/catalogue.js';
import { BottleneckView } from '../ui/bottleneck-view.js';
import { CompareMode } from './compare-mode.js';

export const BOTTLENECK_DEFAULTS = { a: WHY_MODELS[0], b: WHY_MODELS[1] };

export class BottleneckMode extends CompareMode {
  constructor(container, host, options) {
    super(container, host, options, { View: BottleneckView, analyse: false });
  }
}
