// Model bytes from a model name (byName below), a URL (streamed, with progress), a file path
// (Node), or bytes the caller already has. Each URL or file is read once per page or process,
// however many translators and widgets ask for it: the promise is cached, and late askers join
// its progress reports.

import { MODELS } from './catalogue.js';
import { isNode } from './env.js';

// The largest model accepted, in bytes: 256 MiB, as the native CLI's bl::kMaxModelBytes. The
// shipped models are about 5 MB (19 MB in f32). A bigger file, download or byte array is
// refused before it is read or copied into the wasm heap, which can grow but never shrink; and
// a file path must name a regular file (not /dev/zero, a FIFO or a directory).
export const MAX_MODEL_BYTES = 256 * 2 ** 20;

const sources = new Map(); // key (absolute URL or path) -> {promise, listeners, progress}

// -> Promise<Uint8Array>. onProgress({loaded, total}) is called as bytes arrive; total is null
// when neither the server nor the site's cache-manifest.json says (sizeFromManifest).
export async function modelBytes(model, onProgress) {
  if (model instanceof ArrayBuffer) model = new Uint8Array(model);
  if (ArrayBuffer.isView(model)) {
    if (model.byteLength > MAX_MODEL_BYTES) throw overCap('the model', model.byteLength);
    return model instanceof Uint8Array
      ? model
      : new Uint8Array(model.buffer, model.byteOffset, model.byteLength);
  }
  if (typeof model !== 'string' && !(model instanceof URL)) {
    throw new TypeError(
      'model must be a URL, a file path (in Node) or bytes (Uint8Array or ArrayBuffer)',
    );
  }
  const where = await locate(model);
  let entry = sources.get(where.key);
  if (!entry) {
    entry = { listeners: new Set(), progress: null };
    entry.promise = (where.path ? readFile(where.path, entry) : download(where.url, entry)).catch(
      (e) => {
        sources.delete(where.key); // not cached, so the caller can retry
        throw e;
      },
    );
    sources.set(where.key, entry);
  }
  if (onProgress) {
    entry.listeners.add(onProgress);
    if (entry.progress) onProgress({ ...entry.progress });
  }
  try {
    return await entry.promise;
  } finally {
    entry.listeners.delete(onProgress);
  }
}

// "WHAT is SIZE bytes, over the 256 MiB limit (...)"; without a size when it is not known yet.
function overCap(what, size = null) {
  const limit = `the ${MAX_MODEL_BYTES / 2 ** 20} MiB limit (${MAX_MODEL_BYTES} bytes)`;
  return new Error(size === null ? `${what} is over ${limit}` : `${what} is ${size} bytes, over ${limit}`);
}

// The model's size from the site's cache-manifest.json (scripts/lib/offline-manifest.mjs), which
// sits in web/ beside lib/: for a compressed download, whose Content-Length counts other bytes.
// null off the site (a CDN, another origin's model, Node), or where the manifest cannot be read.
let manifestSizes = null; // Promise<Map<absolute URL, bytes>>
function sizeFromManifest(url) {
  if (isNode) return Promise.resolve(null);
  const site = new URL('../', import.meta.url);
  if (new URL(url).origin !== site.origin) return Promise.resolve(null);
  manifestSizes ??= fetch(new URL('cache-manifest.json', site), { credentials: 'omit' })
    .then((res) => (res.ok ? res.json() : null))
    .then((m) => new Map(Object.entries(m?.models ?? {}).map(([rel, e]) => [new URL(rel, site).href, Number(e?.bytes) || null])))
    .catch(() => new Map());
  return manifestSizes.then((sizes) => sizes.get(url) ?? null);
}

function report(entry, loaded, total) {
  entry.progress = { loaded, total };
  for (const listener of entry.listeners) listener({ loaded, total });
}

