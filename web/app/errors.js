// The pages' error box (index.html and compare.html): what went wrong, the details, and that
// the typed text is kept; and a failed engine load named in words.
import { h } from '../ui/dom.js';

export function showErrorBox(box, S, title, detail, action = null) {
  box.replaceChildren(
    h('p', { class: 'error-title', text: title }),
    detail ? h('p', { class: 'error-detail', text: detail }) : null,
    h('p', { class: 'error-keep', text: S.errorKeep }),
    action,
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
