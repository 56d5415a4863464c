// startTraining (web/lib/training.js, web/lib/train-worker.js; issue 25): training in a
// worker_threads Worker, its events, pause, resume, reset, snapshots and translations on the
// current weights, measures, and a clear end for every kind of failure.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { createTrainer, createTranslator, startTraining } from '../../web/lib/bahdanau.js';
import { WATCH, pairViews, watchOptions } from '../../web/train/watch.js';
import { ROOT, ensureEngines, relaxedModule } from './helpers.mjs';

ensureEngines();

// scripts/train-data's fixture: 15 training pairs, 1 held-out, 24 + 28 words.
const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const CONFIG = { emb: 16, enc_hidden: 16, dec_hidden: 16, attn: 16 };
const BASE = { data: DATA, config: CONFIG, lr: 1e-2, batchSize: 4, seed: 5, reportMs: 20 };
const GOLD = [{ en: 'The cat is black.', fr: 'Le chat est noir.', sure: [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]] }];

// Every run a test starts, disposed when the file ends whatever its tests did: a failed
// assertion must end the file, not leave a worker that keeps the process alive.
const runs = new Set();
function start(options) {
  const run = startTraining(options);
  runs.add(run);
  return run;
}
after(() => {
  for (const run of runs) run.dispose();
});

