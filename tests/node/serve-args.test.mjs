// scripts/serve.mjs's command line: a usage message, and no argument it does not understand
// silently turned into a server on some other port (issue 24: --help, --prot 8123 and
// --port '' all used to start a server).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parseArgs, USAGE } from '../../scripts/serve.mjs';

const SERVE = path.join(fileURLToPath(new URL('../../', import.meta.url)), 'scripts', 'serve.mjs');

test('ports and flags it knows', () => {
  assert.deepEqual(parseArgs([]), { port: 8000, log: false, help: false });
  assert.deepEqual(parseArgs(['--port', '8123', '--log']), { port: 8123, log: true, help: false });
  assert.equal(parseArgs(['--port=0']).port, 0);
  assert.equal(parseArgs([], { PORT: '9001' }).port, 9001);
  assert.equal(parseArgs(['--port', '9002'], { PORT: '9001' }).port, 9002);
  assert.equal(parseArgs(['--help']).help, true);
});

test('unknown flags, and ports that are not a number from 0 to 65535, are errors', () => {
  for (const argv of [['--prot', '8123'], ['8123'], ['--port'], ['--port', ''], ['--port', '8e3'],
    ['--port', '-1'], ['--port', '65536'], ['--port', ' 80'], ['--port', '0x50'], ['--logs']]) {
    assert.throws(() => parseArgs(argv), /unknown argument|bad port|needs a number/, JSON.stringify(argv));
  }
  assert.throws(() => parseArgs([], { PORT: 'abc' }), /bad port "abc" \(PORT\)/);
});

test('the command prints its usage for --help, and exits 2 with it on a bad argument', () => {
  const help = spawnSync(process.execPath, [SERVE, '--help'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(help.status, 0);
  assert.equal(help.stdout.trim(), USAGE);
  for (const argv of [['--prot', '8123'], ['--port', ''], ['--port', '70000']]) {
    const r = spawnSync(process.execPath, [SERVE, ...argv], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /^serve\.mjs: (unknown argument|bad port)/);
    assert.match(r.stderr, /usage: node scripts\/serve\.mjs/);
    assert.equal(r.stdout, ''); // no server was started
  }
});
