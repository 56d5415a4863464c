// scripts/train-live (scripts/lib/train-live.mjs): headless training through startTraining, its
// text and JSON reports, the model file it writes (read by scripts/translate), and exit 2 with
// the usage for bad arguments.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import { parseArgs } from '../../scripts/lib/train-live.mjs';
import { ROOT, ensureEngines, run } from './helpers.mjs';

ensureEngines();

const CLI = path.join(ROOT, 'scripts', 'train-live');
const DATA = path.join(ROOT, 'tests', 'fixtures', 'train-bundle-tiny.txt');
const dir = mkdtempSync(path.join(tmpdir(), 'bahdanau-train-live-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const trainLive = (args) => run(CLI, args, '', { timeout: 60000 });

test('--json: progress, measures with the alignment, then the model file, which scripts/translate reads', () => {
  const gold = path.join(dir, 'gold.json');
  writeFileSync(gold, JSON.stringify({ pairs: [{ en: 'The cat is black.', fr: 'Le chat est noir.', sure: [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]] }] }));
  const out = path.join(dir, 'model.safetensors');
  const r = trainLive(['--seconds', '20', '--steps', '60', '--preset', 'tiny', '--seed', '3', '--data', DATA, '--gold', gold, '--json', '--out', out]);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const progress = events.filter((e) => e.event === 'progress');
  assert.ok(progress.length >= 1);
  for (const p of progress) {
    for (const k of ['steps', 'epochs', 'seconds', 'stepsPerSecond', 'loss']) assert.equal(typeof p[k], 'number', k);
    assert.ok(Array.isArray(p.losses));
  }
  assert.equal(progress.at(-1).steps, 60);
  const measures = events.filter((e) => e.event === 'measure');
  assert.equal(measures.at(-1).steps, 60);
  assert.equal(measures.at(-1).alignment.tokens, 5);
  assert.ok(Number.isFinite(measures.at(-1).heldoutLoss));
  assert.deepEqual(events.find((e) => e.event === 'state' && e.state === 'stopped'),
    { event: 'state', state: 'stopped', reason: 'maxSteps (60) reached' });
  const done = events.at(-1);
  assert.equal(done.event, 'done');
  assert.equal(done.out, out);
  const t = run(path.join(ROOT, 'scripts', 'translate'), ['--model', out, '--json', 'The cat is black.']);
  assert.equal(t.status, 0, t.stderr);
  assert.deepEqual(JSON.parse(t.stdout).source, ['the', 'cat', 'is', 'black', '.', '</s>']);
});

test('text output: one line per report, and the model written', () => {
  const out = path.join(dir, 'text.safetensors');
  const r = trainLive(['--seconds', '20', '--steps', '20', '--preset', 'tiny', '--data', DATA, '--gold', '', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^step \d+ +[\d.]+ s +[\d.]+ steps\/s +loss [\d.]+ +epoch \d+$/m);
  assert.match(r.stdout, /measure at step 20: held-out loss [\d.]+$/m);
  assert.match(r.stdout, /^stopped: maxSteps \(20\) reached$/m);
  assert.match(r.stdout, new RegExp(`^wrote ${out.replace(/[.]/g, '\\.')} \\(\\d+ bytes\\)$`, 'm'));
});

test('a failed run exits 1 with the reason', () => {
  const bad = path.join(dir, 'bad.txt');
  writeFileSync(bad, 'hello\n');
  const r = trainLive(['--seconds', '5', '--data', bad, '--gold', '', '--out', path.join(dir, 'x')]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /^error: .*train data: line 1/m);
  const nan = trainLive(['--seconds', '20', '--lr', '1e30', '--preset', 'tiny', '--data', DATA, '--gold', '', '--out', path.join(dir, 'nan.safetensors')]);
  assert.equal(nan.status, 1);
  assert.match(nan.stdout, /^stopped: .*not finite/m);
  assert.match(nan.stdout, /^wrote /m, 'the weights before the failing step are written');
});

test('--help, and bad arguments exit 2 with the usage', () => {
  const help = trainLive(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^usage: scripts\/train-live --seconds N --out FILE/);
  for (const [args, message] of [
    [['--out', 'x'], /--seconds is required/],
    [['--seconds', '5'], /--out is required/],
    [['--seconds', 'abc', '--out', 'x'], /bad --seconds "abc"/],
    [['--seconds', '0', '--out', 'x'], /bad --seconds "0"/],
    [['--seconds', '5', '--out', 'x', '--scoring', 'dot'], /bad --scoring "dot"/],
    [['--seconds', '5', '--out', 'x', '--preset', 'huge'], /bad --preset "huge"/],
    [['--seconds', '5', '--out', 'x', '--seed', '-1'], /bad --seed "-1"/],
    [['--seconds', '5', '--out', 'x', '--steps', '1.5'], /bad --steps "1.5"/],
    [['--seconds', '5', '--out', 'x', '--lr', 'fast'], /bad --lr "fast"/],
    [['--seconds', '5', '--out', 'x', '--average', '1'], /bad --average "1": want a number in \[0, 1\)/],
    [['--seconds', '5', '--out', 'x', '--epochs', '3'], /unknown argument "--epochs"/],
    [['--seconds'], /--seconds needs a value/],
  ]) {
    const r = trainLive(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.match(r.stderr, /usage: scripts\/train-live/);
  }
  assert.deepEqual(parseArgs(['--seconds=2.5', '--out=m', '--json', '--scoring', 'none', '--seed', '7']),
    { seconds: 2.5, out: 'm', json: true, help: false, scoring: 'none', seed: 7 });
  assert.deepEqual(parseArgs(['--seconds', '1', '--out', 'm', '--average', '0']),
    { seconds: 1, out: 'm', json: false, help: false, average: 0 });
});
