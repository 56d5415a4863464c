#!/usr/bin/env node
// scripts/bench [--json] [--model FILE] [--dot-model FILE] [--beam K] [--repeat R] [--sentences N]
//               [--only engines|scoring|batch|peers|browser|train] [--peers] [--browser]
//               [--train-data FILE] [--dist DIR] [--baseline-dist DIR] [--page-preset tiny|small]
//               [--train-presets small,tiny]
//
// Translates the first N (200) distinct dev sentences with each engine in one run: wasm-simd
// and wasm-scalar through web/lib in this process, and native through its CLI reading all of
// them on stdin (one process, --json). What is timed:
//   core ms      the engine's own per-sentence timings (encode + decode, the same C++ clock
//                code in every engine; tokenization and JS marshaling excluded). Each sentence
//                runs R times, its time is the median of those; the table shows the median
//                over sentences. ms/token divides by the decoded tokens (</s> included);
//                tokens/s is 1000 / that median.
//   JS call ms   wall time of translate() as a Node caller sees it (wasm engines only).
//   instantiate  compiling and instantiating the .wasm (first use of the variant).
//   load         parsing the model bytes into a translator (wasm: in the instance; native:
//                wall time of a whole `bahdanau-translate --info` process, start-up included).
// Then the memory bound (scripts/lib/memory-bound.mjs): the decoder-step weights' bytes per
// token over a streaming read's GB/s in wasm SIMD, and each engine's ms/token against it.
// Then the scoring table (scripts/lib/scoring-bench.mjs): attention's scoring per decoder step,
// --model (additive) against --dot-model (scaled dot), at source lengths 5, 20 and 60.
// Then the batched table (scripts/lib/batch-bench.mjs): translateBatch() throughput in
// wasm-simd at batch sizes 1, 8 and 32 on the same sentences, and the ratio of 32 to 1.
// --peers adds the peer table (scripts/lib/peer-bench.mjs): onnxruntime-web on the same
// weights and sentences, greedy, interleaved with wasm-simd in this process, and the ratios;
// --only peers runs that table alone. Its ONNX graphs are exported to build/onnx/ if missing.
// --browser adds the browser table (scripts/lib/browser-bench.mjs): the engines as the page runs
// them, in headless Chromium, where relaxed SIMD runs (wasm-relaxed against wasm-simd and
// wasm-scalar), with the peer beside them when --peers is given too.
// --only train runs the training table alone (scripts/lib/train-throughput.mjs): the core's
// trainer in wasm-simd and wasm-scalar against PyTorch on one thread, the same model, data
// file and batches, interleaved, medians of steps/s and the ratios (issue 25), once per size:
// the model (small) and the page's default (tiny), since the ratio depends on the size
// (docs/training-core.md, "Both sizes"); then the "Train
// it yourself" page's rows (scripts/lib/train-page-bench.mjs, where that file exists).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createTranslator } from '../web/lib/bahdanau.js';
import { devSentences } from './lib/dev-sentences.mjs';
import { DEFAULT_MODEL, NATIVE_CLI, ROOT, ensureBuilt } from './lib/engines.mjs';
import { batchTable, benchBatched } from './lib/batch-bench.mjs';
import { benchMemoryBound, memoryBoundTable } from './lib/memory-bound.mjs';
import { benchScoring, scoringTable } from './lib/scoring-bench.mjs';
import { benchPeers, peersTable } from './lib/peer-bench.mjs';
import { benchBrowser, browserTable } from './lib/browser-bench.mjs';
import { benchTrainThroughput, trainThroughputTable } from './lib/train-throughput.mjs';
import { TRAIN_PRESETS } from '../web/lib/training.js';
import { DEFAULT_PRESET, PRESETS } from '../web/train/controls.js';
import { median } from './lib/median.mjs';

const DEFAULT_DOT_MODEL = `${ROOT}models/en-fr-dot.safetensors`;

