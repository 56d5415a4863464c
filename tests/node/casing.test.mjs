// Case repair (docs/tokenization.md, step 6): all-lowercase and shouted input translate like
// the same sentence in normal case, on every engine, and mixed case is left alone. A first
// word that is unknown to the model keeps its capital (step 7), so a name is copied as typed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { DEFAULT_MODEL, WASM, nativeTargets, translator } from './helpers.mjs';

const SAME = [
  ['I love you.', 'i love you.', 'I LOVE YOU.'],
  ['Tom and Mary live in Paris.', 'tom and mary live in paris.', 'TOM AND MARY LIVE IN PARIS.'],
  ['Where is the station?', 'where is the station?', 'WHERE IS THE STATION?'],
];

for (const variant of WASM) {
  test(`lowercase and shouted input read as normal case (${variant})`, async () => {
    const tr = await translator(readFileSync(DEFAULT_MODEL), variant);
    for (const [normal, ...others] of SAME) {
      const want = tr.translate(normal);
      for (const text of others) {
        const got = tr.translate(text);
        assert.deepEqual(got.sourceTokens, want.sourceTokens, text);
        assert.equal(got.text, want.text, text);
      }
    }
    // Mixed case is not repaired: an acronym in a normal sentence keeps its capitals.
    assert.deepEqual(tr.tokenize('I love NASA.'), ['I', 'love', 'NASA', '.']);
    // "Marie" is no English word of en-fr: lower-cased, its copied <unk> read as French
    // "marie" (marries). A known first word is still lower-cased.
    const marie = tr.translate('Marie and John are friends.');
    assert.equal(marie.sourceTokens[0], 'Marie');
    assert.match(marie.text, /\bMarie\b/);
    assert.doesNotMatch(marie.text, /\bmarie\b/);
    assert.equal(tr.tokenize('The cat sleeps.')[0], 'the');
    tr.dispose();
  });
}

test('the native engine repairs case the same way', () => {
  const flat = SAME.flat();
  const got = nativeTargets(DEFAULT_MODEL, flat);
  for (let i = 0; i < flat.length; i += 3) {
    assert.deepEqual(got[i + 1], got[i], flat[i + 1]);
    assert.deepEqual(got[i + 2], got[i], flat[i + 2]);
  }
});
