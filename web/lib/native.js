// What crosses from the Embind module (src/wasm/), in one place: its {error} answers, and the
// values it leaves to JS because they are computed from a result's own arrays.

// The engine answers a failed call with {error: message} instead of throwing (a JS exception
// thrown through C++ frames would skip their destructors). -> the answer, or, after
// cleanup() (freeing what the failed call leaves), throws an Error: prefix + the message.
export function unwrap(answer, prefix = '', cleanup = undefined) {
  if (answer !== null && typeof answer === 'object' && typeof answer.error === 'string') {
    cleanup?.();
    throw new Error(`${prefix}${answer.error}`);
  }
  return answer;
}

// A decoder row as the bindings give it, completed with what web/lib computes (bahdanau.d.ts,
// Step): cNorm = |c| (summed in double, in order), topProbs[k] = exp(topLogProbs[k]) as the
// float the engine's libm gives (expf below), and a Transformer's cross.layers and cross.heads,
// the shape of its arrays.
export function completeStep(step) {
  let sq = 0;
  for (const x of step.c) sq += x * x;
  step.cNorm = Math.sqrt(sq);
  step.topProbs = step.topLogProbs.map(expf);
  if (step.cross) {
    const { alpha, e, ownAlpha } = step.cross;
    step.cross = { layers: alpha.length, heads: alpha[0].length, alpha, e, ownAlpha };
  }
  return step;
}

// expf(x) for a float x, bit for bit what the wasm engine's libm (musl 1.2, Arm's
// optimized-routines expf: a 32-entry table of 2^(i/32) and a cubic in double) returns, so
// topProbs are the very floats the C++ side computed before this moved to JS.
// Math.fround(Math.exp(x)) is correctly rounded and expf is not quite (0.502 ulp): they part in
// about 1 value in 1,000. Only double arithmetic below, as in the C; wasm has no FMA to fuse it.
const hexf = (m, e) => parseInt(m.replace('.', ''), 16) * 2 ** (e - 4 * (m.length - m.indexOf('.') - 1));
const N = 32;
const INV_LN2_N = hexf('1.71547652b82fe', 0) * N;
const SHIFT = hexf('1.8', 52);
const C0 = hexf('1.c6af84b912394', -5) / N / N / N;
const C1 = hexf('1.ebfce50fac4f3', -3) / N / N;
const C2 = hexf('1.62e42ff0c52d6', -1) / N;
// musl's __exp2f_data.tab: the bits of 2^(i/32) minus i << 47, as the C adds k << 47 back.
const TAB_BITS = [
  0x3ff0000000000000n, 0x3fefd9b0d3158574n, 0x3fefb5586cf9890fn, 0x3fef9301d0125b51n,
  0x3fef72b83c7d517bn, 0x3fef54873168b9aan, 0x3fef387a6e756238n, 0x3fef1e9df51fdee1n,
  0x3fef06fe0a31b715n, 0x3feef1a7373aa9cbn, 0x3feedea64c123422n, 0x3feece086061892dn,
  0x3feebfdad5362a27n, 0x3feeb42b569d4f82n, 0x3feeab07dd485429n, 0x3feea47eb03a5585n,
  0x3feea09e667f3bcdn, 0x3fee9f75e8ec5f74n, 0x3feea11473eb0187n, 0x3feea589994cce13n,
  0x3feeace5422aa0dbn, 0x3feeb737b0cdc5e5n, 0x3feec49182a3f090n, 0x3feed503b23e255dn,
  0x3feee89f995ad3adn, 0x3feeff76f2fb5e47n, 0x3fef199bdd85529cn, 0x3fef3720dcef9069n,
  0x3fef5818dcfba487n, 0x3fef7c97337b9b5fn, 0x3fefa4afa2a490dan, 0x3fefd0765b6e4540n,
];
// The C's s = asdouble(tab[k % 32] + (k << 47)) is exactly pow2[k % 32] * 2^floor(k / 32):
// the i << 47 cancels, and the rest of k lands in the exponent (s stays normal here).
const pow2 = (() => {
  const view = new DataView(new ArrayBuffer(8));
  return TAB_BITS.map((bits, i) => {
    view.setBigUint64(0, bits + (BigInt(i) << 47n));
    return view.getFloat64(0);
  });
})();

export function expf(x) {
  if (Number.isNaN(x)) return x;
  if (x > hexf('1.62e42e', 6)) return Infinity; // exp overflows float
  if (x < -hexf('1.9fe368', 6)) return 0; // below half the least subnormal (and -Infinity)
  const z = INV_LN2_N * x;
  const kd = z + SHIFT - SHIFT; // z rounded to an integer, ties to even, as the C's shift does
  const k = kd; // in [-150 * 32, 128 * 32]
  const r = z - kd;
  const s = pow2[k & (N - 1)] * 2 ** Math.floor(k / N);
  const p = C0 * r + C1;
  const r2 = r * r;
  let y = C2 * r + 1;
  y = p * r2 + y;
  y *= s;
  return Math.fround(y);
}
