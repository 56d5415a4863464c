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
import { EXPOSED, defaultMounts, pagePolicy, resolvePath } from '../serve.mjs';
import { COMPRESSIBLE, compress, compressible } from './compressed-files.mjs';
import { ROOT, WASM_FILES, ensureBuilt } from './engines.mjs';

const WEB = path.join(ROOT, 'web');
export const MARKER = '.bahdanau-live-site.json';
const WRITTEN_BY = 'bahdanau-live scripts/site';
// The content codings written, brotli first (what .htaccess prefers), and their file endings.
export const CODINGS = { br: '.br', gzip: '.gz' };
// What a page loads from web/: the pages, their modules and styles, data. Not the TypeScript
// declarations (for the npm package), nor stray files (editor backups, notes).
const PAGE_TYPES = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.png', '.ico', '.txt']);
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
function wrap(text, indent, width) {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines.at(-1);
    if (line && indent + line.length + 1 + word.length > width) lines.push(word);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return lines.join(`\n${' '.repeat(indent)}`);
}

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

const TRY = (dir) => `python3 -m http.server -d ${shellQuote(dir)} --bind 127.0.0.1 8000`;

function shellQuote(s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// The data's licence, as models/README.md ("Data and attribution") states it.
const ATTRIBUTION = `The models in models/ and the sentences in data/ are derived from the Tatoeba
English-French sentence pairs as packaged by manythings.org/anki, licensed CC-BY 2.0 France
(https://creativecommons.org/licenses/by/2.0/fr/).
Attribution: "www.manythings.org/anki and tatoeba.org".
The weights are derived from this data and carry the same attribution; models/README.md,
"Data and attribution", says how they were made from it.

The code (the pages, the widget and the engine in dist/) is under the MIT licence: LICENSE.txt.
`;

function readme(models, compressed) {
  return `bahdanau-live: the site as static files
=======================================

Written by scripts/site from a clone of bahdanau-live. The whole site: the pages (index.html,
compare.html, why.html, embed.html, embed-docs.html), the widget (bahdanau-widget.js), the
engine (dist/), the models (models/, with their cards) and the measured numbers (data/).
Copy the folder as it is, dotfiles included, to any static host. It needs no special headers
(the engine uses no threads) and makes no request outside its own origin. Every URL in it is
relative, so it works at the top of a domain or in a folder of one (~you/attention/).

${wrap(`Models: ${models.join(', ')}. A page that names another says it is not available.`, 0, 95)}

Try it here:
  ${TRY('.')}
and open http://127.0.0.1:8000/

Hosts
- GitHub Pages: publish this folder (a gh-pages branch, or the Pages artifact of a workflow).
  .nojekyll keeps it as it is. GitHub Pages ignores _headers and .htaccess and compresses
  responses itself, so the .br and .gz copies are not used there${compressed ? ' (scripts/site\n  --no-compress leaves them out)' : ''}.
- Netlify, Cloudflare Pages: publish this folder. They read _headers (the wasm type, CORS,
  revalidation, the pages' CSP) and compress by themselves.
- Apache (a university web space, shared hosting): copy the folder with its dotfiles. With
  AllowOverride FileInfo, .htaccess sets the types, and with mod_rewrite and mod_headers it
  sends the .br or .gz copy to a browser that accepts it, with the headers _headers lists.
- nginx: "gzip_static on;" (and "brotli_static on;" with the brotli module) sends the copies;
  check that its mime.types maps wasm to application/wasm.
- Any other host: serve .wasm as application/wasm; compress .wasm, .js and .safetensors if it
  can; answer conditional requests (ETag or Last-Modified) and let the browser revalidate
  (Cache-Control: no-cache): nothing here has a content hash in its name, so nothing may be
  cached for good.

The widget on a page of another origin (a course page elsewhere) needs the host to send
Access-Control-Allow-Origin: GitHub Pages and Netlify do; _headers and .htaccess ask for it.

LICENSE.txt: the code (MIT). ATTRIBUTION.txt: the data the models were trained on (CC-BY 2.0 FR).
${MARKER}: the files scripts/site wrote, so that a rerun may replace them.
`;
}

// The pages' URLs on a host that also answers without ".html" (Cloudflare Pages, Netlify).
function pageUrls(page) {
  const bare = page.replace(/\.html$/, '');
  return page === 'index.html' ? ['/', '/index.html', '/index'] : [`/${page}`, `/${bare}`];
}

const COMMON_HEADERS = {
  // Revalidate everything: no URL here names its content (no hash in it), so a rebuilt engine
  // or a new model must be picked up on reload; an unchanged file costs a 304.
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  // The widget may be embedded on other origins (module scripts and fetches are CORS requests).
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED,
};

function headersFile(pages) {
  const block = (url, headers) => `${url}\n${Object.entries(headers).map(([k, v]) => `  ${k}: ${v}\n`).join('')}`;
  return [
    '# Read by Netlify and Cloudflare Pages (written by scripts/site); other hosts ignore it.\n' +
      '# A URL that matches several rules gets all their headers, so each header is set once.\n',
    block('/*', COMMON_HEADERS),
    ...WASM_FILES.filter((f) => f.endsWith('.wasm'))
      .map((f) => block(`/dist/${path.basename(f)}`, { 'Content-Type': 'application/wasm' })),
    ...pages.flatMap((page) => pageUrls(page).map((url) => block(url, { 'Content-Security-Policy': pagePolicy(page) }))),
  ].join('\n');
}

function htaccess(pages) {
  const exts = [...COMPRESSIBLE].map((e) => e.slice(1)).join('|');
  const codingRe = `(${Object.values(CODINGS).map((e) => `\\${e}`).join('|')})`; // (\.br|\.gz)
  const coded = `${codingRe}?`;
  const policies = new Map(); // policy -> the pages it is sent with
  for (const page of pages) policies.set(pagePolicy(page), [...(policies.get(pagePolicy(page)) ?? []), page]);
  const csp = [...policies].map(([policy, names]) => {
    const re = names.map((p) => p.replace(/\.html$/, '').replace(/[.+*?^$()[\]{}|\\]/g, '\\$&')).join('|');
    return `  <FilesMatch "^(${re})\\.html${coded}$">\n    Header set Content-Security-Policy "${policy}"\n  </FilesMatch>\n`;
  }).join('');
  const rewrite = Object.entries(CODINGS).map(([coding, ext]) =>
    `  RewriteCond %{HTTP:Accept-Encoding} \\b${coding}\\b\n` +
    `  RewriteCond %{REQUEST_FILENAME}${ext} -f\n` +
    `  RewriteRule ^ %{REQUEST_URI}${ext} [L]\n`).join('');
  return `# Read by Apache (written by scripts/site); needs AllowOverride FileInfo. GitHub Pages,
# Netlify and Cloudflare Pages ignore it (the last two read _headers).

# A browser compiles wasm while it downloads only if it comes as application/wasm (older
# mime.types lack it).
AddType application/wasm .wasm
AddType text/javascript .js .mjs
AddType application/octet-stream .safetensors
AddCharset utf-8 .html .js .mjs .css .json .txt .md .svg

# app.js.br and app.js.gz are app.js in a content coding: the type stays app.js's, and the
# coding goes in Content-Encoding (Debian's mime.conf would type .gz as application/gzip).
RemoveType ${Object.values(CODINGS).join(' ')}
${Object.entries(CODINGS).map(([coding, ext]) => `AddEncoding ${coding} ${ext}`).join('\n')}

# The compressed copy, brotli first, for a browser that accepts it. %{REQUEST_URI} keeps the
# URL's own folder, so no RewriteBase is needed in a ~user/ folder.
<IfModule mod_rewrite.c>
  RewriteEngine On
${rewrite}  # Never compressed twice by mod_deflate.
  RewriteRule ${codingRe}$ - [E=no-gzip:1,E=no-brotli:1]
</IfModule>

<IfModule mod_headers.c>
${Object.entries(COMMON_HEADERS).map(([k, v]) => `  Header set ${k} "${v}"`).join('\n')}
  <FilesMatch "\\.(${exts})${coded}$">
    Header append Vary Accept-Encoding
  </FilesMatch>
${csp}</IfModule>
`;
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
  const planned = [...copies.map(([, rel]) => rel), ...Object.keys(generated)];
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
  log(`copying ${copies.length} files and writing ${Object.keys(generated).length}`);
  for (const [src, rel] of copies) await copyFile(src, await place(rel));
  for (const [rel, text] of Object.entries(generated)) await writeFile(await place(rel), text);

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
