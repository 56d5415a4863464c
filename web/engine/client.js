// The page's side of engine/worker.js: one worker, one model, one translation at a time (a new
// one cancels the previous). Callbacks receive the steps exactly as web/lib yields them.

export class EngineClient {
  #worker;
  #load = null; // {resolve, reject, onProgress}
  #job = null; // {id, resolve, reject, onStart, onStep}
  #analyses = new Map(); // id -> {resolve, reject, kind}: one-shot requests, independent of translations
  #nextId = 1;
  #broken = null;

  constructor(workerUrl = new URL('./worker.js', import.meta.url)) {
    this.#worker = new Worker(workerUrl, { type: 'module' });
    this.#worker.onmessage = ({ data }) => this.#onMessage(data);
    // A module that fails to import (an old browser, a missing file) lands here, not in
    // onmessage: fail whatever is waiting, and every later call.
    this.#worker.onerror = (e) => {
      e.preventDefault?.();
      this.#fail(Object.assign(new Error(e.message || 'the translator worker failed to start'), { code: 'worker' }));
    };
    this.#worker.onmessageerror = () => this.#fail(new Error('a message from the worker could not be read'));
  }

  // -> Promise<{info, engine}>. model: an absolute URL, or a model file's bytes. simd: 'auto' | false. The same model
  // asked for again while it loads joins that load, its progress now going to the new
  // onProgress: app/early-model.js starts it at navigation, app.js takes it over.
  load({ model, simd = 'auto', onProgress }) {
    if (this.#broken) return Promise.reject(this.#broken);
    const running = this.#load;
    if (running && running.model === model && running.simd === simd) {
      running.onProgress = onProgress;
      return running.promise;
    }
    const load = { model, simd, onProgress };
    load.promise = new Promise((resolve, reject) => {
      Object.assign(load, { resolve, reject });
      this.#load = load;
      this.#worker.postMessage({ type: 'load', model, simd });
    }).then((loaded) => {
      // For app/offline.js: the service worker keeps the models a page used (a download made
      // in the worker is not in the page's resource timing). A model given as bytes (the one
      // trained on train.html) has no URL to keep, and a mark would copy its megabytes into
      // the performance timeline.
      if (typeof model !== 'string') return loaded;
      try {
        performance.mark('bahdanau-live:model', { detail: { url: model } });
      } catch {
        // an old browser without mark details: the model is cached on its next use instead
      }
      return loaded;
    });
    return load.promise;
  }

  // -> Promise<{result, msPerWord}>; onStart({sourceTokens, beam}) then onStep(step, ms) for each.
  // edits: attention edits (greedy only), as web/lib's steps() takes them.
  translate(text, { beam = 1, edits = [], onStart, onStep } = {}) {
    if (this.#broken) return Promise.reject(this.#broken);
    this.cancel();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#job = { id, resolve, reject, onStart, onStep };
      this.#worker.postMessage({ type: 'translate', id, text, beam, edits });
    });
  }

  // -> Promise<{info, scoringCost, scoringCostError, selfAttention}> for one sentence
  // (selfAttention is null for an additive model; scoringCost null, with the engine's reason in
  // scoringCostError, for a Transformer that cannot time its scoring). Does not cancel a running translation, nor is cancelled by one.
  analyze(text) {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#analyses.set(id, { resolve, reject, kind: 'analysis' });
      this.#worker.postMessage({ type: 'analyze', id, text });
    });
  }

  // -> Promise<align() result>: forced decoding of target (the user's French) after text, with
  // attention edits if given. Like analyze(), independent of translations.
  align(text, target, { edits = [] } = {}) {
    return this.#request('alignment', { type: 'align', text, target, edits });
  }

  // -> Promise<string[][]>: each text's tokens, side 'source' or 'target' (translator.tokenize).
  // Like analyze(), independent of translations.
  tokenize(texts, { side = 'source' } = {}) {
    return this.#request('tokens', { type: 'tokenize', texts, side });
  }

  // -> Promise<{sentences, tokens}>: text cut into sentences by the tokenizer's own rules
  // (translator.splitSentences), and the number of source tokens of the whole text.
  sentences(text) {
    return this.#request('sentences', { type: 'sentences', text });
  }

  // -> Promise<translateBatch() result>: one translation (or {error}) per text, in order.
  translateBatch(texts, { beam = 1 } = {}) {
    return this.#request('batch', { type: 'batch', texts, beam });
  }

  // -> Promise<selfAttention() result>: a Transformer's encoder self-attention for text, per
  // layer and head. Like analyze(), independent of translations.
  selfAttention(text) {
    return this.#request('selfAttention', { type: 'selfAttention', text });
  }

  // A one-shot request, answered by a message of type `kind` (or an error) with its id.
  #request(kind, message) {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#analyses.set(id, { resolve, reject, kind });
      this.#worker.postMessage({ ...message, id });
    });
  }

  // Stops the running translation; its promise rejects with an AbortError.
  cancel() {
    if (!this.#job) return;
    const job = this.#job;
    this.#job = null;
    this.#worker.postMessage({ type: 'cancel', id: job.id });
    job.reject(new DOMException('translation cancelled', 'AbortError'));
  }

  dispose() {
    this.cancel();
    for (const a of this.#analyses.values()) a.reject(new DOMException('engine disposed', 'AbortError'));
    this.#analyses.clear();
    this.#worker.terminate();
  }

  #onMessage(m) {
    const analysis = this.#analyses.get(m.id);
    if (analysis && (m.type === analysis.kind || m.type === 'error')) {
      this.#analyses.delete(m.id);
      if (m.type === 'error') analysis.reject(new Error(m.message));
      else if (m.type === 'analysis') {
        analysis.resolve({ info: m.info, scoringCost: m.scoringCost, scoringCostError: m.scoringCostError ?? null, selfAttention: m.selfAttention });
      }
      else analysis.resolve(m.result);
    } else if (m.type === 'progress') this.#load?.onProgress?.(m);
    else if (m.type === 'ready') this.#settleLoad((l) => l.resolve({ info: m.info, engine: m.engine }));
    else if (m.type === 'error' && m.phase === 'load') {
      this.#settleLoad((l) => l.reject(Object.assign(new Error(m.message), { code: m.code })));
    } else if (this.#job && m.id === this.#job.id) {
      const job = this.#job;
      if (m.type === 'start') job.onStart?.({ sourceTokens: m.sourceTokens, beam: m.beam });
      else if (m.type === 'step') job.onStep?.(m.step, m.ms);
      else if (m.type === 'done') {
        this.#job = null;
        job.resolve({ result: m.result, msPerWord: m.msPerWord });
      } else if (m.type === 'error') {
        this.#job = null;
        job.reject(new Error(m.message));
      }
    }
  }

  #settleLoad(fn) {
    const l = this.#load;
    this.#load = null;
    if (l) fn(l);
  }

  #fail(error) {
    this.#broken = error;
    this.#settleLoad((l) => l.reject(error));
    const job = this.#job;
    this.#job = null;
    job?.reject(error);
    for (const a of this.#analyses.values()) a.reject(error);
    this.#analyses.clear();
  }
}
