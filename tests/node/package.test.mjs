// The npm package: `npm pack` gives a tarball that works after `npm install` in an empty
// folder, with no build step: the API by its package name, the CLI through npx, and the
// TypeScript declarations, checked by tsc against typed code that must pass and code that
// must not.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { DEFAULT_MODEL, ROOT, ensureEngines, translator } from './helpers.mjs';

const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let dir; // the empty folder the package is installed into
let tarball;

function sh(cmd, args, cwd, input) {
  const r = spawnSync(cmd, args, { cwd, input, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}

before(() => {
  ensureEngines();
  dir = mkdtempSync(path.join(tmpdir(), 'bahdanau-pkg-'));
  const pack = sh('npm', ['pack', '--json', '--pack-destination', dir], ROOT);
  assert.equal(pack.status, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
  tarball = { ...info, path: path.join(dir, info.filename) };
  writeFileSync(path.join(dir, 'package.json'), '{"name": "user-project", "private": true, "type": "module"}\n');
  const install = sh('npm', ['install', '--offline', '--no-audit', '--no-fund', `./${info.filename}`], dir);
  assert.equal(install.status, 0, install.stderr);
});

after(() => rmSync(dir, { recursive: true, force: true }));

// web/bahdanau-widget.js and every module it imports, statically or not (relative specifiers).
function widgetModules() {
  const seen = new Set();
  const todo = ['web/bahdanau-widget.js'];
  while (todo.length) {
    const f = todo.pop();
    if (seen.has(f)) continue;
    seen.add(f);
    const code = readFileSync(path.join(ROOT, f), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    for (const m of code.matchAll(/(?:import|export)\s[^;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]/g)) {
      todo.push(path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1] ?? m[2])));
    }
  }
  return [...seen];
}

test('the tarball holds the engine, the API, the CLI, the widget and its models, and nothing else', () => {
  const files = tarball.files.map((f) => f.path).sort();
  const widget = widgetModules();
  assert.ok(widget.length > 40 && widget.includes('web/widget/engines.js') && widget.includes('web/lib/bahdanau.js'));
  const styles = [...readFileSync(path.join(ROOT, 'web/widget/shadow.js'), 'utf8').matchAll(/'(ui\/[\w-]+\.css)'/g)].map((m) => `web/${m[1]}`);
  assert.ok(styles.includes('web/ui/widget.css'));
  for (const f of ['web/dist/bahdanau-simd.wasm', 'web/dist/bahdanau-scalar.wasm', 'web/dist/bahdanau-relaxed.wasm',
    'web/dist/bahdanau-relaxed-gemm.wasm', 'web/dist/bahdanau-simd.js', 'web/dist/bahdanau-scalar.js',
    'web/lib/bahdanau.js', 'web/lib/relaxed.js', 'web/lib/edits.js', 'scripts/lib/attend-args.mjs',
    'web/lib/bahdanau.d.ts', 'scripts/translate.mjs', 'README.md', 'LICENSE', 'web/engine/worker.js',
    'web/models/en-fr.safetensors', 'web/models/en-fr-dot.safetensors', 'web/models/en-fr-noattn.safetensors', 'web/models/en-zh.safetensors',
    'web/models/README.md', 'web/data/train-en-fr.bin', 'web/data/train-en-fr-gold.json',
    'web/data/train-en-fr.README.md', ...widget, ...styles]) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  assert.deepEqual(files.filter((f) => /^(tests|build|src|shared)\//.test(f) || /f32\.safetensors$/.test(f)), []);
  assert.deepEqual(files.filter((f) => f.endsWith('.safetensors')), ['web/models/en-fr-dot.safetensors',
    'web/models/en-fr-noattn.safetensors', 'web/models/en-fr.safetensors', 'web/models/en-zh.safetensors'],
    'the default model, those of the two-model modes, and English→Chinese (model="en-zh")');
  assert.deepEqual(files.filter((f) => f.endsWith('.html')), [], 'no pages: the widget only');
  assert.equal(statSync(tarball.path).size, tarball.size);
  assert.ok(tarball.size < 20 << 20, `the tarball is ${tarball.size} bytes`);
  console.log(`# package: ${tarball.size} bytes packed, ${tarball.unpackedSize} unpacked, ${files.length} files`);
});

test('import by package name translates as the repository API does: no model, or one by name, from any working directory', async () => {
  const code = `import { createTranslator, MAX_BEAM } from 'bahdanau-live';
const tr = await createTranslator();
const r = tr.translate('I am cold.');
const named = {};
for (const name of ['en-fr', 'en-fr-dot', 'en-fr-noattn', 'en-zh']) {
  const t = await createTranslator({ model: name });
  named[name] = [t.info().scoring, t.translate('I am cold.').text];
  t.dispose();
}
let missing;
try { await createTranslator({ model: 'en-fr-transformer' }); } catch (e) { missing = e.message; }
console.log(JSON.stringify({ text: r.text, engine: tr.info().engine, beam: MAX_BEAM, named, missing }));
tr.dispose();`;
  writeFileSync(path.join(dir, 'use.mjs'), code);
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'bahdanau-cwd-')); // not the project's folder
  const r = sh(process.execPath, [path.join(dir, 'use.mjs')], elsewhere);
  rmSync(elsewhere, { recursive: true, force: true });
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout);
  const tr = await translator(readFileSync(DEFAULT_MODEL), 'wasm-simd');
  const text = tr.translate('I am cold.').text;
  tr.dispose();
  assert.deepEqual({ ...got, named: undefined, missing: undefined }, { text, engine: 'wasm-simd', beam: 16, named: undefined, missing: undefined });
  assert.deepEqual(got.named['en-fr'], ['additive', text]);
  assert.equal(got.named['en-fr-dot'][0], 'scaled_dot');
  assert.equal(got.named['en-fr-noattn'][0], 'none');
  // English->Chinese by name from the installed package: Chinese out (its words are not fixed).
  assert.equal(got.named['en-zh'][0], 'additive');
  assert.match(got.named['en-zh'][1], /\p{Script=Han}/u);
  assert.match(got.missing, /^cannot read model en-fr-transformer: it is not in this copy of bahdanau-live \(looked for .*node_modules\/bahdanau-live\/web\/models\/en-fr-transformer\.safetensors\)/);
});

