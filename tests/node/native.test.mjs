// web/lib/native.js: what web/lib computes from the engine's arrays. Step values themselves are
// checked in steps.test.mjs (cNorm) and against the engine in every steps() test.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { expf, unwrap } from '../../web/lib/native.js';

test('expf gives the wasm engine\'s floats, where they differ from the correctly rounded ones', () => {
  // Log-probabilities whose musl expf (what the engine computed topProbs with) is one float
  // ulp away from Math.fround(Math.exp(x)); taken from the engine before topProbs moved to JS.
  const musl = [
    [-2.9804527759552, 0.05076984316110611],
    [-0.034080687910318375, 0.966493546962738],
    [-4.189679145812988, 0.015151145868003368],
    [-5.574621677398682, 0.003792910370975733],
    [-7.11317777633667, 0.0008143032318912446],
    [-3.6478958129882812, 0.02604587748646736],
    [-3.4887304306030273, 0.030539620667696],
    [-2.459710121154785, 0.08545972406864166],
  ];
  for (const [x, want] of musl) {
    assert.notEqual(Math.fround(Math.exp(x)), want, `${x} is a case where rounding differs`);
    assert.equal(expf(x), want, `expf(${x})`);
  }
});

test('expf: special values, and within an ulp of exp elsewhere', () => {
  assert.equal(expf(0), 1);
  assert.equal(expf(-Infinity), 0);
  assert.equal(expf(Infinity), Infinity);
  assert.ok(Number.isNaN(expf(NaN)));
  assert.equal(expf(-104), 0);
  assert.equal(expf(89), Infinity);
  for (let i = 0; i < 20000; i++) {
    const x = Math.fround(-100 + i * 0.0094);
    const got = expf(x);
    const want = Math.exp(x);
    assert.equal(got, Math.fround(got), 'a float');
    assert.ok(Math.abs(got - want) <= Math.abs(want) * 2 ** -23 + 2 ** -149, `expf(${x})`);
  }
});

test('unwrap passes answers through and throws {error} with its prefix, after cleanup', () => {
  const answer = { text: 'x' };
  assert.equal(unwrap(answer), answer);
  assert.equal(unwrap(undefined), undefined);
  assert.deepEqual(unwrap([{ error: 'in an entry' }]), [{ error: 'in an entry' }]);
  let cleaned = false;
  assert.throws(() => unwrap({ error: 'bad' }, 'load: ', () => { cleaned = true; }),
    { name: 'Error', message: 'load: bad' });
  assert.ok(cleaned);
});
