// why.html's experiment runner (web/app/bleu-experiment.js) with stand-in engine clients: the
// sample's order, its chunks of translateBatch(), the scores per band (corpusBleu on the same
// tokens), cancelling, and a failure of one model stopping both. The real workers and models are tests/browser/why.test.mjs's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BleuExperiment, interleave } from '../../web/app/bleu-experiment.js';
import { corpusBleu } from '../../web/lib/bleu.js';

const BUCKETS = ['1-10', '11-20', '21-30'];
const ITEMS = BUCKETS.flatMap((bucket, b) => [0, 1, 2, 3].map((k) => ({
  bucket, en: `en ${b} ${k}`, fr: `le chat ${b} ${k} dort ici`,
})));

// An EngineClient's translateBatch() and tokenize(), answering after `delay` ms (the real one
// cannot be cancelled either: the worker runs the whole chunk); `write` turns the English into
// the "translation", `fail` is a text answered with {error}, as translateBatch() does; after
// `hangAfter` calls the answers never come.
class FakeClient {
  calls = []; // every text, in order
  batches = []; // the texts of each call

  constructor(write, { delay = 1, fail = null, hangAfter = Infinity } = {}) {
    this.write = write;
    this.delay = delay;
    this.fail = fail;
    this.hangAfter = hangAfter;
  }

  translate() {
    throw new Error('the experiment decodes with translateBatch()');
  }

  translateBatch(texts) {
    this.calls.push(...texts);
    this.batches.push(texts);
    if (this.batches.length > this.hangAfter) return new Promise(() => {});
    return new Promise((resolve) => setTimeout(() => resolve(texts.map((t) =>
      (t === this.fail ? { error: `cannot translate ${t}` } : { text: this.write(t) }))), this.delay));
  }

  async tokenize(texts) {
    return texts.map((t) => t.toLowerCase().split(/\s+/).filter(Boolean));
  }
}

const good = (en) => `le chat ${en.slice(3)} dort`;
const bad = () => 'le';

test('interleave takes one sentence of each band in turn', () => {
  const order = interleave(ITEMS, BUCKETS);
  assert.equal(order.length, ITEMS.length);
  assert.deepEqual(order.slice(0, 4).map((it) => it.bucket), ['1-10', '11-20', '21-30', '1-10']);
  assert.deepEqual(new Set(order), new Set(ITEMS));
  const uneven = interleave(ITEMS.slice(0, 6), BUCKETS); // 4 of the first band, 2 of the second
  assert.deepEqual(uneven.map((it) => it.bucket), ['1-10', '11-20', '1-10', '11-20', '1-10', '1-10']);
});

test('a full run: every sentence scored per band, equal to corpusBleu on the same tokens', async () => {
  const items = interleave(ITEMS, BUCKETS);
  const clients = { a: new FakeClient(bad, { delay: 2 }), b: new FakeClient(good) };
  const reports = [];
  const exp = new BleuExperiment({ clients, scorer: clients.b, items, buckets: BUCKETS, onProgress: (p) => reports.push(p) });
  const out = await exp.run();
  assert.equal(out.status, 'done');
  assert.equal(out.done, items.length);
  assert.ok(out.ms > 0);
  assert.deepEqual(reports.map((r) => r.done), items.map((_, k) => k + 1), 'one report per sentence, in order');
  assert.equal(reports.at(-1).leftMs, 0);
  assert.deepEqual(clients.a.calls, items.map((it) => it.en));
  // One band round per call by default: 12 sentences in 4 calls of 3.
  assert.deepEqual(clients.a.batches.map((b) => b.length), [3, 3, 3, 3]);
  const tok = (t) => t.toLowerCase().split(/\s+/);
  const scores = exp.scores();
  for (const side of ['a', 'b']) {
    const write = side === 'a' ? bad : good;
    for (const b of BUCKETS) {
      const mine = items.filter((it) => it.bucket === b);
      const expected = 100 * corpusBleu(mine.map((it) => tok(write(it.en))), mine.map((it) => [tok(it.fr)]));
      assert.equal(scores[side][b].bleu, expected, `${side} ${b}`);
      assert.equal(scores[side][b].sentences, mine.length);
    }
  }
  assert.ok(scores.b['1-10'].bleu > scores.a['1-10'].bleu);
  assert.deepEqual(exp.outputs().b, items.map((it) => good(it.en)));
});

