// scripts/site OUT: the whole site as one folder of static files. Its layout (the URLs the
// pages build name files there), the compressed copies, the host hints, the marker that keeps
// it from writing into (or deleting from) a folder it did not write, and its command line.
// tests/browser/site.test.mjs serves the folder with a plain static server in Chromium.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';

import { MODELS } from '../../web/lib/catalogue.js';
import { compressible } from '../../scripts/lib/compressed-files.mjs';
import { ROOT, WASM_FILES } from '../../scripts/lib/engines.mjs';
import { CODINGS, DEFAULT_MODELS, MARKER, USAGE, parseArgs } from '../../scripts/lib/site.mjs';

const SITE = path.join(ROOT, 'scripts', 'site');
const T = { timeout: 180_000 };

let tmp;
let out; // one site, en-fr only, with compressed copies: built once, read by the layout tests

function site(...args) {
  const r = spawnSync(SITE, args, { encoding: 'utf8', timeout: 170_000 });
  if (r.error) throw r.error;
  return r;
}

function built(...args) {
  const r = site(...args);
  assert.equal(r.status, 0, `scripts/site ${args.join(' ')}: ${r.stderr}`);
  return r;
}

// Every file below dir, as '/'-separated paths relative to it.
function listFiles(dir, rel = '') {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? listFiles(dir, r) : [r];
  });
}

const bytesOf = (...parts) => readFileSync(path.join(...parts));

before(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'bl-site-test-'));
  out = path.join(tmp, 'site');
  built(out, '--models', 'en-fr');
}, T);

after(() => rmSync(tmp, { recursive: true, force: true }));

