// Bad inputs reach JS as Errors with clear messages, and the engine stays usable after each:
// after every failure a normal translation still gives the reference result.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { TINY, WASM, ensureEngines } from './helpers.mjs';

const GOOD = readFileSync(TINY);

// The model file with its safetensors header rewritten by edit(header object).
function withHeader(edit) {
  const n = Number(GOOD.readBigUInt64LE(0));
  const header = JSON.parse(GOOD.subarray(8, 8 + n).toString('utf8'));
  edit(header);
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([len, Buffer.from(json), GOOD.subarray(8 + n)]);
}

const BAD_MODELS = {
  empty: [new Uint8Array(0), /too short/i],
  'truncated header': [GOOD.subarray(0, 100), /header length \d+ exceeds file size/i],
  'truncated data': [GOOD.subarray(0, GOOD.length - 1000), /data_offsets .* exceed/i],
  'corrupt header JSON': [
    (() => { const b = Buffer.from(GOOD); b[8] = 0x78; return b; })(), /not valid JSON/i],
  'random bytes': [
    Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24), /header length/i],
  'another format': [
    withHeader((h) => { h.__metadata__.format = 'gguf-but-not-really'; }), /format "gguf-but-not-really"/],
  'another format version': [
    withHeader((h) => { h.__metadata__.format_version = '2'; }), /format_version/],
  'missing tensor': [withHeader((h) => { delete h['att.W']; }), /missing tensor att\.W/],
};