const USAGE = 'usage: scripts/bench [--json] [--model FILE] [--dot-model FILE] [--beam K] ' +
  '[--repeat R] [--sentences N] [--only engines|scoring|batch|peers|browser|train] [--peers] [--browser] ' +
  '[--train-data FILE] [--dist DIR] [--baseline-dist DIR] [--page-preset tiny|small] ' +
  '[--train-presets small,tiny]\n';
const HELP = `${USAGE}
Times the engines on the first N (200) distinct dev sentences, each R (3) times, medians:
  the engines table   wasm-simd, wasm-scalar and native on --model (default models/en-fr.safetensors)
  the scoring table   attention's scoring per step, --model (additive) against --dot-model
  the batched table   translateBatch() throughput in wasm-simd at B = 1, 8 and 32
  --peers             adds the peer table: onnxruntime-web (npm devDependency; wasm, 1 thread,
                      SIMD) on the same weights (int8 dequantized, run in f32) and sentences,
                      greedy, interleaved with wasm-simd in this process: ms per output token,
                      ours / peer, ours alone beside it, and how many sentences' tokens differ.
                      Exports and checks its ONNX graphs into build/onnx/ when missing
                      (scripts/export-onnx; Debian's python3-onnx).
  --browser           adds the browser table: wasm-relaxed (the page's engine where relaxed SIMD
                      runs), wasm-simd and wasm-scalar in headless Chromium (scripts/setup
                      browser), each in turn on each sentence, greedy; with --peers,
                      onnxruntime-web in the same page too
  --only T            just that table (--only peers: the peer table alone; --only browser: the
                      browser table alone, with the peer if --peers)
  --only train        the training tables alone: createTrainer in wasm-relaxed (relaxed SIMD's
                      fused multiply-add, as browsers with relaxed SIMD train; Node 20 behind
                      a V8 flag, which the bench sets), wasm-simd and wasm-scalar
                      against PyTorch (1 thread, f32) on the same model, once per size of
                      --train-presets (the issue's model, small: cgru, additive, 64/128/128/128;
                      the page's default, tiny: 32/64/64/32), the same --train-data file
                      (default web/data/train-en-fr.bin; scripts/train-data writes it), the same
                      batches (32) in the same order, the page's recipe (lr 5e-3, decayed
                      after 1,000 steps): R rounds (--repeat, at least 21) of 5 steps
                      each, interleaved, medians of steps/s and the ratios; then the page's rows
                      (scripts/lib/train-page-bench.mjs) when that file exists
  --page-preset P     (--only train) the size the page's rows train for their 3 minutes:
                      tiny (the page's default) or small
  --train-presets L   (--only train) the sizes whose throughput is measured, in order
                      (default small,tiny)
  --dist DIR          (--only train) the folder of bahdanau-{simd,scalar}.{js,wasm} to train
                      with (default web/dist)
  --baseline-dist DIR (--only train) another build's folder (say web/dist as it was before a
                      change, copied aside), whose trainers run in the same interleaved rounds
                      as rows "(baseline)", with each one's ratio to it: an engine change
                      measured against the engine before it in one run
  --json              the results as JSON instead of tables
`;

