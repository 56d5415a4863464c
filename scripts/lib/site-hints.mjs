// scripts/site's host hints and notes (site.mjs writes them): README.txt, ATTRIBUTION.txt,
// _headers for Netlify and Cloudflare Pages, and .htaccess for Apache.
import path from 'node:path';

import { EXPOSED, pagePolicy } from '../serve.mjs';
import { COMPRESSIBLE } from './compressed-files.mjs';
import { WASM_FILES } from './engines.mjs';

export const MARKER = '.bahdanau-live-site.json';
// The content codings written, brotli first (what .htaccess prefers), and their file endings.
export const CODINGS = { br: '.br', gzip: '.gz' };

export function wrap(text, indent, width) {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines.at(-1);
    if (line && indent + line.length + 1 + word.length > width) lines.push(word);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return lines.join(`\n${' '.repeat(indent)}`);
}

export const TRY = (dir) => `python3 -m http.server -d ${shellQuote(dir)} --bind 127.0.0.1 8000`;

export function shellQuote(s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

// The data's licence, as models/README.md ("Data and attribution") states it.
export const ATTRIBUTION = `The models in models/ and the sentences in data/ are derived from the Tatoeba
English-French sentence pairs as packaged by manythings.org/anki, licensed CC-BY 2.0 France
(https://creativecommons.org/licenses/by/2.0/fr/).
Attribution: "www.manythings.org/anki and tatoeba.org".
The weights are derived from this data and carry the same attribution; models/README.md,
"Data and attribution", says how they were made from it.

The code (the pages, the widget and the engine in dist/) is under the MIT licence: LICENSE.txt.
`;

export function readme(models, compressed) {
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
  (Cache-Control: no-cache). The modules import each other as x.js?v=HASH, the file's own
  SHA-256: a host that can match the query may cache those URLs for good (immutable), which
  spares a reload one round trip per level of imports; every other URL must revalidate.

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
  // Revalidate everything: a rebuilt engine or a new model must be picked up on reload, and an
  // unchanged file costs a 304. The modules' ?v= URLs do name their content, but neither
  // _headers nor a plain .htaccess can match a query, so they revalidate here too.
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  // The widget may be embedded on other origins (module scripts and fetches are CORS requests).
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED,
};

export function headersFile(pages) {
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

export function htaccess(pages) {
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
