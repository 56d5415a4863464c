// The Node CLI (scripts/translate.mjs, the package's bin) prints what the native CLI prints:
// plain, --json (byte for byte but for timings) and --heatmap, with attention edits too, from
// arguments and from stdin, with the same exit statuses.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixturePath, maskTimings, nativeCli, nodeCli, notModelFiles } from './helpers.mjs';

const MODELS = ['tiny-additive-f32', 'tiny-scaled_dot-int8', 'tiny-none-cgru-f32', 'tiny-transformer-int8']
  .map((m) => fixturePath(`${m}.safetensors`));
// Lines that exercise the stdin path: an empty line, CRLF, punctuation, invalid UTF-8 (an
// error line, the others still translated), too many tokens, combining accents, no final \n.
const rawStdin = Buffer.concat([
  Buffer.from('The black cat is sleeping.\n\nI am cold.\r\nIl fait "très" froid… (vraiment) !\n'),
  Buffer.from([0xff, 0xfe]), Buffer.from(' b\n'),
  Buffer.from(`${'word '.repeat(70)}\ncafe\u0301 e\u0300 \u00c9t\u00e9\nno newline at the end`),
]);

// With attention edits (cli-attend.test.mjs has the rest): by position, held, and by word, which
// each stdin line looks up in its own tokens (a line without it fails alone).
const MODES = [[], ['--json'], ['--json', '--beam', '4'], ['--json', '--max-len', '3'],
  ['--heatmap'], ['--heatmap', '--beam', '3'], ['--info'], ['--json', '--attend', '1=0'],
  ['--heatmap', '--attend', '0=cold', '--attend-hold']];

for (const model of MODELS) {
  for (const mode of MODES) {
    test(`${model.split('/').at(-1)} ${mode.join(' ') || 'plain'}: same as native`, () => {
      const inputs = [{ args: ['I am cold.'] }, { args: [], stdin: rawStdin }];
      // --info exits without reading stdin (feeding it would only race with EPIPE)
      for (const input of mode.includes('--info') ? inputs.slice(0, 1) : inputs) {
        const args = ['--model', model, ...mode, ...input.args];
        const want = nativeCli(args, input.stdin);
        const got = nodeCli(args, input.stdin);
        assert.equal(got.status, want.status, `exit status; stderr: ${got.stderr}`);
        assert.ok(want.stdout.length > 0);
        assert.equal(maskTimings(got.stdout), maskTimings(want.stdout));
        // --engine native is the native CLI itself
        if (mode.includes('--json')) {
          const viaNode = nodeCli(['--engine', 'native', ...args], input.stdin);
          assert.equal(maskTimings(viaNode.stdout), maskTimings(want.stdout));
          assert.equal(viaNode.status, want.status);
        }
      }
    });
  }
}

// Forced decoding: --force with arguments and --force-tsv from stdin, plain, --json and
// --heatmap, with its bad lines (no TAB, invalid UTF-8, too long a target).
const forceStdin = Buffer.concat([
  Buffer.from('The black cat is sleeping.\tLe chat noir dort.\nI am cold.\tJ\'ai Zorglub froid.\n'),
  Buffer.from('no tab here\n\tLe chat.\nThe cat.\t\n'), Buffer.from([0xff]), Buffer.from('\tx\n'),
  Buffer.from(`The cat.\t${'le '.repeat(50)}\n`),
]);
for (const model of MODELS) {
  for (const mode of [[], ['--json'], ['--heatmap']]) {
    test(`${model.split('/').at(-1)} --force ${mode.join(' ') || 'plain'}: same as native`, () => {
      for (const input of [{ args: ['--force', 'Le chat noir dort.', 'The', 'black', 'cat.'] },
        { args: ['--force-tsv'], stdin: forceStdin }]) {
        const args = ['--model', model, ...mode, ...input.args];
        const want = nativeCli(args, input.stdin);
        const got = nodeCli(args, input.stdin);
        assert.equal(got.status, want.status, `exit status; stderr: ${got.stderr}`);
        assert.ok(want.stdout.length > 0);
        assert.equal(got.stdout, want.stdout);
      }
    });
  }
}

test('--force usage errors: same exit statuses as native', () => {
  const m = MODELS[0];
  for (const args of [['--model', m, '--force', 'Le chat.'], ['--model', m, '--force'],
    ['--model', m, '--force', 'x', '--force-tsv', 'y'], ['--model', m, '--force-tsv', 'The cat.']]) {
    const want = nativeCli(args);
    const got = nodeCli(args);
    assert.equal(got.status, want.status, `${args.join(' ')}: ${got.stderr}`);
    assert.equal(want.status, 2);
    assert.ok(got.stderr.length > 0);
  }
});

test('wasm-scalar gives the native scalar kernels\' words', () => {
  for (const model of MODELS) {
    const args = ['--model', model, '--heatmap'];
    const want = nativeCli([...args, '--scalar'], rawStdin);
    const got = nodeCli(['--engine', 'wasm-scalar', ...args], rawStdin);
    assert.equal(got.status, want.status);
    assert.equal(got.stdout, want.stdout);
  }
});

test('usage and runtime errors: same exit statuses', () => {
  const m = MODELS[0];
  for (const args of [['--model', m, '--beam', '0', 'x'], ['--model', m, '--beam', '17', 'x'],
    ['--model', m, '--max-len', 'abc', 'x'], ['--model', m, '--bogus'], ['--model', m, '--beam'],
    ['--model', '/no/such/file.safetensors', 'x'], ['--model', m, ...'word '.repeat(80).split(' ')],
    ['--model', m, '--help'], ['--model', m, '--', '--json', 'x']]) {
    const want = nativeCli(args);
    const got = nodeCli(args);
    assert.equal(got.status, want.status, `${args.join(' ')}: ${got.stderr}`);
    if (!args.includes('--help')) assert.equal(got.stdout, want.stdout, args.join(' '));
    if (want.status !== 0) assert.ok(got.stderr.length > 0, 'an error message');
  }
  const r = nodeCli(['--engine', 'gpu', 'x']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--engine takes one of wasm-simd, wasm-scalar, native/);
});

test('--model that is not a model file: both CLIs give the same message and exit 1, at once', (t) => {
  for (const [file, why] of notModelFiles(t)) {
    // The timeout only keeps a regression (a FIFO waiting for a writer) from hanging the suite.
    const want = nativeCli(['--model', file, 'x'], '', { timeout: 20_000 });
    const got = nodeCli(['--model', file, 'x'], '', { timeout: 20_000 });
    assert.deepEqual([want.status, want.stdout, want.stderr],
      [1, '', `bahdanau-translate: model file ${file} is ${why}\n`]);
    assert.deepEqual([got.status, got.stdout, got.stderr], [1, '', `bahdanau-live: model file ${file} is ${why}\n`]);
  }
});

test('a model without attention: --heatmap says there is no matrix, --info says scoring none', () => {
  const model = fixturePath('tiny-none-cgru-int8.safetensors');
  for (const cli of [nativeCli, nodeCli]) {
    const r = cli(['--model', model, '--heatmap', 'The black cat.']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\nno attention matrix: this model reads one fixed vector c = \[->h_T; <-h_1\]/);
    assert.doesNotMatch(r.stdout, /legend/);
    const info = JSON.parse(cli(['--model', model, '--info']).stdout);
    assert.equal(info.scoring, 'none');
    assert.equal(info.attn, 0);
    assert.equal(info.scoring_params, 0);
  }
});