// A model name from the catalogue ('en-fr', 'en-fr-dot', ...) resolves against this file's own
// URL, never the working directory or the host page: in a browser or worker, web/ + its
// catalogue path (the page's URL space, and the npm package as a CDN serves it: web/models/);
// in Node, models/ in a clone, else web/models/ in an installed package (or tests/fixtures/ for
// the tiny test models, in a clone). -> {key, path} or {key, url}, or null when model is not a name.
async function byName(model) {
  if (typeof model !== 'string' || !Object.hasOwn(MODELS, model)) return null;
  const rel = MODELS[model].url;
  if (!isNode) {
    const url = new URL(rel, new URL('../', import.meta.url)).href;
    return { key: url, url };
  }
  const { fileURLToPath } = await import('node:url');
  const { existsSync } = await import('node:fs');
  const inClone = rel.startsWith('fixtures/') ? `../../tests/${rel}` : `../../${rel}`;
  const tried = [inClone, `../${rel}`].map((r) => fileURLToPath(new URL(r, import.meta.url)));
  const path = tried.find((f) => existsSync(f));
  if (!path) {
    throw new Error(`cannot read model ${model}: it is not in this copy of bahdanau-live (looked for ${tried.join(' and ')})`);
  }
  return { key: path, path };
}

async function locate(model) {
  const named = await byName(model);
  if (named) return named;
  const text = String(model);
  if (isNode) {
    const { resolve } = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    if (/^https?:/i.test(text)) return { key: text, url: text };
    const path = text.startsWith('file:') ? fileURLToPath(text) : resolve(text);
    return { key: path, path };
  }
  const base = typeof document === 'object' ? document.baseURI : self.location.href;
  const url = new URL(text, base).href;
  return { key: url, url };
}

// A regular file of at most MAX_MODEL_BYTES, checked on the opened file (no race with a path
// that changes between a stat and the open); O_NONBLOCK keeps the open itself from waiting for
// a FIFO's writer. The native CLI does the same, in the same words (src/cli/main.cpp).
async function readFile(path, entry) {
  const fs = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  let file;
  try {
    file = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw new Error(`cannot read model file ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  try {
    const st = await file.stat();
    if (!st.isFile()) throw new Error(`model file ${path} is ${fileKind(st)}, not a regular file`);
    if (st.size > MAX_MODEL_BYTES) throw overCap(`model file ${path}`, st.size);
    // The size from the stat, plus one byte: a file that grew since is refused, not cut short.
    const bytes = new Uint8Array(st.size + 1);
    let got = 0;
    for (let n; got < bytes.length; got += n) {
      ({ bytesRead: n } = await file.read(bytes, got, bytes.length - got, null));
      if (n === 0) break;
    }
    if (got > st.size) throw new Error(`model file ${path} changed while it was read`);
    report(entry, got, got);
    return bytes.subarray(0, got);
  } finally {
    await file.close();
  }
}

function fileKind(st) {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

async function download(url, entry) {
  let res;
  try {
    // A model is a public file: no cookies, so a model= URL can't read a private resource.
    res = await fetch(url, { credentials: 'omit' });
  } catch (e) {
    throw new Error(`cannot download model ${url}: ${e.message}`);
  }
  if (!res.ok) throw new Error(`cannot download model ${url}: HTTP ${res.status}`);
  // With a Content-Encoding, Content-Length counts the compressed bytes while the stream yields
  // the model's own, so it does not give the size. (A cross-origin server that does not expose
  // Content-Encoding still leaves it a hint: the Math.max below keeps loaded <= total.)
  const encoded = (res.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const total = encoded ? await sizeFromManifest(res.url || url) : Number(res.headers.get('content-length')) || null;
  if (total > MAX_MODEL_BYTES) {
    res.body?.cancel().catch(() => {});
    throw overCap(`model ${url}`, total);
  }
  if (!res.body) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > MAX_MODEL_BYTES) throw overCap(`model ${url}`, bytes.length);
    report(entry, bytes.length, bytes.length);
    return bytes;
  }
  const reader = res.body.getReader();
  const chunks = [];
  let loaded = 0;
  report(entry, 0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    if (loaded > MAX_MODEL_BYTES) {
      reader.cancel().catch(() => {});
      throw overCap(`model ${url}`);
    }
    report(entry, loaded, total && Math.max(total, loaded));
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  report(entry, loaded, loaded);
  return bytes;
}
