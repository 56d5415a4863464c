// The first n distinct English sentences of the dev split, in file order: the split and the
// normalisation are the training pipeline's own (scripts/nmt/data.py), so we ask Python.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { ROOT } from './engines.mjs';

const PROGRAM = `
import json, sys
from nmt.data import DEFAULT_DATA, read_pairs, split_of
n, seen, out = int(sys.argv[1]), set(), []
for en, _ in read_pairs(DEFAULT_DATA):
    if en not in seen and split_of(en) == "dev":
        seen.add(en)
        out.append(en)
        if len(out) == n:
            break
json.dump(out, sys.stdout)
`;

export function devSentences(n) {
  const text = execFileSync('/usr/bin/python3', ['-c', PROGRAM, String(n)], {
    env: { ...process.env, PYTHONPATH: path.join(ROOT, 'scripts') },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  const sentences = JSON.parse(text);
  if (sentences.length !== n) throw new Error(`only ${sentences.length} dev sentences, wanted ${n}`);
  return sentences;
}
