// What a decoding step is, for everything that draws one: web/lib's steps() yields them, and
// the two paths that have no steps of their own are turned into the same shape here, so that
// the matrix, the step panel and the events need not know how a row was decoded.

// The step that emits </s> closes the sentence; its attention is not a row of the matrix.
export const isRow = (step) => Boolean(step) && !(step.done && step.word === '</s>');

// Beam search reports its winner's attention rows, nothing per step: these are its rows as
// steps, with only {index, word, alpha} known (beamOnly tells the panel so).
export function beamSteps(result) {
  return result.targetTokens.map((word, index) => ({ index, word, alpha: result.attention[index], beamOnly: true }));
}

// align()'s rows (the user's own French, forced): each keeps the engine's numbers; word is
// what the user typed, vocabWord what the model read.
export function forcedSteps(result) {
  return result.steps.map((st, i) => ({ ...st, word: result.targetTokens[i], vocabWord: st.word, forced: true }));
}

// Decision: the engine's results carry token ids but not whether an id is the unknown word, so
// this is the one place on the JS side that knows the model format's fixed ids (0-3 are <pad>
// <unk> <s> </s> in both vocabularies, docs/model-format.md). The step panel and the page's
// input check ask these, and do not restate the id.
const UNK_ID = 1;
export const isUnknownId = (id) => id === UNK_ID;

// The word written is the unknown word (a greedy step copies a source word in its place; a
// forced one names a word outside the vocabulary).
export const isUnknown = (step) => isUnknownId(step.token);

// The model's first choice was the unknown word, which the copy rule refused.
export const topIsUnknown = (step) => isUnknownId(step.topIds?.[0]);
