// scripts/lib/versioned-imports.mjs, and the site scripts/site writes with it: each import of a
// site module names that module's content (?v= and 16 hex digits of its SHA-256), a change
// below reaches every URL above it, a cycle is refused, and what names no site module is left
// alone. The browser side (a reload takes the modules from the cache) is
// tests/browser/site-reload.test.mjs.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { writeSite } from '../../scripts/lib/site.mjs';
import { HASH_DIGITS, digest, versionImports } from '../../scripts/lib/versioned-imports.mjs';

const v = (text) => `?v=${digest(text).slice(0, HASH_DIGITS)}`;

test('an import names the content of the module it imports, as rewritten', () => {
  const texts = new Map([
    ['a.js', "import { b } from './lib/b.js';\nexport const a = b;\n"],
    ['lib/b.js', "export { c as b } from '../c.js';\n"],
    ['c.js', 'export const c = 1;\n'],
  ]);
  const out = versionImports(texts);
  const b = `export { c as b } from '../c.js${v(texts.get('c.js'))}';\n`;
  assert.equal(out.get('lib/b.js'), b);
  assert.equal(out.get('a.js'), `import { b } from './lib/b.js${v(b)}';\nexport const a = b;\n`);
  assert.equal(out.has('c.js'), false, 'a module that imports nothing is written as it is');

  // A change in c: new URLs up to a, so an old a never meets a new c.
  const changed = versionImports(new Map([...texts, ['c.js', 'export const c = 2;\n']]));
  assert.notEqual(changed.get('lib/b.js'), out.get('lib/b.js'));
  assert.notEqual(changed.get('a.js'), out.get('a.js'));
});

test('every form of import the modules use, and what is left alone', () => {
  const texts = new Map([
    ['m.js', [
      "import {\n  x,\n  y,\n} from './x.js';",
      "import './side.js';",
      "export * from \"./x.js\";",
      "const lazy = () => import('./lazy.js');",
      "import fs from 'node:fs';",
      "import { z } from './missing.js';",
      "const url = new URL('./x.js', import.meta.url);",
      "const glue = await import(href);",
      "import { w } from 'https://example.org/w.js';",
      "const s = 'import nothing from \"./x.js\"';",
    ].join('\n')],
    ['x.js', 'export const x = 1, y = 2;'],
    ['side.js', 'globalThis.s = 1;'],
    ['lazy.js', 'export default 1;'],
  ]);
  const out = versionImports(texts).get('m.js').split('\n');
  assert.equal(out[3], `} from './x.js${v('export const x = 1, y = 2;')}';`);
  assert.equal(out[4], `import './side.js${v('globalThis.s = 1;')}';`);
  assert.equal(out[5], `export * from "./x.js${v('export const x = 1, y = 2;')}";`);
  assert.equal(out[6], `const lazy = () => import('./lazy.js${v('export default 1;')}');`);
  assert.deepEqual(out.slice(7), texts.get('m.js').split('\n').slice(7),
    'node:, a file the site lacks, a URL built at run time, another origin and a string are left as they are');
});

test('a page\'s module scripts are versioned, its classic scripts and other tags are not', () => {
  const texts = new Map([
    ['p.html', '<script type="module" async src="app/x.js"></script>\n<script src="app/x.js"></script>\n<link rel="stylesheet" href="app/x.js">\n<script type=module src=\'../p/app/x.js\'></script>\n<script type=module src=app/x.js></script>'],
    ['app/x.js', 'export {};'],
  ]);
  const lines = versionImports(texts).get('p.html').split('\n');
  assert.equal(lines[0], `<script type="module" async src="app/x.js${v('export {};')}"></script>`);
  assert.equal(lines[1], '<script src="app/x.js"></script>');
  assert.equal(lines[2], '<link rel="stylesheet" href="app/x.js">');
  assert.equal(lines[3], "<script type=module src='../p/app/x.js'></script>", 'outside the site: left alone');
  assert.equal(lines[4], `<script type=module src=app/x.js${v('export {};')}></script>`, 'an unquoted src too');
});

test('an import cycle is an error that names it', () => {
  const texts = new Map([
    ['a.js', "import './b.js';"],
    ['b.js', "import './c.js';"],
    ['c.js', "import './a.js';"],
  ]);
  assert.throws(() => versionImports(texts), /cycle \(a\.js -> b\.js -> c\.js -> a\.js\)/);
});

// The site's files under dir, as site paths.
function files(dir, rel = '') {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const to = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? files(dir, to) : [to];
  });
}

test('the site: every import of a site module carries the hash of the file as written, and its manifest hashes what was written', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bl-versioned-'));
  try {
    await writeSite({ out, models: ['tiny'], compress: false });
    const all = files(out);
    const text = (rel) => readFileSync(path.join(out, ...rel.split('/')), 'utf8');
    let checked = 0;
    for (const rel of all.filter((r) => /\.(m?js|html)$/.test(r) && !r.startsWith('dist/'))) {
      const src = text(rel);
      for (const m of src.matchAll(/(['"])((?:\.{1,2}\/)?[\w./-]+\.m?js)\?v=([0-9a-f]+)\1/g)) {
        const to = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[2]));
        assert.ok(all.includes(to), `${rel} imports ${m[2]}, which the site has`);
        assert.equal(m[3], digest(text(to)).slice(0, HASH_DIGITS), `${rel}: the hash of ${to}`);
        checked += 1;
      }
      // No relative import of a module is left without its version.
      const bare = [...src.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])(\.{1,2}\/[^'"?]+)\1/gm)].map((m) => m[2]);
      assert.deepEqual(bare, [], `${rel}: imports without ?v=`);
    }
    assert.ok(checked > 200, `${checked} versioned imports checked`);
    const manifest = JSON.parse(text('cache-manifest.json'));
    for (const [rel, sha] of Object.entries(manifest.shell)) assert.equal(sha, digest(readFileSync(path.join(out, rel))), rel);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
