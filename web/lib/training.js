// Training a fresh model off the calling thread (issue 25, "Train it yourself"): startTraining
// runs createTrainer (trainer.js) in web/lib/train-worker.js, a module Web Worker in the
// browser and a worker_threads Worker in Node, and reports as it goes. The page
// (web/train.html) and scripts/train-live use it; docs/training-live.md describes it.
//
//   import { startTraining } from './web/lib/bahdanau.js';
//   const run = startTraining({ preset: 'small', gold: true, watch: [{ source: 'I am cold.' }] });
//   const off = run.on('progress', ({ steps, loss, stepsPerSecond }) => draw(steps, loss));
//   run.on('measure', ({ heldoutLoss, alignment, watched }) => ...);
//   run.on('state', ({ state, reason }) => ...);   // loading, training, paused, stopped, error
//   await run.pause(); await run.resume(); await run.reset({ scoring: 'none' });
//   const file = await run.snapshot();  // an f32 model file: createTranslator({ model: file })
//   (await run.translate('I am cold.')).text;
//   (await run.align('I am cold.', "J'ai froid.")).steps;  // forced decoding, as in training
//   run.dispose();
//
// Beyond the contract the page was written against (nothing in it changed): run.ready; the
// worker option; pause() and resume() return promises; alignment's shares are in [0, 1] and
// it also carries mass, aer, entropyBits and sentences; watched entries carry their target;
// gold: true for the bundled gold file; TRAIN_PRESETS, TRAIN_DATA_URL, TRAIN_GOLD_URL.
//
// The contract (bahdanau.d.ts types it):
// - options: createTrainer's (data, config, lr, lrDecaySteps, clip, batchSize, seed, dropout,
//   labelSmoothing, average, simd, relaxed, dist), and
//   preset: 'small' (default; emb 64, hidden 128, attn 128) or 'tiny' (32, 64, 32; train.html's default); config
//     overrides its fields. scoring: 'additive' | 'scaled_dot' | 'none', config.scoring's
//     shorthand. data: default the bundled web/data/train-en-fr.bin (TRAIN_DATA_URL).
//   gold: the alignment gold pairs: true (the bundled web/data/train-en-fr-gold.json), a URL or
//     path of such a file, or an array of {en, fr, sure, possible?}; default none (alignment
//     null). watch: [{source, target?}] sentences whose attention each measure reports, forced
//     through target when given, else greedy. reportMs (500): progress events at most this
//     often. measureMs (3000): a measure every this much training time (0: only measureNow()).
//   maxSeconds, maxSteps: stop there (state 'stopped', reason says which).
//   worker: the URL of train-worker.js, for a bundler that moves it (default beside this file).
// - events: run.on(type, fn) -> unsubscribe.
//   'state' {state: 'loading'|'training'|'paused'|'stopped'|'error', reason?}
//   'progress' {steps, epochs, seconds (training time: pauses and measures left out),
//     stepsPerSecond (over the last chunks), loss (mean of losses), losses (the steps' losses
//     since the last progress event)}
//   'measure' {steps, seconds, heldoutLoss (null without held-out pairs), alignment
//     (train-measure.js: {accuracy, offDiagonal, diagonal, mass, aer, entropyBits, tokens,
//     offDiagonalTokens, sentences}, shares in [0, 1]) or null without gold, watched:
//     [{source, target (null: greedy), sourceTokens (with '</s>'), targetTokens (without it),
//     attention (one row per target token), text}]}
// - run.pause(), run.resume() -> Promise<void> once the worker has done it; pausing while it
//   loads starts it paused. run.reset(newOptions?) -> Promise<void>: a fresh model (a new
//   worker), with newOptions or the same ones, resolved once it trains (or stays paused, if
//   the run was paused); rejects with the reason if it cannot load. run.snapshot() ->
//   Promise<Uint8Array>, run.translate(text) -> Promise<Translation>, run.align(source,
//   target) -> Promise<Alignment> (forced decoding through target: the attention the model
//   gives a given translation, word by word, as training feeds it), run.measureNow() ->
//   Promise<measure>, all on the weights' moving average (average; the latest weights when it
//   is 0), as the measures' held-out loss is. run.ready: a Promise that resolves once the
//   first run has loaded and rejects with its error. run.engine: null while a model loads, then
//   createTrainer's tr.engine ({variant, reason, kernels, relaxed}: which engine and products
//   the worker trains with, and why). run.state; run.dispose() ends the worker
//   (state 'stopped', reason 'disposed'); in Node a live run keeps the process running until then.
// - Bad options of the wrong type or value throw at once (TypeError, RangeError); what only the
//   worker can find (bad or empty data, a config out of range, a learning rate the core
//   refuses) gives state 'error' with the reason. A non-finite loss (a far too high learning
//   rate) stops the run, state 'stopped' with the core's reason, the weights left as they were
//   before that step. A worker that crashes gives state 'error'. In each case every pending
//   promise rejects with the message, and later requests reject at once; none hangs.

