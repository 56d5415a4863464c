// scripts/site OUT: the whole site (the pages, the widget, the engine, the models and their data)
// written into one folder that any static host serves as it is, with no special headers: GitHub
// Pages, Netlify, Cloudflare Pages, a university's Apache, or python3 -m http.server.
//
// The folder is scripts/serve.mjs's URL space made into files: web/ at the top, /models/ and
// /fixtures/ beside it, so every URL a page builds (relative to itself: catalogue.js's model
// URLs, loader.js's dist/, data/*.json) names the same file as under the demo's server. Beside
// each compressible file go its .br and .gz copies (the server's own qualities), and host hints:
// _headers (Netlify, Cloudflare Pages), .htaccess (Apache), .nojekyll (GitHub Pages), and a
// README.txt that says which host reads which.
//
// A marker file lists what was written. OUT must be empty, missing, or hold that marker;
// --force writes into any other folder, keeping its files. A rewrite deletes only the files the
// marker lists that this run does not write again: never anything scripts/site did not write.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { MODELS } from '../../web/lib/catalogue.js';
import { defaultMounts, resolvePath } from '../serve.mjs';
import { compress, compressible } from './compressed-files.mjs';
import { ATTRIBUTION, CODINGS, MARKER, TRY, headersFile, htaccess, readme, wrap } from './site-hints.mjs';
import { ROOT, WASM_FILES, ensureBuilt } from './engines.mjs';
import { MANIFEST, offlineManifest } from './offline-manifest.mjs';
import { versionImports } from './versioned-imports.mjs';

export { CODINGS, MARKER };

const WEB = path.join(ROOT, 'web');
const WRITTEN_BY = 'bahdanau-live scripts/site';
// What a page loads from web/: the pages, their modules and styles, data (.bin: train.html's
// training pairs, data/train-en-fr.bin). Not the TypeScript declarations (for the npm
// package), nor stray files (editor backups, notes).
const PAGE_TYPES = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.png', '.ico', '.txt', '.bin']);
// What the site is copied from: OUT may not lie in these (a rerun would copy the site into
// itself), nor hold the checkout.
const SOURCES = defaultMounts().map(([, dir]) => dir);
// Host hints and the marker: read by a host or by this script, never compressed.
const HINTS = ['_headers', '.htaccess', '.nojekyll'];

// The shipped models: every catalogue entry under models/ whose file is there (the f32 ones only
// once scripts/export has made them). The tiny test models (fixtures/) only when named.
function modelFile(name) {
  return resolvePath(`/${MODELS[name].url}`, defaultMounts());
}
export const DEFAULT_MODELS = Object.keys(MODELS)
  .filter((name) => MODELS[name].url.startsWith('models/') && existsSync(modelFile(name)));

// text in lines of at most `width` characters, each after the first indented by `indent`.

export const USAGE = `usage: scripts/site OUT [--models NAME,...] [--no-compress] [--force]

Writes the whole site (the pages, the widget, the engine, the models and their data) into the
folder OUT, which any static host serves as it is: GitHub Pages, Netlify, Cloudflare Pages, a
university's Apache, or python3 -m http.server. Builds the engine first if web/dist lacks it.
  --models A,B   ${wrap(`the models to include, by name. Default: those in models/ (${DEFAULT_MODELS.join(', ')}). Others: ${Object.keys(MODELS).filter((m) => !DEFAULT_MODELS.includes(m)).join(', ')} (the f32 ones once scripts/export has made them, the tiny ones with random weights, for tests)`, 17, 95)}
  --no-compress  leave out the .br and .gz copies beside each file (GitHub Pages, Netlify and
                 Cloudflare Pages compress by themselves; Apache and nginx can send the copies)
  --force        write into OUT although it holds files scripts/site did not write (they are
                 kept; one with the name of a file of the site is replaced)
  --help         print this and exit
Exit status: 0 written, 1 failed while building or writing, 2 a bad argument or an OUT that it
will not write into (nothing was written).`;

// -> {out, models, compress, force, help}. Throws an Error that says what is wrong with argv.
export function parseArgs(argv) {
  const o = { out: null, models: null, compress: true, force: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') o.help = true;
    else if (a === '--force') o.force = true;
    else if (a === '--no-compress') o.compress = false;
    else if (a === '--models' || a.startsWith('--models=')) {
      const text = a === '--models' ? argv[++i] : a.slice('--models='.length);
      if (text === undefined) throw new Error('--models needs a list of names, such as en-fr,en-fr-dot');
      o.models = modelNames(text);
    } else if (a.startsWith('-') && a !== '-') throw new Error(`unknown argument ${JSON.stringify(a)}`);
    else if (o.out !== null) throw new Error(`one folder only: ${JSON.stringify(o.out)} and ${JSON.stringify(a)}`);
    else if (a === '') throw new Error('OUT is an empty string');
    else o.out = a;
  }
  if (o.out === null && !o.help) throw new Error('which folder? scripts/site OUT');
  o.models ??= DEFAULT_MODELS;
  return o;
}

