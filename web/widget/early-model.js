// embed.html's model and engine, started at navigation: this module is loaded async from the
// frame's <head> and imports only the two caches that web/lib keeps per page, the engine's
// instance (loader.js) and the model's bytes (model-cache.js), so the download, the engine's
// fetch and the wasm's compilation begin while the element's graph of about ninety modules is
// still loading (on a slow phone they began about 1 s after navigation, behind it). Once the
// engine and the bytes are in, it makes the model's translator through widget/engines.js, the
// one the element asks for by the same URL: one download and one C++ model, and the progress
// so far is replayed to the element. app/early-model.js does the same
// for index.html's worker.
//
// Only the single figure with a catalogue model (or none: the default). A path in model= is
// checked by embed.js first, as ever, and a mode= decides for itself which models it loads.

import { DEFAULT_MODEL, MODELS } from '../lib/catalogue.js';
import { chooseVariant, loadVariant } from '../lib/loader.js';
import { modelBytes } from '../lib/model-cache.js';

// -> the model URL started, or null when the frame's parameters leave it to the element.
// base: the folder of bahdanau-widget.js, whose models/ and dist/ the element loads from
// (widget/engines.js).
export function startEarly(search, base) {
  const q = new URLSearchParams(search);
  if (q.has('mode') || typeof WebAssembly !== 'object') return null;
  const name = q.get('model') ?? DEFAULT_MODEL;
  if (!Object.hasOwn(MODELS, name)) return null;
  const url = new URL(MODELS[name].url, base).href;
  // Failures are the element's to show: it asks again, since no cache keeps a failed load.
  let engine;
  try {
    engine = loadVariant(chooseVariant('auto').variant, new URL('dist/', base));
  } catch (e) {
    engine = Promise.reject(e); // no engine for this browser: the element says so
  }
  const bytes = modelBytes(url);
  // Then the C++ model itself, through the translator the element will share (engines.js, whose
  // graph is the element's own and comes in meanwhile): its load no longer waits for the element.
  Promise.all([engine, bytes, import('./engines.js')])
    .then(([, , { sharedTranslator }]) => sharedTranslator(url))
    .catch(() => {});
  return url;
}

if (typeof location === 'object') startEarly(location.search, new URL('../', import.meta.url));
