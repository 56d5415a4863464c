// why.html's live experiment: the bundled sample of the long-input set translated by two
// models, each in its own worker (EngineClients, decoding in parallel), greedy, in chunks of
// translateBatch() (exactly translate()'s texts, without a message per decoded word), and
// scored as scripts/eval scores it: corpus BLEU per length band, single reference, hypotheses and
// references tokenized by the attention model's target tokenizer (tr.tokenize(text, {side:
// 'target'}), run in its worker). Owns no DOM: the page draws from its progress reports.

import { CorpusBleu } from '../lib/bleu.js';

// Round-robin over the bands (one sentence of each band, then the next of each), so that the
// curves fill in evenly from the first sentences on, and a run cancelled early still has a
// point in every band instead of the short bands only.
export function interleave(items, buckets) {
  const queues = buckets.map((b) => items.filter((it) => it.bucket === b));
  const out = [];
  for (let k = 0; queues.some((q) => k < q.length); k++) for (const q of queues) if (k < q.length) out.push(q[k]);
  return out;
}

export class BleuExperiment {
  #clients; // {side: EngineClient}
  #chunk; // sentences per translateBatch() call
  #scorer; // the EngineClient whose model tokenizes for BLEU
  #items;
  #buckets;
  #onProgress;
  #stopped = false;
  #t0 = 0;
  #decoded = {}; // side -> [{text, ms}] in sample order
  #bleu = {}; // side -> bucket -> CorpusBleu
  #scored = 0;
  #scoring = Promise.resolve();
  #error = null;
  #cancelled; // resolves on cancel(): a decode loop stops waiting for the chunk in flight
  #onCancel;

  // clients: {side: EngineClient} (loaded); scorer: one of them; items: [{bucket, en, fr}] in
  // the order to run; onProgress({done, total, leftMs, elapsedMs}) after each scored sentence
  // (those of a chunk together, once the chunk is tokenized).
  // chunk: sentences per translateBatch() call. A chunk cannot be interrupted in the worker, so
  // cancel() stops the workers within one chunk and the progress line moves a chunk at a time;
  // a larger one buys no speed (the batch's GEMMs measured no faster than one sentence at a time
  // on this sample, and the gain over translate() is the per-word messages it no longer sends).
  // The default is one round of interleave(), a sentence of each band: chunks of the same mix of
  // lengths take about the same time, so the time left estimated from them stays steady.
  constructor({ clients, scorer, items, buckets, onProgress, chunk = buckets.length }) {
    this.#clients = clients;
    this.#chunk = chunk;
    this.#scorer = scorer;
    this.#items = items;
    this.#buckets = buckets;
    this.#onProgress = onProgress ?? (() => {});
    for (const side of Object.keys(clients)) {
      this.#decoded[side] = [];
      this.#bleu[side] = Object.fromEntries(buckets.map((b) => [b, new CorpusBleu()]));
    }
    this.#cancelled = new Promise((resolve) => {
      this.#onCancel = resolve;
    });
  }

  get total() {
    return this.#items.length;
  }

  get done() {
    return this.#scored;
  }

  // -> Promise<{status: 'done' | 'cancelled' | 'failed', done, ms, error?}>
  async run() {
    this.#t0 = performance.now();
    const sides = Object.keys(this.#clients);
    await Promise.all(sides.map((side) => this.#decode(side).catch((e) => this.#fail(e))));
    if (!this.#stopped) await this.#scoring;
    const ms = performance.now() - this.#t0;
    if (this.#error) return { status: 'failed', done: this.#scored, ms, error: this.#error };
    return { status: this.#scored === this.total ? 'done' : 'cancelled', done: this.#scored, ms };
  }

  // Stops dispatching and drops the sentences in flight (run() settles at once; each worker
  // finishes its chunk, then is free); what was scored stays.
  cancel() {
    this.#stopped = true;
    this.#onCancel();
  }

  // Per side and band: {bleu: BLEU x 100 or null (no sentence yet), sentences}.
  scores() {
    return Object.fromEntries(Object.entries(this.#bleu).map(([side, byBucket]) => [side,
      Object.fromEntries(this.#buckets.map((b) => {
        const acc = byBucket[b];
        return [b, { bleu: acc.sentences ? 100 * acc.score() : null, sentences: acc.sentences }];
      }))]));
  }

  // Every decoded translation so far, per side, in run order (for checking the scores).
  outputs() {
    return Object.fromEntries(Object.entries(this.#decoded).map(([side, list]) => [side, list.map((d) => d.text)]));
  }

  // The first error stops both models: a sample scored by one model only is no result.
  #fail(e) {
    if (e?.name === 'AbortError' || this.#stopped) return;
    this.#error = e;
    this.cancel();
  }

  async #decode(side) {
    const client = this.#clients[side];
    const list = this.#decoded[side];
    for (let at = 0; at < this.#items.length; at += this.#chunk) {
      if (this.#stopped) return;
      const texts = this.#items.slice(at, at + this.#chunk).map((item) => item.en);
      // A chunk that fails after cancel() has nobody left to tell: the race has already settled.
      const results = await Promise.race([client.translateBatch(texts), this.#cancelled]);
      if (this.#stopped) return;
      const failed = results.find((r) => r.error !== undefined);
      if (failed) throw new Error(failed.error);
      const ms = performance.now() - this.#t0;
      for (const r of results) list.push({ text: r.text, ms });
      this.#queueScore();
    }
  }

  // Scores, in order, the sentences that every model has translated. All of them in one
  // tokenize() message: the scorer's worker is also decoding, so each message waits behind the
  // chunk in flight there, and one message per sentence let the count fall a chunk further
  // behind per sentence (24 of 180 shown when the decoding was all but done, then a rush to
  // 180). One message per chunk keeps the count one chunk behind the decoding at most.
  #queueScore() {
    this.#scoring = this.#scoring.then(async () => {
      const sides = Object.keys(this.#decoded);
      const from = this.#scored;
      const to = Math.min(...sides.map((side) => this.#decoded[side].length));
      if (this.#stopped || to <= from) return;
      const items = this.#items.slice(from, to);
      const texts = items.flatMap((item, i) => [item.fr, ...sides.map((side) => this.#decoded[side][from + i].text)]);
      const tokens = await this.#scorer.tokenize(texts, { side: 'target' });
      if (this.#stopped) return;
      const per = sides.length + 1;
      // Still one report per sentence, in sample order; a cancel from a report stops here.
      for (let i = 0; i < items.length && !this.#stopped; i++) {
        const ref = tokens[i * per];
        sides.forEach((side, s) => this.#bleu[side][items[i].bucket].add(tokens[i * per + s + 1], [ref]));
        this.#scored = from + i + 1;
        this.#onProgress({ done: this.#scored, total: this.total, leftMs: this.#left(), elapsedMs: performance.now() - this.#t0 });
      }
    }).catch((e) => this.#fail(e));
  }

  // The time left at the pace measured so far: the sentences scored (the count on show) per
  // millisecond since the start, over the sentences still to score.
  #left() {
    const ms = performance.now() - this.#t0;
    return this.#scored ? (ms / this.#scored) * (this.total - this.#scored) : null;
  }
}