import { describe } from './args.js';
import { isNode } from './env.js';
import { OPTION_NUMBERS as NUMBERS, checkRelaxed } from './trainer.js';

export const TRAIN_PRESETS = Object.freeze({
  small: Object.freeze({ emb: 64, enc_hidden: 128, dec_hidden: 128, attn: 128 }),
  tiny: Object.freeze({ emb: 32, enc_hidden: 64, dec_hidden: 64, attn: 32 }),
});
export const TRAIN_DATA_URL = new URL('../data/train-en-fr.bin', import.meta.url);
export const TRAIN_GOLD_URL = new URL('../data/train-en-fr-gold.json', import.meta.url);

const SCORINGS = ['additive', 'scaled_dot', 'none'];
const KNOWN = new Set([...NUMBERS, 'data', 'config', 'simd', 'relaxed', 'dist', 'preset', 'scoring', 'gold',
  'watch', 'reportMs', 'measureMs', 'maxSeconds', 'maxSteps', 'worker']);

export function startTraining(options) {
  return new TrainingRun(resolveOptions(options));
}

// -> what the worker is sent: presets applied, locations as strings it can open (absolute URLs
// in a browser, whose worker has another base; paths in Node), no functions.
function resolveOptions(options) {
  const where = 'startTraining';
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${where}: options must be an object, got ${describe(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (!KNOWN.has(k)) throw new TypeError(`${where}: unknown option ${JSON.stringify(k)}`);
  }
  const o = { ...options };
  const preset = o.preset ?? 'small';
  if (!Object.hasOwn(TRAIN_PRESETS, preset)) {
    throw new RangeError(`${where}: preset must be ${Object.keys(TRAIN_PRESETS).map((p) => `'${p}'`).join(' or ')}, got ${describe(preset)}`);
  }
  const config = o.config ?? {};
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new TypeError(`${where}: config must be an object, got ${describe(config)}`);
  }
  if (o.scoring !== undefined && !SCORINGS.includes(o.scoring)) {
    throw new RangeError(`${where}: scoring must be one of ${SCORINGS.join(', ')}, got ${describe(o.scoring)}`);
  }
  if (o.scoring !== undefined && config.scoring !== undefined && config.scoring !== o.scoring) {
    throw new TypeError(`${where}: scoring ${o.scoring} and config.scoring ${config.scoring} disagree`);
  }
  if (o.relaxed !== undefined) checkRelaxed(o.relaxed, o.simd, where);
  const scoring = o.scoring ?? config.scoring;
  const base = { ...TRAIN_PRESETS[preset] };
  if (scoring === 'none') delete base.attn; // no attention: the core sets attn 0 itself
  const resolved = {
    config: { ...base, ...config, ...(scoring ? { scoring } : {}) },
    simd: o.simd ?? 'auto',
    relaxed: o.relaxed ?? 'auto',
    dist: o.dist === undefined ? undefined : String(new URL(String(o.dist), base_()).href),
    data: location(o.data ?? TRAIN_DATA_URL, 'data', true),
    gold: o.gold === undefined || o.gold === false ? null
      : o.gold === true ? location(TRAIN_GOLD_URL, 'gold') : goldArg(o.gold),
    watch: watchArg(o.watch ?? []),
    reportMs: positive(o.reportMs ?? 500, 'reportMs', false),
    measureMs: positive(o.measureMs ?? 3000, 'measureMs', true),
    worker: o.worker === undefined ? new URL('./train-worker.js', import.meta.url).href : new URL(String(o.worker), base_()).href,
  };
  for (const k of NUMBERS) {
    if (o[k] === undefined) continue;
    if (typeof o[k] !== 'number') throw new TypeError(`${where}: ${k} must be a number, got ${describe(o[k])}`);
    resolved[k] = o[k];
  }
  if (o.maxSeconds !== undefined) resolved.maxSeconds = positive(o.maxSeconds, 'maxSeconds', false);
  if (o.maxSteps !== undefined) {
    if (!Number.isInteger(o.maxSteps) || o.maxSteps < 1) {
      throw new RangeError(`${where}: maxSteps must be a positive integer, got ${describe(o.maxSteps)}`);
    }
    resolved.maxSteps = o.maxSteps;
  }
  return resolved;
}

