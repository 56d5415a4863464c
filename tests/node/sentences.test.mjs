// Text longer than the model reads, split into sentences by the core's tokenizer rules:
// splitSentences(), translate(text, {splitSentences: true}), and both CLIs' --split-sentences,
// which print the same bytes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { DEFAULT_MODEL, WASM, maskTimings, nativeCli, nodeCli, translator } from './helpers.mjs';

const PARAGRAPH = 'The black cat is sleeping on the red sofa. '.repeat(12).trim();

for (const variant of WASM) {
  test(`a paragraph over the length limit translates sentence by sentence (${variant})`, async () => {
    const tr = await translator(readFileSync(DEFAULT_MODEL), variant);
    assert.throws(() => tr.translate(PARAGRAPH), /this model reads at most 100/);
    const r = tr.translate(PARAGRAPH, { splitSentences: true });
    assert.equal(r.sentences.length, 12);
    const one = tr.translate('The black cat is sleeping on the red sofa.');
    for (const s of r.sentences) {
      assert.equal(s.source, 'The black cat is sleeping on the red sofa.');
      assert.deepEqual(s.attention, one.attention);
      assert.equal(s.text, one.text);
    }
    assert.equal(r.text, Array(12).fill(one.text).join(' '));
    // Pieces are the text as typed: curly quotes and odd spaces survive, spaces between go.
    assert.deepEqual(tr.splitSentences('  Tom said \u201chi.\u201d\u00a0 I\u2019m here!  '),
      ['Tom said \u201chi.\u201d', 'I\u2019m here!']);
    assert.deepEqual(tr.splitSentences(' . ! '), []);
    assert.deepEqual(tr.translate('   ', { splitSentences: true }), { text: '', sentences: [] });
    // A sentence that is itself too long is named.
    const long = `Hello. ${'word '.repeat(120)}.`;
    assert.throws(() => tr.translate(long, { splitSentences: true }), /^Error: sentence 2: input has 121 tokens/);
    assert.throws(() => tr.translate('x', { splitSentences: 'yes' }), /splitSentences must be true or false/);
    tr.dispose();
  });
}

test('--split-sentences: the Node CLI prints what the native one prints', () => {
  const stdin = `${PARAGRAPH}\n\nHello. ${'word '.repeat(120)}.\nOne. Two! Three?\n`;
  for (const mode of [[], ['--json'], ['--heatmap'], ['--json', '--beam', '2']]) {
    const args = ['--model', DEFAULT_MODEL, '--split-sentences', ...mode];
    const want = nativeCli(args, stdin);
    const got = nodeCli(args, stdin);
    assert.equal(got.status, want.status, got.stderr);
    assert.equal(want.status, 1, 'the over-long sentence fails its line');
    assert.equal(maskTimings(got.stdout), maskTimings(want.stdout), mode.join(' '));
    assert.equal(got.stderr.replace(/^bahdanau-live/gm, 'bahdanau-translate'), want.stderr);
    assert.match(want.stderr, /sentence 2: input has 121 tokens/);
  }
  const first = JSON.parse(nativeCli(['--model', DEFAULT_MODEL, '--split-sentences', '--json', PARAGRAPH]).stdout);
  assert.equal(first.sentences.length, 12);
  assert.equal(first.text.split('. ').length, 12);
  for (const cli of [nativeCli, nodeCli]) {
    const r = cli(['--model', DEFAULT_MODEL, '--split-sentences', '--force', 'Le chat.', 'The cat.']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--split-sentences does not apply to forced decoding/);
  }
});
