// The training loop of startTraining (web/lib/training.js), in its own thread: a module Web
// Worker in the browser, a worker_threads Worker in Node, the same file for both. It owns one
// createTrainer (trainer.js) and, for measures and translations, a translator made from the
// trainer's snapshot of its averaged weights (createTrainer's average; the latest weights when
// it is 0).
//
// It runs step(k) in chunks of about CHUNK_MS and yields to its message queue between them, so a
// pause, reset or snapshot waits for one chunk at most. Messages (training.js is the other side):
//   in:  {type: 'start', options}   options as training.js resolved them (presets applied,
//                                   URLs absolute, no functions)
//        {type: 'pause' | 'resume' | 'snapshot' | 'translate' | 'align' | 'measure', id, text?,
//         source?, target?}
//   out: {type: 'state', state, reason?}, {type: 'engine', engine} (createTrainer's tr.engine,
//        once loaded), {type: 'progress', ...}, {type: 'measure', ...},
//        {type: 'reply', id, result} | {type: 'reply', id, error}
// A reset is a new worker (training.js), so nothing of an old run can leak into the next.

import { createTranslator } from './bahdanau.js';
import { isNode, nextTask } from './env.js';
import { goldAlignment } from './train-measure.js';
import { OPTION_NUMBERS, createTrainer, readSource } from './trainer.js';

// Long enough that the per-chunk costs (a message turn, the Embind call) vanish, short enough
// that the page's pause button feels immediate.
const CHUNK_MS = 75;
const MAX_CHUNK = 1000;

let post = () => {};
let run = null; // the one run of this worker

function onMessage(m) {
  if (m.type === 'start') start(m.options);
  else if (m.type === 'pause') reply(m.id, () => pause());
  else if (m.type === 'resume') reply(m.id, () => resume());
  else if (m.type === 'snapshot') reply(m.id, () => trainerOf().snapshot());
  else if (m.type === 'translate') reply(m.id, async () => (await view()).translate(m.text));
  else if (m.type === 'align') reply(m.id, async () => (await view()).align(m.source, m.target));
  else if (m.type === 'measure') reply(m.id, () => measure());
  else reply(m.id, () => { throw new Error(`unknown message ${m.type}`); });
}

async function reply(id, compute) {
  try {
    post({ type: 'reply', id, result: await compute() });
  } catch (e) {
    post({ type: 'reply', id, error: e?.message ?? String(e) });
  }
}

function setState(state, reason) {
  run.state = state;
  post({ type: 'state', state, ...(reason ? { reason } : {}) });
}

function trainerOf() {
  if (run?.state === 'error') throw new Error(`the run failed: ${run.reason}`);
  if (!run?.trainer) throw new Error('the model is still loading');
  return run.trainer;
}

async function start(options) {
  run = {
    options, paused: Boolean(options.paused), looping: false, state: 'loading', trainer: null, steps: 0, epochs: 0, trainMs: 0,
    chunk: 1, pending: [], lastReport: performance.now(), lastMeasureMs: 0,
    recent: [], // [ms, steps] of the last chunks, for stepsPerSecond
    view: null, gold: null,
  };
  setState('loading');
  try {
    const { data, config, simd, relaxed, dist, gold } = options;
    const settings = {};
    for (const k of OPTION_NUMBERS) {
      if (options[k] !== undefined) settings[k] = options[k];
    }
    const [trainer, goldPairs] = await Promise.all([
      createTrainer({ data, config, simd, relaxed, dist, ...settings }),
      gold === null ? null : loadGold(gold),
    ]);
    run.trainer = trainer;
    run.gold = goldPairs;
    if (goldPairs) await checkGold(goldPairs); // tokens as this model reads them
  } catch (e) {
    run.reason = e?.message ?? String(e);
    setState('error', run.reason);
    return;
  }
  post({ type: 'engine', engine: run.trainer.engine }); // before the state that resolves ready
  setState(run.paused ? 'paused' : 'training');
  loop();
}

// While it loads, these choose the state it starts in; once stopped, nothing.
function pause() {
  if (run?.state === 'loading') run.paused = true;
  if (run?.state !== 'training') return;
  report();
  setState('paused');
}

function resume() {
  if (run?.state === 'loading') run.paused = false;
  if (run?.state !== 'paused') return;
  setState('training');
  loop();
}

function stop(reason) {
  report();
  setState('stopped', reason);
}

// One loop at a time: a resume that comes while the last loop still awaits a measure leaves
// that loop to carry on.
async function loop() {
  if (run.looping) return;
  run.looping = true;
  try {
    await steps();
  } finally {
    run.looping = false;
  }
}

async function steps() {
  const o = run.options;
  while (run.state === 'training') {
    const t0 = performance.now();
    let r;
    try {
      r = run.trainer.step(run.chunk);
    } catch (e) {
      // "step(): stopped at step N: the loss ... is not finite": the N - 1 before it were made
      const made = /stopped at step (\d+)/.exec(e.message);
      if (made) run.steps = Number(made[1]) - 1;
      stop(e.message);
      break;
    }
    const ms = performance.now() - t0;
    run.trainMs += ms;
    run.steps = r.steps;
    run.epochs = r.epochs;
    run.pending.push(...r.losses);
    run.recent.push([ms, r.losses.length]);
    if (run.recent.length > 20) run.recent.shift();
    run.chunk = Math.max(1, Math.min(MAX_CHUNK, Math.round((run.chunk * CHUNK_MS) / Math.max(ms, 1))));
    if (o.maxSteps !== undefined) run.chunk = Math.min(run.chunk, Math.max(1, o.maxSteps - run.steps));
    const now = performance.now();
    if (now - run.lastReport >= o.reportMs) report();
    if (o.measureMs > 0 && run.trainMs - run.lastMeasureMs >= o.measureMs) {
      run.lastMeasureMs = run.trainMs;
      await measureAndPost();
    }
    if (o.maxSteps !== undefined && run.steps >= o.maxSteps) stop(`maxSteps (${o.maxSteps}) reached`);
    else if (o.maxSeconds !== undefined && run.trainMs >= o.maxSeconds * 1000) stop(`maxSeconds (${o.maxSeconds}) reached`);
    if (run.state !== 'training') break;
    await nextTask(); // pause, snapshot, translate... are answered here
  }
}

