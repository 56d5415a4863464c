// "Open in the translator": the model trained on train.html, handed to the main page. The
// snapshot (an f32 model file, train run.snapshot()) is kept in IndexedDB under one key, and
// the main page is opened with ?model=trained (app/params.js), which reads it back here and
// gives the bytes to its engine worker as they are (web/lib's createTranslator takes bytes).
//
// Decision: IndexedDB, not a blob: URL or Cache Storage. A blob: URL dies with the training
// page that made it (the same tab navigates away), and connect-src 'self' would not let the
// worker fetch it anyway; a Cache Storage entry under a made-up URL would need the service
// worker to answer for it, and the pages work without one (file://, the tests). IndexedDB holds
// bytes across pages of one origin, with or without a worker, and survives a reload, so the
// main page's permalink keeps working in this browser. One model only: a new hand-over
// replaces the last.

export const TRAINED_MODEL = 'trained'; // model= value of the main page
const DB = 'bahdanau-live-trained';
const STORE = 'models';
const KEY = 'latest';

function open() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB !== 'object' || indexedDB === null) {
      reject(new Error('this browser keeps no IndexedDB data here (a private window may not)'));
      return;
    }
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB could not be opened'));
    req.onblocked = () => reject(new Error('IndexedDB is held by another tab of this site'));
  });
}

function request(mode, fn) {
  return open().then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const req = fn(tx.objectStore(STORE));
    tx.oncomplete = () => {
      db.close();
      resolve(req.result);
    };
    tx.onerror = tx.onabort = () => {
      db.close();
      reject(tx.error ?? new Error('IndexedDB refused the request'));
    };
  }));
}

// bytes: the snapshot (Uint8Array); meta: {steps, scoring, preset, seconds} for the main page's
// note. -> Promise that resolves once it is stored.
export async function keepTrained(bytes, meta) {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new TypeError('keepTrained: the snapshot must be a non-empty Uint8Array');
  }
  await request('readwrite', (store) => store.put({ bytes, meta: { ...meta, savedAt: Date.now() } }, KEY));
}

// -> Promise<{bytes: Uint8Array, meta} | null>: null when nothing was handed over in this browser.
export async function readTrained() {
  const v = await request('readonly', (store) => store.get(KEY));
  if (!v) return null;
  if (!(v.bytes instanceof Uint8Array) || !v.meta) throw new Error('the kept trained model is not in the expected form');
  return v;
}

// The main page on the trained model: the language kept, and a sentence to start on.
export function translatorLink(base, { lang = 'en', text = '' } = {}) {
  const url = new URL('./', base);
  url.searchParams.set('model', TRAINED_MODEL);
  if (text) url.searchParams.set('text', text);
  if (lang === 'zh') url.searchParams.set('lang', 'zh');
  return url.href;
}