// Resolves with the first event of `type` that satisfies ok (and unsubscribes).
function next(run, type, ok = () => true, ms = 20000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} event within ${ms} ms`)), ms);
    const off = run.on(type, (e) => {
      if (!ok(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a run trains in its worker, reports, pauses, resumes, measures and translates', async () => {
  const watch = [{ source: 'The cat is black.' }, { source: 'The cat is black.', target: 'Le chat est noir.' }];
  const run = start({ ...BASE, measureMs: 100, gold: GOLD, watch });
  const states = [];
  run.on('state', (s) => states.push(s.state));
  assert.equal(run.state, 'loading');
  assert.equal(run.engine, null, 'no engine before the model loads');
  await run.ready;
  assert.equal(run.state, 'training');
  // The worker's trainer says what it trains with: Node 20 without its flag has no relaxed SIMD
  // (tests/node/relaxed-gemm.test.mjs runs it with the flag).
  assert.equal(run.engine.variant, 'wasm-simd');
  if (await relaxedModule('bahdanau-relaxed-gemm.wasm')) {
    assert.equal(run.engine.kernels, 'wasm-relaxed', run.engine.relaxed);
  } else {
    assert.equal(run.engine.kernels, 'wasm-simd');
    assert.match(run.engine.relaxed, /relaxed SIMD not supported by this Node\.js/);
  }
  const p = await next(run, 'progress', (e) => e.steps >= 20);
  assert.ok(p.losses.length > 0 && p.losses.every(Number.isFinite));
  assert.ok(Math.abs(p.loss - p.losses.reduce((a, b) => a + b, 0) / p.losses.length) < 1e-9);
  assert.ok(p.seconds > 0 && p.stepsPerSecond > 0 && p.epochs >= 4, JSON.stringify({ ...p, losses: undefined }));

  const m = await next(run, 'measure');
  assert.ok(Number.isFinite(m.heldoutLoss) && m.steps > 0);
  assert.equal(m.alignment.tokens, 5);
  assert.equal(m.alignment.sentences, 1);
  const [greedy, forced] = m.watched;
  assert.equal(greedy.target, null);
  assert.deepEqual(greedy.sourceTokens, ['the', 'cat', 'is', 'black', '.', '</s>']);
  assert.equal(greedy.attention.length, greedy.targetTokens.length);
  assert.deepEqual(forced.targetTokens, ['le', 'chat', 'est', 'noir', '.']);
  assert.equal(forced.attention.length, 5);
  for (const row of forced.attention) {
    assert.equal(row.length, 6);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  }

  await run.pause();
  assert.equal(run.state, 'paused');
  const at = (await run.measureNow()).steps;
  let moved = false;
  const off = run.on('progress', () => (moved = true));
  await sleep(300);
  off();
  assert.equal(moved, false, 'no progress while paused');
  assert.equal((await run.measureNow()).steps, at, 'no step while paused');

  await run.resume();
  const later = await next(run, 'progress');
  assert.ok(later.steps > at, `${later.steps} > ${at}`);

  // The snapshot is a model file; translate() uses the weights of the moment.
  const file = await run.snapshot();
  const t = await createTranslator({ model: file });
  assert.deepEqual(t.translate('The cat is black.').sourceTokens, greedy.sourceTokens);
  t.dispose();
  const out = await run.translate('The dog is white.');
  assert.equal(typeof out.text, 'string');
  assert.equal(out.attention.length, out.targetTokens.length);

  run.dispose();
  assert.equal(run.state, 'stopped');
  await assert.rejects(run.snapshot(), /disposed/);
  assert.deepEqual(states.slice(0, 4), ['loading', 'training', 'paused', 'training']);
  assert.equal(states.at(-1), 'stopped');
});

test('measures, snapshots and translations read the averaged weights, as createTrainer does after as many steps', async () => {
  const run = start({ ...BASE, measureMs: 0, maxSteps: 40 });
  await next(run, 'state', (e) => e.state === 'stopped');
  const [m, file] = [await run.measureNow(), await run.snapshot()];
  assert.equal(m.steps, 40);
  const { data, config, lr, batchSize, seed } = BASE;
  const tr = await createTrainer({ data, config, lr, batchSize, seed });
  tr.step(40);
  assert.equal(m.heldoutLoss, tr.evaluate());
  assert.deepEqual(file, tr.snapshot());
  assert.notEqual(m.heldoutLoss, tr.evaluate({ weights: 'latest' }), 'not the latest weights');
  assert.notDeepEqual(file, tr.snapshot({ weights: 'latest' }));
  const t = await createTranslator({ model: file });
  assert.deepEqual((await run.translate('The dog is white.')).attention, t.translate('The dog is white.').attention);
  t.dispose();
  tr.dispose();
  run.dispose();
});

test('align(): forced decoding through a given French on the current weights, the rows a measure reports', async () => {
  const [source, target] = ['The cat is black.', 'Le chat est noir.'];
  const run = start({ ...BASE, measureMs: 0, watch: [{ source, target }] });
  await run.ready;
  await next(run, 'progress', (e) => e.steps >= 5);
  await run.pause(); // one set of weights for both
  const [a, m] = await Promise.all([run.align(source, target), run.measureNow()]);
  assert.deepEqual(a.sourceTokens, ['the', 'cat', 'is', 'black', '.', '</s>']);
  assert.deepEqual(a.targetTokens, ['le', 'chat', 'est', 'noir', '.', '</s>']);
  assert.equal(a.unknown, 0);
  assert.ok(Number.isFinite(a.logProb) && a.logProb < 0);
  assert.deepEqual(a.steps.map((s) => s.word), a.targetTokens, 'each row is the given word, not a chosen one');
  assert.deepEqual(a.steps.slice(0, -1).map((s) => s.alpha), m.watched[0].attention, 'the same rows as the measure\'s forced entry');
  await assert.rejects(run.align(source, 3), /align\(\): target must be a string/);
  await assert.rejects(run.align(null, target), /align\(\): source must be a string/);
  run.dispose();
  await assert.rejects(run.align(source, target), /align\(\): the run was disposed/);
});

test('reset starts again at step 0: the same seed gives the same losses; new options apply', async () => {
  const run = start({ ...BASE, maxSteps: 30, measureMs: 0 });
  const collect = async () => {
    const losses = [];
    let first = null;
    const off = run.on('progress', (p) => {
      first ??= p.steps - p.losses.length;
      losses.push(...p.losses);
    });
    const s = await next(run, 'state', (e) => e.state === 'stopped');
    off();
    return { losses, first, reason: s.reason };
  };
  const a = await collect();
  assert.equal(a.first, 0);
  assert.equal(a.losses.length, 30);
  assert.match(a.reason, /maxSteps \(30\) reached/);
  const again = collect();
  await run.reset();
  const b = await again;
  assert.equal(b.first, 0);
  assert.deepEqual(b.losses, a.losses);
  // another seed, another model
  const other = collect();
  await run.reset({ ...BASE, config: { emb: 16, enc_hidden: 16, dec_hidden: 16 }, seed: 6, maxSteps: 30, measureMs: 0, scoring: 'none', simd: false });
  assert.deepEqual({ ...run.engine }, { variant: 'wasm-scalar', reason: 'forced by simd:false', kernels: 'scalar',
    relaxed: 'the wasm-scalar engine has no SIMD' }, "the new worker's engine");
  const c = await other;
  assert.notDeepEqual(c.losses, a.losses);
  const m = await run.measureNow();
  assert.deepEqual(m.watched, []);
  const tr = await createTranslator({ model: await run.snapshot() });
  assert.equal(tr.info().scoring, 'none');
  tr.dispose();
  run.dispose();
});

test('a model without attention measures with gold links: alignment null, the run goes on', async () => {
  const run = start({ ...BASE, config: { emb: 16, enc_hidden: 16, dec_hidden: 16 }, scoring: 'none', gold: GOLD, maxSteps: 5, measureMs: 0 });
  const stopped = next(run, 'state', (e) => e.state === 'stopped' || e.state === 'error');
  await run.ready;
  const m = await run.measureNow();
  assert.equal(m.alignment, null);
  assert.equal(typeof m.heldoutLoss, 'number');
  const s = await stopped;
  assert.match(s.reason, /maxSteps \(5\) reached/);
  run.dispose();
});

test('a learning rate that makes the loss non-finite stops the run with the reason; the weights stay usable', async () => {
  const run = start({ ...BASE, lr: 1e30, measureMs: 0 });
  const s = await next(run, 'state', (e) => e.state !== 'training' && e.state !== 'loading');
  assert.equal(s.state, 'stopped');
  assert.match(s.reason, /stopped at step \d+: the loss .* is not finite; the weights are unchanged/);
  const t = await run.translate('The cat is black.');
  assert.ok(Array.isArray(t.targetTokens));
  run.dispose();
});

test('bad data, a bad config and bad gold give state error with the reason; bad options throw', async () => {
  const cases = [
    [{ data: new TextEncoder().encode('hello\n') }, /train data: line 1/],
    [{ data: new Uint8Array(0) }, /train data/],
    [{ data: path.join(ROOT, 'no-such-file.txt') }, /no-such-file/],
    [{ config: { ...CONFIG, emb: 0 } }, /emb/],
    [{ gold: [{ ...GOLD[0], sure: [[9, 0]] }] }, /link 9-0 is outside 5x5 tokens/],
    [{ gold: [{ en: 'x' }] }, /gold pair 0: want/],
  ];
  for (const [bad, message] of cases) {
    const run = start({ ...BASE, ...bad });
    const s = await next(run, 'state', (e) => e.state !== 'loading');
    assert.equal(s.state, 'error', JSON.stringify(bad));
    assert.match(s.reason, message);
    await assert.rejects(run.ready, message);
    await assert.rejects(run.snapshot(), /snapshot\(\): the run failed/);
    run.dispose();
  }
  assert.throws(() => startTraining({ ...BASE, preset: 'huge' }), /preset must be 'small' or 'tiny'/);
  assert.throws(() => startTraining({ ...BASE, scoring: 'dot' }), /scoring must be one of/);
  assert.throws(() => startTraining({ ...BASE, watch: 'cat' }), /watch must be an array/);
  assert.throws(() => startTraining({ ...BASE, lr: '1' }), /lr must be a number/);
  assert.throws(() => startTraining({ ...BASE, maxSteps: 0 }), /maxSteps must be a positive integer/);
  assert.throws(() => startTraining({ ...BASE, reportMs: -1 }), /reportMs must be a positive number/);
  assert.throws(() => startTraining({ ...BASE, epochs: 3 }), /unknown option "epochs"/);
  assert.throws(() => startTraining({ ...BASE, relaxed: 'yes' }), { name: 'TypeError', message: /startTraining: relaxed must be 'auto', true or false, got "yes"/ });
  assert.throws(() => startTraining({ ...BASE, relaxed: null }), /relaxed must be 'auto', true or false, got null/);
  assert.throws(() => startTraining({ ...BASE, relaxed: true, simd: false }), /relaxed:true needs the SIMD engine/);
  assert.throws(() => startTraining({ ...BASE, data: 42 }), /data must be bytes, a URL or a file path/);
});

test('a worker that crashes ends the run with state error, and nothing waits for it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bahdanau-train-'));
  try {
    const worker = path.join(dir, 'crash-worker.mjs');
    writeFileSync(worker, "throw new Error('boom at start');\n");
    const run = start({ ...BASE, worker: new URL(`file://${worker}`) });
    const pending = run.snapshot();
    const s = await next(run, 'state', (e) => e.state === 'error');
    assert.match(s.reason, /the training worker crashed: boom at start/);
    await assert.rejects(pending, /crashed/);
    await assert.rejects(run.translate('x'), /translate\(\): the training worker crashed/);
    run.dispose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the bundled data and gold load together: the gold tokens are the model\'s own; the page\'s references are in its vocabulary', async () => {
  const run = start({ preset: 'tiny', gold: true, measureMs: 0, watch: watchOptions() });
  await run.pause(); // while it loads: it starts paused, at step 0
  await run.ready;
  assert.equal(run.state, 'paused');
  const m = await run.measureNow();
  assert.equal(m.steps, 0);
  const gold = JSON.parse(readFileSync(path.join(ROOT, 'web', 'data', 'train-en-fr-gold.json'), 'utf8'));
  const sureRows = gold.pairs.reduce((n, p) => n + new Set(p.sure.map(([, f]) => f)).size, 0);
  assert.equal(m.alignment.tokens, sureRows);
  assert.equal(m.alignment.sentences, gold.pairs.length);
  // The page's references (web/train/watch.js) are inside this bundle's French vocabulary:
  // a row of <unk> would show the model reading a word it cannot know.
  for (const { source, reference } of WATCH) {
    const a = await run.align(source, reference);
    const unknown = a.targetTokens.filter((_, i) => a.targetIds[i] === 1);
    assert.deepEqual(unknown, [], `${reference}: words outside the vocabulary`);
    assert.equal(a.unknown, 0, reference);
  }
  // The page watches each sentence twice, through its reference, then greedy: both views.
  const views = pairViews(m.watched);
  assert.deepEqual(views.map((v) => [v.source, v.reference.target, v.reference.text, v.own.target]),
    WATCH.map((w) => [w.source, w.reference, w.reference, null]));
  for (const v of views) assert.equal(v.reference.attention.length, v.reference.targetTokens.length);
  run.dispose();
});

test('gzip-compressed data (as web/data/train-en-fr.bin is) trains as the plain file; bad gzip is an error', async () => {
  const { gzipSync } = await import('node:zlib');
  const plain = readFileSync(DATA);
  const losses = async (data) => {
    const run = start({ ...BASE, data, maxSteps: 8, measureMs: 0 });
    const got = [];
    run.on('progress', (p) => got.push(...p.losses));
    const s = await next(run, 'state', (e) => e.state === 'stopped' || e.state === 'error');
    run.dispose();
    return [s.state, got];
  };
  const [a, b] = await Promise.all([losses(plain), losses(gzipSync(plain))]);
  assert.equal(a[0], 'stopped');
  assert.deepEqual(b, a);
  const cases = [
    [gzipSync(plain).subarray(0, 100), /not valid gzip/],
    [gzipSync(new Uint8Array(65 * 2 ** 20)), /inflates to over the 67108864 bytes/],
  ];
  for (const [data, message] of cases) {
    const run = start({ ...BASE, data });
    const s = await next(run, 'state', (e) => e.state !== 'loading');
    assert.equal(s.state, 'error');
    assert.match(s.reason, message);
    run.dispose();
  }
});
