// Registers the site's service worker (sw.js: a second visit from the cache, and offline after
// one visit) from the site's own pages: index, compare, why and embed.html load this module;
// the widget never does, so it registers nothing on the page of a site that embeds it. Where
// service workers are missing (file://, plain http on a LAN address, an old browser) the page
// works as before, from the network.
//
// Registered once the page has loaded, so that an update (a new sw.js?v=, which takes over at
// once) never serves a page half from the old version and half from the new.

const SITE = new URL('../', import.meta.url);
// Without a model in by then (a page that loads none yet), the worker installs anyway.
const LATEST_MS = 20_000;

// The models this page used: downloaded by the page itself (resource timing), or by one of its
// workers (engine/client.js marks them). -> {seen: Set, first: Promise, onNew: (fn) => void}
function usedModels() {
  const seen = new Set();
  let listener = () => {};
  let arrived;
  const first = new Promise((resolve) => { arrived = resolve; });
  const take = (url) => {
    if (typeof url !== 'string' || !/\.safetensors$/.test(new URL(url, location.href).pathname) || seen.has(url)) return;
    seen.add(url);
    arrived();
    listener(url);
  };
  for (const [type, pick] of [['resource', (e) => e.name], ['mark', (e) => (e.name === 'bahdanau-live:model' ? e.detail?.url : null)]]) {
    new PerformanceObserver((list) => list.getEntries().forEach((e) => take(pick(e)))).observe({ type, buffered: true });
  }
  return { seen, first, onNew: (fn) => { listener = fn; } };
}

// -> the worker once it is active, or null if its install failed.
function activated(worker) {
  return new Promise((resolve) => {
    const check = () => {
      if (worker.state === 'activated') resolve(worker);
      else if (worker.state === 'redundant') resolve(null);
      else return false;
      worker.removeEventListener('statechange', check);
      return true;
    };
    if (!check()) worker.addEventListener('statechange', check);
  });
}

async function register(models) {
  if (navigator.onLine === false) return; // the worker installed on an earlier visit serves
  // The version names the worker's caches: read it fresh (a 304 when nothing changed). Offline
  // this fails, and the worker already installed goes on serving.
  const res = await fetch(new URL('cache-manifest.json', SITE), { cache: 'no-cache' });
  if (!res.ok) return; // a static copy of web/ without the manifest: no offline copy
  const { version } = await res.json();
  if (!/^[0-9a-f]{16}$/.test(String(version))) return;
  const reg = await navigator.serviceWorker.register(new URL(`sw.js?v=${version}`, SITE), { scope: SITE.href });
  const worker = await activated(reg.installing ?? reg.waiting ?? reg.active);
  if (!worker) return; // its install failed (the site changed meanwhile): the next visit retries
  // Models used before this version's worker controlled the page (the first visit's, or those
  // of the version it replaced) are kept by it too.
  const keep = (url) => worker.postMessage({ type: 'keep', url: new URL(url, location.href).href });
  models.seen.forEach(keep);
  models.onNew(keep);
}

if ('serviceWorker' in navigator && typeof PerformanceObserver === 'function' && new URL(import.meta.url).origin === location.origin) {
  const models = usedModels();
  // After the page has loaded and its model is in: the worker's first fill (the other pages'
  // files) then does not compete with the model's download on a slow connection.
  const loaded = new Promise((resolve) => (document.readyState === 'complete' ? resolve() : addEventListener('load', resolve, { once: true })));
  loaded
    .then(() => Promise.race([models.first, new Promise((resolve) => setTimeout(resolve, LATEST_MS))]))
    .then(() => register(models))
    .catch(() => {}); // no offline copy this time; the page still works
}
