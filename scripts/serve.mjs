#!/usr/bin/env node
// A small static server for the page: scripts/demo runs it, and the browser tests start it in
// process. No dependencies, loopback only, plain headers (nothing that would make the page
// work here and fail behind an ordinary static host).
//
//   node scripts/serve.mjs [--port 8000]
//
// URL space: /models/* -> models/, /fixtures/* -> tests/fixtures/ (the tiny test models),
// everything else -> web/ (the page at /).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const HOST = '127.0.0.1';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.safetensors': 'application/octet-stream',
};

function defaultMounts() {
  return [
    ['/models/', path.join(ROOT, 'models')],
    ['/fixtures/', path.join(ROOT, 'tests', 'fixtures')],
    ['/', path.join(ROOT, 'web')],
  ];
}

// -> absolute file path inside one mount, or null for anything that would leave it. The URL
// path is decoded once; '..' segments, backslashes and NUL bytes are refused outright rather
// than normalised, so no spelling of a traversal reaches the file system.
export function resolvePath(urlPath, mounts) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  for (const [prefix, dir] of mounts) {
    if (!decoded.startsWith(prefix)) continue;
    const rest = decoded.slice(prefix.length);
    const file = path.resolve(dir, rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest);
    const inside = path.relative(dir, file);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
    return file;
  }
  return null;
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

// extraMounts: [[prefix, dir], ...] tried before the default ones (tests serve their own
// files this way). port 0 picks a free one. -> Promise<{server, url, close()}>
export function startServer({ port = 8000, extraMounts = [], log = false } = {}) {
  const mounts = [...extraMounts, ...defaultMounts()];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, `http://${HOST}`);
    const done = (status) => log && console.log(`${status} ${req.method} ${url.pathname}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'method not allowed');
      return done(405);
    }
    const file = resolvePath(url.pathname, mounts);
    if (!file) {
      send(res, 404, 'not found');
      return done(404);
    }
    let info;
    try {
      info = await stat(file);
    } catch {
      info = null;
    }
    if (!info || !info.isFile()) {
      send(res, 404, 'not found');
      return done(404);
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': info.size,
      // Always revalidate: a rebuilt engine or a new model is picked up on reload.
      'Cache-Control': 'no-cache',
      // Public, static files: a course page on another origin may load the widget's module,
      // engine and models (module scripts and fetch() are CORS requests), as from a CDN.
      'Access-Control-Allow-Origin': '*',
    });
    if (req.method === 'HEAD') {
      res.end();
    } else {
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    }
    done(200);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      const { port: actual } = server.address();
      resolve({
        server,
        url: `http://${HOST}:${actual}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

function parsePort(argv) {
  const i = argv.indexOf('--port');
  const text = i >= 0 ? argv[i + 1] : (process.env.PORT ?? '8000');
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve.mjs: bad port ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return port;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = parsePort(process.argv.slice(2));
  startServer({ port, log: process.argv.includes('--log') }).then(
    ({ url }) => console.log(`bahdanau-live: serving the page at ${url} (Ctrl+C stops)`),
    (e) => {
      console.error(`serve.mjs: cannot listen on ${HOST}:${port}: ${e.message}`);
      process.exit(1);
    },
  );
}
