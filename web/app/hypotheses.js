// Beam search's final hypotheses under the result, best first, with their log-probabilities:
// shown only for a sentence decoded with a beam wider than 1.

import { fmt, h } from '../ui/dom.js';

// box: the list's section; list: its <ol>; sentence: the page's ({beam, result}) or null.
export function renderHypotheses(box, list, sentence, S) {
  const hyps = sentence?.result?.hypotheses ?? [];
  box.hidden = !(sentence?.beam > 1 && hyps.length);
  list.replaceChildren(
    ...hyps.map((hyp, k) =>
      h(
        'li',
        { class: k === 0 ? 'hyp is-best' : 'hyp', 'data-score': String(hyp.score) },
        h('span', { class: 'hyp-text', text: hyp.tokens.join(' ') }),
        h('span', { class: 'hyp-score', text: `${S.hypScore} ${fmt(hyp.score, 3)} · ${S.hypNorm} ${fmt(hyp.norm, 3)}` }),
        hyp.finished ? null : h('span', { class: 'hyp-cut', text: S.hypUnfinished }),
      ),
    ),
  );
}
