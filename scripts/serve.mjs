#!/usr/bin/env node
// A small static server for the page: scripts/demo runs it, and the browser tests start it in
// process. No dependencies, loopback only. Its headers are ones an ordinary static host sends
// too (CORS, gzip/brotli, ranges) or stricter ones (a CSP, nosniff), so nothing works here
// that would fail behind such a host.
//
//   node scripts/serve.mjs [--port 8000] [--log] [--help]
//
// URL space: /models/* -> models/, /fixtures/* -> tests/fixtures/ (the tiny test models),
// everything else -> web/ (the page at /).
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { compressible, createCompressedFiles } from './lib/compressed-files.mjs';
import { MANIFEST, offlineManifest } from './lib/offline-manifest.mjs';
import { acceptedEncodings, byteRange, targetPath } from './lib/http-request.mjs';

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

// The pages carry their own <meta> policies; this header is the same rule enforced by the
// server, so it also holds before the tag is parsed and for a page that loses its tag (a
// browser applies both, so each page's <meta> can narrow it further). Everything is from this
// origin; data: is for the favicon and blob: for the matrix exports. Only the pages that host
// the widget decode on their main thread, where Embind builds its wrappers with new Function,
// so only they get 'unsafe-eval'; index and compare decode in module workers, whose policy is
// their own response's (none).
const PAGE_POLICY = (scriptSrc) =>
  `default-src 'self'; script-src ${scriptSrc}; style-src 'self'; img-src 'self' data: blob:; ` +
  "object-src 'none'; base-uri 'none'; form-action 'none'";
const WIDGET_PAGES = new Set(['embed.html', 'embed-docs.html']);

// The policy of one of the project's pages, by its path under web/ (scripts/site writes the same
// into the host hints of a static copy of the site).
export function pagePolicy(page) {
  return PAGE_POLICY(WIDGET_PAGES.has(page) ? "'self' 'unsafe-eval'" : "'self'");
}

// The widget is embedded on other origins: its module, engine and models are fetched there
// with CORS. Range is the one request header here that can make a browser ask first.
const METHODS = 'GET, HEAD, OPTIONS';
const CORS = {
  'Access-Control-Allow-Methods': METHODS,
  'Access-Control-Allow-Headers': 'Range',
  'Access-Control-Max-Age': '86400',
};
// Readable by a cross-origin page: the model loader needs Content-Encoding to know that
// Content-Length counts compressed bytes.
export const EXPOSED = 'Content-Encoding, Content-Range, Accept-Ranges';

// [prefix, dir, {pages}]: pages marks the folder of the project's own HTML pages. scripts/site
// lays its folder out the same way.
export function defaultMounts() {
  return [
    ['/models/', path.join(ROOT, 'models')],
    ['/fixtures/', path.join(ROOT, 'tests', 'fixtures')],
    ['/', path.join(ROOT, 'web'), { pages: true }],
  ];
}

function isInside(dir, file) {
  const rel = path.relative(dir, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
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
    return isInside(dir, file) ? file : null;
  }
  return null;
}

// -> {file, info, page} for the regular file a URL path names, where `file` is its real path,
// or null. resolvePath() only reasons about names; a symlink under web/ could still point at
// /etc/passwd. So the real path must lie inside the real path of a mount: any mount, since a
// file there is served under its own URL anyway and a link between them gives nothing away.
// `page`: one of the project's own HTML pages (under web/), which get a CSP.
async function findFile(urlPath, mounts) {
  const named = resolvePath(urlPath, mounts);
  if (!named) return null;
  let file;
  let info;
  try {
    file = await realpath(named);
    info = await stat(file);
  } catch {
    return null;
  }
  if (!info.isFile()) return null;
  const roots = await Promise.all(mounts.map(([, dir]) => realpath(dir).catch(() => null)));
  const home = mounts.findIndex((_, i) => roots[i] && isInside(roots[i], file));
  if (home < 0) return null;
  const pageRoot = mounts[home][2]?.pages ? roots[home] : null;
  const page = pageRoot && path.extname(file) === '.html' ? path.relative(pageRoot, file) : null;
  return { file, info, page };
}