const base_ = () => (isNode ? `file://${process.cwd()}/` : globalThis.location?.href);

// Bytes stay bytes (copied to the worker); a URL or a path becomes what the worker can open.
function location(value, name, bytesToo = false) {
  if (bytesToo && (value instanceof Uint8Array || value instanceof ArrayBuffer)) return value;
  if (!(typeof value === 'string' || value instanceof URL)) {
    throw new TypeError(`startTraining: ${name} must be ${bytesToo ? 'bytes, ' : ''}a URL or a file path, got ${describe(value)}`);
  }
  const s = String(value);
  if (isNode) return s.startsWith('file:') ? decodeURIComponent(new URL(s).pathname) : s;
  return new URL(s, globalThis.location?.href).href;
}

function goldArg(gold) {
  if (Array.isArray(gold)) return gold.map((p) => ({ ...p }));
  if (gold && typeof gold === 'object' && !(gold instanceof URL) && Array.isArray(gold.pairs)) return gold.pairs;
  return location(gold, 'gold');
}

function watchArg(watch) {
  if (!Array.isArray(watch)) throw new TypeError(`startTraining: watch must be an array, got ${describe(watch)}`);
  return watch.map((w, i) => {
    const ok = w && typeof w.source === 'string' && (w.target === undefined || w.target === null || typeof w.target === 'string');
    if (!ok) throw new TypeError(`startTraining: watch[${i}] must be {source: string, target?: string}`);
    return { source: w.source, target: w.target ?? null };
  });
}

function positive(v, name, zero) {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (!zero && v === 0)) {
    throw new RangeError(`startTraining: ${name} must be a ${zero ? 'non-negative' : 'positive'} number, got ${describe(v)}`);
  }
  return v;
}

// The worker, the same way on both sides: post(message), and callbacks for what it says.
async function spawn(url, { onMessage, onCrash }) {
  if (isNode) {
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(new URL(url));
    let ended = false;
    w.on('message', onMessage);
    w.on('error', (e) => {
      ended = true;
      onCrash(e?.message ?? String(e));
    });
    w.on('exit', (code) => !ended && onCrash(`it exited with code ${code}`));
    return { post: (m) => w.postMessage(m), end: () => { ended = true; w.terminate(); } };
  }
  const w = new Worker(url, { type: 'module' });
  w.onmessage = ({ data }) => onMessage(data);
  w.onerror = (e) => {
    e.preventDefault?.();
    onCrash(e.message || 'it failed to start (a module that does not load?)');
  };
  w.onmessageerror = () => onCrash('a message from it could not be read');
  return { post: (m) => w.postMessage(m), end: () => w.terminate() };
}

class TrainingRun {
  #options;
  #state = 'loading';
  #listeners = new Map(); // type -> Set(fn)
  #worker = null; // Promise<{post, end}> of the current generation's worker
  #generation = 0;
  #requests = new Map(); // id -> {resolve, reject}
  #nextId = 1;
  #loaded = null; // {resolve, reject} of the current generation's load
  #broken = null; // why requests are refused now (a crash, dispose), or null
  #disposed = false;
  #wantPaused = false;
  #engine = null;
  ready;

  constructor(options) {
    this.#options = options;
    this.ready = this.#start(false);
    this.ready.catch(() => {}); // reported through 'state' too: an unwatched failure is no crash
  }

  get state() {
    return this.#state;
  }

  get engine() {
    return this.#engine;
  }

