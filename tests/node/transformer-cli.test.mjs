// Both CLIs on the tiny Transformer beyond cli.test.mjs's modes: --force and --force-tsv
// (forced decoding), --batch (a Transformer decodes one text at a time inside the batch call:
// the output must still equal line-by-line decoding) and --info's Transformer fields; the
// native and the Node CLI print the same bytes (timings masked).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixture, fixturePath, maskTimings, nativeCli, nodeCli } from './helpers.mjs';

const MODEL = fixturePath('tiny-transformer-f32.safetensors');
const LINES = 'The black cat is sleeping.\nI am cold.\n\nTom likes the white dog.\n';

function both(args, stdin) {
  const want = nativeCli(['--model', MODEL, ...args], stdin);
  const got = nodeCli(['--model', MODEL, ...args], stdin);
  assert.equal(got.status, want.status, `exit status; stderr: ${got.stderr}`);
  assert.equal(maskTimings(got.stdout), maskTimings(want.stdout));
  return want;
}

test('--info names the Transformer', () => {
  const info = JSON.parse(both(['--info']).stdout);
  assert.equal(info.arch, 'transformer');
  assert.deepEqual([info.enc_layers, info.dec_layers, info.heads, info.d_model, info.ffn], [2, 2, 3, 12, 16]);
});

test('--force: the reference forced decoding, on both CLIs', () => {
  const c = fixture('tiny-transformer-f32').cases.find((x) => x.force?.steps?.length > 2);
  const r = both(['--json', '--force', c.force.target, c.text]);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.target, c.force.tgt_tokens);
  assert.ok(Math.abs(j.log_prob - c.force.log_prob) < 1e-4, `${j.log_prob} vs ${c.force.log_prob}`);
  assert.equal(j.attention.length, c.force.steps.length);
  both(['--heatmap', '--force-tsv'], `${c.text}\t${c.force.target}\n`);
});

test('--batch gives the line-by-line output, greedy and beam', () => {
  for (const mode of [['--json'], ['--json', '--beam', '3'], ['--heatmap']]) {
    const alone = both(mode, LINES);
    const batched = both([...mode, '--batch', '3'], LINES);
    assert.equal(maskTimings(batched.stdout), maskTimings(alone.stdout), mode.join(' '));
    if (mode.includes('--json')) assert.equal(alone.stdout.split('\n').length, 5, 'a line per input');
  }
  const greedy = fixture('tiny-transformer-f32').cases.find((x) => x.text === 'I am cold.');
  if (greedy) {
    const j = JSON.parse(both(['--json', 'I am cold.']).stdout);
    assert.deepEqual(j.target, greedy.greedy.tokens);
  }
});
