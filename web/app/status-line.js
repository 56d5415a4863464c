// The page's status line: the engine variant and why it was chosen, the model's size, dtype,
// parameters and kind, and the time per word of the sentence last decoded.

import { RELAXED_REASON } from '../lib/relaxed.js';
import { modelKind } from '../ui/transformer-strings.js';

function bytes(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`;
}

// S, T: strings.js's and transformer-strings.js's tables; loaded: {info, engine} or null;
// params: the page's (model, simd); msPerWord: null before a sentence is decoded.
// -> {text, variant (null before a model is loaded)}.
export function statusLine(S, T, loaded, params, msPerWord) {
  if (!loaded) return { text: `${S.engine}: —`, variant: null };
  const { info, engine: eng } = loaded;
  const reason = params.simd === false ? 'forced by ?simd=0'
    : eng.kernels === 'wasm-relaxed' ? RELAXED_REASON : eng.reason;
  const parts = [
    `${S.engine}: ${S.engineUsed(eng.variant, reason)}`,
    `${S.modelLabel(params.model.label)}: ${bytes(info.fileBytes)}, ${info.dtype}, ${S.paramCount(info.numParams)}, ${modelKind(S, T, info)}`,
  ];
  if (msPerWord != null) parts.push(`${msPerWord.toFixed(2)} ${S.msPerWord}`);
  return { text: parts.join(' · '), variant: eng.variant };
}

// The same line, written into the status element el.
export function showStatus(el, ...args) {
  const { text, variant } = statusLine(...args);
  el.textContent = text;
  if (variant) el.dataset.variant = variant;
}