  on(type, fn) {
    if (!['state', 'progress', 'measure'].includes(type)) {
      throw new RangeError(`on(): type must be 'state', 'progress' or 'measure', got ${describe(type)}`);
    }
    if (typeof fn !== 'function') throw new TypeError(`on(): the listener must be a function, got ${describe(fn)}`);
    if (!this.#listeners.has(type)) this.#listeners.set(type, new Set());
    this.#listeners.get(type).add(fn);
    return () => this.#listeners.get(type)?.delete(fn);
  }

  pause() {
    this.#wantPaused = true;
    return this.#ask('pause');
  }

  resume() {
    this.#wantPaused = false;
    return this.#ask('resume');
  }

  snapshot() {
    return this.#ask('snapshot');
  }

  translate(text) {
    if (typeof text !== 'string') return Promise.reject(new TypeError(`translate(): text must be a string, got ${describe(text)}`));
    return this.#ask('translate', { text });
  }

  align(source, target) {
    for (const [name, v] of [['source', source], ['target', target]]) {
      if (typeof v !== 'string') return Promise.reject(new TypeError(`align(): ${name} must be a string, got ${describe(v)}`));
    }
    return this.#ask('align', { source, target });
  }

  measureNow() {
    return this.#ask('measure');
  }

  reset(newOptions) {
    if (this.#disposed) return Promise.reject(new Error('reset(): the run was disposed'));
    let options;
    try {
      options = newOptions === undefined || newOptions === null ? this.#options : resolveOptions(newOptions);
    } catch (e) {
      return Promise.reject(e);
    }
    this.#options = options;
    this.#end(new Error('the run was reset'));
    return this.#start(this.#wantPaused);
  }

  dispose() {
    if (this.#disposed) return;
    this.#end(new Error('the run was disposed'));
    this.#disposed = true;
    this.#broken = new Error('the run was disposed');
    this.#setState({ state: 'stopped', reason: 'disposed' });
    this.#listeners.clear();
  }

  // A new worker for a new model; the one before must have been ended.
  #start(paused) {
    const generation = ++this.#generation;
    this.#broken = null;
    this.#engine = null;
    this.#setState({ state: 'loading' });
    const loaded = new Promise((resolve, reject) => (this.#loaded = { resolve, reject }));
    const mine = (fn) => (...args) => generation === this.#generation && fn(...args);
    this.#worker = spawn(this.#options.worker, {
      onMessage: mine((m) => this.#onMessage(m)),
      onCrash: mine((why) => this.#crash(`the training worker crashed: ${why}`)),
    });
    this.#worker.then((w) => w.post({ type: 'start', options: { ...this.#options, paused } }),
      mine((e) => this.#crash(`the training worker could not start: ${e.message}`)));
    return loaded;
  }

  #end(error) {
    this.#generation++;
    const w = this.#worker;
    this.#worker = null;
    w?.then((x) => x.end(), () => {});
    this.#loaded?.reject(error);
    this.#loaded = null;
    for (const r of this.#requests.values()) r.reject(error);
    this.#requests.clear();
  }

  #crash(why) {
    const error = new Error(why);
    this.#broken = error;
    this.#end(error);
    this.#setState({ state: 'error', reason: why });
  }

  #ask(type, extra = {}) {
    if (this.#broken) return Promise.reject(new Error(`${type}(): ${this.#broken.message}`));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#requests.set(id, { resolve, reject, type });
      this.#worker.then((w) => w.post({ type, id, ...extra }), () => {});
    });
  }

  #onMessage(m) {
    if (m.type === 'reply') {
      const r = this.#requests.get(m.id);
      if (!r) return;
      this.#requests.delete(m.id);
      if (m.error !== undefined) r.reject(new Error(`${r.type}(): ${m.error}`));
      else r.resolve(m.result ?? undefined);
    } else if (m.type === 'state') {
      this.#setState({ state: m.state, ...(m.reason ? { reason: m.reason } : {}) });
      if (m.state === 'training' || m.state === 'paused') this.#loaded?.resolve();
      if (m.state === 'error') this.#loaded?.reject(new Error(m.reason));
      if (m.state !== 'loading') this.#loaded = null;
    } else if (m.type === 'engine') {
      this.#engine = Object.freeze(m.engine);
    } else if (m.type === 'progress' || m.type === 'measure') {
      const { type, ...event } = m;
      this.#emit(type, event);
    }
  }

  #setState(event) {
    this.#state = event.state;
    this.#emit('state', event);
  }

  #emit(type, event) {
    for (const fn of [...(this.#listeners.get(type) ?? [])]) {
      try {
        fn(event);
      } catch (e) {
        // a listener's bug is its own: report it without stopping the others or the run
        queueMicrotask(() => { throw e; });
      }
    }
  }
}
