// The translator, off the main thread: a module worker that owns one web/lib translator and
// streams each decoding step to the page as soon as the engine has computed it. The page only
// draws, so typing stays responsive while a sentence decodes.
//
// Messages in:  {type: 'load', model (absolute URL), simd: 'auto'|false}
//               {type: 'translate', id, text, beam, edits (attention edits, greedy only; may be absent)}
//               {type: 'cancel', id}
//               {type: 'analyze', id, text}   (for the comparison page)
//               {type: 'align', id, text, target, edits}   (forced decoding of the user's French)
//               {type: 'tokenize', id, texts, side}   (the tokens BLEU is counted on)
//               {type: 'sentences', id, text}   (a paragraph's sentences, and its token count)
//               {type: 'batch', id, texts, beam}   (all the sentences of a paragraph)
//               {type: 'selfAttention', id, text}   (a Transformer's encoder self-attention)
// Messages out: {type: 'progress', loaded, total}, {type: 'ready', info, engine},
//               {type: 'start', id, sourceTokens, beam}, {type: 'step', id, step, ms (null
//                for beam search's rows, which come from one search: engine/session.js)},
//               {type: 'done', id, result, msPerWord}, {type: 'error', id?, phase, message}
//               {type: 'analysis', id, info, scoringCost (null: not timed, scoringCostError
//                says why), selfAttention (null: additive)}
//               {type: 'selfAttention', id, result (selfAttention()'s)}
//               {type: 'alignment', id, result}
//               {type: 'tokens', id, result (one token list per text)}
//               {type: 'sentences', id, result: {sentences, tokens}}
//               {type: 'batch', id, result (translateBatch()'s: a result or {error} per text)}

import { createTranslator } from '../lib/bahdanau.js';
import { DecodeSession } from './session.js';

let translator = null;
let active = 0; // the id of the translation that may still post; a newer one cancels it

const post = (msg) => self.postMessage(msg);

async function load({ model, simd }) {
  if (typeof WebAssembly !== 'object') {
    post({ type: 'error', phase: 'load', code: 'no-wasm', message: 'WebAssembly is not available' });
    return;
  }
  try {
    translator?.dispose();
    translator = null;
    translator = await createTranslator({
      model,
      simd,
      onProgress: ({ loaded, total }) => post({ type: 'progress', loaded, total }),
    });
    post({ type: 'ready', info: translator.info(), engine: translator.engine });
  } catch (e) {
    post({ type: 'error', phase: 'load', message: e.message });
  }
}

async function translate({ id, text, beam, edits }) {
  active = id;
  if (!translator) {
    post({ type: 'error', id, phase: 'translate', message: 'no model is loaded' });
    return;
  }
  try {
    const session = new DecodeSession(translator, text, { beam, edits });
    post({ type: 'start', id, sourceTokens: session.sourceTokens, beam });
    for await (const step of session) {
      if (active !== id) return; // leaving the loop frees the C++ decoder now
      post({ type: 'step', id, step, ms: session.lastMs });
    }
    // The finished translation: the detokenized text, and the attention the page checks its
    // rows against (the decoder's own result, not a second search).
    post({ type: 'done', id, result: session.result, msPerWord: session.msPerWord });
  } catch (e) {
    if (active === id) post({ type: 'error', id, phase: 'translate', message: e.message });
  }
}

// What the comparison page shows beside the matrix. Synchronous, and scoringCost holds the
// worker while it times the kernels, up to 168 ms (4 * (20 + 1) * 2 ms): the page asks once
// decoding is over (sent during a translation, it would run between two steps and delay the
// next). 20 batches, not the default 5: the page shows their spread, and on a busy machine, or
// while the browser is still compiling the engine, a timing keeps only the batches after the
// last speed-up, so with 5 it was often left with one.
function analyze({ id, text }) {
  if (!translator) {
    post({ type: 'error', id, phase: 'analyze', message: 'no model is loaded' });
    return;
  }
  try {
    const info = translator.info();
    // A Transformer may have no scoring to time: the page then says n/a with the engine's
    // reason, and still gets its self-attention.
    let scoringCost = null;
    let scoringCostError = null;
    try {
      scoringCost = translator.scoringCost(text, { minBatchMs: 2, batches: 20 });
    } catch (e) {
      if (info.arch !== 'transformer') throw e;
      scoringCostError = e.message;
    }
    const real = info.arch === 'transformer';
    const selfAttention = real || info.scoring === 'scaled_dot' ? translator.selfAttention(text) : null;
    post({ type: 'analysis', id, info, scoringCost, scoringCostError, selfAttention });
  } catch (e) {
    post({ type: 'error', id, phase: 'analyze', message: e.message });
  }
}

// The one-shot requests below share this: no model, or a throw, answers with an error.
function answer(data, type, compute) {
  const { id } = data;
  if (!translator) {
    post({ type: 'error', id, phase: type, message: 'no model is loaded' });
    return;
  }
  try {
    post({ type, id, result: compute(data) });
  } catch (e) {
    post({ type: 'error', id, phase: type, message: e.message });
  }
}

// Forced decoding is one synchronous call: a sentence's rows cost about as much as translating it.
// Through the decode session, the one place that decodes (and passes the edits on).
const align = (data) => answer(data, 'alignment', ({ text, target, edits }) =>
  new DecodeSession(translator, text, { target, edits }).result);

// Several texts in one message: why.html's experiment tokenizes a hypothesis per model and the
// reference of each sentence it scores.
const tokenize = (data) => answer(data, 'tokens', ({ texts, side }) => texts.map((t) => translator.tokenize(t, { side })));

// A paragraph, cut by the tokenizer's own sentence ends, and its length in the model's tokens:
// the page translates sentence by sentence when the whole is longer than the model reads.
const sentences = (data) => answer(data, 'sentences', ({ text }) =>
  ({ sentences: translator.splitSentences(text), tokens: translator.tokenize(text).length }));

// Sentences translated together (greedy decoding runs them as one batch): the whole of a
// paragraph's translation, asked for once the sentence on show has decoded.
const batch = (data) => answer(data, 'batch', ({ texts, beam }) => translator.translateBatch(texts, { beam }));

// A Transformer's encoder self-attention for index.html's panel, once a sentence is decoded.
const selfAttention = (data) => answer(data, 'selfAttention', ({ text }) => translator.selfAttention(text));

self.onmessage = ({ data }) => {
  if (data.type === 'load') load(data);
  else if (data.type === 'align') align(data);
  else if (data.type === 'tokenize') tokenize(data);
  else if (data.type === 'sentences') sentences(data);
  else if (data.type === 'batch') batch(data);
  else if (data.type === 'translate') translate(data);
  else if (data.type === 'analyze') analyze(data);
  else if (data.type === 'selfAttention') selfAttention(data);
  else if (data.type === 'cancel' && active === data.id) active = 0;
};
