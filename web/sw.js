// The site's service worker: a second visit starts from Cache Storage, and a classroom keeps
// working with the network off after one visit. Registered by app/offline.js, from the site's
// own pages only (never by the widget on another site's page), as sw.js?v=VERSION, where VERSION
// is cache-manifest.json's (scripts/lib/offline-manifest.mjs): a new engine, page or model makes
// a new version, hence a new worker script, which the browser installs beside the old one.
//
// Caches, each named by the content it holds, so nothing of two versions ever mixes:
//   bahdanau-live:shell:VERSION        every file of the manifest's shell (pages, modules, CSS,
//                                      data, dist/), fetched and checked against its SHA-256
//                                      at install; the manifest itself goes in last
//   bahdanau-live:model:PATH:SHA256    one model, cached once it was used (not all of them:
//                                      each is about 5 MB)
// activate deletes every bahdanau-live: cache the new manifest does not name.
//
// Decision: skipWaiting, so the new version serves the next navigation instead of waiting for
// every tab to close (a class leaves tabs open for days). offline.js registers only after the
// page has loaded, so a page's own files all come from one version.

'use strict';

const PREFIX = 'bahdanau-live:';
const VERSION = new URL(self.location.href).searchParams.get('v') ?? '';
const ROOT = new URL('./', self.location.href).href;
const MANIFEST = 'cache-manifest.json';
const SHELL = `${PREFIX}shell:${VERSION}`;
const modelCache = (rel, sha) => `${PREFIX}model:${rel}:${sha}`;

let manifest = null; // this version's, read back from the shell cache after a restart
// A look-up that never creates the cache it looks in (caches.open would, empty).
const lookUp = (name, rel) => caches.match(ROOT + rel, { cacheName: name });

async function hex(buffer) {
  const digest = await crypto.subtle.digest('SHA-256', buffer);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// A response to keep: the bytes checked against the manifest's hash, and the headers a page
// needs from them (the CSP of a page; the length, which the download's progress shows).
async function verified(response, sha, what) {
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
  const bytes = await response.arrayBuffer();
  if ((await hex(bytes)) !== sha) throw new Error(`${what} is not the version in ${MANIFEST}`);
  const headers = { 'Content-Type': response.headers.get('content-type') ?? 'application/octet-stream', 'Content-Length': String(bytes.byteLength) };
  const csp = response.headers.get('content-security-policy');
  if (csp) headers['Content-Security-Policy'] = csp;
  return new Response(bytes, { status: 200, headers });
}

async function currentManifest() {
  if (manifest) return manifest;
  const hit = await lookUp(SHELL, MANIFEST);
  manifest = hit ? await hit.json() : null;
  return manifest;
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const res = await fetch(ROOT + MANIFEST, { cache: 'no-cache' });
    if (!res.ok) throw new Error(`${MANIFEST}: HTTP ${res.status}`);
    const text = await res.text();
    const next = JSON.parse(text);
    // The site changed again since the page read its manifest: the page registers that one.
    if (next.version !== VERSION) throw new Error(`${MANIFEST} is version ${next.version}, this worker ${VERSION}`);
    await caches.delete(SHELL); // a half-written one from an install that failed
    const cache = await caches.open(SHELL);
    const files = Object.entries(next.shell);
    let at = 0;
    const one = async () => {
      while (at < files.length) {
        const [rel, sha] = files[at++];
        await cache.put(ROOT + rel, await verified(await fetch(ROOT + rel, { cache: 'no-cache' }), sha, rel));
      }
    };
    await Promise.all([one(), one(), one(), one()]); // a few at a time, as a page's loads go
    await cache.put(ROOT + MANIFEST, new Response(text, { headers: { 'Content-Type': 'application/json' } }));
    manifest = next;
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const m = await currentManifest();
    if (!m) return;
    const keep = new Set([SHELL, ...Object.entries(m.models).map(([rel, { sha256 }]) => modelCache(rel, sha256))]);
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && !keep.has(name)) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

// The site-relative path of a request of ours, without its query ('' is the index page), or null.
function relative(url) {
  if (!url.startsWith(ROOT)) return null;
  const rel = url.slice(ROOT.length).replace(/[?#].*$/, '');
  return rel === '' || rel.endsWith('/') ? `${rel}index.html` : rel;
}

// A model of the manifest: from its cache, else from the network, kept once it has all arrived.
async function model(request, rel, entry, event) {
  const name = modelCache(rel, entry.sha256);
  const hit = await lookUp(name, rel);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok && res.status === 200) event.waitUntil(keepModel(res.clone(), rel, entry).catch(() => {}));
  return res;
}

async function keepModel(response, rel, entry) {
  const cache = await caches.open(modelCache(rel, entry.sha256));
  await cache.put(ROOT + rel, await verified(response, entry.sha256, rel));
}

async function respond(event, rel) {
  const m = await currentManifest();
  if (m && Object.hasOwn(m.models, rel)) return model(event.request, rel, m.models[rel], event);
  if (m && Object.hasOwn(m.shell, rel)) {
    const hit = await lookUp(SHELL, rel);
    if (hit) return hit;
  }
  return fetch(event.request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const rel = relative(request.url);
  if (rel === null || rel === MANIFEST) return; // the manifest always asks the network
  event.respondWith(respond(event, rel));
});

// {type: 'keep', url}: a model the page used before this worker controlled it (the first
// visit's): fetched again (the HTTP cache answers, or a 304) and kept.
self.addEventListener('message', (event) => {
  const { type, url } = event.data ?? {};
  if (type !== 'keep' || typeof url !== 'string') return;
  const rel = relative(url);
  event.waitUntil((async () => {
    const m = await currentManifest();
    const entry = m && rel !== null && Object.hasOwn(m.models, rel) ? m.models[rel] : null;
    if (!entry) return;
    if (await lookUp(modelCache(rel, entry.sha256), rel)) return;
    await keepModel(await fetch(ROOT + rel, { credentials: 'omit' }), rel, entry);
  })().catch(() => {}));
});
