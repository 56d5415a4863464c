// train.html's URL parameters, read defensively (links anyone can write):
//   lang=zh      Chinese captions
//   scoring      additive (default) | scaled_dot | none
//   preset       small | tiny; by default small, tiny on a narrow screen (a phone trains the
//                small model at a few steps a second, too slow to watch it learn)
//   watch        the watched sentence, from 1 (default 1: "It is my favorite book."; train/watch.js)
//   simd=0       the scalar engine
// Anything else is ignored; a bad value falls back to the default.

import { PRESETS, SCORINGS } from './controls.js';

// A phone held upright: the width at which the page's layout goes to one column too.
export const NARROW = '(max-width: 600px)';

export function readTrainParams(location, { narrow = false, sentences = 1 } = {}) {
  const q = new URLSearchParams(location.search);
  const scoring = q.get('scoring');
  const preset = q.get('preset');
  const watch = Number(q.get('watch'));
  return {
    lang: q.get('lang') === 'zh' ? 'zh' : 'en',
    scoring: SCORINGS.includes(scoring) ? scoring : 'additive',
    preset: PRESETS.includes(preset) ? preset : narrow ? 'tiny' : 'small',
    watch: Number.isInteger(watch) && watch >= 1 && watch <= sentences ? watch - 1 : 0,
    simd: q.get('simd') === '0' ? false : 'auto',
  };
}