function send(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

function stream(res, file, start, end) {
  if (end < start) return res.end(); // an empty file
  // pipeline() closes the file when the client goes away mid-body (pipe() would leak it).
  pipeline(createReadStream(file, { start, end }), res, (e) => e && res.destroy());
}

async function serveFile(req, res, { file, info, page, query }, compressed) {
  const ext = path.extname(file).toLowerCase();
  const headers = {
    'Content-Type': TYPES[ext] ?? 'application/octet-stream',
    // Revalidate (a rebuilt engine or a new model is picked up on reload, and an unchanged one
    // costs a 304), unless the URL names the very content: see cacheControl.
    'Cache-Control': await cacheControl(file, info, query),
    'Accept-Ranges': 'bytes',
    'Access-Control-Expose-Headers': EXPOSED,
    'Last-Modified': info.mtime.toUTCString(),
  };
  if (page !== null) {
    headers['Content-Security-Policy'] = pagePolicy(page);
  }
  const canCompress = compressible(ext, info.size);
  if (canCompress) headers.Vary = 'Accept-Encoding';

  // The representation first (its ETag depends on the coding), then the conditions on it.
  let coding = null;
  let body = null;
  for (const c of canCompress && !req.headers.range ? acceptedEncodings(req.headers['accept-encoding']) : []) {
    body = await compressed(file, info, c).catch(() => null);
    if (body) {
      coding = c;
      break;
    }
  }
  headers.ETag = entityTag(info, coding);
  if (notModified(req.headers, headers.ETag, info.mtime)) {
    const { 'Content-Type': _type, ...validators } = headers;
    res.writeHead(304, validators);
    return res.end();
  }

  // Range is for GET only, and with If-Range only while the file is the one named there.
  const range = req.method === 'GET' && req.headers.range && rangeStillApplies(req.headers['if-range'], info)
    ? byteRange(req.headers.range, info.size)
    : null;
  if (range === 'unsatisfiable') {
    return send(res, 416, 'range not satisfiable', { ...headers, 'Content-Range': `bytes */${info.size}` });
  }
  if (range) {
    // Ranges count the file's own bytes, so they are always sent without a content coding.
    res.writeHead(206, {
      ...headers,
      'Content-Range': `bytes ${range.start}-${range.end}/${info.size}`,
      'Content-Length': range.end - range.start + 1,
    });
    return stream(res, file, range.start, range.end);
  }

  if (coding) {
    res.writeHead(200, { ...headers, 'Content-Encoding': coding, 'Content-Length': body.length });
    return res.end(req.method === 'HEAD' ? undefined : body);
  }
  res.writeHead(200, { ...headers, ETag: entityTag(info, null), 'Content-Length': info.size });
  if (req.method === 'HEAD') return res.end();
  return stream(res, file, 0, info.size - 1);
}

// A strong validator of one representation: the file's size and modification time, and the
// content coding (a gzip body is not the br body, nor the file itself: RFC 9110 §8.8.3).
function entityTag(info, coding) {
  const stamp = `${info.size.toString(16)}-${Math.round(info.mtimeMs * 1000).toString(16)}`;
  return `"${stamp}${coding ? `-${coding}` : ''}"`;
}

// RFC 9110 §13.2.2: If-None-Match decides when it is there (weak comparison); If-Modified-Since
// only without it. Both only say "not modified" for GET and HEAD, the only methods served.
export function notModified(reqHeaders, etag, mtime) {
  const inm = reqHeaders['if-none-match'];
  if (inm !== undefined) {
    const opaque = (tag) => tag.trim().replace(/^W\//, '');
    return inm.trim() === '*' || inm.split(',').some((tag) => opaque(tag) === opaque(etag));
  }
  const ims = Date.parse(reqHeaders['if-modified-since'] ?? '');
  return Number.isFinite(ims) && Math.floor(mtime.getTime() / 1000) * 1000 <= ims;
}

// If-Range names the version a client holds part of: its strong ETag (the file's own bytes,
// as ranges are never compressed) or its exact Last-Modified date. Otherwise send it all.
function rangeStillApplies(ifRange, info) {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  return value === entityTag(info, null) || value === info.mtime.toUTCString();
}

// ?v=HASH with at least 8 hex digits of the file's own SHA-256 names that content for good: a
// year, immutable. A wrong or stale hash is not trusted (it would pin old bytes): no-cache.
const hashes = new Map(); // file -> {size, mtimeMs, hex}
async function cacheControl(file, info, query) {
  const v = new URLSearchParams(query).get('v');
  if (!v || !/^[0-9a-f]{8,64}$/.test(v)) return 'no-cache';
  let known = hashes.get(file);
  if (!known || known.size !== info.size || known.mtimeMs !== info.mtimeMs) {
    const hex = createHash('sha256').update(await readFile(file)).digest('hex');
    known = { size: info.size, mtimeMs: info.mtimeMs, hex };
    hashes.set(file, known);
  }
  return known.hex.startsWith(v) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

async function handle(req, res, mounts, compressed) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // Public, static files: a course page on another origin may load the widget's module,
  // engine and models (module scripts and fetch() are CORS requests), as from a CDN. On
  // errors too, so that such a page can tell a 404 from a network failure.
  res.setHeader('Access-Control-Allow-Origin', '*');
  // 'OPTIONS *' asks about the server as a whole; any other target must be a path.
  const urlPath = req.method === 'OPTIONS' && req.url === '*' ? '*' : targetPath(req.url);
  if (urlPath === null) return send(res, 400, 'bad request target');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { Allow: METHODS, ...CORS });
    return res.end();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return send(res, 405, 'method not allowed', { Allow: METHODS });
  }
  const found = await findFile(urlPath, mounts);
  if (!found && urlPath === `/${MANIFEST}`) return serveManifest(req, res); // unless one is written there
  if (!found) return send(res, 404, 'not found');
  const q = req.url.indexOf('?');
  return serveFile(req, res, { ...found, query: q < 0 ? '' : req.url.slice(q + 1) }, compressed);
}