for (const variant of WASM) {
  describe(`bad inputs (${variant})`, () => {
    const simd = variant === 'wasm-simd';
    let tr;
    let reference;
    const stillWorks = () => assert.deepEqual(tr.translate('I am cold.').targetTokens, reference);

    test('setup', async () => {
      ensureEngines();
      tr = await createTranslator({ model: GOOD, simd });
      reference = tr.translate('I am cold.').targetTokens;
    });

    for (const [name, [bytes, message]] of Object.entries(BAD_MODELS)) {
      test(`model: ${name}`, async () => {
        await assert.rejects(createTranslator({ model: bytes, simd }), (e) => {
          assert.ok(e instanceof Error);
          assert.match(e.message, /^cannot load the model: /);
          assert.match(e.message, message);
          return true;
        });
        stillWorks();
      });
    }

    test('model: not bytes, not a path', async () => {
      await assert.rejects(createTranslator({ model: 42, simd }), TypeError);
      (await createTranslator({ simd })).dispose(); // no model: the packaged en-fr (model-names.test.mjs)
      await assert.rejects(createTranslator({ model: '/no/such/model.safetensors', simd }),
        /cannot read model file .*no such file/);
      await assert.rejects(createTranslator({ model: GOOD, simd: 'yes' }), TypeError);
      stillWorks();
    });

    test('heatmap: not a translate() result, and no heap left behind', () => {
      const good = tr.translate('I am cold.');
      tr.heatmap(good); // warm up whatever the first call allocates
      const before = tr.memory().heapBytes;
      for (const bad of [undefined, {}, { ...good, sourceTokens: [1, 2] },
        { ...good, attention: [['x']] }, { ...good, targetTokens: 'le' }]) {
        assert.throws(() => tr.heatmap(bad), (e) => e instanceof TypeError &&
          /^heatmap\(\): expects a translate\(\) result/.test(e.message));
      }
      assert.equal(tr.memory().heapBytes, before);
      assert.match(tr.heatmap(good), /legend:/);
      stillWorks();
    });

    test('text: not a string', () => {
      for (const v of [undefined, null, 42, {}, ['I am cold.'], GOOD, Symbol('x')]) {
        assert.throws(() => tr.translate(v), (e) => e instanceof TypeError &&
          /^translate\(\): text must be a string, got /.test(e.message));
        assert.throws(() => tr.steps(v), TypeError);
      }
      stillWorks();
    });

    test('align: bad arguments, unknown words, long targets, and the heap stays flat', () => {
      for (const v of [undefined, null, 42, {}, ['x']]) {
        assert.throws(() => tr.align(v, 'Le chat.'), (e) => e instanceof TypeError &&
          /^align\(\): text must be a string, got /.test(e.message));
        assert.throws(() => tr.align('The cat.', v), TypeError);
      }
      for (const topK of [0, 1.5, '5', tr.info().tgtVocab + 1]) {
        assert.throws(() => tr.align('The cat.', 'Le chat.', { topK }), RangeError);
      }
      assert.throws(() => tr.align('The cat.', 'le '.repeat(tr.info().maxTgtLen)),
        /target has \d+ tokens; this model writes at most \d+/);
      assert.throws(() => tr.align('the cat '.repeat(40), 'Le chat.'), /reads at most 64/);
      assert.deepEqual(tr.align('', 'Le chat.').steps, []); // no source: nothing to align
      const empty = tr.align('The cat.', ''); // only the end of the sentence to place
      assert.deepEqual(empty.targetTokens, ['</s>']);
      assert.equal(empty.steps.length, 1);
      const unk = tr.align('The cat.', 'Le Zorglub \uD800 chat.');
      assert.ok(unk.targetTokens.includes('Zorglub') && unk.targetTokens.includes('\uFFFD'));
      assert.equal(unk.unknown, unk.targetIds.filter((id) => id === 1).length);
      assert.ok(unk.unknown >= 2);
      assert.equal(unk.steps.find((s) => s.token === 1).word, '<unk>');
      const before = tr.memory().heapBytes;
      for (let i = 0; i < 300; i++) tr.align('The black cat is sleeping.', 'Le chat noir dort.');
      assert.equal(tr.memory().heapBytes, before);
      stillWorks();
    });

    test('options out of range', () => {
      for (const beam of [0, 17, 1.5, '4', NaN]) {
        assert.throws(() => tr.translate('I am cold.', { beam }), RangeError);
      }
      for (const maxLen of [0, 1025, -1, 2.5]) {
        assert.throws(() => tr.translate('I am cold.', { maxLen }), RangeError);
        assert.throws(() => tr.steps('I am cold.', { maxLen }), RangeError);
      }
      assert.throws(() => tr.steps('I am cold.', { topK: 0 }), RangeError);
      assert.throws(() => tr.translate('x', { beam: 17 }), /beam must be an integer in 1\.\.16, got 17/);
      stillWorks();
    });

    test('null options mean the defaults in every method; other non-objects are a TypeError', async () => {
      const text = 'I am cold.';
      assert.deepEqual(tr.translate(text, null).targetTokens, reference);
      const it = tr.steps(text, null);
      for await (const _ of it) { /* drains */ }
      assert.deepEqual(it.result.targetTokens, reference);
      assert.deepEqual(tr.align(text, "J'ai froid.", null), tr.align(text, "J'ai froid."));
      const cost = tr.scoringCost(text, null); // 5 batches of 2 ms, or fewer on a busy machine
      assert.ok(cost.batches >= 1 && cost.batches <= 5 && cost.stepUs > 0);
      assert.deepEqual(tr.tokenize(text, null), tr.tokenize(text));
      (await createTranslator(null)).dispose(); // the packaged en-fr
      assert.throws(() => tr.heatmap(null), { name: 'TypeError', message: /^heatmap\(\): expects a translate\(\) result/ });
      for (const bad of [42, 'beam', true]) {
        const named = (method) => ({ name: 'TypeError', message: new RegExp(`^${method}\\(\\): options must be an object, got `) });
        assert.throws(() => tr.translate(text, bad), named('translate'));
        assert.throws(() => tr.steps(text, bad), named('steps'));
        assert.throws(() => tr.align(text, 'Le chat.', bad), named('align'));
        assert.throws(() => tr.scoringCost(text, bad), named('scoringCost'));
        assert.throws(() => tr.tokenize(text, bad), named('tokenize'));
        await assert.rejects(createTranslator(bad), named('createTranslator'));
      }
      stillWorks();
    });

    test('100 KB of text', () => {
      const words = 'the cat is here . '.repeat(5700).slice(0, 100_000);
      assert.throws(() => tr.translate(words), /text has 100000 characters; at most 2000/);
      assert.throws(() => tr.steps(words), /text has 100000 characters/);
      const many = words.slice(0, 2000); // under the bound: the model's own token limit
      assert.throws(() => tr.translate(many), /input has \d+ tokens; this model reads at most 64/);
      const oneWord = 'a'.repeat(2000); // one (unknown) token: translates
      assert.equal(tr.translate(oneWord).sourceTokens.length, 2);
      stillWorks();
    });

    test('lone surrogates become U+FFFD', async () => {
      for (const text of ['\uD800', 'cat \uDC00 black', 'I am cold \uD83D.', '\uDE00\uD800x']) {
        const t = tr.translate(text);
        assert.ok(t.sourceTokens.includes('\uFFFD'), `${JSON.stringify(text)}: ${t.sourceTokens}`);
        assert.ok(t.sourceTokens.every((s) => s.isWellFormed?.() ?? true));
        for await (const _ of tr.steps(text)) { /* drains without error */ }
      }
      // a proper pair is kept as one character
      assert.ok(tr.translate('cat \uD83D\uDE00').sourceTokens.includes('\uD83D\uDE00'));
      stillWorks();
    });

    test('NFC is applied before the core', () => {
      const composed = tr.translate('caf\u00e9').sourceTokens;
      assert.deepEqual(tr.translate('cafe\u0301').sourceTokens, composed);
      assert.deepEqual(tr.translate('\u212b').sourceTokens, tr.translate('\u00c5').sourceTokens);
      stillWorks();
    });

    test('control characters and empty text', () => {
      assert.deepEqual(tr.translate('').targetTokens, []);
      assert.deepEqual(tr.translate('   \t ').sourceTokens, []);
      assert.deepEqual(tr.translate('I\u0000 am\u200b cold.').sourceTokens, ['I', 'am', 'cold', '.', '</s>']);
      stillWorks();
    });

    test('disposed translator', async () => {
      const t = await createTranslator({ model: GOOD, simd });
      t.dispose();
      t.dispose(); // idempotent
      assert.throws(() => t.translate('I am cold.'), /translate\(\): this translator has been disposed/);
      assert.throws(() => t.steps('I am cold.'), /disposed/);
      assert.throws(() => t.align('I am cold.', "J'ai froid."), /align\(\): this translator has been disposed/);
      stillWorks();
      tr.dispose();
    });
  });
}
