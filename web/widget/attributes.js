// <attention-translator>'s attributes, one row each: how its value is read (every value is data
// from any author, never markup: a bad one reads as the default, never throws) and what a
// change to it redoes. The element observes exactly these names, and reads values only here.
//
// All are optional:
//   model     a name (en-fr, en-fr-f32, en-fr-dot, en-fr-guided, en-fr-noattn, en-fr-transformer,
//             tiny; en-zh: English->Chinese, whose captions then name Chinese) or the URL of a
//             .safetensors file (default en-fr); any catalogue name is valid (widget/engines.js)
//   text      the English sentence                    autoplay  play the words one by one
//   speed     words per second: 1, 2, 4, 10 or instant step      freeze at word N (from 0)
//   controls  none | minimal | full (default minimal) panel     show the four-step panel
//   lang      en | zh (captions)                      beam      1..8 (default 1)
//   layout    slide: a 16:9 box in large type, arrow keys and space step while it has focus,
//             panel behind a toggle; article: compact for a 700-760 px column; any other
//             value: the default layout (widget/layout.js)
//   height    a CSS length (400px, 30rem, 60vh): the figure scrolls inside it
//   theme     light | dark | auto (default auto: the reader's prefers-color-scheme, followed
//             live; any other value reads as auto, with a console warning) (widget/theme.js)
//   split-sentences   a text of several sentences (a paragraph, longer than the model reads)
//             is translated one sentence at a time: a row of sentence tabs picks the one shown
//   sentence  with split-sentences, the sentence shown first, from 1 (default 1)
//   layer, head  a Transformer model (en-fr-transformer): the decoder layer (from 1, default
//             the last) and head (from 1, or avg: the default, the mean of the layer's heads)
//             whose cross-attention is drawn; a bad value is ignored with a note (widget/heads.js)
//   edit      attention edits, separated by spaces: S:J (word S, from 0, looks all at source
//             column J, from 0) or S:w0,w1,... (its weights); a bad one is left out with a note.
//             With controls="full" a click on a cell of the matrix (or Enter on it), or the
//             step panel's weights dragged, writes it (widget/edit.js)
//   mode      compare: two models' matrices side by side on the same sentence (additive
//             model-a, default en-fr, and scaled-dot model-b, default en-fr-dot; names or URLs
//             as for model), decoded in lockstep, with each one's scoring formula, parameter
//             count, measured scoring time and attention entropy, the row where they differ
//             most, and a self-attention illustration (widget/compare-mode.js).
//             bottleneck: why.html's figure, a model without attention (model-a, default
//             en-fr-noattn) and its one fixed context vector c as a strip, beside one with
//             attention (model-b, default en-fr) and its matrix, in lockstep
//             (widget/bottleneck-mode.js). beam and panel do not apply to either.
//             timelapse: learn.html's recorded training run (its own data, frame; speed in
//             frames per second; loads no model) (widget/timelapse-mode.js). Any other value:
//             the single figure.
//
// Effects, applied in this order: layout (visibility, strings, height), theme (the colours),
// speed, heads (the Transformer's rows drawn), step (where playback rests), edit (the
// attention edits decoded), load (load and translate again).

import { MAX_BEAM, MAX_TEXT } from '../lib/catalogue.js';
import { DEFAULT_SPEED, SPEED_NAMES } from '../ui/player.js';
import { readLayout } from './layout.js';
import { PAIR_MODES } from './pair-modes.js';
import { readTheme } from './theme.js';

export const DEFAULT_TEXT = 'I have a black cat.'; // right from both default models, the flip in view
export const EFFECTS = ['layout', 'theme', 'speed', 'heads', 'step', 'edit', 'load'];

const int = (lo, hi) => (value) => {
  if (value === null || !/^\s*\d{1,4}\s*$/.test(value)) return null;
  const n = Number(value);
  return n >= lo && n <= hi ? n : null;
};

function cssLength(value) {
  const v = (value ?? '').trim();
  if (/^\d{1,4}(\.\d+)?$/.test(v)) return `${v}px`;
  return /^\d{1,4}(\.\d+)?(px|em|rem|vh|vw|%)$/.test(v) ? v : '';
}

// words per second -> Player speed index (SPEEDS_MS = 1000, 500, 250, 100, 0 ms)
function speedIndex(value) {
  const i = SPEED_NAMES.indexOf((value ?? '').trim());
  return i >= 0 ? i : DEFAULT_SPEED;
}

const flag = (value) => value !== null;
const raw = (value) => value;

export const ATTRIBUTES = {
  model: { read: raw, effects: ['load'] }, // resolved by widget/engines.js
  text: { read: (v) => (v === null ? DEFAULT_TEXT : v).slice(0, MAX_TEXT), effects: ['load'] },
  autoplay: { read: flag, effects: ['step'] },
  speed: { read: speedIndex, effects: ['speed'] },
  step: { read: int(0, 1000), effects: ['step'] },
  controls: { read: (v) => (v === 'none' || v === 'full' ? v : 'minimal'), effects: ['layout', 'heads'] },
  panel: { read: flag, effects: ['layout'] },
  layout: { read: readLayout, effects: ['layout'] }, // widget/layout.js
  lang: { read: (v) => (v === 'zh' ? 'zh' : 'en'), effects: ['layout', 'heads'] },
  beam: { read: (v) => int(1, MAX_BEAM)(v) ?? 1, effects: ['load'] },
  height: { read: cssLength, effects: ['layout'] },
  theme: { read: readTheme, effects: ['theme'] }, // widget/theme.js resolves auto
  // A two-model mode's name; anything but a known value keeps the single figure.
  mode: { read: (v) => (v !== null && Object.hasOwn(PAIR_MODES, v) ? v : null), effects: ['layout', 'load'] },
  'model-a': { read: raw, effects: ['load'] },
  'model-b': { read: raw, effects: ['load'] },
  'split-sentences': { read: flag, effects: ['load'] },
  sentence: { read: (v) => int(1, 1000)(v) ?? 1, effects: ['load'] }, // from 1
  layer: { read: raw, effects: ['heads'] }, // checked against the model (widget/heads.js)
  head: { read: raw, effects: ['heads'] },
  edit: { read: raw, effects: ['edit'] }, // widget/edit.js reads it
};

export const OBSERVED = Object.keys(ATTRIBUTES);

// The value of attribute `name` on element el, as its row reads it.
export const attr = (el, name) => ATTRIBUTES[name].read(el.getAttribute(name));
