// The pages' error box (index.html, compare.html, why.html): what went wrong, the details, and
// that the typed text is kept; and a failed engine load named in words.
import { h } from '../ui/dom.js';

// "Your text is still in the box" is said only when there is text in the page's input box
// (a failed model load can come before anything was typed).
export function showErrorBox(box, S, title, detail, action = null) {
  const input = box.ownerDocument.querySelector('[data-role="source-input"]');
  const kept = Boolean(input?.value.trim());
  // Only real nodes: replaceChildren() would write a null or undefined as the text "null".
  box.replaceChildren(
    ...[
      h('p', { class: 'error-title', text: title }),
      detail ? h('p', { class: 'error-detail', text: detail }) : null,
      kept ? h('p', { class: 'error-keep', text: S.errorKeep }) : null,
      action,
    ].filter(Boolean),
  );
  box.hidden = false;
}

export function hideErrorBox(box) {
  box.hidden = true;
  box.replaceChildren();
}

// EngineClient.load() failures: no WebAssembly, a worker that did not start, else the model.
export function loadErrorTitle(error, S) {
  return { 'no-wasm': S.errorNoWasm, worker: S.errorNoWorker }[error.code] ?? S.errorModel;
}
