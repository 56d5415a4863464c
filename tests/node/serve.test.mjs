// scripts/serve.mjs, the demo's static server, without a browser: it survives any request
// target, follows no link out of its folders, and sends the headers, ranges and compressed
// bodies that tests/browser/serve.test.mjs then checks in Chromium.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';

import { startServer } from '../../scripts/serve.mjs';
import { modelBytes } from '../../web/lib/model-cache.js';
import { ROOT, shippedModelOrFail } from './helpers.mjs';

const WASM = path.join(ROOT, 'web', 'dist', 'bahdanau-simd.wasm');
const TINY = path.join(ROOT, 'tests', 'fixtures', 'tiny-additive-f32.safetensors');

// Raw bytes on a socket: http.request and fetch() would refuse or normalise these targets.
function rawStatus(port, target) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      // write(), not end(): a half-closed request is dropped by Node before an async answer.
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.setTimeout(5000, () => socket.destroy(new Error(`timeout on ${target}`)));
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

// -> {status, headers, body: Buffer}, the body as sent (no decompression).
function request(port, target, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout on ${target}`)));
    req.on('error', reject);
    req.end();
  });
}

function decode(res) {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(res.body);
  if (coding === 'gzip') return zlib.gunzipSync(res.body);
  assert.equal(coding, undefined);
  return res.body;
}

describe('a request target cannot take the server down', () => {
  let child;
  let port;
  before(async () => {
    // A child process, so that a crash is the server's and not this test runner's.
    child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve.mjs'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    port = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = /127\.0\.0\.1:(\d+)\//.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`serve.mjs exited (${code}) before listening`)));
    });
  });
  after(() => child?.kill());

  test('bad targets get 400, odd but valid paths 404, and the next request is served', async () => {
    const expected = {
      '//[': 400,
      '//%': 400,
      'http://[::1': 400,
      'http://127.0.0.1:0x/': 400,
      '/%zz': 400,
      '/a%E0%A4%A': 400,
      '/%FF': 400, // not UTF-8
      '/a#b': 400,
      'no-slash': 400,
      '*': 400, // only OPTIONS may name the server
      // Empty segments are allowed in an origin-form path (RFC 9112 §3.2.1): these are
      // paths, and nothing is there.
      '//x:99999/': 404,
      '//a%20b': 404,
      'http://127.0.0.1/no-such-file': 404,
      'http://127.0.0.1/app.js?x=[1]': 200,
    };
    for (const [target, status] of Object.entries(expected)) {
      assert.equal(await rawStatus(port, target), status, target);
      assert.equal(await rawStatus(port, '/'), 200, `the request after ${target}`);
    }
    assert.equal(child.exitCode, null, 'still running');
  });
});

describe('the server', () => {
  let server;
  let port;
  let tmp;
  let errors;
  const consoleError = console.error;

  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'bl-serve-'));
    const served = path.join(tmp, 'served');
    mkdirSync(path.join(served, 'sub'), { recursive: true });
    mkdirSync(path.join(tmp, 'outside'));
    writeFileSync(path.join(served, 'inside.txt'), 'inside\n');
    writeFileSync(path.join(served, 'page.html'), '<!doctype html><title>a test page</title>\n');
    writeFileSync(path.join(served, 'picture.png'), Buffer.alloc(4096));
    writeFileSync(path.join(served, 'changing.js'), 'x'.repeat(5000));
    writeFileSync(path.join(tmp, 'outside', 'secret.txt'), 'secret\n');
    symlinkSync(path.join(served, 'inside.txt'), path.join(served, 'link-inside.txt'));
    symlinkSync(path.join(tmp, 'outside', 'secret.txt'), path.join(served, 'link-out.txt'));
    symlinkSync(path.join(tmp, 'outside'), path.join(served, 'dir-out'));
    symlinkSync('/etc/passwd', path.join(served, 'passwd'));
    symlinkSync(path.join(ROOT, 'web', 'app.js'), path.join(served, 'link-web.js'));
    symlinkSync(served, path.join(tmp, 'root-link'));
    server = await startServer({
      port: 0,
      extraMounts: [
        ['/t/', served],
        ['/via-link/', path.join(tmp, 'root-link')],
        // A folder that is not a string: path.resolve() throws inside the handler, as a
        // future bug would.
        ['/boom/', 42],
      ],
    });
    port = server.server.address().port;
    errors = [];
    console.error = (...args) => errors.push(args.join(' '));
  });

  after(async () => {
    console.error = consoleError;
    await server?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  test('a bug in the handler answers 500, is logged, and the server goes on', async () => {
    assert.equal((await request(port, '/boom/x')).status, 500);
    assert.match(errors.join('\n'), /\/boom\/x/);
    assert.equal((await request(port, '/')).status, 200);
  });

  test('links are followed only to files inside the served folders', async () => {
    assert.equal((await request(port, '/t/inside.txt')).status, 200);
    assert.equal((await request(port, '/t/link-inside.txt')).body.toString(), 'inside\n');
    assert.equal((await request(port, '/via-link/inside.txt')).status, 200, 'a root may itself be a link');
    assert.equal((await request(port, '/t/link-web.js')).status, 200, 'web/ is served anyway');
    for (const target of ['/t/link-out.txt', '/t/dir-out/secret.txt', '/t/passwd', '/t/sub']) {
      const res = await request(port, target);
      assert.equal(res.status, 404, target);
      assert.doesNotMatch(res.body.toString(), /secret|root:/, target);
    }
  });

  test('every response says nosniff; errors too', async () => {
    for (const [target, method, status] of [
      ['/', 'GET', 200],
      ['/app.js', 'HEAD', 200],
      ['/no-such-file', 'GET', 404],
      ['/', 'POST', 405],
      ['/%zz', 'GET', 400],
      ['/boom/y', 'GET', 500],
      ['/', 'OPTIONS', 204],
    ]) {
      const res = await request(port, target, { method });
      assert.equal(res.status, status, `${method} ${target}`);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', `${method} ${target}`);
      assert.equal(res.headers['access-control-allow-origin'], '*', `${method} ${target}`);
    }
  });

  test("the project's pages carry a Content-Security-Policy: 'unsafe-eval' only where the widget runs", async () => {
    const csp = async (target) => (await request(port, target)).headers['content-security-policy'];
    for (const page of ['/', '/index.html', '/compare.html']) {
      const policy = await csp(page);
      assert.match(policy, /default-src 'self'/, page);
      assert.match(policy, /script-src 'self';/, page);
      assert.match(policy, /object-src 'none'/, page);
    }
    for (const page of ['/embed.html', '/embed-docs.html']) {
      assert.match(await csp(page), /script-src 'self' 'unsafe-eval';/, page);
    }
    assert.equal(await csp('/app.js'), undefined, 'a worker gets no page policy');
    assert.equal(await csp('/t/page.html'), undefined, 'only web/ holds the pages');
  });

  test('OPTIONS answers a CORS preflight', async () => {
    for (const target of ['/models/en-fr.safetensors', '*']) {
      const res = await request(port, target, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://course.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'range',
        },
      });
      assert.equal(res.status, 204, target);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.match(res.headers['access-control-allow-methods'], /GET/);
      assert.match(res.headers['access-control-allow-headers'], /Range/i);
      assert.match(res.headers.allow, /OPTIONS/);
      assert.equal(res.body.length, 0);
    }
  });

  test('Range: 206 with Content-Range, 416 past the end, the whole file when it cannot apply', async () => {
    const file = readFileSync(TINY);
    const size = file.length;
    const target = '/fixtures/tiny-additive-f32.safetensors';
    const ranged = (range, extra = {}) =>
      request(port, target, { headers: { Range: range, 'Accept-Encoding': 'br, gzip', ...extra } });

    const full = await request(port, target);
    assert.equal(full.headers['accept-ranges'], 'bytes');
    for (const [range, start, end] of [
      ['bytes=0-7', 0, 7],
      ['bytes=100-', 100, size - 1],
      ['bytes=-16', size - 16, size - 1],
      ['bytes=10-999999999', 10, size - 1],
    ]) {
      const res = await ranged(range);
      assert.equal(res.status, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
      assert.equal(res.headers['content-encoding'], undefined, 'ranges are of the file itself');
      assert.equal(Number(res.headers['content-length']), end - start + 1, range);
      assert.deepEqual(res.body, file.subarray(start, end + 1), range);
    }
    for (const range of [`bytes=${size}-`, 'bytes=-0']) {
      const res = await ranged(range);
      assert.equal(res.status, 416, range);
      assert.equal(res.headers['content-range'], `bytes */${size}`, range);
    }
    // Malformed, several ranges, or an If-Range we cannot check: the whole file (RFC 9110 §14.2).
    for (const [range, extra] of [['bytes=9-2'], ['items=0-1'], ['bytes=0-1,4-5'], ['bytes=0-1', { 'If-Range': '"x"' }]]) {
      const res = await ranged(range, extra);
      assert.equal(res.status, 200, range);
      assert.deepEqual(decode(res), file, range);
    }
    const head = await request(port, target, { method: 'HEAD', headers: { Range: 'bytes=0-1' } });
    assert.equal(head.status, 200, 'Range is for GET only');
  });

  test('compressed bodies: br, then gzip, as the request accepts; HEAD says the same', async () => {
    const wasm = readFileSync(WASM);
    const target = '/dist/bahdanau-simd.wasm';
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
      [undefined, undefined],
    ]) {
      const headers = accept === undefined ? {} : { 'Accept-Encoding': accept };
      const res = await request(port, target, { headers });
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers['content-encoding'], coding, accept);
      assert.equal(res.headers.vary, 'Accept-Encoding', accept);
      assert.equal(res.headers['content-type'], 'application/wasm');
      assert.equal(Number(res.headers['content-length']), res.body.length, accept);
      assert.deepEqual(decode(res), wasm, accept);
      if (coding) assert.ok(res.body.length < wasm.length * 0.5, `${coding}: ${res.body.length} bytes`);
      const head = await request(port, target, { method: 'HEAD', headers });
      assert.equal(head.headers['content-encoding'], coding, `HEAD ${accept}`);
      assert.equal(head.headers['content-length'], res.headers['content-length'], `HEAD ${accept}`);
      assert.equal(head.body.length, 0);
    }
  });

  test('the shipped model is sent compressed', async () => {
    const model = readFileSync(shippedModelOrFail('en-fr'));
    const res = await request(port, '/models/en-fr.safetensors', { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(res.headers['content-encoding'], 'br');
    assert.ok(res.body.length < model.length * 0.95, `${res.body.length} of ${model.length} bytes`);
    assert.deepEqual(decode(res), model);
  });

  test('what does not shrink is sent as it is', async () => {
    const res = await request(port, '/t/picture.png', { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.body.length, 4096);
  });

  test('a file changed on disk is compressed again', async () => {
    const file = path.join(tmp, 'served', 'changing.js');
    const get = async () => decode(await request(port, '/t/changing.js', { headers: { 'Accept-Encoding': 'gzip' } }));
    assert.equal((await get()).toString(), 'x'.repeat(5000));
    writeFileSync(file, 'y'.repeat(5000)); // same size: the new mtime says it changed
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    assert.equal((await get()).toString(), 'y'.repeat(5000));
    writeFileSync(file, 'z'.repeat(6000));
    assert.equal((await get()).toString(), 'z'.repeat(6000));
  });

  test('validators: ETag and Last-Modified, 304 on a match, a new ETag when the file changes', async () => {
    const file = path.join(tmp, 'served', 'cached.js');
    writeFileSync(file, 'c'.repeat(5000));
    const target = '/t/cached.js';
    const first = await request(port, target, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(first.status, 200);
    assert.equal(first.headers['cache-control'], 'no-cache');
    const etag = first.headers.etag;
    assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+-gzip"$/, 'a strong tag per representation');
    const plain = await request(port, target);
    assert.notEqual(plain.headers.etag, etag, 'the identity body has its own tag');
    for (const headers of [
      { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' },
      { 'If-None-Match': `"nope", W/${etag}`, 'Accept-Encoding': 'gzip' }, // weak comparison
      { 'If-None-Match': '*' },
      { 'If-Modified-Since': first.headers['last-modified'] },
    ]) {
      const res = await request(port, target, { headers });
      assert.equal(res.status, 304, JSON.stringify(headers));
      assert.equal(res.body.length, 0);
      assert.ok(res.headers.etag && res.headers['cache-control'] === 'no-cache');
    }
    // If-None-Match decides when present, even beside a matching date.
    const stale = await request(port, target, {
      headers: { 'If-None-Match': '"other"', 'If-Modified-Since': first.headers['last-modified'] },
    });
    assert.equal(stale.status, 200);
    const old = await request(port, target, { headers: { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
    assert.equal(old.status, 200);
    writeFileSync(file, 'd'.repeat(5000)); // same size: the new mtime says it changed
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const changed = await request(port, target, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'gzip' } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
    assert.equal(decode(changed).toString(), 'd'.repeat(5000));
  });

  test('If-Range: the range while the file is the one named, else the whole file', async () => {
    const target = '/fixtures/tiny-additive-f32.safetensors';
    const file = readFileSync(TINY);
    const { etag, 'last-modified': modified } = (await request(port, target)).headers;
    for (const [ifRange, status] of [[etag, 206], [modified, 206], ['"x"', 200], [`W/${etag}`, 200]]) {
      const res = await request(port, target, { headers: { Range: 'bytes=0-7', 'If-Range': ifRange } });
      assert.equal(res.status, status, ifRange);
      assert.deepEqual(res.body, status === 206 ? file.subarray(0, 8) : file, ifRange);
    }
  });

  test('?v= with the content hash is cached for good; a wrong hash is not trusted', async () => {
    const target = '/fixtures/tiny-additive-f32.safetensors';
    const hex = createHash('sha256').update(readFileSync(TINY)).digest('hex');
    for (const [v, control] of [
      [hex.slice(0, 12), 'public, max-age=31536000, immutable'],
      [hex, 'public, max-age=31536000, immutable'],
      ['0123456789ab', 'no-cache'],
      [hex.slice(0, 4), 'no-cache'], // too short to name the content
      ['not-hex', 'no-cache'],
    ]) {
      const res = await request(port, `${target}?v=${v}`, { method: 'HEAD' });
      assert.equal(res.headers['cache-control'], control, v);
    }
  });

  test("the model loader's progress counts the model's bytes, not the compressed ones", async () => {
    const size = readFileSync(TINY).length;
    // Node's fetch asks for gzip and decodes it, as a browser does with br.
    const url = `${server.url}fixtures/tiny-additive-f32.safetensors`;
    assert.ok((await fetch(url)).headers.get('content-encoding'), 'the fixture is sent compressed');
    const seen = [];
    const bytes = await modelBytes(url, (p) => seen.push(p));
    assert.equal(bytes.length, size);
    assert.ok(seen.length > 0);
    for (const { loaded, total } of seen) {
      assert.ok(total === null || total === size, `total ${total} of a ${size}-byte file`);
      assert.ok(loaded <= size);
    }
    assert.deepEqual(seen.at(-1), { loaded: size, total: size });
  });
});
