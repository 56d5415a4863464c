// scripts/serve.mjs, the page's static server: loopback only, the right MIME types, and no
// way out of its folders.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { startServer } from '../../scripts/serve.mjs';

let server;

before(async () => {
  server = await startServer({ port: 0 });
});

after(() => server?.close());

// Raw requests: fetch() would normalise '..' away before sending.
function get(path, method = 'GET') {
  const { port } = server.server.address();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'] }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

test('binds the loopback interface only', () => {
  assert.equal(server.server.address().address, '127.0.0.1');
});

test('serves the page, its modules, the engine and the test models with their types', async () => {
  assert.deepEqual(await get('/'), { status: 200, type: 'text/html; charset=utf-8' });
  assert.deepEqual(await get('/app.js'), { status: 200, type: 'text/javascript; charset=utf-8' });
  assert.deepEqual(await get('/ui/ui.css'), { status: 200, type: 'text/css; charset=utf-8' });
  assert.deepEqual(await get('/lib/bahdanau.js'), { status: 200, type: 'text/javascript; charset=utf-8' });
  assert.deepEqual(await get('/dist/bahdanau-simd.wasm'), { status: 200, type: 'application/wasm' });
  assert.deepEqual(await get('/fixtures/tiny-additive-f32.safetensors'), {
    status: 200,
    type: 'application/octet-stream',
  });
  assert.equal((await get('/no-such-file.js')).status, 404);
  assert.equal((await get('/', 'POST')).status, 405);
});

test('refuses every spelling of a path out of its folders', async () => {
  for (const path of [
    '/../package.json',
    '/lib/../../package.json',
    '/%2e%2e/package.json',
    '/..%2fpackage.json',
    '/..%5cpackage.json',
    '/fixtures/../../package.json',
    '/models/..%2f..%2fpackage.json',
    '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/lib%00.js',
    '/%E0%A4%A',
  ]) {
    assert.equal((await get(path)).status, 404, path);
  }
});

test('lets a course page on another origin load the widget, engine and models (CORS)', async () => {
  const { port } = server.server.address();
  for (const path of ['/bahdanau-widget.js', '/dist/bahdanau-simd.wasm', '/fixtures/tiny-additive-f32.safetensors']) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Origin: 'https://course.example' } });
    await res.arrayBuffer();
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get('access-control-allow-origin'), '*', path);
  }
});
