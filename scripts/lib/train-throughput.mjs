// Training throughput (issue 25): the core's trainer in wasm, both variants, against PyTorch on
// one thread, on the same model, the same data file, the same batches in the same order and
// the same settings, measured in one run and interleaved, so that a busy machine slows all
// three alike.
//
//   import { benchTrainThroughput, trainThroughputTable } from './lib/train-throughput.mjs';
//   const r = await benchTrainThroughput({ data: 'web/data/train-en-fr.bin' });
//   console.log(trainThroughputTable(r));
//
// Ours: web/lib/trainer.js createTrainer from `dist` (a folder of bahdanau-{simd,scalar}.{js,wasm}
// and bahdanau-relaxed-gemm.wasm; web/dist by default), step(n) timed around the call:
// wasm-relaxed (relaxed SIMD's fused multiply-add, what a browser with relaxed SIMD trains with;
// Node 20 runs it behind a V8 flag, which this module sets), wasm-simd (relaxed: false) and
// wasm-scalar.
// PyTorch: scripts/nmt/train_throughput.py --serve in a child process (torch.set_num_threads(1)
// and OPENBLAS_NUM_THREADS=1, f32, bl::BatchSampler's shuffle reproduced, the same clip and
// Adam), each step timed in Python from its batch's collation to Adam's update. Each round makes `steps` steps on each
// trainer in turn, starting with a different one each round; a round's rate is steps / its
// seconds, and the table gives the median over rounds, after `warm` untimed steps each.
import { spawn } from 'node:child_process';
import v8 from 'node:v8';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { createTrainer } from '../../web/lib/trainer.js';
import { TRAIN_PRESETS } from '../../web/lib/training.js';
import { ROOT } from './engines.mjs';
import { median } from './median.mjs';

