// bahdanau-live's JavaScript API: one for the page, the widget and Node.
//
//   import { createTranslator } from './web/lib/bahdanau.js';
//   const tr = await createTranslator();  // the packaged en-fr; or {model: 'en-fr-dot'}, a URL, a path, bytes
//   tr.translate('The black cat is sleeping.');  // {text, sourceTokens, targetTokens, attention, ...}
//   for await (const step of tr.steps('The black cat is sleeping.')) draw(step);
//   tr.align('The black cat is sleeping.', 'Le chat noir dort.');  // {steps, logProb, ...}
//   tr.translateBatch(['I am cold.', 'Tom is here.']);  // [translate() result or {error}, ...]
//   tr.translate('The black cat is sleeping.', { edits: [{ step: 2, column: 2 }] });  // edits.js
//   tr.dispose();
//
// Module loading, SIMD detection, model download and C++ memory all stay behind this file;
// callers see plain objects and JS Errors. Every options argument may be left out or null.
//
// Memory: each engine variant is one wasm instance per page or process, shared by all its
// translators, and a wasm memory can grow but never shrink (WebAssembly has no way to hand
// pages back). dispose() frees a translator's memory for the next one to reuse, not for the
// system: the heap stays as large as it ever was, so loading big models one after another
// keeps the process as big as the largest moment. So reuse one translator instead of making
// one per request; a long-running server should load its models once, at start; to give the
// memory back, run the translators in a worker (worker_threads, a Web Worker) and terminate it.
// A model file, download or byte array over MAX_MODEL_BYTES (256 MiB) is refused before it is
// read or copied in, and a file path must name a regular file.

import { MAX_TEXT_CHARS, checkInt, describe, optionsArg, textTooLong } from './args.js';
import { DEFAULT_MODEL, ENGINE_MAX_BEAM as MAX_BEAM, MAX_BATCH, MAX_EDITS, MAX_LEN } from './catalogue.js';
import { checkOneSentence, editsArg } from './edits.js';
import { nextTask } from './env.js';
import { liveObjects, own, release } from './handles.js';
import { chooseVariant, loadVariant, simdSupported } from './loader.js';
import { MAX_MODEL_BYTES, modelBytes } from './model-cache.js';
import { completeStep, unwrap } from './native.js';

export { MAX_MODEL_BYTES, simdSupported };

export { MAX_BATCH, MAX_BEAM, MAX_EDITS, MAX_LEN }; // the engine's bounds (catalogue.js)
export { MAX_TEXT_CHARS }; // one call's text (args.js)
export { createTrainer } from './trainer.js'; // a fresh model trained here (trainer.js)
// ... or in a worker, with progress, pauses and measures (training.js)
export { TRAIN_DATA_URL, TRAIN_GOLD_URL, TRAIN_PRESETS, startTraining } from './training.js';
export { alignmentMeasure } from './train-measure.js'; // attention against gold links

// model: a name ('en-fr', the default when left out or null; 'en-fr-dot', ...: resolved against
// this package, never the working directory or the page: model-cache.js), a URL, a file path
// (Node) or the file's bytes. simd: 'auto' | true | false.
// relaxed: 'auto' | true | false: the int8 products through relaxed SIMD (web/lib/relaxed.js)
// where the engine supports it, required, or never; the results are the same. onProgress({loaded, total}) follows the model download. dist: where the engine files are
// (web/dist by default).
export async function createTranslator(options) {
  const { model: given, simd = 'auto', relaxed = 'auto', onProgress, dist } =
    optionsArg(options, 'createTranslator');
  const model = given ?? DEFAULT_MODEL;
  if (relaxed !== 'auto' && relaxed !== true && relaxed !== false) {
    throw new TypeError(`createTranslator: relaxed must be 'auto', true or false, got ${describe(relaxed)}`);
  }
  if (relaxed === true && simd === false) {
    throw new TypeError('createTranslator: relaxed:true needs the SIMD engine, and simd:false asks for the scalar one');
  }
  const choice = { ...chooseVariant(simd), relaxed };
  const [engine, bytes] = await Promise.all([
    loadVariant(choice.variant, dist),
    modelBytes(model, onProgress),
  ]);
  return new Translator(engine, choice, bytes);
}