test('cancel stops both models; what was scored stays, every band has a share', async () => {
  const items = interleave(ITEMS, BUCKETS);
  const clients = { a: new FakeClient(bad, { delay: 5 }), b: new FakeClient(good, { delay: 5 }) };
  let exp;
  exp = new BleuExperiment({
    clients, scorer: clients.b, items, buckets: BUCKETS,
    onProgress: ({ done }) => done === 4 && exp.cancel(),
  });
  const out = await exp.run();
  assert.equal(out.status, 'cancelled');
  assert.equal(out.done, 4);
  // Scored 4 = two chunks of 3 decoded; at most the next chunk was in flight.
  assert.ok(clients.a.calls.length <= 9, `stopped dispatching (${clients.a.calls.length} sent)`);
  const scores = exp.scores();
  for (const b of BUCKETS) assert.ok(scores.b[b].sentences >= 1, `${b} has a sentence`);
  assert.equal(Object.values(scores.a).reduce((n, x) => n + x.sentences, 0), 4);
});

test('one model failing stops the other and reports the error', async () => {
  const items = interleave(ITEMS, BUCKETS);
  const clients = { a: new FakeClient(bad, { fail: items[2].en }), b: new FakeClient(good, { delay: 3 }) };
  const exp = new BleuExperiment({ clients, scorer: clients.b, items, buckets: BUCKETS });
  const out = await exp.run();
  assert.equal(out.status, 'failed');
  assert.match(out.error.message, /cannot translate/);
  assert.ok(out.done <= 2);
  assert.ok(clients.b.calls.length < items.length, 'the other model stopped');
});

test('chunk: the given number of sentences per call, a short last one; the same scores', async () => {
  const items = interleave(ITEMS, BUCKETS);
  const run = async (chunk) => {
    const clients = { a: new FakeClient(bad), b: new FakeClient(good) };
    const reports = [];
    const exp = new BleuExperiment({ clients, scorer: clients.b, items, buckets: BUCKETS, chunk, onProgress: (p) => reports.push(p.done) });
    assert.equal((await exp.run()).status, 'done');
    return { exp, clients, reports };
  };
  const five = await run(5);
  assert.deepEqual(five.clients.b.batches.map((b) => b.length), [5, 5, 2]);
  assert.deepEqual(five.reports, items.map((_, k) => k + 1), 'still one report per sentence');
  const one = await run(1);
  assert.equal(one.clients.b.batches.length, items.length);
  assert.deepEqual(five.exp.scores(), one.exp.scores());
  assert.deepEqual(five.exp.outputs(), one.exp.outputs());
});

test('cancel settles the run at once, without waiting for the chunk in flight', { timeout: 5000 }, async () => {
  const items = interleave(ITEMS, BUCKETS);
  // The second chunk never answers, as a worker busy with a long one.
  const clients = { a: new FakeClient(bad, { hangAfter: 1 }), b: new FakeClient(good, { hangAfter: 1 }) };
  let exp;
  exp = new BleuExperiment({
    clients, scorer: clients.b, items, buckets: BUCKETS,
    onProgress: ({ done }) => done === 3 && setTimeout(() => exp.cancel(), 5),
  });
  const out = await exp.run();
  assert.equal(out.status, 'cancelled');
  assert.equal(out.done, 3);
  assert.equal(clients.a.batches.length, 2, 'the hanging chunk was sent, and no later one');
});
