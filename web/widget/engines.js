// The widget's engine state, shared by every <attention-translator> on a page: one translator
// per model URL (so figures that show the same model share one download and one C++ model),
// the page's CSP violations (so a blocked engine can be explained in words), and the rule for
// model attributes. The single figure and the compare mode both load through here.
//
// Decision: the widget decodes on the main thread with web/lib directly, not in a worker.
// web/lib already keeps one wasm instance per variant (loader.js) and one download per model
// URL (model-cache.js) per page, and widget/engines.js keeps one translator per model, so every
// widget on a page shares them with no coordination; a worker could not even be started from
// another origin without a blob: wrapper (and a worker-src exception in the host's CSP). The
// model is small (about a millisecond per word), and steps() yields between words, so the
// host page stays responsive. The cost is stated in embed-docs.html: the host page's CSP
// must allow 'unsafe-eval' (Embind builds its invokers with new Function).

import { DEFAULT_MODEL, MODELS } from '../lib/catalogue.js';
import { createTranslator } from '../lib/bahdanau.js';
import { MODEL_MESSAGES } from './messages.js';

const HERE = new URL('../', import.meta.url); // where bahdanau-widget.js is
const DIST = new URL('dist/', HERE);

const translators = new Map(); // model URL -> {promise, listeners, last}

export function sharedTranslator(url, onProgress) {
  let entry = translators.get(url);
  if (!entry) {
    entry = { listeners: new Set(), last: null };
    const e = entry;
    e.promise = createTranslator({
      model: url,
      dist: DIST,
      onProgress: (p) => {
        e.last = p;
        for (const listener of e.listeners) listener(p);
      },
    });
    e.promise.catch(() => translators.delete(url)); // not cached: a later widget may retry
    translators.set(url, e);
  }
  if (onProgress) {
    entry.listeners.add(onProgress);
    if (entry.last) onProgress(entry.last);
  }
  return entry.promise.finally(() => entry.listeners.delete(onProgress));
}

// CSP violations seen on this page (the engine's eval and wasm compilation are reported here
// before the error that follows them), so an error can be explained in words.
const violations = [];
if (typeof document === 'object') {
  document.addEventListener('securitypolicyviolation', (e) => {
    if (e.blockedURI === 'eval' || e.blockedURI === 'wasm-eval' || /eval/.test(e.sample ?? '')) {
      violations.push(e.effectiveDirective || e.violatedDirective);
    }
  });
}

export function explain(error, W) {
  const text = String(error?.message ?? error);
  const byCsp = /unsafe-eval|Content Security Policy|EvalError|Refused to (evaluate|compile)/i.test(text);
  const engineFailed = !/cannot (load|download|read) (the )?model/i.test(text);
  if (byCsp || (violations.length && engineFailed)) return W.cspBlocked(violations[0] ?? 'script-src');
  return text;
}

// The error box's words for a model that failed to load. model: resolveWidgetModel's {name,
// url, label, named}; W: widget-strings.js's table; lang: en or zh. A 404 says where it looked,
// in words of its own; anything else is the model's label and explain()'s words.
export function modelError(error, model, W, lang) {
  const text = String(error?.message ?? error);
  if (/cannot download model .*HTTP 404/.test(text)) {
    const M = MODEL_MESSAGES[lang] ?? MODEL_MESSAGES.en;
    return model.named ? M.nameNotFound(model.name, model.url) : M.pathNotFound(model.url);
  }
  return `${model.label}: ${explain(error, W)}`;
}

// A model attribute: a name from MODELS, resolved against bahdanau-widget.js's own URL (so on a
// CDN, models/NAME comes from the same package version, never from the host page), or an http(s)
// URL or path resolved against the host page. Anything else (javascript:, data:, …) is refused.
// -> {name, url, label, named} or null.
export function resolveWidgetModel(value) {
  const v = (value ?? '').trim() || DEFAULT_MODEL;
  if (Object.hasOwn(MODELS, v)) return { name: v, url: new URL(MODELS[v].url, HERE).href, label: MODELS[v].label, named: true };
  let url;
  try {
    url = new URL(v, document.baseURI);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { name: v, url: url.href, label: v, named: false };
}
