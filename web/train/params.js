// train.html's URL parameters, read defensively (links anyone can write):
//   lang=zh      Chinese captions
//   scoring      additive (default) | scaled_dot | none
//   preset       tiny (default) | small. Tiny by default on every screen: it makes about 2.6
//                times the small model's steps, so its flip shows within the 3 minutes on a
//                slow machine where the small model's does not (docs/training-live.md, "The
//                default size"); the small one learns more per step, for longer runs.
//   watch        the watched sentence, from 1 (default 1: "It is my favorite book."; train/watch.js)
//   simd=0       the scalar engine
//   relaxed=1    relaxed SIMD's fused product where the browser runs it (createTrainer's
//                relaxed: 'auto'): faster on the small preset. Off by default, so that every
//                browser trains the same run, bit for bit, and a class sees its flip at the
//                same step: the fused product rounds otherwise, which makes another run
//                (docs/training-live.md, "The same run in every browser").
// Anything else is ignored; a bad value falls back to the default.

import { DEFAULT_PRESET, PRESETS, SCORINGS } from './controls.js';

export function readTrainParams(location, { sentences = 1 } = {}) {
  const q = new URLSearchParams(location.search);
  const scoring = q.get('scoring');
  const preset = q.get('preset');
  const watch = Number(q.get('watch'));
  return {
    lang: q.get('lang') === 'zh' ? 'zh' : 'en',
    scoring: SCORINGS.includes(scoring) ? scoring : 'additive',
    preset: PRESETS.includes(preset) ? preset : DEFAULT_PRESET,
    watch: Number.isInteger(watch) && watch >= 1 && watch <= sentences ? watch - 1 : 0,
    simd: q.get('simd') === '0' ? false : 'auto',
    relaxed: q.get('relaxed') === '1' && q.get('simd') !== '0' ? 'auto' : false,
  };
}
