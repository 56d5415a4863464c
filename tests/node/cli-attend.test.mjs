// Attention edits on the command line (--attend I=J, --attend-weights, --attend-hold,
// --attend-head, --ablate-head): the native CLI and the Node CLI print the same bytes (timings
// masked), with the same messages and exit statuses, for edits by position and by source word,
// forced decoding, standard input, --batch, a Transformer's heads, usage errors and invalid
// UTF-8 in a word; and the done-when on the shipped model.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { NATIVE_CLI, ROOT, fixturePath, maskTimings, nativeCli, nodeCli, shippedModelOrFail } from './helpers.mjs';

const TEXT = 'The black cat is sleeping.';
const TARGET = 'Le chat noir dort.';
const RNN = fixturePath('tiny-additive-f32.safetensors');
const TRANSFORMER = fixturePath('tiny-transformer-int8.safetensors');
const STDIN = `${TEXT}\nI am cold.\n\nA CAT is here.\n`;
const message = (stderr) => stderr.replace(/^(bahdanau-translate|bahdanau-live): /gm, '');

// Both CLIs (and the Node CLI's --engine native) on args; -> the native run.
function both(args, stdin) {
  const want = nativeCli(args, stdin);
  for (const got of [nodeCli(args, stdin), nodeCli(['--engine', 'native', ...args], stdin)]) {
    assert.equal(got.status, want.status, `${args.join(' ')}: exit status; stderr: ${got.stderr}`);
    assert.equal(maskTimings(got.stdout), maskTimings(want.stdout), args.join(' '));
    assert.equal(message(got.stderr), message(want.stderr), args.join(' '));
  }
  return want;
}

test('done when: --attend 2=cat --json puts row 2 all on "cat", with the continuation and the model\'s own row', () => {
  const model = shippedModelOrFail('en-fr');
  const r = both(['--model', model, '--attend', '2=cat', '--json', TEXT]);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  const cat = j.source.indexOf('cat');
  assert.deepEqual(j.attention[2], j.source.map((_, k) => (k === cat ? 1 : 0)));
  assert.deepEqual(j.edited, [2]);
  assert.deepEqual(j.given_attention, [j.attention[2]]);
  const plain = JSON.parse(both(['--model', model, '--json', TEXT]).stdout);
  assert.deepEqual(j.own_attention, [plain.attention[2]], 'the model\'s own row 2, as a plain run has it');
  assert.deepEqual(j.continuation, j.target.slice(2));
  assert.deepEqual(j.target.slice(0, 2), plain.target.slice(0, 2));
  assert.equal(plain.edited, undefined, 'no edit keys without edits');
});

const CASES = [
  [RNN, ['--json', '--attend', '1=cat']],
  [RNN, ['--json', '--attend', '1=CAT', '--attend', '3=0']],
  [RNN, ['--heatmap', '--attend', '0=The', '--attend-hold']],
  [RNN, ['--json', '--attend-weights', '1=1,2,0,0,.5,0,1e0']],
  [RNN, ['--heatmap', '--attend-weights', '1=1,-1,0,0,0,0,0']], // the core's refusal
  [RNN, ['--json', '--attend', '1=dog']], // not a source word: listed tokens, exit 1
  [RNN, ['--json', '--attend', '1=</s>', '--max-len', '3']],
  [RNN, ['--json', '--attend', '40=1']],
  [RNN, ['--json', '--attend', '1=0', '--attend-head', '0.0']], // an RNN has no heads
  [RNN, ['--ablate-head', '1=0.0']],
  [RNN, ['--json', '--force', TARGET, '--attend', '2=black']],
  [RNN, ['--heatmap', '--force', TARGET, '--attend', '2=black']],
  [RNN, ['--force', TARGET, '--attend', '9=black']],
  // The tiny Transformer writes </s> first: its edits show in forced decoding.
  [TRANSFORMER, ['--json', '--force', TARGET, '--attend', '1=cat', '--attend-head', '1.2']],
  [TRANSFORMER, ['--heatmap', '--force', TARGET, '--attend', '0=black', '--attend-hold']],
  [TRANSFORMER, ['--json', '--force', TARGET, '--ablate-head', '1=1.0']],
  [TRANSFORMER, ['--heatmap', '--force', TARGET, '--ablate-head', '1=1.0', '--attend', '2=2']],
  [TRANSFORMER, ['--json', '--attend', '0=1', '--attend-head', '2.0']], // no layer 2
  ['en-fr-transformer', ['--json', '--attend', '2=cat', '--attend-head', '1.0']],
  ['en-fr-transformer', ['--heatmap', '--ablate-head', '1=0.3', '--attend', '2=black', '--attend-hold']],
];

