// Model bytes from a URL (streamed, with progress), a file path (Node), or bytes the caller
// already has. Each URL or file is read once per page or process, however many translators
// and widgets ask for it: the promise is cached, and late askers join its progress reports.

import { isNode } from './env.js';

const sources = new Map(); // key (absolute URL or path) -> {promise, listeners, progress}

// -> Promise<Uint8Array>. onProgress({loaded, total}) is called as bytes arrive; total is null
// when the server does not say.
export async function modelBytes(model, onProgress) {
  if (model instanceof Uint8Array) return model;
  if (model instanceof ArrayBuffer) return new Uint8Array(model);
  if (ArrayBuffer.isView(model)) {
    return new Uint8Array(model.buffer, model.byteOffset, model.byteLength);
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

function report(entry, loaded, total) {
  entry.progress = { loaded, total };
  for (const listener of entry.listeners) listener({ loaded, total });
}

async function locate(model) {
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

async function readFile(path, entry) {
  const fs = await import('node:fs/promises');
  let bytes;
  try {
    bytes = await fs.readFile(path);
  } catch (e) {
    throw new Error(`cannot read model file ${path}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  report(entry, bytes.length, bytes.length);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
  const total = encoded ? null : Number(res.headers.get('content-length')) || null;
  if (!res.body) {
    const bytes = new Uint8Array(await res.arrayBuffer());
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
