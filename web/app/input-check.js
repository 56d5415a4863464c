// Is this English? A model that reads English still translates "我爱你" (into "我爱你 我爱你
// 我爱你."), so the page says what it saw next to the result instead of refusing: the matrix
// stays, and so does the honest reason it looks wrong.

import { isUnknownId } from '../engine/steps.js';

const LETTER = /\p{L}/u;
// Latin letters: Basic Latin, Latin-1, Latin Extended A/B and Additional (the scripts a model
// trained on English and French can read at all).
const LATIN = /[A-Za-z\u00C0-\u024F\u1E00-\u1EFF]/u;

// sourceTokens without '</s>', and their ids -> {words, unknown, nonLatin} or null when the
// input looks like English: most letters are Latin and at most half the words are known.
// (Tokens with no letter or digit, like "。", are marks, not words: they count for neither.)
export function inputCheck(text, sourceTokens, sourceIds) {
  let latin = 0;
  let other = 0;
  for (const ch of text) {
    if (!LETTER.test(ch)) continue;
    if (LATIN.test(ch)) latin++;
    else other++;
  }
  let words = 0;
  let unknown = 0;
  sourceTokens.forEach((tok, i) => {
    if (tok === '</s>' || !/[\p{L}\p{N}]/u.test(tok)) return;
    words++;
    if (isUnknownId(sourceIds[i])) unknown++;
  });
  const notLatin = other > latin;
  const mostlyUnknown = words >= 2 && unknown * 2 > words;
  return notLatin || mostlyUnknown ? { words, unknown, notLatin } : null;
}

// The words (tokens with a letter or digit) the model does not know, each once, in order:
// typos and rare words, which it reads as <unk> ("The wether is very nice todya."). Not names
// and numbers (an upper-case letter or a digit: "Zanzibar", "1984"): the engine copies those
// into the French (docs/model-format.md, the <unk> copy rule), so nothing is lost.
export function unknownWords(sourceTokens, sourceIds) {
  const out = [];
  sourceTokens.forEach((tok, i) => {
    const word = /[\p{L}\p{N}]/u.test(tok) && !/[\p{Lu}\p{N}]/u.test(tok);
    if (tok !== '</s>' && word && isUnknownId(sourceIds[i]) && !out.includes(tok)) out.push(tok);
  });
  return out;
}

// The note beside the result (el), for a decoded sentence ({text, result}) or none: the input
// does not look like English, or else the words the model does not know, named.
export function showInputNote(el, sentence, S) {
  const r = sentence?.result;
  const check = r ? inputCheck(sentence.text, r.sourceTokens, r.sourceIds) : null;
  const unknown = r && !check ? unknownWords(r.sourceTokens, r.sourceIds) : [];
  el.hidden = !check && unknown.length === 0;
  el.textContent = check ? S.notEnglish(check.unknown, check.words) : unknown.length ? S.unknownWords(unknown) : '';
  el.dataset.unknown = unknown.join(' ');
}
