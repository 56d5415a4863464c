// index.html's English line as the model read it: its tokens, one per matrix column, and the
// pair under the pointer highlighted in both sentences.

import { isUnknownId } from '../engine/steps.js';
import { h, tokenLabel } from '../ui/dom.js';

// ids: the model's ids of the tokens once known (result.sourceIds), where the tokens it does
// not know (<unk>) are marked (data-unknown, and a title from S.unknownToken).
export function renderSourceTokens(el, tokens, ids = null, S = null) {
  el.replaceChildren(
    ...tokens.flatMap((tok, j) => {
      const unk = tok !== '</s>' && ids && isUnknownId(ids[j]);
      const cls = tok === '</s>' ? 'tok tok-end' : unk ? 'tok tok-unk' : 'tok';
      const attrs = unk ? { 'data-unknown': 'true', title: S?.unknownToken ?? '' } : {};
      return [j ? ' ' : '', h('span', { class: cls, 'data-col': j, text: tokenLabel(tok), ...attrs })];
    }),
  );
}

// cell: {row, col} or null. source, output: the two sentences' elements.
export function highlightTokens(doc, source, output, cell) {
  for (const el of doc.querySelectorAll('.tokens .is-hl')) el.classList.remove('is-hl');
  if (!cell) return;
  source.querySelector(`[data-col="${cell.col}"]`)?.classList.add('is-hl');
  output.querySelector(`[data-token="${cell.row}"]`)?.classList.add('is-hl');
}
