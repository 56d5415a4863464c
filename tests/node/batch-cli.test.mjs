// --batch N in both CLIs: the same bytes as without it (plain, --json with timings masked,
// --heatmap, --max-len, beam, --split-sentences), the same exit status, error lines in place;
// native against Node; and the usage errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixturePath, maskTimings, nativeCli, nodeCli } from './helpers.mjs';

const MODELS = ['tiny-additive-f32', 'tiny-scaled_dot-cgru-int8', 'tiny-none-cgru-f32']
  .map((m) => fixturePath(`${m}.safetensors`));
// 30 lines, so groups of 8 end with a short one: sentences, an empty line, CRLF, invalid UTF-8,
// a line over the model's length, several sentences on a line, no final newline.
const lines = [
  'The black cat is sleeping.', '', 'I am cold.\r', 'Il fait "très" froid… (vraiment) !',
  null, 'word '.repeat(120), 'Tom is here. He is tall! Is it raining?', 'cafe\u0301 e\u0300',
  'We saw the old house near the river.', 'I don\'t know Tom.', 'A cat.', 'the',
];
const stdin = Buffer.concat([...lines, ...lines, ...lines.slice(0, 6)].map((l, i, all) => {
  const text = l === null ? Buffer.from([0xff, 0x20, 0x62]) : Buffer.from(l);
  return i + 1 < all.length ? Buffer.concat([text, Buffer.from('\n')]) : text;
}));

const MODES = [[], ['--json'], ['--json', '--max-len', '3'], ['--heatmap'], ['--json', '--beam', '3'],
  ['--split-sentences'], ['--json', '--split-sentences', '--heatmap']];

for (const model of MODELS) {
  for (const mode of MODES) {
    test(`${model.split('/').at(-1)} ${mode.join(' ') || 'plain'}: --batch gives the same bytes`, () => {
      const args = ['--model', model, ...mode];
      const want = nativeCli(args, stdin);
      assert.equal(want.status, 1, 'the bad lines fail'); // and the others still translate
      assert.ok(want.stdout.split('\n').length > 30);
      for (const batch of ['8', '1', '1024']) {
        const native = nativeCli([...args, '--batch', batch], stdin);
        assert.equal(native.status, want.status, `native --batch ${batch}: ${native.stderr}`);
        assert.equal(maskTimings(native.stdout), maskTimings(want.stdout), `native --batch ${batch}`);
        assert.equal(native.stderr, want.stderr, `native --batch ${batch}: the same messages`);
      }
      const node = nodeCli([...args, '--batch', '8'], stdin);
      assert.equal(node.status, want.status, node.stderr);
      assert.equal(maskTimings(node.stdout), maskTimings(want.stdout), 'Node --batch 8 vs native');
      assert.equal(node.stderr, nodeCli(args, stdin).stderr, 'Node: the same messages');
    });
  }
}

test('--batch with the scalar engines and with TEXT arguments', () => {
  const model = MODELS[1];
  // (wasm-scalar's numbers differ from native --scalar's in the last digits: libm differs)
  const want = nodeCli(['--engine', 'wasm-scalar', '--model', model, '--json'], stdin);
  const got = nodeCli(['--engine', 'wasm-scalar', '--model', model, '--json', '--batch', '5'], stdin);
  assert.equal(got.status, want.status);
  assert.equal(maskTimings(got.stdout), maskTimings(want.stdout));
  for (const cli of [nativeCli, nodeCli]) {
    const r = cli(['--model', model, '--batch', '4', 'The', 'black', 'cat.']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, cli(['--model', model, 'The', 'black', 'cat.']).stdout);
  }
});

test('--batch usage errors: exit 2 in both CLIs', () => {
  const m = MODELS[0];
  for (const args of [['--batch', '0'], ['--batch', '1025'], ['--batch', 'x'], ['--batch'],
    ['--batch', '4', '--force-tsv'], ['--batch', '4', '--force', 'Le chat.', 'The cat.']]) {
    for (const cli of [nativeCli, nodeCli]) {
      const r = cli(['--model', m, ...args]); // no stdin: they exit before reading it (EPIPE)
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /--batch/);
    }
  }
});