describe('the folder', () => {
  test('holds the pages, the widget, the engine, the data, the model, its cards and licences, and the hints', () => {
    for (const f of ['index.html', 'compare.html', 'why.html', 'train.html', 'learn.html', 'learn.js', 'embed.html', 'embed-docs.html', 'bahdanau-widget.js',
      'app.js', 'lib/bahdanau.js', 'lib/catalogue.js', 'engine/worker.js', 'ui/ui.css', 'widget/engines.js',
      'data/bleu-by-length.json', 'data/long-sample.json', 'data/train-en-fr.bin', 'data/train-en-fr-gold.json', 'models/en-fr.safetensors', 'models/README.md',
      'LICENSE.txt', 'ATTRIBUTION.txt', 'README.txt', '_headers', '.htaccess', '.nojekyll', MARKER]) {
      assert.ok(existsSync(path.join(out, f)), f);
    }
    for (const f of WASM_FILES) assert.ok(existsSync(path.join(out, 'dist', path.basename(f))), f);
  });

  test('copies the files as they are, at the URL each has under scripts/serve.mjs', () => {
    for (const [rel, src] of [['dist/bahdanau-simd.wasm', 'web/dist/bahdanau-simd.wasm'], ['data/long-sample.json', 'web/data/long-sample.json'],
      ['models/en-fr.safetensors', 'models/en-fr.safetensors'], ['LICENSE.txt', 'LICENSE'], ['ui/ui.css', 'web/ui/ui.css']]) {
      assert.ok(bytesOf(out, rel).equals(bytesOf(ROOT, src)), rel);
    }
    // Pages and modules gain only the ?v= of what they import (scripts/lib/versioned-imports.mjs).
    for (const [rel, src] of [['index.html', 'web/index.html'], ['ui/matrix.js', 'web/ui/matrix.js']]) {
      const text = bytesOf(out, rel).toString('utf8');
      assert.match(text, /\?v=[0-9a-f]{16}/, rel);
      assert.equal(text.replace(/\?v=[0-9a-f]{16}/g, ''), bytesOf(ROOT, src).toString('utf8'), rel);
    }
    // Every JS module and stylesheet of web/ (other than the built engine) is there.
    const web = listFiles(path.join(ROOT, 'web')).filter((f) => /\.(js|css|html|json)$/.test(f) && !f.startsWith('dist/'));
    assert.deepEqual(web.filter((f) => !existsSync(path.join(out, f))), []);
  });

  test('only what the site needs: the named model, no other, no tests, fixtures or declarations', () => {
    const files = listFiles(out);
    const models = files.filter((f) => f.endsWith('.safetensors'));
    assert.deepEqual(models, ['models/en-fr.safetensors']);
    assert.equal(existsSync(path.join(out, 'fixtures')), false);
    assert.equal(existsSync(path.join(out, 'models', 'en-fr-transformer.md')), false, "the Transformer's card goes with it");
    assert.deepEqual(files.filter((f) => /node_modules|\.test\.|\.d\.ts|(^|\/)tests\//.test(f)), []);
    assert.equal(existsSync(path.join(out, 'models', 'eval')), false);
  });

  test('every file a page refers to (script src, link href, iframe src) is in the folder', () => {
    const pages = readdirSync(out).filter((f) => f.endsWith('.html'));
    assert.deepEqual(pages.sort(), ['compare.html', 'embed-docs.html', 'embed.html', 'index.html', 'learn.html', 'train.html', 'why.html']);
    let checked = 0;
    for (const page of pages) {
      const html = readFileSync(path.join(out, page), 'utf8');
      for (const [, attr, url] of html.matchAll(/\b(src|href)="([^"]*)"/g)) {
        if (/^(data:|#|[a-z]+:\/\/|mailto:)/.test(url)) continue;
        const target = new URL(url, `file://${out}/${page}`).pathname;
        const file = target.endsWith('/') ? `${target}index.html` : target;
        assert.ok(existsSync(file), `${page}: ${attr}="${url}"`);
        checked++;
      }
    }
    assert.ok(checked >= 30, `${checked} references`);
  });

  test("every module a script imports, and every file it names next to itself, is in the folder", () => {
    let checked = 0;
    for (const rel of listFiles(out).filter((f) => f.endsWith('.js') && !f.startsWith('dist/'))) {
      // The code, not its comments (which show imports as examples).
      const text = readFileSync(path.join(out, rel), 'utf8').split('\n')
        .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line)).join('\n');
      const specifiers = [
        ...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g),
        ...text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g),
        ...text.matchAll(/new URL\('(\.{0,2}\/?[^':]+)',\s*import\.meta\.url\)/g),
      ].map((m) => m[1]);
      for (const s of specifiers) {
        assert.ok(existsSync(new URL(s, `file://${out}/${rel}`)), `${rel}: ${s}`);
        checked++;
      }
    }
    assert.ok(checked >= 100, `${checked} specifiers`);
  });

  test("the catalogue's URL of each model included names its file", () => {
    assert.ok(bytesOf(out, MODELS['en-fr'].url).equals(bytesOf(ROOT, 'models', 'en-fr.safetensors')));
  });

  test('beside each compressible file, .br and .gz copies that decompress to it', () => {
    const files = listFiles(out);
    const originals = files.filter((f) => !/\.(br|gz)$/.test(f));
    let copies = 0;
    for (const f of originals) {
      const bytes = bytesOf(out, f);
      const worth = compressible(path.extname(f), bytes.length) && !['_headers', '.htaccess', MARKER].includes(f);
      for (const ext of Object.values(CODINGS)) {
        const copy = path.join(out, f + ext);
        if (!existsSync(copy)) continue;
        assert.ok(worth, `${f}${ext}: a copy of a file not worth compressing`);
        const body = readFileSync(copy);
        assert.ok(body.length < bytes.length, `${f}${ext} is smaller`);
        const back = ext === '.br' ? zlib.brotliDecompressSync(body) : zlib.gunzipSync(body);
        assert.ok(back.equals(bytes), `${f}${ext} decompresses to ${f}`);
        copies++;
      }
    }
    // The ones that matter on the wire: the engine, the model, the modules, the pages.
    for (const f of ['dist/bahdanau-simd.wasm', 'dist/bahdanau-scalar.wasm', 'dist/bahdanau-simd.js',
      'models/en-fr.safetensors', 'index.html', 'app.js', 'ui/ui.css', 'data/long-sample.json']) {
      for (const ext of Object.values(CODINGS)) assert.ok(files.includes(f + ext), f + ext);
    }
    assert.deepEqual(files.filter((f) => /\.(br|gz)$/.test(f) && !originals.includes(f.replace(/\.(br|gz)$/, ''))), []);
    assert.ok(copies >= 150, `${copies} copies`);
  });

  test('the host hints: the wasm type, revalidation, CORS, the Apache rewrites, and a README that says who reads what', () => {
    const headers = readFileSync(path.join(out, '_headers'), 'utf8');
    for (const f of WASM_FILES.filter((w) => w.endsWith('.wasm'))) {
      assert.match(headers, new RegExp(`^/dist/${path.basename(f)}\\n  Content-Type: application/wasm$`, 'm'));
    }
    assert.match(headers, /^\/\*\n(  .+\n)*  Cache-Control: no-cache\n/m);
    assert.match(headers, /Access-Control-Allow-Origin: \*/);
    assert.doesNotMatch(headers, /immutable|max-age/, 'no URL here names its content');
    assert.match(headers, /^\/embed\.html\n  Content-Security-Policy: .*script-src 'self' 'unsafe-eval'/m);
    // Each header once per URL: a host that matches several rules joins their values.
    const rules = headers.split(/\n(?=\/)/).filter((b) => b.startsWith('/'));
    assert.equal(rules.filter((b) => b.includes('Cache-Control')).length, 1);

    const ht = readFileSync(path.join(out, '.htaccess'), 'utf8');
    for (const line of ['AddType application/wasm .wasm', 'AddEncoding br .br', 'AddEncoding gzip .gz', 'RemoveType .br .gz',
      'RewriteCond %{HTTP:Accept-Encoding} \\bbr\\b', 'RewriteCond %{REQUEST_FILENAME}.br -f',
      'RewriteRule ^ %{REQUEST_URI}.br [L]', 'Header append Vary Accept-Encoding', 'Header set Cache-Control "no-cache"']) {
      assert.ok(ht.includes(line), line);
    }
    assert.ok(ht.indexOf('.br -f') < ht.indexOf('.gz -f'), 'brotli first');

    assert.equal(readFileSync(path.join(out, '.nojekyll'), 'utf8'), '');
    const readme = readFileSync(path.join(out, 'README.txt'), 'utf8');
    assert.match(readme, /GitHub Pages ignores _headers and \.htaccess/);
    assert.match(readme, /python3 -m http\.server/);
    assert.match(readme, /Models: en-fr\. /);
  });

  test("the data's licence and attribution, as the model card states them", () => {
    const card = readFileSync(path.join(ROOT, 'models', 'README.md'), 'utf8');
    const attribution = card.match(/Attribution: "([^"]+)"/)[1].replace(/\s+/g, ' ');
    const text = readFileSync(path.join(out, 'ATTRIBUTION.txt'), 'utf8');
    assert.ok(text.replace(/\s+/g, ' ').includes(`"${attribution}"`), attribution);
    assert.match(card, /CC-BY 2\.0 France/);
    assert.match(text, /CC-BY 2\.0 France/);
    assert.match(readFileSync(path.join(out, 'LICENSE.txt'), 'utf8'), /^MIT License/);
  });

  test('the marker lists every file written, compressed copies included, and is complete', () => {
    const marker = JSON.parse(readFileSync(path.join(out, MARKER), 'utf8'));
    assert.equal(marker.complete, true);
    assert.deepEqual(marker.files, listFiles(out).filter((f) => f !== MARKER).sort());
  });

  test('the summary names the files, their bytes, the compressed bytes and the command to try it', () => {
    // Rebuilt as it was (and fast: the same model), for its output.
    const r = built(out, '--models', 'en-fr');
    const files = listFiles(out).filter((f) => !/\.(br|gz)$/.test(f) && f !== MARKER);
    const bytes = files.reduce((a, f) => a + statSync(path.join(out, f)).size, 0);
    assert.match(r.stdout, new RegExp(`${files.length} files, ${bytes.toLocaleString('en-US')} bytes`));
    assert.match(r.stdout, /compressed: [\d,]+ bytes .* with brotli; the [\d,]+ \.br and \.gz copies take [\d,]+ bytes/);
    assert.ok(r.stdout.includes(`python3 -m http.server -d ${out} --bind 127.0.0.1 8000`), r.stdout);
  });
});

