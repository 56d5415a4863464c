// The page's URL parameters, read defensively: they come from links anyone can write.
//   text   the sentence (plain text; only ever put into the text box and textContent)
//   model  a name from MODELS, a same-origin relative URL (never a full URL elsewhere), or
//          'trained': the model handed over by train.html, kept in this browser (train/handoff.js)
//   step   the output word to stop at, from 0
//   beam   1..MAX_BEAM;  simd=0 forces the scalar engine;  lang=zh for Chinese captions
//   force  a French translation to align to text (forced decoding), shown instead of the
//          model's own (plain text, like text)
//   speed  words per second: 1, 2, 4 (default), 10 or instant;  view=lines for the
//          alignment lines instead of the matrix
//   sentence  text of several sentences is translated sentence by sentence: the one shown,
//          from 1 (step and force then belong to that sentence)
//   whole  whole=1: text of several sentences, under the model's length limit, is translated as
//          one sequence instead (one matrix over the whole text)
//   layer, head  a Transformer's cross-attention shown: the decoder layer from 1, the head from
//          1 or avg (the default: the last layer, averaged over heads); ignored for an RNN
//   edit   an attention edit, repeated for each: S:J (word S looks all at column J, both from
//          0) or S:w0,w1,... (its weights); ui/attention-edit.js reads them, dropping the rest
// compare.html takes text, step, simd, lang, edit, and a / b: the two models side by side (same
// rules as model=; by default the additive and the scaled-dot model; two models into different
// languages, or English->Chinese's one model twice, fall back to the defaults with a note). why.html takes the same,
// a / b defaulting to the model without attention and the additive one.

import { COMPARE_MODELS, DEFAULT_MODEL, LINEAGE, LINEAGE_KINDS, MAX_BEAM, MAX_TEXT, MODELS, WHY_MODELS, refusePair } from '../lib/catalogue.js';
import { parseEdits } from '../ui/attention-edit.js';
import { DEFAULT_SPEED, SPEED_NAMES } from '../ui/player.js';
import { TRAINED_MODEL } from '../train/handoff.js';
import { TRAINED_NOTE } from '../train/strings.js';

// The catalogue's names, for the page's modules and tests that read them here.
export { COMPARE_MODELS, DEFAULT_MODEL, LINEAGE, LINEAGE_KINDS, MAX_BEAM, MAX_TEXT, MODELS, WHY_MODELS, refusePair };

// -> {name, url (absolute), label} or null when the value may not be used.
export function resolveModel(value, base) {
  if (Object.hasOwn(MODELS, value)) {
    return { name: value, url: new URL(MODELS[value].url, base).href, label: MODELS[value].label };
  }
  // Relative URLs only: no scheme, no protocol-relative '//host', no backslashes (which
  // browsers read as slashes), no control characters.
  if (typeof value !== 'string' || value.length === 0 || value.length > 300) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || /^[\\/]{2}/.test(value) || /[\\\u0000-\u001f]/.test(value)) return null;
  let url;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(base).origin) return null;
  return { name: value, url: url.href, label: value };
}

export function readParams(location) {
  const q = new URLSearchParams(location.search);
  const base = location.href;
  const modelParam = q.get('model');
  const lang = q.get('lang') === 'zh' ? 'zh' : 'en';
  // The trained model has no URL: app.js reads its bytes (train/trained-model.js).
  let model = modelParam === TRAINED_MODEL ? { name: TRAINED_MODEL, url: null, label: TRAINED_NOTE[lang].label, trained: true }
    : modelParam === null ? null : resolveModel(modelParam, base);
  const badModel = modelParam !== null && model === null;
  if (!model) model = resolveModel(DEFAULT_MODEL, base);
  const int = intParam(q);
  return {
    text: (q.get('text') ?? '').slice(0, MAX_TEXT),
    force: (q.get('force') ?? '').slice(0, MAX_TEXT),
    model,
    badModel,
    step: int('step', 0, 1000),
    beam: int('beam', 1, MAX_BEAM) ?? 1,
    simd: q.get('simd') === '0' ? false : 'auto',
    lang,
    speed: speedParam(q.get('speed')),
    view: q.get('view') === 'lines' ? 'lines' : 'matrix',
    sentence: int('sentence', 1, 1000),
    whole: q.get('whole') === '1',
    heads: headsParam(q, int),
    edits: parseEdits(q.getAll('edit')),
  };
}