// The PyTorch trainer as a child answering "n" with n steps' timings (one JSON line each).
function startTorch({ data, batchSize, lr, lrDecaySteps, average, clip, seed, config, python }) {
  const child = spawn(python, ['-m', 'nmt.train_throughput', '--data', data, '--batch',
    String(batchSize), '--lr', String(lr), '--lr-decay-steps', String(lrDecaySteps), '--average', String(average),
    '--clip', String(clip), '--seed', String(seed),
    '--config', JSON.stringify(config), '--serve'], {
    cwd: path.join(ROOT, 'scripts'), stdio: ['pipe', 'pipe', 'inherit'],
    // One thread means one: torch.set_num_threads(1) holds ATen's OpenMP pool, but Debian's
    // torch does its matrix products in OpenBLAS (BLAS_INFO=generic, libopenblas0-pthread),
    // whose own pool starts a thread per core unless told. Measured here: 10 steps/s with
    // its default beside a busy core, 17.7 with one thread.
    env: { ...process.env, OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' },
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const failed = new Promise((_, reject) => {
    child.on('exit', (code) => reject(new Error(`train-throughput: PyTorch exited with ${code}`)));
    child.on('error', reject);
  });
  failed.catch(() => {});
  const read = async () => {
    const { value, done } = await Promise.race([lines.next(), failed]);
    if (done) throw new Error('train-throughput: PyTorch closed its output');
    return JSON.parse(value);
  };
  return {
    ready: read,
    async steps(n) {
      child.stdin.write(`${n}\n`);
      return read();
    },
    close() {
      child.stdin.end();
      child.kill();
    },
  };
}

// Relaxed SIMD in Node 20: behind this flag, which takes effect for modules compiled after it
// (Chromium has it on by default). Set before the first trainer loads.
function enableRelaxedSimd() {
  v8.setFlagsFromString('--experimental-wasm-relaxed-simd');
}

// The ratios of rows' median steps/s -> {relaxedOverTorch?, simdOverTorch?, scalarOverTorch?,
// overBaseline?: {what: ratio}, noBaseline?: [what]}: ours over PyTorch's where it ran
// (relaxedOverTorch where the fused product runs), each trainer over the same one of a baseline
// build ("<what> (baseline)") where both ran, and the trainers that ran on one side only, say a
// build that lost the fused product: a comparison that silently left them out would hide that.
export function throughputRatios(rows) {
  const rate = (what) => rows.find((r) => r.what === what)?.stepsPerSec;
  const BASE = ' (baseline)';
  const overBaseline = {};
  const noBaseline = [];
  if (rows.some((r) => r.what.endsWith(BASE))) {
    for (const what of new Set(rows.map((r) => r.what.replace(BASE, '')))) {
      if (what === 'pytorch') continue;
      const ours = rate(what), theirs = rate(`${what}${BASE}`);
      if (ours !== undefined && theirs) overBaseline[what] = ours / theirs;
      else noBaseline.push(what);
    }
  }
  return {
    ...(rate('pytorch') ? {
      ...(rate('wasm-relaxed') ? { relaxedOverTorch: rate('wasm-relaxed') / rate('pytorch') } : {}),
      simdOverTorch: rate('wasm-simd') / rate('pytorch'),
      scalarOverTorch: rate('wasm-scalar') / rate('pytorch') } : {}),
    ...(Object.keys(overBaseline).length ? { overBaseline } : {}),
    ...(noBaseline.length ? { noBaseline } : {}),
  };
}

// -> {settings, load, rows: [{what, stepsPerSec (median), rounds: [steps/s], lastLoss}],
//     ratios: throughputRatios(rows)}
export async function benchTrainThroughput({
  data = path.join(ROOT, 'web', 'data', 'train-en-fr.bin'), dist, rounds = 7, steps = 5, warm = 3,
  // The "Train it yourself" page's small model and its recipe (TRAIN_PRESETS.small, the issue's
  // model; createTrainer's defaults, src/wasm/trainer.cpp).
  batchSize = 32, lr = 5e-3, lrDecaySteps = 1000, average = 0.998, clip = 1, seed = 1, config = TRAIN_PRESETS.small,
  python = '/usr/bin/python3',
  torch = true, baselineDist,
} = {}) {
  const loadBefore = os.loadavg()[0];
  data = path.resolve(data); // the PyTorch child runs in scripts/
  let bytes = new Uint8Array(readFileSync(data));
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = new Uint8Array(gunzipSync(bytes));
  const distUrl = dist ? pathToFileURL(path.resolve(dist) + path.sep) : undefined;
  const settings = { lr, lrDecaySteps, average, clip, batchSize, seed };
  const ours = {};
  // baselineDist: another build's folder (e.g. the engine before a change), trained in the same
  // rounds, as rows "<variant> (baseline)".
  const dists = [[distUrl, '']];
  if (baselineDist) dists.push([pathToFileURL(path.resolve(baselineDist) + path.sep), ' (baseline)']);
  enableRelaxedSimd();
  for (const [url, suffix] of dists) {
    for (const [simd, relaxed] of [[true, 'auto'], [true, false], [false, false]]) {
      const tr = await createTrainer({ data: bytes, config, ...settings, simd, relaxed, dist: url });
      // 'auto' where the fused product does not run (an engine built before it, a CPU or
      // engine that rounds twice) is the wasm-simd row again: not measured twice.
      const what = (tr.engine.kernels === 'wasm-relaxed' ? 'wasm-relaxed' : tr.engine.variant) + suffix;
      if (ours[what]) tr.dispose();
      else ours[what] = tr;
    }
  }
  const runners = Object.entries(ours).map(([what, tr]) => ({
    what,
    async run(n) {
      const t0 = performance.now();
      const { losses } = tr.step(n);
      return { secs: (performance.now() - t0) / 1000, loss: losses.at(-1) };
    },
    close: () => tr.dispose(),
  }));
  if (torch) {
    const py = startTorch({ data, batchSize, lr, lrDecaySteps, average, clip, seed, config, python });
    await py.ready();
    runners.push({
      what: 'pytorch',
      async run(n) {
        const r = await py.steps(n);
        return { secs: r.secs.reduce((a, b) => a + b, 0), loss: r.losses.at(-1), torch: r.torch };
      },
      close: () => py.close(),
    });
  }
  const rates = Object.fromEntries(runners.map((r) => [r.what, []]));
  const last = {};
  try {
    for (const r of runners) await r.run(warm);
    for (let k = 0; k < rounds; k++) {
      for (let i = 0; i < runners.length; i++) {
        const r = runners[(i + k) % runners.length];
        const { secs, loss, torch: version } = await r.run(steps);
        rates[r.what].push(steps / secs);
        last[r.what] = { loss, version };
      }
    }
  } finally {
    for (const r of runners) r.close();
  }
  const rows = runners.map(({ what }) => ({
    what, stepsPerSec: median(rates[what]), rounds: rates[what], lastLoss: last[what].loss,
    ...(last[what].version ? { torch: last[what].version } : {}),
  }));
  return {
    settings: { data, dist: dist ?? 'web/dist', baselineDist, batchSize, lr, lrDecaySteps, average, clip, seed, config, rounds, steps, warm,
      stepsTotal: warm + rounds * steps },
    load: { before: loadBefore, after: os.loadavg()[0], cpus: os.cpus().length },
    rows,
    ratios: throughputRatios(rows),
  };
}

// label: which model this is, e.g. "small preset, the issue's model" (the config is printed too).
export function trainThroughputTable(r, label) {
  const s = r.settings;
  const lines = [
    `Training throughput (issue 25)${label ? `, ${label}` : ''}: model ${JSON.stringify(s.config)}, batch ${s.batchSize}, ` +
      `lr ${s.lr} (decay after ${s.lrDecaySteps} steps), weights averaged at ${s.average} (an engine built before the average ignores it), clip ${s.clip}, ` +
      `${s.rounds} rounds of ${s.steps} steps each, interleaved, after ${s.warm} warm-up steps; ` +
      `load (1-min average) ${r.load.before.toFixed(2)} at the start, ${r.load.after.toFixed(2)} at the end, ` +
      `on ${r.load.cpus} CPUs`,
    `data ${path.relative(ROOT, path.resolve(s.data))}, engines from ${s.dist}` +
      (s.baselineDist ? `, baseline from ${s.baselineDist}` : ''),
    '',
  ];
  const rounds = r.rows.map((row) => row.rounds.map((x) => x.toFixed(1)).join(' '));
  const width = Math.max(18, ...rounds.map((x) => x.length)) + 2;
  lines.push(`${'trainer'.padEnd(24)}steps/s (median)   ${'rounds (steps/s)'.padEnd(width)}loss after`);
  for (const [i, row] of r.rows.entries()) {
    const name = row.what === 'pytorch' ? `pytorch ${row.torch ?? ''}`.trim() : row.what;
    lines.push(`${name.padEnd(24)}${row.stepsPerSec.toFixed(2).padStart(8)}           ` +
      `${rounds[i].padEnd(width)}${row.lastLoss.toFixed(4)}`);
  }
  if (r.ratios.simdOverTorch !== undefined) {
    const relaxed = r.ratios.relaxedOverTorch;
    lines.push('', (relaxed !== undefined ? `wasm-relaxed / pytorch ${relaxed.toFixed(2)}x, ` : '') +
      `wasm-simd / pytorch ${r.ratios.simdOverTorch.toFixed(2)}x, ` +
      `wasm-scalar / pytorch ${r.ratios.scalarOverTorch.toFixed(2)}x (goal: 1.5x, at least 1x)`);
  }
  const overBaseline = Object.entries(r.ratios.overBaseline ?? {});
  const noBaseline = r.ratios.noBaseline ?? [];
  if (overBaseline.length || noBaseline.length) {
    lines.push('', `this build / its baseline: ${[
      ...overBaseline.map(([what, x]) => `${what} ${x.toFixed(2)}x`),
      ...noBaseline.map((what) => `${what} on one side only`)].join(', ')}`);
  }
  return lines.join('\n');
}
