// The pages show some numbers as recordings, not live computations: BLEU by source length
// (why.html's chart, web/data/bleu-by-length.json from scripts/eval --figure-json) and the
// attention edits' findings (web/data/attention-edits.json from scripts/attention-edits). Each
// model entry names the sha256 of the file it measured. When a model is retrained and its file
// in models/ replaced, these tests fail until the recordings are made again from the new file,
// so the page never shows one model's numbers under another's name.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { LINEAGE } from '../../web/lib/catalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RECORDINGS = {
  'web/data/bleu-by-length.json': 'scripts/eval --by-length --figure-json (its "command" field)',
  'web/data/attention-edits.json': 'scripts/attention-edits --json web/data/attention-edits.json',
};

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const read = (rel) => JSON.parse(readFileSync(path.join(ROOT, rel), 'utf8'));

for (const [rel, remake] of Object.entries(RECORDINGS)) {
  test(`${rel}: every model entry was measured on the file models/ holds now`, () => {
    const { models } = read(rel);
    assert.ok(Array.isArray(models) && models.length > 0, `${rel} lists no models`);
    for (const m of models) {
      const file = path.join(ROOT, 'models', `${m.model}.safetensors`);
      assert.ok(existsSync(file), `${rel}: ${m.model} has no file in models/`);
      assert.match(m.sha256 ?? '', /^[0-9a-f]{64}$/, `${rel}: ${m.model} does not say which file it measured`);
      assert.equal(m.sha256, sha256(file),
        `${rel}: ${m.model} was recorded from another file than models/${m.model}.safetensors; make it again: ${remake}`);
    }
  });
}

test('why.html\'s chart has a curve for every model of the story', () => {
  const names = read('web/data/bleu-by-length.json').models.map((m) => m.model);
  for (const name of LINEAGE) assert.ok(names.includes(name), `bleu-by-length.json has no ${name}`);
});