// startTraining's defaults name the bundled data and gold links beside web/lib: a package
// without them fails at its first call (it did: web/data was not in "files").
test('startTraining trains from the packaged data and measures on the packaged gold links', () => {
  const code = `import { startTraining } from 'bahdanau-live';
const run = startTraining({ preset: 'tiny', gold: true, maxSteps: 3, measureMs: 0 });
const stopped = new Promise((resolve) => run.on('state', (e) => {
  if (e.state === 'stopped' || e.state === 'error') resolve(e);
}));
await run.resume();
const s = await stopped;
const m = await run.measureNow();
console.log(JSON.stringify({ state: s.state, reason: s.reason, steps: m.steps, tokens: m.alignment?.tokens }));
run.dispose();`;
  writeFileSync(path.join(dir, 'train.mjs'), code);
  const r = sh(process.execPath, [path.join(dir, 'train.mjs')], dir);
  assert.equal(r.status, 0, r.stderr);
  const got = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.equal(got.state, 'stopped', got.reason);
  assert.match(got.reason, /maxSteps \(3\) reached/);
  assert.equal(got.steps, 3);
  assert.ok(got.tokens > 100, `measured on ${got.tokens} gold-linked French tokens`);
});

test('npx bahdanau-live translates with the packaged model; the native engine says it is not packaged', () => {
  const r = sh('npx', ['--offline', 'bahdanau-live', 'I am cold.'], dir);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.trim().length > 0);
  assert.equal(r.stdout, sh(process.execPath, [path.join(ROOT, 'scripts', 'translate.mjs'), 'I am cold.'], ROOT).stdout);
  const native = sh('npx', ['--offline', 'bahdanau-live', '--engine', 'native', 'I am cold.'], dir);
  assert.notEqual(native.status, 0);
  assert.match(native.stderr, /native engine is not in this installed package/);
});

test('the TypeScript declarations type a real use, and catch a wrong one', () => {
  const good = `import { createTranslator, type AttentionEdit, type Step, type Translation } from 'bahdanau-live';
const tr = await createTranslator({ model: 'en-fr', simd: 'auto' });
const byDefault = await createTranslator();
byDefault.dispose();
(await createTranslator({ model: null, simd: false })).dispose();
const t: Translation = tr.translate('The black cat.', { beam: 4 });
const rows: number[][] = t.attention;
for await (const s of tr.steps('The cat.', { topK: 3 })) { const a: number[] = s.alpha; const w: string = s.word; void a; void w; }
const it = tr.steps('The cat.');
const first: IteratorResult<Step> = await it.next();
const scoring: 'additive' | 'scaled_dot' | 'none' = tr.info().scoring;
const al = tr.align('The cat.', 'Le chat.');
const toks: string[] = tr.tokenize('Le chat.', { side: 'target' });
const edit: AttentionEdit = { step: 1, column: 2, hold: true };
const ed = tr.translate('The black cat.', { edits: [edit, { step: 0, weights: new Float32Array([1, 0, 0, 0, 1]) }] });
const own: number[][] = ed.ownAttention;
const rowsEdited: number[] = ed.edited;
for await (const s of tr.steps('The cat.', { edits: [edit] })) { const o: number[] | null = s.ownAlpha; const x: number[][][] | null = s.cross?.ownAlpha ?? null; void o; void x; }
tr.align('The cat.', 'Le chat.', { edits: [{ step: 1, layer: 0, head: 2, ablate: true }] });
console.log(own, rowsEdited);
console.log(rows.length, first.done, scoring, al.logProb, toks, tr.memory().heapBytes, tr.engine.variant);
tr.dispose();
`;
  const bad = `import { createTranslator } from 'bahdanau-live';
const tr = await createTranslator({ model: 'm.safetensors' });
const n: number = tr.translate(42).text;
tr.translate('x', { beam: 'wide' });
tr.translate('x', { edits: [{ step: 'two', column: 1 }] });
`;
  const tsconfig = { compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], types: [] } };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['good.mts'] }));
  writeFileSync(path.join(dir, 'good.mts'), good);
  const ok = sh(process.execPath, [TSC, '-p', '.'], dir);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: ['bad.mts'] }));
  writeFileSync(path.join(dir, 'bad.mts'), bad);
  const wrong = sh(process.execPath, [TSC, '-p', '.'], dir);
  assert.notEqual(wrong.status, 0);
  assert.match(wrong.stdout, /bad\.mts\(3,\d+\): error TS2345/); // 42 is not a string
  assert.match(wrong.stdout, /bad\.mts\(3,\d+\): error TS2322/); // string is not a number
  assert.match(wrong.stdout, /bad\.mts\(4,\d+\): error TS2(322|769)/); // beam is a number (no overload takes a string)
  assert.match(wrong.stdout, /bad\.mts\(5,\d+\): error TS2(322|769)/); // an edit's step is a number
});