// layer= and head= as a 0-based {layer, head} (head 'avg'), or null when neither is given; a
// value out of the model's range is dropped once its shape is known (ui/heads.js).
function headsParam(q, int) {
  const layer = int('layer', 1, 64);
  const head = q.get('head') === 'avg' ? 'avg' : int('head', 1, 64);
  if (layer === null && head === null) return null;
  return { layer: layer === null ? -1 : layer - 1, head: head === null || head === 'avg' ? 'avg' : head - 1 };
}

// A Player speed index (ui/player.js) from its name, or null (the page's default) for anything else.
function speedParam(v) {
  const i = v === null ? -1 : SPEED_NAMES.indexOf(v);
  return i >= 0 ? i : null;
}

// The beam width box's value, as the page uses it: a whole number from 1 to MAX_BEAM.
export function clampBeam(value) {
  const n = Math.round(Number(value));
  return Number.isFinite(n) ? Math.min(MAX_BEAM, Math.max(1, n)) : 1;
}

const intParam = (q) => (name, lo, hi) => {
  const v = q.get(name);
  if (v === null || !/^\d{1,4}$/.test(v)) return null;
  const n = Number(v);
  return n >= lo && n <= hi ? n : null;
};

// compare.html's parameters: {text, step, simd, lang, a, b, badModel}. A model that may not be
// used falls back to its default and sets badModel, as model= does on the main page. why.html
// reads the same, with its own two default models.
export function readCompareParams(location, defaults = COMPARE_MODELS) {
  const q = new URLSearchParams(location.search);
  const base = location.href;
  let badModel = false;
  let [a, b] = ['a', 'b'].map((name, k) => {
    const v = q.get(name);
    const m = v === null ? null : resolveModel(v, base);
    if (v !== null && !m) badModel = true;
    return m ?? resolveModel(defaults[k], base);
  });
  // The two matrices side by side must translate into the same language; a pair of one model
  // (English->Chinese so far) has nothing to compare with. Either falls back to the defaults.
  const pairRefused = refusePair(a, b);
  if (pairRefused) [a, b] = defaults.map((name) => resolveModel(name, base));
  return {
    text: (q.get('text') ?? '').slice(0, MAX_TEXT),
    step: intParam(q)('step', 0, 1000),
    simd: q.get('simd') === '0' ? false : 'auto',
    lang: q.get('lang') === 'zh' ? 'zh' : 'en',
    edits: parseEdits(q.getAll('edit')),
    a,
    b,
    badModel,
    pairRefused,
  };
}


// A link to compare.html (next to `base`) for a sentence; a and b only when not the defaults;
// edits: edit= values (ui/attention-edit.js formatEdit).
export function compareLink(base, { text, step = null, simd = 'auto', lang = 'en', a = COMPARE_MODELS[0], b = COMPARE_MODELS[1], edits = [] }) {
  const url = new URL('compare.html', base);
  const q = new URLSearchParams();
  if (text) q.set('text', text.slice(0, MAX_TEXT));
  if (a !== COMPARE_MODELS[0]) q.set('a', a);
  if (b !== COMPARE_MODELS[1]) q.set('b', b);
  if (step !== null && step >= 0) q.set('step', String(step));
  if (simd === false) q.set('simd', '0');
  if (lang === 'zh') q.set('lang', 'zh');
  for (const v of edits) q.append('edit', v);
  url.search = q.toString();
  return url.href;
}

// The permalink for what is on screen now: text, model and step always; the rest only when
// they differ from the defaults, to keep links short. speed is a Player speed index, sentence
// counts from 1 (null: the text is one sentence); edits: edit= values.
export function permalink(location, { text, model, step, beam, simd, lang, force = '', speed = DEFAULT_SPEED, view = 'matrix', sentence = null, whole = false, heads = null, edits = [] }) {
  const url = new URL(location.pathname, location.href);
  const q = new URLSearchParams();
  q.set('text', text);
  q.set('model', model);
  if (step !== null && step >= 0) q.set('step', String(step));
  if (beam > 1) q.set('beam', String(beam));
  if (simd === false) q.set('simd', '0');
  if (lang === 'zh') q.set('lang', 'zh');
  if (force) q.set('force', force);
  if (speed !== DEFAULT_SPEED && SPEED_NAMES[speed]) q.set('speed', SPEED_NAMES[speed]);
  if (view === 'lines') q.set('view', 'lines');
  if (sentence !== null && sentence >= 1) q.set('sentence', String(sentence));
  if (whole) q.set('whole', '1');
  if (heads) {
    q.set('layer', String(heads.layer));
    q.set('head', String(heads.head));
  }
  for (const v of edits) q.append('edit', v);
  url.search = q.toString();
  return url.href;
}