function parseArgs(argv) {
  const o = { json: false, model: DEFAULT_MODEL, dotModel: DEFAULT_DOT_MODEL, beam: 1, repeat: 3,
    sentences: 200, only: null, peers: false, browser: false, trainData: null, dist: null, pagePreset: DEFAULT_PRESET,
    trainPresets: ['small', 'tiny'] };
  // A comma list of train.html's sizes, else null.
  const presets = (value) => {
    const names = String(value ?? '').split(',');
    return names.every((n) => PRESETS.includes(n)) ? [...new Set(names)] : null;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(HELP);
      process.exit(0);
    } else if (a === '--json') o.json = true;
    else if (a === '--model') o.model = argv[++i];
    else if (a === '--dot-model') o.dotModel = argv[++i];
    else if (a === '--peers') o.peers = true;
    else if (a === '--browser') o.browser = true;
    else if (a === '--only' && ['engines', 'scoring', 'batch', 'peers', 'browser', 'train'].includes(argv[i + 1])) o.only = argv[++i];
    else if (a === '--train-data') o.trainData = argv[++i];
    else if (a === '--dist') o.dist = argv[++i];
    else if (a === '--baseline-dist' && argv[i + 1] && !argv[i + 1].startsWith('--')) o.baselineDist = argv[++i];
    else if (a === '--page-preset' && PRESETS.includes(argv[i + 1])) o.pagePreset = argv[++i];
    else if (a === '--train-presets' && presets(argv[i + 1])) o.trainPresets = presets(argv[++i]);
    else if (['--beam', '--repeat', '--sentences'].includes(a)) o[a.slice(2)] = Number(argv[++i]);
    else {
      process.stderr.write(USAGE);
      process.exit(2);
    }
  }
  if (o.baselineDist && o.only !== 'train') {
    process.stderr.write(`bench: --baseline-dist is for --only train\n${USAGE}`);
    process.exit(2);
  }
  if (o.only === 'train') {
    o.trainData ??= `${ROOT}web/data/train-en-fr.bin`;
    if (!existsSync(o.trainData)) {
      process.stderr.write(`bench: no training data at ${o.trainData} (scripts/train-data writes ` +
        'it; or pass --train-data FILE)\n');
      process.exit(1);
    }
    for (const [flag, dir] of [['--dist', o.dist], ['--baseline-dist', o.baselineDist]]) {
      for (const f of ['bahdanau-simd.wasm', 'bahdanau-scalar.wasm']) {
        if (dir && !existsSync(`${dir}/${f}`)) {
          process.stderr.write(`bench: no ${f} in ${flag} ${dir}\n`);
          process.exit(1);
        }
      }
    }
    if (o.baselineDist && path.resolve(o.baselineDist) === path.resolve(o.dist ?? `${ROOT}web/dist`)) {
      process.stderr.write(`bench: --baseline-dist ${o.baselineDist} is the build under test itself ` +
        '(--dist, default web/dist): copy the baseline aside\n');
      process.exit(1);
    }
    return o;
  }
  for (const [flag, file] of [['--model', o.model], ['--dot-model', o.dotModel]]) {
    if (flag === '--dot-model' && ['engines', 'batch', 'peers', 'browser'].includes(o.only)) continue;
    if (!existsSync(file)) {
      process.stderr.write(`bench: no model at ${file} (pass ${flag} FILE, e.g. ` +
        `tests/fixtures/tiny-${flag === '--model' ? 'additive' : 'scaled_dot'}-int8.safetensors)\n`);
      process.exit(1);
    }
  }
  if (o.only === 'peers') o.peers = true;
  if (o.only === 'browser') o.browser = true;
  if (o.peers && o.beam !== 1) {
    process.stderr.write('bench: --peers decodes greedily (beam 1): the peer has no beam search\n');
    process.exit(2);
  }
  if (o.browser && o.beam !== 1) {
    process.stderr.write('bench: --browser decodes greedily (beam 1)\n');
    process.exit(2);
  }
  return o;
}

const decoded = (r) => r.targetTokens.length + (r.truncated ? 0 : 1);

function summarize(perSentence, extra) {
  return {
    msPerSentence: median(perSentence.map((s) => s.ms)),
    msPerToken: median(perSentence.map((s) => s.ms / s.tokens)),
    tokensPerSecond: 1000 / median(perSentence.map((s) => s.ms / s.tokens)),
    ...extra,
  };
}

async function benchWasm(variant, o, bytes, sentences) {
  const tr = await createTranslator({ model: bytes, simd: variant === 'wasm-simd' });
  for (const s of sentences.slice(0, 30)) tr.translate(s, { beam: o.beam }); // let V8 tier up
  const per = [];
  const calls = [];
  for (const s of sentences) {
    const core = [];
    let tokens = 0;
    for (let k = 0; k < o.repeat; k++) {
      const t0 = performance.now();
      const r = tr.translate(s, { beam: o.beam });
      calls.push(performance.now() - t0);
      core.push(r.timings.encodeMs + r.timings.decodeMs);
      tokens = decoded(r);
    }
    if (tokens) per.push({ ms: median(core), tokens });
  }
  const out = summarize(per, {
    jsCallMs: median(calls),
    instantiateMs: tr.engine.instantiateMs,
    loadMs: tr.engine.loadMs,
    kernels: tr.info().kernels,
  });
  tr.dispose();
  return out;
}

