// scripts/train-live: a fresh model trained headless with startTraining (web/lib/training.js),
// in a worker_threads Worker as the page trains in a Web Worker, from the bundled data unless
// told otherwise. It reports as it goes, and writes the weights' moving average (what the page
// measures and translates with) as an f32 model file.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { TRAIN_PRESETS, startTraining } from '../../web/lib/bahdanau.js';
import { ensureBuilt } from './engines.mjs';

export const USAGE = `usage: scripts/train-live --seconds N --out FILE [--json] [--scoring S] [--preset P]
                          [--seed N] [--steps N] [--lr X] [--average X] [--data FILE] [--gold FILE]

Trains a fresh model as the "Train it yourself" page does, in a worker thread, and writes it to
FILE (an f32 model file: scripts/translate --model FILE reads it). The held-out loss, the
alignment and FILE are those of the weights' moving average, as on the page.
  --seconds N   training time, pauses for measuring left out (a positive number; required)
  --out FILE    where the model goes (required)
  --json        one JSON object a line: {"event": "progress" | "measure" | "state" | "done", ...}
  --scoring S   additive (default), scaled_dot or none
  --preset P    small (default: emb 64, hidden 128, attn 128) or tiny (32, 64, 32)
  --seed N      the weights, the dropout masks and the batches' order (default 1)
  --steps N     stop after N steps too
  --lr X        Adam's learning rate (default 5e-3, decayed as 1/sqrt(t) after 1,000 steps)
  --average X   the decay of the weights' moving average, in [0, 1) (default 0.998; 0: none,
                so the measures and FILE are the last step's weights)
  --data FILE   the training data (default web/data/train-en-fr.bin)
  --gold FILE   gold alignments to measure (default web/data/train-en-fr-gold.json; '' for none)
  --help        print this and exit
Exit status: 0 when it trained to its limit, 1 when training failed (the reason is printed;
a non-finite loss still writes the weights it had before that step), 2 for bad arguments.`;

const VALUE_FLAGS = ['--seconds', '--out', '--scoring', '--preset', '--seed', '--steps', '--lr', '--average', '--data', '--gold'];
const SCORINGS = ['additive', 'scaled_dot', 'none'];

// -> {seconds, out, json, scoring, preset, seed, steps, lr, average, data, gold, help}. Throws an Error
// whose message says what is wrong with argv.
export function parseArgs(argv) {
  const o = { json: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') o.help = true;
    else if (a === '--json') o.json = true;
    else {
      const flag = VALUE_FLAGS.find((f) => a === f || a.startsWith(`${f}=`));
      if (!flag) throw new Error(`unknown argument ${JSON.stringify(a)}`);
      const text = a === flag ? argv[++i] : a.slice(flag.length + 1);
      if (text === undefined) throw new Error(`${flag} needs a value`);
      o[flag.slice(2)] = text;
    }
  }
  if (o.help) return o;
  if (o.seconds === undefined) throw new Error('--seconds is required');
  if (o.out === undefined || o.out === '') throw new Error('--out is required');
  o.seconds = number(o.seconds, '--seconds', (x) => x > 0 && x <= 86400, 'a number of seconds in (0, 86400]');
  if (o.scoring !== undefined && !SCORINGS.includes(o.scoring)) {
    throw new Error(`bad --scoring ${JSON.stringify(o.scoring)}: want ${SCORINGS.join(', ')}`);
  }
  if (o.preset !== undefined && !Object.hasOwn(TRAIN_PRESETS, o.preset)) {
    throw new Error(`bad --preset ${JSON.stringify(o.preset)}: want ${Object.keys(TRAIN_PRESETS).join(' or ')}`);
  }
  if (o.seed !== undefined) o.seed = integer(o.seed, '--seed', 0);
  if (o.steps !== undefined) o.steps = integer(o.steps, '--steps', 1);
  if (o.lr !== undefined) o.lr = number(o.lr, '--lr', (x) => x > 0, 'a positive number');
  if (o.average !== undefined) o.average = number(o.average, '--average', (x) => x >= 0 && x < 1, 'a number in [0, 1)');
  return o;
}

function number(text, flag, ok, want) {
  const x = /^[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?$/i.test(text) ? Number(text) : NaN;
  if (!(Number.isFinite(x) && ok(x))) throw new Error(`bad ${flag} ${JSON.stringify(text)}: want ${want}`);
  return x;
}

function integer(text, flag, lo) {
  const x = /^[0-9]{1,15}$/.test(text) ? Number(text) : NaN;
  if (!(x >= lo)) throw new Error(`bad ${flag} ${JSON.stringify(text)}: want an integer from ${lo}`);
  return x;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;

// -> Promise<exit status>. write(line) prints one line.
export async function trainLive(args, write = (line) => process.stdout.write(`${line}\n`)) {
  const emit = (event, fields, text) => write(args.json ? JSON.stringify({ event, ...fields }) : text);
  const run = startTraining({
    ...(args.data !== undefined ? { data: args.data } : {}),
    gold: args.gold === undefined ? true : args.gold === '' ? false : args.gold,
    ...(args.scoring ? { scoring: args.scoring } : {}),
    ...(args.preset ? { preset: args.preset } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.lr !== undefined ? { lr: args.lr } : {}),
    ...(args.average !== undefined ? { average: args.average } : {}),
    ...(args.steps !== undefined ? { maxSteps: args.steps } : {}),
    maxSeconds: args.seconds,
    reportMs: 1000,
  });
  const measureLine = (m) => {
    const a = m.alignment;
    emit('measure', { steps: m.steps, seconds: m.seconds, heldoutLoss: m.heldoutLoss, alignment: a },
      `  measure at step ${m.steps}: held-out loss ${m.heldoutLoss?.toFixed(3) ?? 'n/a'}` +
      (a ? `, alignment ${pct(a.accuracy)} (off-diagonal ${pct(a.offDiagonal)}; diagonal ${pct(a.diagonal)}, ${a.tokens} tokens)` : ''));
  };
  run.on('progress', (p) => emit('progress', p, `step ${p.steps}  ${p.seconds.toFixed(1)} s  ` +
    `${p.stepsPerSecond.toFixed(2)} steps/s  loss ${p.loss.toFixed(3)}  epoch ${p.epochs}`));
  run.on('measure', measureLine);
  const end = new Promise((resolve) => {
    const off = run.on('state', (s) => {
      if (s.state !== 'loading') emit('state', s, `${s.state}${s.reason ? `: ${s.reason}` : ''}`);
      if (s.state === 'stopped' || s.state === 'error') {
        off(); // dispose()'s own 'stopped' below is not news
        resolve(s);
      }
    });
  });
  const final = await end;
  if (final.state === 'error') {
    run.dispose();
    return 1;
  }
  try {
    measureLine(await run.measureNow());
    const file = await run.snapshot();
    writeFileSync(args.out, file);
    emit('done', { out: args.out, bytes: file.byteLength, reason: final.reason },
      `wrote ${args.out} (${file.byteLength} bytes)`);
  } finally {
    run.dispose();
  }
  return /reached$/.test(final.reason ?? '') ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`train-live: ${e.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    process.exit(0);
  }
  ensureBuilt('wasm-simd');
  trainLive(args).then((code) => process.exit(code), (e) => {
    console.error(`train-live: ${e.message}`);
    process.exit(1);
  });
}