class Translator {
  #module;
  #rec; // the C++ Translator
  #decoders = new Set(); // recs of unfinished steps() iterators
  #info;

  constructor({ module, instantiateMs, relaxed: support }, { variant, reason, relaxed }, bytes) {
    const t0 = performance.now();
    if (relaxed === true && !support.installed) {
      throw new Error(`relaxed:true was requested, but ${support.reason}`);
    }
    const native = new module.Translator();
    const loaded = native.load(bytes, { simd: variant === 'wasm-simd', relaxed: relaxed !== false });
    unwrap(loaded, 'cannot load the model: ', () => native.delete());
    this.#module = module;
    this.#rec = own(module, native, this);
    this.#info = unwrap(native.info());
    // Which engine runs and why; timings of the one-off costs (the instance is shared, so
    // instantiateMs is that of the first translator of this variant).
    // kernels: 'wasm-relaxed' where the relaxed int8 products run; relaxed says why or why not.
    this.engine = {
      variant, reason, kernels: this.#info.kernels,
      relaxed: relaxed === false ? 'off (relaxed:false)' : support.reason,
      instantiateMs, loadMs: performance.now() - t0,
    };
  }

  // -> {sourceTokens, targetTokens, attention, probs, text, truncated, hypotheses, edited,
  // ownAttention, timings, ...}
  //
  // splitSentences: true translates each sentence on its own (text longer than the model reads,
  // a paragraph) and returns {text, sentences}: the translations joined with spaces, and one
  // translate() result per sentence with its `source` text. A failing sentence throws, naming it.
  //
  // edits (web/lib/edits.js): steps decoded under given attention, greedy only; `edited` lists
  // their rows and `ownAttention` what the model's own softmax gave there (attention[edited[k]]
  // is the given row, ownAttention[k] the model's own).
  translate(text, options) {
    const native = this.#native('translate');
    const { beam = 1, maxLen, splitSentences = false, edits } = optionsArg(options, 'translate');
    const input = prepare(text, 'translate');
    checkInt('beam', beam, 1, MAX_BEAM);
    const given = this.#edits(edits, beam, 'translate');
    const one = (source, where = '') =>
      unwrap(native.translate(source, { beam, maxLen: maxLenArg(maxLen), edits: given }), where);
    if (splitSentences === false) return one(input);
    if (splitSentences !== true) {
      throw new TypeError(`splitSentences must be true or false, got ${describe(splitSentences)}`);
    }
    checkOneSentence(given);
    const long = textTooLong(input); // the sentences would each pass, and take minutes together
    if (long) throw new RangeError(long);
    const sentences = this.#split(native, input).map((source, i) =>
      ({ source, ...one(source, `sentence ${i + 1}: `) }));
    // Sentences join as the target language's detokenizer joins words: with a space, but none
    // between Chinese ones (docs/tokenization.md, spec 3: Chinese is written without spaces).
    const gap = this.info().tgtLang === 'zh' ? '' : ' ';
    return { text: sentences.map((s) => s.text).filter(Boolean).join(gap), sentences };
  }

  // translate() for many texts at once: -> an array with one entry per text, in order, each
  // either what translate(text) returns (exactly: same tokens, attention and probs on this
  // engine; timings.decodeMs is the time the sentence spent in the batch) or {error: message}
  // where translate(text) would throw (invalid text, too many tokens). A bad text never throws:
  // only bad arguments do (texts not an array of strings: TypeError; more than MAX_BATCH
  // texts, a bad beam or maxLen: RangeError). Greedy decoding runs the sentences together,
  // reading each weight once per step for the whole batch instead of once per sentence; beam > 1
  // decodes one text at a time (no batched beam search). Each text is prepared as translate()
  // prepares it. No splitSentences: split with splitSentences() first. edits apply to every
  // text (each then decodes on its own); a step a text does not reach is that text's {error}.
  translateBatch(texts, options) {
    const native = this.#native('translateBatch');
    const { beam = 1, maxLen, splitSentences, edits } = optionsArg(options, 'translateBatch');
    if (!Array.isArray(texts)) {
      throw new TypeError(`translateBatch(): texts must be an array of strings, got ${describe(texts)}`);
    }
    if (texts.length > MAX_BATCH) {
      throw new RangeError(`translateBatch(): at most ${MAX_BATCH} texts per call, got ${texts.length}; split them into several calls`);
    }
    if (splitSentences !== undefined) {
      throw new TypeError('translateBatch() has no splitSentences option: split each text with splitSentences() and pass the sentences');
    }
    const inputs = [];
    for (let i = 0; i < texts.length; i++) inputs.push(prepare(texts[i], 'translateBatch', `texts[${i}]`));
    checkInt('beam', beam, 1, MAX_BEAM);
    const given = this.#edits(edits, beam, 'translateBatch');
    return unwrap(native.translateBatch(inputs, { beam, maxLen: maxLenArg(maxLen), edits: given }));
  }

  // The sentences of text, each as typed (the spaces between them left out), by the
  // tokenizer's own sentence ends: how translate(text, {splitSentences: true}) and the page
  // cut a paragraph. Text without a word has none.
  splitSentences(text) {
    const native = this.#native('splitSentences');
    return this.#split(native, prepare(text, 'splitSentences'));
  }

  #split(native, input) {
    return unwrap(native.splitSentences(input));
  }

  // Greedy decoding one word at a time: an async iterator of steps {index, token, word, prob,
  // e, alpha, c, cNorm, topIds, topWords, topProbs, topLogProbs, done} (cNorm and topProbs
  // computed here, web/lib/native.js: completeStep). The steps' alpha are
  // translate()'s attention rows, in order, then comes the step that emits '</s>' (none when
  // the length limit cuts the translation). Its sourceTokens property holds the attention
  // columns before the first step; its result property, once the last step is out, holds what
  // translate(text) returns (the decoder's own, so nothing is decoded twice; timings are the
  // steps' own). Between steps it yields to the event loop, so a page can draw each one.
  // Errors in the text throw here, not at the first step. A model without attention
  // (info().scoring 'none') gives empty e and alpha (and empty attention rows in translate()):
  // it has no weights to show, and its c is the same fixed vector at every step. A Transformer's
  // steps also carry cross: {layers, heads, alpha, e}, each [layer][head][column], its every
  // decoder layer's cross-attention; its step's e and alpha are the summary row (the last
  // layer's mean over heads) and c its final decoder state z_i. cross is null for an RNN.
  // edits as in translate(): an edited step has edited true, alpha the given row and ownAlpha
  // the model's own (null on other steps), and a Transformer's cross.ownAlpha its own
  // [layer][head][column]. An edit at a step the translation does not reach never applies.
  steps(text, options) {
    const native = this.#native('steps');
    const { topK = 5, maxLen, edits } = optionsArg(options, 'steps');
    const input = prepare(text, 'steps');
    checkInt('topK', topK, 1, this.#info.tgtVocab);
    const limit = maxLenArg(maxLen);
    const given = this.#edits(edits, 1, 'steps');
    const module = this.#module;
    const decoders = this.#decoders;
    const finished = () => ({ done: true, value: undefined });
    let rec; // the C++ Decoder: freed at the last step, on return(), or by dispose()
    let started = false;
    const finish = () => {
      decoders.delete(rec);
      release(rec);
    };
    const iterator = {
      sourceTokens: [],
      result: null, // set with the last step; stays null if the iterator is returned early
      async next() {
        if (rec.released) return finished();
        if (started) await nextTask();
        started = true;
        if (rec.released) return finished(); // disposed while we waited
        const step = rec.handle.next();
        if (step === null || step.done) {
          iterator.result = unwrap(rec.handle.result());
          finish();
        }
        return step === null ? finished() : { done: false, value: completeStep(step) };
      },
      async return() {
        finish();
        return finished();
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
    const decoder = new module.Decoder(native, input, { topK, maxLen: limit, edits: given });
    rec = own(module, decoder, iterator); // the iterator owns it: a dropped one is finalized
    unwrap(decoder.status(), '', () => release(rec));
    iterator.sourceTokens = decoder.columns();
    for (const r of decoders) if (r.released) decoders.delete(r); // finalized, never finished
    decoders.add(rec);
    return iterator;
  }

  // Forced decoding: the decoder reads the given translation `target` instead of its own
  // choices, so each row shows where the model looks when it writes that word, and how
  // likely it found it. -> {sourceTokens, targetTokens, targetIds, steps, logProb, unknown}:
  // targetTokens are the target's tokens then '</s>', one row each; steps are steps()'s rows
  // (e, alpha, c, cNorm, the model's own top-k...) with token, word and prob those of the given
  // word; a word outside the vocabulary reads as '<unk>' (token 1), and `unknown` counts them.
  // Empty source: no rows. A target longer than the model writes (info().maxTgtLen - 1
  // tokens) or invalid text throws. edits as in steps(), a step being a row: an edited row's
  // prob is the given word's under the given attention; a row past the last ('</s>') throws.
  align(source, target, options) {
    const native = this.#native('align');
    const { topK = 5, edits } = optionsArg(options, 'align');
    const src = prepare(source, 'align');
    const tgt = prepare(target, 'align');
    checkInt('topK', topK, 1, this.#info.tgtVocab);
    const given = this.#edits(edits, 1, 'align');
    const r = unwrap(native.align(src, tgt, { topK, edits: given }));
    r.steps.forEach(completeStep);
    return r;
  }

  // What attention's scoring costs on this sentence, timed by re-running the model's own kernels
  // on its annotations: {n, stepUs, scoreUs, keysUs, stepUsMin, stepUsMax, scoreUsMin,
  // scoreUsMax, keysUsMin, keysUsMax, batches, callsPerBatch}. stepUs is one
  // decoder step's scoring (q = W s_{i-1}, or W s'_i for a cgru model, then the n scores e_ij), scoreUs the n scores alone,
  // keysUs the once-per-sentence U h_j; each a median over `batches` batches of at least
  // minBatchMs, and ...Min / ...Max its fastest and slowest batch (the spread, which moves with
  // the machine's load; all three equal when one batch was timed). It blocks for at most
  // 4 * (batches + 1) * minBatchMs ms (bl::scoring_cost_bound_ms
  // in src/bahdanau.h), measured on a monotonic clock: on a slow or busy machine it times fewer
  // batches instead (the result's `batches` says how many), and only a batch far slower than the
  // one before it can overrun. minBatchMs * batches is capped at 1000, so 4.4 s at most.
  // Empty text: n 0, all 0. A model without attention has no scoring to time, and a
  // Transformer's is several layers of heads, not one score network: both throw.
  scoringCost(text, options) {
    const native = this.#native('scoringCost');
    const { minBatchMs = 2, batches = 5 } = optionsArg(options, 'scoringCost');
    const input = prepare(text, 'scoringCost');
    if (typeof minBatchMs !== 'number' || !(minBatchMs > 0 && minBatchMs <= 100)) {
      throw new RangeError(`minBatchMs must be a number in (0, 100], got ${describe(minBatchMs)}`);
    }
    checkInt('batches', batches, 1, 100);
    if (minBatchMs * batches > 1000) {
      throw new RangeError(`minBatchMs * batches must be at most 1000 (one call takes up to 4 * (batches + 1) * minBatchMs ms), got ${minBatchMs * batches}`);
    }
    return unwrap(native.scoringCost(input, { minBatchMs, batches }));
  }

  // Scaled-dot models only: the source attending to itself with this model's projections, an
  // illustration of self-attention (the translator does not use it): {tokens, scores, weights,
  // method}, n x n with '</s>' last; method says how queries and keys are formed. A Transformer
  // gives its encoder's real self-attention: {tokens, layers, heads, scores, weights, method},
  // scores and weights [layer][head][n][n].
  selfAttention(text) {
    const native = this.#native('selfAttention');
    return unwrap(native.selfAttention(prepare(text, 'selfAttention')));
  }

  // The model's tokens of text: side 'source' (the columns translate() shows, '</s>' not
  // added) or 'target' (the target language's tokenizer: the tokens scripts/eval counts BLEU
  // on). Invalid text throws.
  tokenize(text, options) {
    const native = this.#native('tokenize');
    const { side = 'source' } = optionsArg(options, 'tokenize');
    if (side !== 'source' && side !== 'target') {
      throw new RangeError(`tokenize(): side must be 'source' or 'target', got ${describe(side)}`);
    }
    return unwrap(native.tokenize(prepare(text, 'tokenize'), { side }));
  }

  // The attention matrix of a translate() result as text, the native CLI's exact picture.
  heatmap(translation) {
    this.#native('heatmap');
    const { sourceTokens, targetTokens, attention } = translation ?? {};
    // Checked here: a wrong type thrown from inside the C++ call would skip its destructors
    // and leak what it had built on the wasm heap.
    const strings = (a) => Array.isArray(a) && a.every((x) => typeof x === 'string');
    const rows = (m) =>
      Array.isArray(m) && m.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number'));
    if (!strings(sourceTokens) || !strings(targetTokens) || !rows(attention)) {
      throw new TypeError(
        'heatmap(): expects a translate() result: {sourceTokens, targetTokens, attention}',
      );
    }
    return this.#module.heatmap(sourceTokens, targetTokens, attention);
  }

  // Languages, scoring ('additive', 'scaled_dot' or 'none': no attention), parameter count,
  // dtype, file size, kernels, and the engine variant; arch ('rnn' or 'transformer') and a
  // Transformer's encLayers, decLayers, heads, dModel and ffn (0 for an RNN).
  info() {
    this.#native('info');
    return { ...this.#info, engine: this.engine.variant };
  }

  // What this translator's wasm instance holds now (shared with others of the same variant).
  memory() {
    const m = this.#module;
    return { heapBytes: m.heapUsed(), emvalHandles: m.count_emval_handles(), liveObjects: liveObjects(m) };
  }

  // Frees the C++ side, unfinished steps() iterators included. Idempotent.
  dispose() {
    if (!this.#rec) return;
    for (const rec of this.#decoders) release(rec);
    this.#decoders.clear();
    release(this.#rec);
    this.#rec = null;
  }

  // The edits option, checked (edits.js); beam search takes none.
  #edits(edits, beam, method) {
    const given = editsArg(edits, method);
    if (given.length && beam !== 1) {
      throw new RangeError(`${method}(): edits need greedy decoding (beam 1), got beam ${beam}`);
    }
    return given;
  }

  #native(method) {
    if (!this.#rec) throw new Error(`${method}(): this translator has been disposed`);
    return this.#rec.handle;
  }
}

// JS strings may hold lone surrogates, which UTF-8 cannot encode (Embind would silently mangle
// them). Decision: replace each with U+FFFD, as TextEncoder and String.prototype.toWellFormed
// do, rather than refuse the text; pasted text always translates, and the U+FFFD becomes a
// token of its own. Then NFC, which the core leaves to its front ends (docs/tokenization.md).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function prepare(text, method, what = 'text') {
  if (typeof text !== 'string') {
    throw new TypeError(`${method}(): ${what} must be a string, got ${describe(text)}`);
  }
  const wellFormed =
    typeof text.toWellFormed === 'function'
      ? text.toWellFormed()
      : text.replace(LONE_SURROGATE, '\uFFFD');
  return wellFormed.normalize('NFC');
}

// undefined -> 0, the core's own rule: min(max_tgt_len, 2n + 10).
function maxLenArg(maxLen) {
  if (maxLen === undefined) return 0;
  checkInt('maxLen', maxLen, 1, MAX_LEN);
  return maxLen;
}
