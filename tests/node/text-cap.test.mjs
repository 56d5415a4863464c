// One call's text is bounded (bl::kMaxTextChars, MAX_TEXT_CHARS: 2,000 characters), as the
// widget's input is (issue 24): translate(1 MB, {splitSentences: true}) used to block the event
// loop for 56 s, 37,450 sentences. Every method that decodes refuses longer text quickly and in
// the core's words; both CLIs refuse such a line the same way and go on with the next.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { before, test } from 'node:test';

import { MAX_TEXT_CHARS, createTranslator } from '../../web/lib/bahdanau.js';
import { NATIVE_CLI, ROOT, fixturePath } from './helpers.mjs';

const MODEL = fixturePath('tiny-additive-f32.safetensors');
const SAYS = /text has (\d+) characters; at most 2000 are translated at once \(split it into sentences or lines\)$/;
const HUGE = 'The cat sleeps. '.repeat(65536); // 1 MiB, 65,536 sentences

let tr;
before(async () => {
  tr = await createTranslator({ model: MODEL });
});

test('the bound is 2,000 characters, counted as code points', () => {
  assert.equal(MAX_TEXT_CHARS, 2000);
  // 2,000 four-byte characters are not too long (they are one unknown token each, too many)
  assert.doesNotMatch(String(assert.throws(() => tr.translate('😀'.repeat(2000)))), /characters/);
  assert.throws(() => tr.translate('😀'.repeat(2001)), (e) => e.message.match(SAYS)?.[1] === '2001');
});

test('a 1 MB paragraph is refused at once, not translated sentence by sentence', () => {
  const t0 = performance.now();
  assert.throws(() => tr.translate(HUGE, { splitSentences: true }),
    (e) => e instanceof RangeError && e.message.match(SAYS)?.[1] === String(HUGE.length));
  assert.throws(() => tr.translate(HUGE), SAYS);
  assert.ok(performance.now() - t0 < 5000, `${performance.now() - t0} ms`);
  // a long paragraph under the bound still translates, sentence by sentence
  const ok = tr.translate('The cat sleeps. '.repeat(120).trim(), { splitSentences: true });
  assert.equal(ok.sentences.length, 120);
  assert.ok(tr.splitSentences(HUGE).length === 65536, 'splitting takes any length');
});

test('steps(), align() on either side and each text of translateBatch() are bounded too', async () => {
  assert.throws(() => tr.steps(HUGE), SAYS);
  assert.throws(() => tr.align(HUGE, 'le chat'), SAYS);
  assert.throws(() => tr.align('the cat', HUGE), /Error: target: text has \d+ characters/);
  const [long, short] = tr.translateBatch([HUGE, 'The cat.']);
  assert.match(long.error, SAYS);
  assert.equal(short.text, tr.translate('The cat.').text);
});

const NODE = [process.execPath, path.join(ROOT, 'scripts', 'translate.mjs')];
for (const [name, argv] of [['scripts/translate', NODE], ['native', [NATIVE_CLI]]]) {
  for (const flags of [[], ['--split-sentences'], ['--split-sentences', '--batch', '4']]) {
    test(`${name} ${flags.join(' ')}: a line over the bound fails alone, in the core's words`, () => {
      const input = `${'The cat sleeps. '.repeat(200)}\nThe dog eats.\n`; // 3,200 characters, then one line
      const r = spawnSync(argv[0], [...argv.slice(1), '--model', MODEL, ...flags],
        { input, encoding: 'utf8', timeout: 120000 });
      assert.equal(r.status, 1, r.stderr);
      const lines = r.stdout.split('\n');
      assert.equal(lines[0], '', 'the failed line prints an empty line');
      assert.notEqual(lines[1], '', 'the next line is translated');
      assert.match(r.stderr.trim().replace(/^[^:]+: /, ''), SAYS);
    });
  }
}