describe('the marker and --force', () => {
  // The tiny test model and no copies: each run takes a fraction of a second.
  const quick = ['--models', 'tiny', '--no-compress'];

  test('a folder with files of its own is refused (exit 2, nothing written); --force writes into it and keeps them', T, () => {
    const dir = path.join(tmp, 'mine');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'notes.txt'), 'my notes\n');
    const r = site(dir, ...quick);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /is not empty .* was not written by scripts\/site .* --force/s);
    assert.deepEqual(readdirSync(dir), ['notes.txt']);

    built(dir, ...quick, '--force');
    assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'my notes\n');
    assert.ok(existsSync(path.join(dir, 'index.html')));
    assert.ok(existsSync(path.join(dir, 'fixtures', 'tiny-additive-f32.safetensors')), 'a tiny model, when named, under fixtures/');
    // Now the marker is there: a rerun needs no --force, and still keeps the notes.
    built(dir, ...quick);
    assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'my notes\n');
  });

  test('a rerun removes what it wrote before and no longer writes, and nothing else', T, () => {
    const dir = path.join(tmp, 'again');
    built(dir, '--models', 'tiny,tiny-dot');
    assert.ok(existsSync(path.join(dir, 'fixtures', 'tiny-scaled_dot-f32.safetensors')));
    assert.ok(existsSync(path.join(dir, 'index.html.br')));
    writeFileSync(path.join(dir, 'CNAME'), 'attention.example.edu\n');
    writeFileSync(path.join(dir, 'fixtures', 'keep.txt'), 'mine\n');

    built(dir, ...quick);
    assert.ok(existsSync(path.join(dir, 'fixtures', 'tiny-additive-f32.safetensors')));
    assert.equal(existsSync(path.join(dir, 'fixtures', 'tiny-scaled_dot-f32.safetensors')), false);
    assert.deepEqual(listFiles(dir).filter((f) => /\.(br|gz)$/.test(f)), [], '--no-compress removes the old copies');
    assert.equal(readFileSync(path.join(dir, 'CNAME'), 'utf8'), 'attention.example.edu\n');
    assert.equal(readFileSync(path.join(dir, 'fixtures', 'keep.txt'), 'utf8'), 'mine\n');

    built(dir, '--models', 'en-fr', '--no-compress');
    assert.deepEqual(readdirSync(path.join(dir, 'fixtures')), ['keep.txt'], 'the tiny model gone, the folder kept for keep.txt');
  });

  test('an empty folder is written into; a file, the sources and a folder holding the checkout are refused', T, () => {
    const empty = path.join(tmp, 'empty');
    mkdirSync(empty);
    built(empty, ...quick);
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, 'x');
    for (const [dir, message] of [[file, /is not a folder/], [path.join(ROOT, 'web', 'site-out'), /would lie in .*web/],
      [path.join(ROOT, 'models', 'x'), /would lie in .*models/], [path.dirname(ROOT), /would hold the checkout/]]) {
      const r = site(dir, ...quick, '--force');
      assert.equal(r.status, 2, `${dir}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.equal(existsSync(path.join(ROOT, 'web', 'site-out')), false);
    assert.equal(readFileSync(file, 'utf8'), 'x');
  });
});

describe('the command line', () => {
  test('parseArgs: the folder, the flags, the model names', () => {
    assert.deepEqual(parseArgs(['out']), { out: 'out', models: DEFAULT_MODELS, compress: true, force: false, help: false });
    assert.deepEqual(parseArgs(['--force', '--no-compress', '--models', 'en-fr,en-fr-dot', 'o']),
      { out: 'o', models: ['en-fr', 'en-fr-dot'], compress: false, force: true, help: false });
    assert.deepEqual(parseArgs(['o', '--models=tiny, en-fr,tiny']).models, ['tiny', 'en-fr']);
    assert.equal(parseArgs(['--help']).help, true);
    // The f32 twins join the default once scripts/export has made them (not in a fresh clone).
    assert.deepEqual(DEFAULT_MODELS.filter((m) => !m.endsWith('-f32')),
      ['en-fr', 'en-fr-dot', 'en-fr-guided', 'en-fr-noattn', 'en-zh', 'en-fr-transformer'].filter((m) =>
        existsSync(path.join(ROOT, 'models', `${m}.safetensors`))));
  });

  test('--help prints the usage; a bad argument exits 2 with it and writes nothing', T, () => {
    const help = site('--help');
    assert.equal(help.status, 0);
    assert.equal(help.stdout.trim(), USAGE);
    const dir = path.join(tmp, 'never');
    for (const [argv, message] of [
      [[], /which folder/],
      [[dir, 'other'], /one folder only/],
      [[dir, '--frce'], /unknown argument "--frce"/],
      [[dir, '--models'], /--models needs a list/],
      [[dir, '--models', 'en-fr,,tiny'], /an empty name/],
      [[dir, '--models', 'fr-en'], /unknown model "fr-en" \(known: en-fr, /],
      [[dir, '--models', 'en-fr-f32'], /no file for en-fr-f32 .*scripts\/export/],
      [[''], /OUT is an empty string/],
    ]) {
      if (argv.includes('en-fr-f32') && existsSync(path.join(ROOT, 'models', 'en-fr-f32.safetensors'))) continue;
      const r = site(...argv);
      assert.equal(r.status, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0], new RegExp(`^scripts/site: .*${message.source}`));
      assert.equal(r.stdout, '');
    }
    assert.equal(existsSync(dir), false);
  });
});
