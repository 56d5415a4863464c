// Loading: variant choice and its reason, one wasm instance per variant, and model bytes read
// once per URL however many translators ask (with progress reports for each asker).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { MAX_MODEL_BYTES, createTranslator, simdSupported } from '../../web/lib/bahdanau.js';
import { chooseVariant, loadVariant } from '../../web/lib/loader.js';
import { TINY, ensureEngines, notModelFiles } from './helpers.mjs';

test('variant choice reports why', () => {
  assert.equal(simdSupported(), true, 'Node 18+ has wasm SIMD');
  assert.deepEqual(chooseVariant('auto'), { variant: 'wasm-simd', reason: 'SIMD supported' });
  assert.deepEqual(chooseVariant(false), { variant: 'wasm-scalar', reason: 'forced by simd:false' });
  assert.deepEqual(chooseVariant(true), { variant: 'wasm-simd', reason: 'forced by simd:true' });
  assert.throws(() => chooseVariant('fast'), TypeError);
});

test('one instance per variant, shared by translators', async () => {
  ensureEngines();
  const [a, b] = await Promise.all([loadVariant('wasm-simd'), loadVariant('wasm-simd')]);
  assert.equal(a.module, b.module);
  assert.notEqual((await loadVariant('wasm-scalar')).module, a.module);
  const t1 = await createTranslator({ model: TINY });
  const t2 = await createTranslator({ model: TINY });
  assert.equal(t2.memory().liveObjects, t1.memory().liveObjects, 'both live in one instance');
  assert.equal(t1.engine.variant, 'wasm-simd');
  assert.equal(t1.engine.reason, 'SIMD supported');
  assert.ok(t1.engine.instantiateMs > 0 && t1.engine.loadMs > 0);
  const info = t1.info();
  for (const k of ['srcLang', 'tgtLang', 'scoring', 'numParams', 'dtype', 'fileBytes']) {
    assert.ok(info[k] !== undefined, `info().${k}`);
  }
  assert.equal(info.engine, 'wasm-simd');
  assert.equal(info.fileBytes, readFileSync(TINY).length);
  t1.dispose();
  t2.dispose();
});

test('a model URL is downloaded once, streamed, with progress for every asker', async () => {
  ensureEngines();
  const bytes = readFileSync(TINY);
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    if (req.url !== '/model.safetensors') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': bytes.length });
    // in pieces, so progress has steps to report
    let at = 0;
    const next = () => {
      if (at >= bytes.length) return res.end();
      res.write(bytes.subarray(at, at + 4096), next);
      at += 4096;
    };
    next();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    const progress = [[], [], []];
    const trs = await Promise.all(progress.map((p) => createTranslator({
      model: `${base}/model.safetensors`, onProgress: (e) => p.push(e) })));
    assert.equal(requests, 1, 'one download for three translators');
    for (const p of progress) {
      assert.ok(p.length >= 1);
      assert.deepEqual(p.at(-1), { loaded: bytes.length, total: bytes.length });
      for (let i = 1; i < p.length; i++) assert.ok(p[i].loaded >= p[i - 1].loaded);
    }
    assert.ok(progress[0].length > 2, 'streamed in several reports');
    // a later asker gets the cached bytes and one final report
    const late = [];
    const t4 = await createTranslator({ model: `${base}/model.safetensors`, onProgress: (e) => late.push(e) });
    assert.equal(requests, 1);
    assert.deepEqual(late, [{ loaded: bytes.length, total: bytes.length }]);
    assert.equal(trs[0].translate('I am cold.').text, t4.translate('I am cold.').text);
    for (const t of [...trs, t4]) t.dispose();

    await assert.rejects(createTranslator({ model: `${base}/missing` }), /cannot download model .*HTTP 404/);
    await assert.rejects(createTranslator({ model: `${base}/missing` }), /HTTP 404/);
    assert.equal(requests, 3, 'a failed download is not cached');
  } finally {
    server.close();
  }
});

// The wasm heap grows but never shrinks (web/lib/bahdanau.js): what is over the cap must be
// refused before it is read, downloaded or copied in.
test('a model over the 256 MiB cap, or a path that is not a regular file, is refused unread', async (t) => {
  ensureEngines();
  assert.equal(MAX_MODEL_BYTES, 256 * 2 ** 20);
  const rss = process.memoryUsage().rss;
  for (const [file, why] of notModelFiles(t)) {
    await assert.rejects(createTranslator({ model: file }), { message: `model file ${file} is ${why}` });
  }
  assert.ok(process.memoryUsage().rss - rss < 64 * 2 ** 20, 'nothing was read');
  await assert.rejects(createTranslator({ model: new Uint8Array(MAX_MODEL_BYTES + 1) }),
    { message: 'the model is 268435457 bytes, over the 256 MiB limit (268435456 bytes)' });

  // Downloads: a Content-Length over the cap is refused before the body; a body without one
  // is cut off as soon as it passes the cap.
  const chunk = Buffer.alloc(1 << 20);
  let sent = 0;
  const server = createServer((req, res) => {
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-length': MAX_MODEL_BYTES + 1 });
      res.write(chunk); // and never the rest
      return;
    }
    res.writeHead(200); // chunked: no size given
    const more = () => {
      while (!res.destroyed && sent < 2 * MAX_MODEL_BYTES) {
        sent += chunk.length;
        if (!res.write(chunk)) return res.once('drain', more);
      }
      res.end();
    };
    more();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  try {
    await assert.rejects(createTranslator({ model: `${base}/declared` }),
      { message: `model ${base}/declared is 268435457 bytes, over the 256 MiB limit (268435456 bytes)` });
    await assert.rejects(createTranslator({ model: `${base}/stream` }),
      { message: `model ${base}/stream is over the 256 MiB limit (268435456 bytes)` });
    assert.ok(sent < 1.5 * MAX_MODEL_BYTES, `the download stopped (${sent} bytes sent)`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