function benchNative(o, sentences) {
  const t0 = performance.now();
  const info = spawnSync(NATIVE_CLI, ['--model', o.model, '--info'], { encoding: 'utf8' });
  const loadMs = performance.now() - t0;
  if (info.status !== 0) throw new Error(`native --info failed: ${info.stderr}`);
  const input = `${Array.from({ length: o.repeat }, () => sentences.join('\n')).join('\n')}\n`;
  const t1 = performance.now();
  const r = spawnSync(NATIVE_CLI, ['--model', o.model, '--json', '--beam', String(o.beam)], {
    input, encoding: 'utf8', maxBuffer: 1 << 30,
  });
  const wallMs = performance.now() - t1;
  if (r.status !== 0) throw new Error(`native CLI failed: ${r.stderr}`);
  const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  const per = sentences.map((_, i) => {
    const runs = Array.from({ length: o.repeat }, (_, k) => lines[k * sentences.length + i]);
    const ms = median(runs.map((j) => j.timings.encode_ms + j.timings.decode_ms));
    return { ms, tokens: j2tokens(runs[0]) };
  }).filter((s) => s.tokens);
  return summarize(per, { jsCallMs: null, instantiateMs: null, loadMs, wholeRunMs: wallMs,
    kernels: JSON.parse(info.stdout).kernels });
}

const j2tokens = (j) => (j.target ? j.target.length + (j.truncated ? 0 : 1) : 0);

function table(result) {
  const f = (x, d = 3) => (x === null || x === undefined ? '–' : x.toFixed(d));
  const rows = [['engine', 'kernels', 'instantiate ms', 'load ms', 'core ms/sentence',
    'ms/token', 'tokens/s', 'JS call ms/sentence']];
  for (const [name, e] of Object.entries(result.engines)) {
    rows.push([name, e.kernels, f(e.instantiateMs, 1), f(e.loadMs, 1), f(e.msPerSentence),
      f(e.msPerToken, 4), f(e.tokensPerSecond, 0), f(e.jsCallMs)]);
  }
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const lines = rows.map((r) => r.map((x, c) => (c < 2 ? String(x).padEnd(w[c]) : String(x).padStart(w[c]))).join('  '));
  const m = result.model;
  return [
    `bahdanau-live bench: ${result.sentences} dev sentences, beam ${result.beam}, median of ${result.repeat} runs each`,
    `model ${m.path} (${m.dtype}, ${m.scoring}, ${m.numParams} parameters, ${m.fileBytes} bytes)`,
    '',
    ...lines,
    '',
    `wasm-simd / wasm-scalar per decoded token: ${f(result.ratios.simdOverScalar)}  ` +
      `(SIMD ${f(1 / result.ratios.simdOverScalar, 2)}x faster)`,
    `wasm-simd / native per decoded token:      ${f(result.ratios.simdOverNative)}`,
    `native whole run (${result.sentences * result.repeat} lines on stdin, one process): ` +
      `${f(result.engines.native.wholeRunMs, 0)} ms`,
    'core ms = the engines\' own encode+decode timings (tokenization, JS marshaling excluded); ' +
      'JS call = translate() wall time in Node; native load = a whole --info process.',
  ].join('\n');
}

// The training tables, one per size of o.trainPresets ({small: r, tiny: r} under result.train),
// then the page's rows where scripts/lib/train-page-bench.mjs exists (it exports
// trainPageRows(options) -> [{what, goal, measured}]).
async function trainTables(o) {
  const result = { train: {} };
  for (const preset of o.trainPresets) {
    result.train[preset] = await benchTrainThroughput({ data: o.trainData, dist: o.dist ?? undefined,
      baselineDist: o.baselineDist ?? undefined, config: TRAIN_PRESETS[preset],
      // 21 rounds at least: PyTorch's rate swings from 13 to 27 steps/s between rounds of 5 steps
      // (ours stays within 10%), so 5 rounds gave medians from 17.9 to 20.7 in runs minutes apart.
      rounds: Math.max(21, o.repeat) });
  }
  const pageBench = new URL('./lib/train-page-bench.mjs', import.meta.url);
  if (existsSync(pageBench)) {
    const { trainPageRows } = await import(pageBench);
    result.trainPage = await trainPageRows({ data: o.trainData, dist: o.dist ?? undefined, preset: o.pagePreset });
  }
  return result;
}

