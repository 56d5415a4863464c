// index.html's engine worker, started at navigation: this module is loaded async from the
// page's <head>, ahead of app.js's graph of modules, and asks the worker for the model at once,
// so the 5 MB download and the wasm's compilation start in the first second instead of after
// the page's modules have loaded (about 4.5 s on a slow phone). app.js takes the load over
// (adoptEarly) when it wants the same model and engine, else it is stopped. The model is
// downloaded in the worker, as ever: the page's main thread never holds the engine or the bytes.
//
// Only for a model named from the catalogue (or none: the default); a model= URL is checked by
// app/params.js first, as ever.

import { EngineClient } from '../engine/client.js';
import { DEFAULT_MODEL, MODELS } from '../lib/catalogue.js';

function begin() {
  const q = new URLSearchParams(location.search);
  const name = q.get('model') ?? DEFAULT_MODEL;
  if (!Object.hasOwn(MODELS, name) || typeof WebAssembly !== 'object' || typeof Worker !== 'function') return null;
  const url = new URL(MODELS[name].url, location.href).href;
  const simd = q.get('simd') === '0' ? false : 'auto';
  try {
    const client = new EngineClient();
    client.load({ model: url, simd }).catch(() => {}); // its error is app.js's to show, once adopted
    return { url, simd, client };
  } catch {
    return null; // no module workers: app.js tries, and says what failed
  }
}

let early = begin();

// -> {client}: an EngineClient already loading this model URL with this simd choice (its
// load() joins that load); else null, and what was started is stopped. Once only.
export function adoptEarly({ url, simd }) {
  const e = early;
  early = null;
  if (e && e.url === url && e.simd === simd) return e;
  e?.client.dispose();
  return null;
}
