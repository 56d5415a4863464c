// Beam search's final hypotheses under the result, best first, with their log-probabilities:
// shown only for a sentence decoded with a beam wider than 1. Each is written as the
// translation is, detokenized (the engine gives a hypothesis as tokens only).

import { fmt, h } from '../ui/dom.js';

// docs/tokenization.md, "Detokenization", for French (the target language): one space between
// tokens except before . , ) ] } ... … % and after ( [ { ¿ ¡ - and an elision (l'), quotes
// glued inside; a capital on the first word and on the first after . ! ? ... …
const NO_SPACE_BEFORE = new Set(['.', ',', ')', ']', '}', '...', '…', '%']);
const NO_SPACE_AFTER = new Set(['(', '[', '{', '¿', '¡', '-']);
const SENTENCE_END = new Set(['.', '!', '?', '...', '…']);
const WORD = /[\p{L}\p{N}]/u;

export function detokenizeFr(tokens) {
  let out = '';
  let prev = '';
  let quoteOpen = false;
  let capNext = true;
  tokens.forEach((tok, i) => {
    let t = tok;
    const glue = i === 0 || NO_SPACE_BEFORE.has(t) || NO_SPACE_AFTER.has(prev) ||
      (prev.endsWith("'") && WORD.test(prev)) || (prev === '"' && quoteOpen) || (t === '"' && quoteOpen);
    if (t === '"') quoteOpen = !quoteOpen;
    if (capNext && WORD.test(t)) {
      t = t.charAt(0).toUpperCase() + t.slice(1);
      capNext = false;
    } else if (SENTENCE_END.has(t)) {
      capNext = true;
    }
    out += (glue ? '' : ' ') + t;
    prev = t;
  });
  return out;
}

// box: the list's section; list: its <ol>; sentence: the page's ({beam, result}) or null.
export function renderHypotheses(box, list, sentence, S) {
  const hyps = sentence?.result?.hypotheses ?? [];
  box.hidden = !(sentence?.beam > 1 && hyps.length);
  list.replaceChildren(
    ...hyps.map((hyp, k) =>
      h(
        'li',
        { class: k === 0 ? 'hyp is-best' : 'hyp', 'data-score': String(hyp.score), 'data-tokens': hyp.tokens.join(' ') },
        h('span', { class: 'hyp-text', text: detokenizeFr(hyp.tokens.filter((t) => t !== '</s>')) }),
        h('span', { class: 'hyp-score', text: `${S.hypScore} ${fmt(hyp.score, 3)} · ${S.hypNorm} ${fmt(hyp.norm, 3)}` }),
        hyp.finished ? null : h('span', { class: 'hyp-cut', text: S.hypUnfinished }),
      ),
    ),
  );
}
