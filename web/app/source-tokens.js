// index.html's English line as the model read it: its tokens, one per matrix column, and the
// pair under the pointer highlighted in both sentences.

import { h, tokenLabel } from '../ui/dom.js';

export function renderSourceTokens(el, tokens) {
  el.replaceChildren(
    ...tokens.flatMap((tok, j) => [
      j ? ' ' : '',
      h('span', { class: tok === '</s>' ? 'tok tok-end' : 'tok', 'data-col': j, text: tokenLabel(tok) }),
    ]),
  );
}

// cell: {row, col} or null. source, output: the two sentences' elements.
export function highlightTokens(doc, source, output, cell) {
  for (const el of doc.querySelectorAll('.tokens .is-hl')) el.classList.remove('is-hl');
  if (!cell) return;
  source.querySelector(`[data-col="${cell.col}"]`)?.classList.add('is-hl');
  output.querySelector(`[data-token="${cell.row}"]`)?.classList.add('is-hl');
}