function report() {
  run.lastReport = performance.now();
  if (!run.pending.length) return;
  const losses = run.pending;
  run.pending = [];
  const [ms, n] = run.recent.reduce(([a, b], [c, d]) => [a + c, b + d], [0, 0]);
  post({
    type: 'progress', steps: run.steps, epochs: run.epochs, seconds: run.trainMs / 1000,
    stepsPerSecond: ms > 0 ? (1000 * n) / ms : 0,
    loss: losses.reduce((a, b) => a + b, 0) / losses.length, losses,
  });
}

async function measureAndPost() {
  try {
    post({ type: 'measure', ...(await measure()) });
  } catch (e) {
    stop(`measuring failed: ${e?.message ?? e}`);
  }
}

// A translator on the averaged weights, made again only when a step has been made since. One
// promise per snapshot, so a measure and a translate() asked at once share it; the one before
// is disposed once its users, which read it synchronously after their await, are done.
function view() {
  const trainer = trainerOf();
  if (!run.view || run.view.steps !== run.steps) {
    const old = run.view;
    const { simd, dist } = run.options;
    const promise = createTranslator({ model: trainer.snapshot(), simd, dist });
    promise.catch(() => {});
    run.view = { steps: run.steps, promise };
    old?.promise.then((t) => t.dispose(), () => {});
  }
  return run.view.promise;
}

async function measure() {
  const trainer = trainerOf();
  const { steps, trainMs } = run;
  const heldoutLoss = trainer.evaluate();
  const tr = await view();
  // A model without attention has no rows to read: its alignment is null, not an error.
  let alignment = null;
  if (run.gold?.length && tr.info().scoring !== 'none') {
    alignment = goldAlignment(tr, run.gold);
  }
  const watched = run.options.watch.map(({ source, target }) => {
    if (target === undefined || target === null) {
      const t = tr.translate(source);
      return { source, target: null, sourceTokens: t.sourceTokens, targetTokens: t.targetTokens, attention: t.attention, text: t.text };
    }
    const a = tr.align(source, target);
    return {
      source, target, sourceTokens: a.sourceTokens, targetTokens: a.targetTokens.slice(0, -1),
      attention: a.steps.slice(0, -1).map((s) => s.alpha), text: target,
    };
  });
  return { steps, seconds: trainMs / 1000, heldoutLoss, alignment, watched };
}

// gold: an array of pairs, or {pairs} (scripts/train-data's JSON), or its URL or path.
async function loadGold(gold) {
  let value = gold;
  if (typeof gold === 'string') {
    const text = new TextDecoder().decode(await readSource(gold, 'gold:'));
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new Error(`gold: ${gold} is not JSON: ${e.message}`);
    }
  }
  const pairs = Array.isArray(value) ? value : value?.pairs;
  if (!Array.isArray(pairs)) throw new TypeError('gold must be an array of pairs or {pairs: [...]}');
  const link = (l) => Array.isArray(l) && l.length === 2 && l.every((x) => Number.isInteger(x) && x >= 0);
  pairs.forEach((p, i) => {
    const ok = p && typeof p.en === 'string' && typeof p.fr === 'string' && Array.isArray(p.sure) &&
      p.sure.every(link) && (p.possible === undefined || (Array.isArray(p.possible) && p.possible.every(link)));
    if (!ok) throw new TypeError(`gold pair ${i}: want {en, fr, sure: [[e, f], ...], possible?: [[e, f], ...]}`);
  });
  return pairs.map((p) => ({ ...p, possible: p.possible ?? [] }));
}

// The links index the model's tokens: a pair this model splits otherwise (another tokenizer,
// a bundle with other names) would be measured on the wrong words, so it is refused.
async function checkGold(pairs) {
  const tr = await view();
  pairs.forEach((p, i) => {
    const en = tr.tokenize(p.en);
    const fr = tr.tokenize(p.fr, { side: 'target' });
    p.enTokens ??= en;
    const same = (a, b) => a.length === b.length && a.every((t, k) => t === b[k]);
    if (!same(en, p.enTokens) || (p.frTokens && !same(fr, p.frTokens))) {
      throw new Error(`gold pair ${i} (${JSON.stringify(p.en)}): the model's tokens ${JSON.stringify(en)} / ${JSON.stringify(fr)} are not the pair's`);
    }
    const bad = [...p.sure, ...p.possible].find(([e, f]) => e >= en.length || f >= fr.length);
    if (bad) throw new RangeError(`gold pair ${i}: link ${bad[0]}-${bad[1]} is outside ${en.length}x${fr.length} tokens`);
  });
}

if (isNode) {
  import('node:worker_threads').then(({ parentPort }) => {
    post = (m) => parentPort.postMessage(m);
    parentPort.on('message', onMessage);
  });
} else {
  post = (m) => self.postMessage(m);
  self.onmessage = ({ data }) => onMessage(data);
}