// "small preset, the model" (the feasibility model), "tiny preset, the page's default size".
function presetLabel(preset) {
  const roles = [preset === 'small' && "the issue's model", preset === DEFAULT_PRESET && "the page's default size"];
  return [`${preset} preset`, ...roles.filter(Boolean)].join(', ');
}

function trainPageTable(rows) {
  const w = Math.max(4, ...rows.map((r) => String(r.what).length));
  const g = Math.max(4, ...rows.map((r) => String(r.goal).length));
  return ['"Train it yourself" page', '',
    `${'what'.padEnd(w)}  ${'goal'.padEnd(g)}  measured`,
    ...rows.map((r) => `${String(r.what).padEnd(w)}  ${String(r.goal).padEnd(g)}  ${r.measured}`)].join('\n');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (o.only === 'train') {
    if (!o.dist) ensureBuilt('wasm-simd');
    const result = await trainTables(o);
    if (o.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const parts = Object.entries(result.train).map(([preset, r]) =>
      trainThroughputTable(r, presetLabel(preset)));
    if (result.trainPage) parts.push(trainPageTable(result.trainPage));
    process.stdout.write(`${parts.join('\n\n')}\n`);
    return;
  }
  ensureBuilt('wasm-simd');
  const sentences = devSentences(o.sentences);
  const bytes = readFileSync(o.model);
  const result = {};
  if (o.only === null || o.only === 'engines') {
    ensureBuilt('native');
    const engines = {};
    for (const v of ['wasm-simd', 'wasm-scalar']) engines[v] = await benchWasm(v, o, bytes, sentences);
    engines.native = benchNative(o, sentences);
    const probe = await createTranslator({ model: bytes });
    const info = probe.info();
    probe.dispose();
    Object.assign(result, {
      model: { path: o.model, dtype: info.dtype, scoring: info.scoring, numParams: info.numParams,
        fileBytes: info.fileBytes },
      sentences: sentences.length, beam: o.beam, repeat: o.repeat, engines,
      ratios: {
        simdOverScalar: engines['wasm-simd'].msPerToken / engines['wasm-scalar'].msPerToken,
        simdOverNative: engines['wasm-simd'].msPerToken / engines.native.msPerToken,
      },
    });
    result.memoryBound = await benchMemoryBound(bytes, engines);
  }
  if (o.only === null || o.only === 'scoring') {
    result.scoring = await benchScoring({ additive: bytes, dot: readFileSync(o.dotModel) }, sentences);
    result.scoring.models = { additive: o.model, dot: o.dotModel };
  }
  if (o.only === null || o.only === 'batch') {
    result.batch = await benchBatched(bytes, sentences, { repeat: o.repeat });
  }
  if (o.peers && o.only !== 'browser') {
    result.peers = await benchPeers(o, bytes, sentences);
  }
  if (o.browser) {
    result.browser = await benchBrowser(o, sentences, { peers: o.peers });
  }
  if (o.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const parts = [];
  if (result.engines) parts.push(table(result));
  if (result.memoryBound) parts.push(memoryBoundTable(result.memoryBound));
  if (result.scoring) parts.push(scoringTable(result.scoring));
  if (result.batch) parts.push(batchTable(result.batch));
  if (result.peers) parts.push(peersTable(result.peers));
  if (result.browser) parts.push(browserTable(result.browser, result.memoryBound?.boundMs));
  process.stdout.write(`${parts.join('\n\n')}\n`);
}

main().catch((e) => {
  process.stderr.write(`bench: ${e.stack || e}\n`);
  process.exitCode = 1;
});
