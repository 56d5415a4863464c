// embed.html: one <attention-translator> from the URL's parameters, full frame, telling its
// parent how tall it is so a one-line script there can size the iframe.
//
// URL parameters (all data; copied into attributes with setAttribute, never into markup):
//   model, model-a, model-b (a name, or a same-origin path, as on the page), text, step,
//   controls, panel (1), autoplay (1), speed, lang, beam, height, mode (compare, bottleneck),
//   split-sentences (1), sentence, layer and head (a Transformer's cross-attention drawn),
//   theme (light, dark or auto, the default: the reader's prefers-color-scheme; any other
//   value reads as auto), layout (slide, article) and edit (attention edits, as the attribute);
//   for mode=timelapse, data (the recorded run's file: a same-origin path only, by the rule for
//   model paths; anything else shows the widget's error box) and frame (from 1).
//   The frame's own color-scheme follows the theme, so that a browser does not paint an opaque
//   backdrop behind the figure where the frame's scheme and the parent's differ.
//
// Messages to the parent:  {type: 'attention-translator:height', height: <px>}
//                          {type: 'attention-translator:event', event: 'ready'|'done'|'error'|'step', detail}
//   (step's detail: index and word; in mode=timelapse frame, frames, step and sentence)
// Messages it accepts from its parent (anything else is ignored; nothing is evaluated):
//   {type: 'attention-translator:set', attributes: {text?, step?, controls?, panel?, autoplay?,
//                                                    speed?, lang?, beam?, height?, mode?,
//                                                    'split-sentences'?, sentence?, layer?, head?,
//                                                    theme?, layout?, edit?, data?, frame?}}
//   (strings, at most 2000 characters; a null value removes the attribute; data by the same
//   same-origin rule as on the URL)

import { resolveModel } from './app/params.js';
import { MODELS } from './lib/catalogue.js';
import { readTheme } from './widget/theme.js';

export const SETTABLE = ['text', 'step', 'controls', 'panel', 'autoplay', 'speed', 'lang', 'beam', 'height', 'mode',
  'split-sentences', 'sentence', 'layer', 'head', 'theme', 'layout', 'edit', 'data', 'frame'];
const FLAGS = ['panel', 'autoplay', 'split-sentences'];
const PREFIX = 'attention-translator:';
// What a step event may say to the parent: where the figure is, as numbers and words only.
const STEP_FIELDS = ['index', 'word', 'frame', 'frames', 'step', 'sentence'];

// mode=timelapse's data: a same-origin path, by resolveModel's rule for model paths (the widget
// alone would fetch any http(s) URL); a model's name is read as the path it spells, never as
// that model's file. -> the absolute URL, or null.
export function dataPath(value, base) {
  if (typeof value !== 'string') return null;
  return resolveModel(Object.hasOwn(MODELS, value) ? `./${value}` : value, base)?.url ?? null;
}

// A step event's detail as posted: the plain fields of STEP_FIELDS it has, nothing else (the
// single figure's weights are large, and a two-model mode's sides are objects).
export function stepDetail(d) {
  return Object.fromEntries(STEP_FIELDS.filter((k) => typeof d?.[k] === 'number' || typeof d?.[k] === 'string').map((k) => [k, d[k]]));
}

const q = new URLSearchParams(location.search);
const el = document.createElement('attention-translator');
// As on the page, a link may name a model or a same-origin path, never another origin.
for (const name of ['model', 'model-a', 'model-b']) {
  const value = q.get(name);
  const model = value === null ? null : resolveModel(value, location.href);
  if (value !== null && model === null) el.setAttribute(name, 'invalid:'); // shows the error in the widget
  else if (model) el.setAttribute(name, Object.hasOwn(MODELS, value) ? value : model.url);
}
// A string value onto the element: cut to 2000 characters; data through its path rule, refused
// as 'invalid:', which the widget shows as an error (as a refused model).
function setValue(name, v) {
  const value = v.slice(0, 2000);
  el.setAttribute(name, name === 'data' ? dataPath(value, location.href) ?? 'invalid:' : value);
}

for (const name of SETTABLE) {
  const v = q.get(name);
  if (v === null) continue;
  if (FLAGS.includes(name)) {
    if (v !== '0' && v !== 'false') el.setAttribute(name, '');
  } else {
    setValue(name, v);
  }
}
(document.querySelector('main') ?? document.body).append(el);

// The frame's heading (for screen readers) and its language follow the figure's lang.
const HEADINGS = { en: 'bahdanau-live: an attention figure, decoded word by word', zh: 'bahdanau-live：逐词解码的注意力图' };
function frameLanguage() {
  const lang = el.getAttribute('lang') === 'zh' ? 'zh' : 'en';
  document.documentElement.lang = lang === 'zh' ? 'zh-Hans' : 'en';
  const heading = document.querySelector('h1');
  if (heading) heading.textContent = HEADINGS[lang];
}
frameLanguage();

// The frame's color-scheme (embed.css) is the theme the figure reads from the same attribute.
function frameTheme() {
  document.documentElement.dataset.theme = readTheme(el.getAttribute('theme'));
}
frameTheme();

const parentWindow = window.parent !== window ? window.parent : null;
const post = (msg) => parentWindow?.postMessage(msg, '*'); // nothing secret: a height, a state

let lastHeight = -1;
new ResizeObserver(() => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  post({ type: `${PREFIX}height`, height });
}).observe(document.body);

for (const event of ['ready', 'done', 'error', 'step']) {
  el.addEventListener(event, (e) => {
    const d = e.detail ?? {};
    const detail = event === 'step' ? stepDetail(d) : event === 'done' ? { text: d.text } : {}; // an error's text may quote bytes of the URL it fetched: the parent gets only the event
    post({ type: `${PREFIX}event`, event, detail });
  });
}

window.addEventListener('message', (e) => {
  if (!parentWindow || e.source !== parentWindow) return;
  const m = e.data;
  if (!m || typeof m !== 'object' || m.type !== `${PREFIX}set`) return;
  const attrs = m.attributes;
  if (!attrs || typeof attrs !== 'object') return;
  for (const name of SETTABLE) {
    if (!Object.hasOwn(attrs, name)) continue;
    const v = attrs[name];
    if (v === null || v === false) el.removeAttribute(name);
    else if (v === true) el.setAttribute(name, '');
    else if (typeof v === 'string' || typeof v === 'number') setValue(name, String(v));
  }
  frameLanguage();
  frameTheme();
});
