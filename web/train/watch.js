// The watched sentences and their two views. A model in training writes nonsense long after
// its attention has learned to align (after 3 minutes: 77% of the gold links, and still "Le sac
// est en train de chat." for the black cat), and the flip can only be seen on rows that are
// the right French words. So each sentence has a reference translation, and every recording
// holds two matrices of it: the attention while the model is fed the reference word by word
// (forced decoding, the way training feeds it: view 'reference'), and the attention of its own
// greedy translation (view 'own'). Pure: no DOM, runs in Node.

// The first is the default: French puts the adjective after the noun (favorite book -> livre
// préféré), the flip to watch for. It was chosen by measurement among eight hand-written flips
// (scripts/lib/watch-onset.mjs; docs/training-live.md, "The default sentence: the flip that
// shows soonest"): on the page's small model and recipe, over nine seeds, its flip is in 7 of 9
// averaged matrices at 2,400 steps where the red car's is in 4. The red car follows (a colour,
// as in the site's example), then the black cat, which flips later still: the more often a
// word is met, the sooner it aligns, and black is in 41 of the bundle's pairs, red in 74,
// favorite in 86. The others flip too, but for the last, which French writes in the English
// order. Every word of them, English and French, is inside the training data's vocabularies
// (web/data/train-en-fr.README.md; tests/node/training.test.mjs checks the references have no
// <unk> against the bundle itself). Written by hand, as any French speaker would translate
// them: not taken from the gold pairs, which are a test set.
export const WATCH = [
  { source: 'It is my favorite book.', reference: "C'est mon livre préféré." },
  { source: 'I have a red car.', reference: "J'ai une voiture rouge." },
  { source: 'The black cat is sleeping.', reference: 'Le chat noir dort.' },
  { source: 'He has a white dog.', reference: 'Il a un chien blanc.' },
  { source: 'Tom is here.', reference: 'Tom est ici.' },
];

export const VIEWS = ['reference', 'own'];

// startTraining's watch option: each sentence twice, forced through its reference, then greedy.
export function watchOptions(watch = WATCH) {
  return watch.flatMap(({ source, reference }) => [{ source, target: reference }, { source }]);
}

// A measure's watched list (in watchOptions' order) -> one entry per sentence:
// {source, reference: view, own: view}, each view {target, sourceTokens, targetTokens,
// attention, text} as the measure gave it.
export function pairViews(watched) {
  const out = [];
  for (let k = 0; k + 1 < watched.length; k += 2) {
    const [reference, own] = [watched[k], watched[k + 1]];
    out.push({ source: reference.source, reference, own });
  }
  return out;
}

// run.align()'s result as a measure's forced entry: the '</s>' row left out, as the worker does.
export function fromAlignment(source, target, a) {
  return { source, target, sourceTokens: a.sourceTokens, targetTokens: a.targetTokens.slice(0, -1),
    attention: a.steps.slice(0, -1).map((s) => s.alpha), text: target };
}

// run.translate()'s result as a measure's greedy entry.
export function fromTranslation(source, t) {
  return { source, target: null, sourceTokens: t.sourceTokens, targetTokens: t.targetTokens, attention: t.attention, text: t.text };
}
