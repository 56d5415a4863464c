// The page's BLEU (web/lib/bleu.js) against NLTK's, which scripts/eval reports: the same
// numbers on tests/fixtures/bleu-cases.json (written and checked by
// tests/python/test_bleu_fixture.py), and the tokens it is counted on come from the model's
// own target tokenizer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { CorpusBleu, corpusBleu } from '../../web/lib/bleu.js';
import { DEFAULT_MODEL, fixturePath, translator } from './helpers.mjs';

const { cases } = JSON.parse(readFileSync(fixturePath('bleu-cases.json'), 'utf8'));

test('corpus BLEU equals NLTK on every fixed case', () => {
  assert.ok(cases.length >= 40);
  for (const c of cases) {
    const got = corpusBleu(c.hyps, c.refs);
    const tol = 1e-12 * Math.max(Math.abs(c.bleu), 1e-300);
    assert.ok(Math.abs(got - c.bleu) <= tol, `${c.name}: ${got} against NLTK's ${c.bleu}`);
  }
});

test('adding sentences one at a time gives the same running score', () => {
  const c = cases.find((x) => x.hyps.length >= 8);
  const acc = new CorpusBleu();
  c.hyps.forEach((h, i) => {
    acc.add(h, c.refs[i]);
    assert.equal(acc.score(), corpusBleu(c.hyps.slice(0, i + 1), c.refs.slice(0, i + 1)));
  });
  assert.equal(acc.sentences, c.hyps.length);
  assert.throws(() => acc.add(['a'], []), /one reference at least/);
  assert.throws(() => corpusBleu([['a']], []), /1 hypotheses, 0 reference sets/);
});

test('tokenize() gives the target tokens BLEU counts, and refuses bad arguments', async () => {
  const tr = await translator(readFileSync(DEFAULT_MODEL), 'wasm-simd');
  assert.deepEqual(tr.tokenize("Aujourd'hui, l'homme dort.", { side: 'target' }),
    ["aujourd'hui", ',', "l'", 'homme', 'dort', '.']);
  assert.deepEqual(tr.tokenize("I don't know.").slice(0, 2), ['I', 'do']);
  assert.throws(() => tr.tokenize('x', { side: 'french' }), /side must be 'source' or 'target'/);
  assert.throws(() => tr.tokenize(42), /text must be a string/);
  tr.dispose();
});
