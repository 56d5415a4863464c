// Invalid UTF-8 typed on the command line: Node decodes argv before scripts/translate sees it,
// turning the bad bytes into U+FFFD, so it used to translate "caf\xe9 \xff\xfe" and exit 0
// where the native CLI refuses it (issue 24). Both must refuse it, in the same words, from
// arguments, from --force's target and from standard input. A shell passes the raw bytes:
// child_process cannot put invalid UTF-8 into an argument.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { rawArgs, utf8Error } from '../../scripts/lib/raw-args.mjs';
import { NATIVE_CLI, ROOT, fixturePath } from './helpers.mjs';

const MODEL = fixturePath('tiny-additive-f32.safetensors');
const NODE_CLI = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'scripts', 'translate.mjs'))}`;
const NATIVE = JSON.stringify(NATIVE_CLI);

// sh -c with printf's octal escapes, so the bytes reach the program as typed
function run(cli, args, stdin) {
  const r = spawnSync('/bin/sh', ['-c', `${cli} --model ${JSON.stringify(MODEL)} ${args}`],
    { input: stdin ?? '', encoding: 'utf8', timeout: 60000 });
  return { status: r.status, stdout: r.stdout, message: r.stderr.replace(/^[^:]+: /, '') };
}

const CASES = [
  { name: 'text', args: `"$(printf 'caf\\351 \\377\\376')"`, want: 'invalid UTF-8 at byte 3: truncated sequence' },
  { name: 'text over two arguments', args: `ok "$(printf 'a\\200')"`, want: 'invalid UTF-8 at byte 4: unexpected continuation byte' },
  { name: '--json', args: `--json "$(printf '\\300\\257')"`, want: 'invalid UTF-8 at byte 0: overlong encoding', json: true },
  { name: '--force target', args: `--force "$(printf 'caf\\351')" hello`, want: 'target: invalid UTF-8 at byte 3: truncated sequence' },
  { name: '--force source', args: `--force ok "$(printf '\\355\\240\\200')"`, want: 'invalid UTF-8 at byte 0: surrogate code point' },
];

for (const c of CASES) {
  test(`${c.name}: refused as the native CLI refuses it`, () => {
    const got = run(NODE_CLI, c.args);
    const want = run(NATIVE, c.args);
    assert.equal(want.message.trim(), c.want);
    assert.equal(got.message.trim(), c.want);
    assert.equal(got.status, 1);
    assert.equal(want.status, 1);
    assert.equal(got.stdout, c.json ? '{}\n' : '\n');
    assert.equal(got.stdout, want.stdout);
    // --engine native hands the arguments over as strings, after Node decoded them: caught first
    assert.equal(run(`${NODE_CLI} --engine native`, c.args).message.trim(), c.want);
  });
}

test('a bad standard input line gets the native words too, and the other lines translate', () => {
  const stdin = Buffer.concat([Buffer.from('I am cold.\n'), Buffer.from([0x61, 0xf8]), Buffer.from('\nI see.\n')]);
  const got = run(NODE_CLI, '', stdin);
  const want = run(NATIVE, '', stdin);
  assert.equal(got.message.trim(), 'invalid UTF-8 at byte 1: invalid byte');
  assert.equal(got.message, want.message);
  assert.equal(got.stdout, want.stdout);
  assert.equal(got.stdout.split('\n')[1], '');
  assert.equal(got.status, 1);
});

test('valid text with U+FFFD typed on purpose still translates', () => {
  const got = run(NODE_CLI, `"$(printf 'caf\\357\\277\\275')"`);
  assert.equal(got.status, 0, got.message);
});

test('utf8Error is the core\'s decoder, message for message', () => {
  assert.equal(utf8Error(Buffer.from('café ok')), null);
  assert.equal(utf8Error(Buffer.from([0xf4, 0x90, 0x80, 0x80])), 'invalid UTF-8 at byte 0: code point above U+10FFFF');
  assert.equal(utf8Error(Buffer.from([0x61, 0xe2, 0x82])), 'invalid UTF-8 at byte 1: truncated sequence');
  assert.equal(utf8Error(Buffer.from([0xf0, 0x9f, 0x98, 0x80])), null);
  // the arguments of this very process, as bytes
  assert.deepEqual(rawArgs(process.argv.slice(2))?.map(String), process.argv.slice(2));
});