// The service worker's list of what to keep (scripts/lib/offline-manifest.mjs), made from the
// files scripts/site would write, so the demo and a static copy of the site agree; a mount that
// holds a written one (a copy of the site, as scripts/bench --first-visit serves) has it served
// as a file instead. Imported on first use: site.mjs imports this file.
async function serveManifest(req, res) {
  const { DEFAULT_MODELS, siteFiles } = await import('./lib/site.mjs');
  const body = `${JSON.stringify(await offlineManifest(siteFiles(DEFAULT_MODELS)))}\n`;
  const headers = {
    'Content-Type': TYPES['.json'],
    'Cache-Control': 'no-cache',
    'Access-Control-Expose-Headers': EXPOSED,
    ETag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
  };
  if (notModified({ 'if-none-match': req.headers['if-none-match'] ?? '' }, headers.ETag, new Date(0))) {
    res.writeHead(304, headers);
    return res.end();
  }
  res.writeHead(200, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  return res.end(req.method === 'HEAD' ? undefined : body);
}

// extraMounts: [[prefix, dir], ...] tried before the default ones (tests serve their own
// files this way). headers: added to every response (scripts/bench --browser isolates its page
// with COOP/COEP for a fine clock). port 0 picks a free one. -> Promise<{server, url, close()}>
export function startServer({ port = 8000, extraMounts = [], headers = {}, log = false } = {}) {
  const mounts = [...extraMounts, ...defaultMounts()];
  const compressed = createCompressedFiles();
  const server = http.createServer((req, res) => {
    if (log) res.on('finish', () => console.log(`${res.statusCode} ${req.method} ${req.url}`));
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    // The last line of defence: whatever a handler throws costs one request, not the server.
    handle(req, res, mounts, compressed).catch((e) => {
      console.error(`serve.mjs: ${req.method} ${req.url}: ${e?.stack ?? e}`);
      if (res.headersSent) res.destroy();
      else send(res, 500, 'internal server error');
    });
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

export const USAGE = `usage: node scripts/serve.mjs [--port N] [--log]

Serves the page (web/), the models (models/) and the test fixtures on http://${HOST}:N/.
  --port N   the port, 0 to 65535 (default: $PORT, else 8000; 0 picks a free one)
  --log      print one line per request
  --help     print this and exit`;

// -> {port, log, help}. Throws an Error whose message says what is wrong with argv: an
// argument it does not know, a missing or bad port (digits only, so '' or '8e3' never turn
// into some other port than the one typed).
export function parseArgs(argv, env = {}) {
  const out = { port: undefined, log: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--log') out.log = true;
    else if (a === '--port' || a.startsWith('--port=')) {
      const text = a === '--port' ? argv[++i] : a.slice('--port='.length);
      if (text === undefined) throw new Error('--port needs a number');
      out.port = portOf(text, '--port');
    } else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  if (out.port === undefined) out.port = env.PORT === undefined ? 8000 : portOf(env.PORT, 'PORT');
  return out;
}

function portOf(text, what) {
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new Error(`bad port ${JSON.stringify(text)} (${what}): want a number from 0 to 65535`);
  }
  return port;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
  } catch (e) {
    console.error(`serve.mjs: ${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const { port } = args;
  startServer({ port, log: args.log }).then(
    ({ url }) => console.log(`bahdanau-live: serving the page at ${url} (Ctrl+C stops)`),
    (e) => {
      console.error(`serve.mjs: cannot listen on ${HOST}:${port}: ${e.message}`);
      process.exit(1);
    },
  );
}
