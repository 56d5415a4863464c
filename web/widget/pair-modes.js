// The widget's two-model modes, by the value of its mode attribute: each a view of two
// translators decoded in lockstep, with the models it shows when model-a / model-b are not
// given. Any other mode value keeps the single figure.

import { BOTTLENECK_DEFAULTS, BottleneckMode } from './bottleneck-mode.js';
import { COMPARE_DEFAULTS, CompareMode } from './compare-mode.js';

export const PAIR_MODES = {
  compare: { Mode: CompareMode, defaults: COMPARE_DEFAULTS },
  bottleneck: { Mode: BottleneckMode, defaults: BOTTLENECK_DEFAULTS },
};