for (const [model, args] of CASES) {
  test(`${path.basename(model)} ${args.join(' ')}: same on both CLIs`, () => {
    const file = model.includes('/') ? model : shippedModelOrFail(model);
    const r = both(['--model', file, ...args, TEXT]);
    assert.ok(r.stdout.length > 0);
    if (r.status === 0 && args.includes('--json')) {
      const j = JSON.parse(r.stdout);
      assert.ok(j.edited.length > 0, 'edited rows listed');
      assert.equal(j.own_attention.length, j.edited.length);
    }
    if (r.status === 0 && args.includes('--heatmap')) assert.match(r.stdout, /\*: an edited row.*\n/);
    if (r.status !== 0) assert.equal(r.status, 1, 'a line that fails, not a usage error');
  });
}

test('a word J is looked up in each line of standard input; --batch and --force-tsv too', () => {
  const r = both(['--model', RNN, '--json', '--attend', '1=cat'], STDIN);
  const lines = r.stdout.split('\n');
  assert.equal(lines.length, 5);
  assert.equal(r.status, 1);
  assert.equal(lines[1], '{}', '"I am cold." has no "cat"');
  assert.match(message(r.stderr), /^--attend 1=cat: no source token "cat" in this sentence \(its tokens: I am cold \. <\/s>\)$/m);
  assert.equal(JSON.parse(lines[3]).edited[0], 1, '"CAT" matches "cat" in any case');
  const batched = both(['--model', RNN, '--json', '--attend', '1=cat', '--batch', '2'], STDIN);
  assert.equal(maskTimings(batched.stdout), maskTimings(r.stdout));
  both(['--model', RNN, '--json', '--attend', '1=cat', '--force-tsv'], `${TEXT}\t${TARGET}\nI am cold.\tJ'ai froid.\n`);
});

test('usage errors: the same words and exit status 2 on both CLIs', () => {
  const bad = [
    ['--attend', '2'], ['--attend', 'x=1'], ['--attend', '2='], ['--attend', '=cat'], ['--attend', '2=-1'],
    ['--attend', '1024=0'], ['--attend', '2=1024'], ['--attend'], ['--attend-weights', '1=a,b'],
    ['--attend-weights', '1=1,,2'], ['--attend-weights', '1=nan,1'], ['--attend-head', '1'],
    ['--attend-head', '1.x', '--attend', '1=0'], ['--ablate-head', '1=2'], ['--attend-hold'],
    ['--attend-head', '0.1'], ['--ablate-head', '1=0.0', '--attend-head', '0.1'],
    ['--attend', '1=0', '--beam', '2'], ['--attend', '1=0', '--split-sentences'],
  ];
  for (const args of bad) {
    const r = both(['--model', RNN, ...args, TEXT]);
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.ok(r.stderr.length > 0);
  }
  assert.equal(message(nativeCli(['--model', RNN, '--attend', '2=', TEXT]).stderr),
    '--attend takes I=J (an output position I from 0 to 1023; J a source position from 0 to 1023 or a source word), got "2="\n');
});

// sh -c with printf's octal escapes, so the bytes reach the program as typed
function sh(cli, args) {
  const r = spawnSync('/bin/sh', ['-c', `${cli} --model ${JSON.stringify(RNN)} ${args}`], { encoding: 'utf8', timeout: 60000 });
  return { status: r.status, stdout: r.stdout, message: message(r.stderr) };
}

test('invalid UTF-8 in a word J: refused in the same words as a usage error', () => {
  const node = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'scripts', 'translate.mjs'))}`;
  for (const [args, want] of [
    [`--attend "$(printf '2=caf\\351')" cat`, '--attend: invalid UTF-8 at byte 5: truncated sequence\n'],
    [`--attend-weights "$(printf '1=\\377')" cat`, '--attend-weights: invalid UTF-8 at byte 2: invalid byte\n'],
  ]) {
    for (const cli of [JSON.stringify(NATIVE_CLI), node, `${node} --engine native`]) {
      const r = sh(cli, args);
      assert.deepEqual([r.status, r.stdout, r.message], [2, '', want], cli);
    }
  }
});
