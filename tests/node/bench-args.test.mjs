// scripts/bench's arguments for the training tables (issue 25): --train-presets takes a comma
// list of the sizes it knows, and anything else is a usage error (exit 2) before any work.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { ROOT } from './helpers.mjs';

const BENCH = path.join(ROOT, 'scripts', 'bench.mjs');
const bench = (args) => spawnSync(process.execPath, [BENCH, ...args], { encoding: 'utf8', timeout: 30_000 });

test('--train-presets takes the known sizes (then --help prints the usage and exits 0)', () => {
  for (const list of ['small', 'tiny', 'small,tiny', 'tiny,small']) {
    const r = bench(['--only', 'train', '--train-presets', list, '--help']);
    assert.equal(r.status, 0, `${list}: ${r.stderr}`);
    assert.match(r.stdout, /--train-presets L/);
  }
});

test('--train-presets refuses an unknown size, an empty item or a missing list', () => {
  for (const bad of [['huge'], [''], ['small,'], ['small,,tiny'], []]) {
    const r = bench(['--only', 'train', '--train-presets', ...bad]);
    assert.equal(r.status, 2, `${JSON.stringify(bad)}: ${r.stdout}`);
    assert.match(r.stderr, /usage: scripts\/bench .*\[--train-presets small,tiny\]/);
  }
});
