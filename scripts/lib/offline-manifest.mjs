// cache-manifest.json: what the site's service worker (web/sw.js) keeps, by content hash. The
// shell (the pages, their modules, styles and data, and the engine in dist/) is cached whole on
// the first visit; a model only once it was used. `version` hashes all of it, models included,
// so a rebuilt engine or a re-exported model gives a new version, which the worker installs as
// a new set of caches and only then drops the old ones: old and new never mix.
//
// scripts/serve.mjs answers /cache-manifest.json from this (hashes cached by size and mtime);
// scripts/site writes it into the site. The model sizes double as the download's total when a
// compressed response's Content-Length counts other bytes (web/lib/model-cache.js).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const MANIFEST = 'cache-manifest.json';

// What the shell holds: what a page loads, not the host hints, cards or licence texts.
// Decision: not train.html's training pairs either (data/train-en-fr.bin, 0.9 MB, the only .bin):
// the shell is fetched whole by every first visit of any page, and few open the training page;
// the browser's HTTP cache keeps the file for a second training there, and offline that page
// says the data could not be fetched. Its gold links (data/train-en-fr-gold.json, 44 kB) are
// .json and so in the shell, as the other pages' data are.
const SHELL_TYPES = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm']);

const known = new Map(); // file -> {size, mtimeMs, hex}

async function sha256(file) {
  const info = await stat(file);
  const hit = known.get(file);
  if (hit && hit.size === info.size && hit.mtimeMs === info.mtimeMs) return hit;
  const hex = createHash('sha256').update(await readFile(file)).digest('hex');
  const entry = { size: info.size, mtimeMs: info.mtimeMs, hex };
  known.set(file, entry);
  return entry;
}

// files: [[absolute path, path relative to the site root ('/'-separated)]], as
// scripts/lib/site.mjs's siteFiles() lists them. -> the manifest object.
export async function offlineManifest(files) {
  const shell = {};
  const models = {};
  const sorted = [...files].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  for (const [file, rel] of sorted) {
    if (rel === MANIFEST) continue;
    const ext = path.extname(rel);
    if (ext === '.safetensors') {
      const { hex, size } = await sha256(file);
      models[rel] = { sha256: hex, bytes: size };
    } else if (SHELL_TYPES.has(ext) && !rel.startsWith('models/') && !rel.startsWith('fixtures/')) {
      shell[rel] = (await sha256(file)).hex;
    }
  }
  const all = createHash('sha256');
  for (const [rel, hex] of Object.entries(shell)) all.update(`${rel} ${hex}\n`);
  for (const [rel, m] of Object.entries(models)) all.update(`${rel} ${m.sha256}\n`);
  return { version: all.digest('hex').slice(0, 16), shell, models };
}
