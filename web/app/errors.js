// The pages' error box (index.html, compare.html, why.html): what went wrong, the details, and
// that the typed text is kept; and a failed engine load named in words.
import { h } from '../ui/dom.js';

// "Your text is still in the box" is said only when there is text in the page's input box
// (a failed model load can come before anything was typed).
export function showErrorBox(box, S, title, detail, action = null) {
  const input = box.ownerDocument.querySelector('[data-role="source-input"]');
  const kept = Boolean(input?.value.trim());
  // Only real nodes: replaceChildren() would write a null or undefined as the text "null". A
  // space between the parts, so that the box's text (what a screen reader or a copy reads) is
  // not one glued run ("…could not be translated.input has 120 tokens").
  const parts = [
    h('p', { class: 'error-title', text: title }),
    detail ? h('p', { class: 'error-detail', text: asSentence(detail) }) : null,
    kept ? h('p', { class: 'error-keep', text: S.errorKeep }) : null,
    action,
  ].filter(Boolean);
  box.replaceChildren(...parts.flatMap((el, i) => (i ? [' ', el] : [el])));
  box.hidden = false;
}

// An engine's reason ("input has 120 tokens") closed as a sentence of its own (its case is
// kept: it may start with a model's name, "en-fr: …").
function asSentence(text) {
  const t = String(text).trim();
  return t + (/[.!?…。！？:]$/u.test(t) ? '' : '.');
}

export function hideErrorBox(box) {
  box.hidden = true;
  box.replaceChildren();
}

// EngineClient.load() failures: no WebAssembly, a worker that did not start, else the model.
export function loadErrorTitle(error, S) {
  return { 'no-wasm': S.errorNoWasm, worker: S.errorNoWorker }[error.code] ?? S.errorModel;
}