function modelNames(text) {
  const names = text.split(',').map((s) => s.trim());
  if (names.some((n) => n === '')) throw new Error(`--models ${JSON.stringify(text)}: an empty name`);
  for (const n of names) {
    if (!Object.hasOwn(MODELS, n)) {
      throw new Error(`unknown model ${JSON.stringify(n)} (known: ${Object.keys(MODELS).join(', ')})`);
    }
  }
  return [...new Set(names)];
}

// A refusal: scripts/site exits 2 and writes nothing.
class Refused extends Error {}

function isWithin(dir, file) {
  const rel = path.relative(dir, file);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

// -> Set of the files (paths relative to OUT) an earlier run wrote there, per its marker.
// Throws Refused for an OUT that is a file, overlaps the sources, or holds files of its own.
function previousFiles(out, force) {
  const source = [...SOURCES, ROOT].find((dir) => dir === ROOT ? isWithin(out, ROOT) : isWithin(dir, out));
  if (source) {
    throw new Refused(`${out} would ${source === ROOT ? 'hold the checkout' : `lie in ${source}`}, ` +
      'which the site is copied from: name another folder, such as build/site or /tmp/site');
  }
  if (!existsSync(out)) return new Set();
  if (!statSync(out).isDirectory()) throw new Refused(`${out} is not a folder`);
  const entries = readdirSync(out);
  if (entries.length === 0) return new Set();
  let marker = null;
  try {
    marker = JSON.parse(readFileSync(path.join(out, MARKER), 'utf8'));
  } catch {
    // no marker, or not one of ours: the folder is someone else's
  }
  if (marker?.writtenBy === WRITTEN_BY && Array.isArray(marker.files)) {
    return new Set(marker.files.filter((f) => typeof f === 'string' && safeRelative(f)));
  }
  if (!force) {
    throw new Refused(`${out} is not empty (${entries.length} entries) and was not written by ` +
      'scripts/site (it has no ' + MARKER + '): name an empty or new folder, or add --force to ' +
      'write into it anyway (its other files are kept)');
  }
  return new Set();
}

// A path from a marker: relative, inside OUT, in '/' form.
function safeRelative(rel) {
  return rel !== '' && !rel.startsWith('/') && !rel.includes('\\') && !rel.includes('\0') &&
    rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

// -> [[src, rel]]: web/ as the pages load it (dist/ being the built engine alone).
function webFiles(dir = WEB, rel = '') {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.')) continue;
    const src = path.join(dir, e.name);
    const to = rel ? `${rel}/${e.name}` : e.name;
    if (to === 'dist') continue;
    const info = statSync(src, { throwIfNoEntry: false }); // undefined: a dangling link
    if (!info) continue;
    if (info.isDirectory() && !e.isSymbolicLink()) out.push(...webFiles(src, to));
    else if (info.isFile() && PAGE_TYPES.has(path.extname(e.name)) && !e.name.endsWith('.d.ts')) out.push([src, to]);
  }
  return out;
}

// -> [[src, rel]]: every file the site copies, for these models.
export function siteFiles(models) {
  const files = webFiles();
  for (const f of WASM_FILES) files.push([f, `dist/${path.basename(f)}`]);
  for (const name of models) {
    files.push([modelFile(name), MODELS[name].url]);
    const card = path.join(ROOT, 'models', `${name}.md`); // a model with a card of its own
    if (existsSync(card)) files.push([card, `models/${name}.md`]);
  }
  // The model card of the shipped models, with the data's licence and attribution.
  files.push([path.join(ROOT, 'models', 'README.md'), 'models/README.md']);
  files.push([path.join(ROOT, 'LICENSE'), 'LICENSE.txt']);
  return files;
}

// -> {[rel]: text}: README.txt, ATTRIBUTION.txt and the host hints.
export function generatedFiles(models, pages, compressed) {
  return {
    'README.txt': readme(models, compressed),
    'ATTRIBUTION.txt': ATTRIBUTION,
    _headers: headersFile(pages),
    '.htaccess': htaccess(pages),
    '.nojekyll': '',
  };
}

async function writeMarker(out, files, complete) {
  const json = { writtenBy: WRITTEN_BY, complete, files: [...files].sort() };
  await writeFile(path.join(out, MARKER), `${JSON.stringify(json, null, 1)}\n`);
}

// Runs fn over items, `limit` at a time (the compressors run on libuv's thread pool).
async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

// Writes the site. -> {out, models, files, bytes, copies, copyBytes, brotliBytes}
// files/bytes: the site's own files (without the compressed copies); copies/copyBytes: the
// .br and .gz files; brotliBytes: the site as a browser that takes brotli downloads it.
export async function writeSite({ out, models, compress: withCopies = true, force = false, log = () => {} }) {
  out = path.resolve(out);
  const previous = previousFiles(out, force);
  ensureBuilt('wasm-simd'); // both variants: web/dist as the pages load it

  const copies = siteFiles(models);
  const pages = copies.map(([, rel]) => rel).filter((rel) => !rel.includes('/') && rel.endsWith('.html')).sort();
  const generated = generatedFiles(models, pages, withCopies);
  // The modules and pages with ?v= in their imports (versioned-imports.mjs), as written.
  const versioned = versionImports(new Map(copies.filter(([, rel]) => /\.(m?js|html)$/.test(rel))
    .map(([src, rel]) => [rel, readFileSync(src, 'utf8')])));
  const planned = [...copies.map(([, rel]) => rel), ...Object.keys(generated), MANIFEST];
  const maybe = withCopies ? planned.flatMap((rel) => Object.values(CODINGS).map((e) => rel + e)) : [];
  await mkdir(out, { recursive: true });
  // Listed before anything is written, so that a run that fails half way may be rerun.
  await writeMarker(out, new Set([...previous, ...planned, ...maybe]), false);

  const written = new Set();
  const place = async (rel) => {
    const to = path.join(out, ...rel.split('/'));
    await mkdir(path.dirname(to), { recursive: true });
    await rm(to, { force: true }); // a file there (an older copy, a link) is replaced, not written through
    written.add(rel);
    return to;
  };
  log(`copying ${copies.length} files and writing ${Object.keys(generated).length + 1}`);
  for (const [src, rel] of copies) {
    if (versioned.has(rel)) await writeFile(await place(rel), versioned.get(rel));
    else await copyFile(src, await place(rel));
  }
  for (const [rel, text] of Object.entries(generated)) await writeFile(await place(rel), text);
  // The service worker's manifest (web/sw.js), hashed from the very files written.
  const inSite = copies.map(([, rel]) => [path.join(out, ...rel.split('/')), rel]);
  await writeFile(await place(MANIFEST), `${JSON.stringify(await offlineManifest(inSite))}\n`);

  const sizes = new Map(); // rel -> {size, br, gzip}: the file's bytes and its copies'
  const own = planned.filter((rel) => !HINTS.includes(rel));
  await eachLimited(own, 2, async (rel) => {
    const file = path.join(out, ...rel.split('/'));
    const { size } = await stat(file);
    const entry = { size };
    sizes.set(rel, entry);
    if (!withCopies || !compressible(path.extname(rel), size)) return;
    const bytes = await readFile(file);
    for (const [coding, ext] of Object.entries(CODINGS)) {
      const body = await compress(bytes, coding); // null: it would save too little to send
      if (!body) continue;
      await writeFile(await place(rel + ext), body);
      entry[coding] = body.length;
    }
  });
  log(withCopies ? `compressed ${own.length} files (brotli and gzip)` : 'no compressed copies (--no-compress)');

  // What an earlier run wrote and this one did not (a model left out, --no-compress): gone,
  // with the folders that empties. Nothing else is touched.
  const stale = [...previous, ...maybe].filter((rel) => !written.has(rel));
  for (const rel of stale) {
    const file = path.join(out, ...rel.split('/'));
    const info = await lstat(file).catch(() => null);
    if (!info || info.isDirectory()) continue; // gone already, or a folder someone put there
    await rm(file);
    for (let dir = path.dirname(file); dir !== out && isWithin(out, dir); dir = path.dirname(dir)) {
      const left = await readdir(dir).catch(() => null);
      if (left === null || left.length > 0) break;
      await rmdir(dir);
    }
  }
  await writeMarker(out, written, true);

  const all = [...sizes.values()];
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return {
    out,
    models,
    files: planned.length,
    bytes: sum(all.map((e) => e.size)) + sum(HINTS.map((h) => Buffer.byteLength(generated[h]))),
    copies: written.size - planned.length,
    copyBytes: sum(all.map((e) => (e.br ?? 0) + (e.gzip ?? 0))),
    brotliBytes: sum(all.map((e) => e.br ?? e.size)),
  };
}

const n = (x) => x.toLocaleString('en-US');
const mb = (x) => `${(x / 1e6).toFixed(1)} MB`;

export function summary(s) {
  const lines = [
    `scripts/site: wrote ${s.out}`,
    `  ${n(s.files)} files, ${n(s.bytes)} bytes (${mb(s.bytes)}); models: ${s.models.join(', ')}`,
  ];
  if (s.copies > 0) {
    lines.push(`  compressed: ${n(s.brotliBytes)} bytes (${mb(s.brotliBytes)}) with brotli; ` +
      `the ${n(s.copies)} .br and .gz copies take ${n(s.copyBytes)} bytes`);
  }
  lines.push(`Try it: ${TRY(s.out)}`, '  and open http://127.0.0.1:8000/ (README.txt there says how to publish it)');
  return lines.join('\n');
}

export async function main(argv) {
  let args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    console.error(`scripts/site: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const missing = args.models.filter((name) => !existsSync(modelFile(name)));
  if (missing.length > 0) {
    console.error(`scripts/site: no file for ${missing.map((m) => `${m} (${MODELS[m].url})`).join(', ')}; ` +
      'scripts/export makes the f32 models');
    return 2;
  }
  try {
    const s = await writeSite({ ...args, log: (line) => console.error(`scripts/site: ${line}`) });
    console.log(summary(s));
    return 0;
  } catch (e) {
    console.error(`scripts/site: ${e.message}`);
    return e instanceof Refused ? 2 : 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
