// Corpus BLEU exactly as scripts/eval computes it: NLTK 3.8's corpus_bleu with 4-gram uniform
// weights and no smoothing, over token lists (tokenize with tr.tokenize(text, {side:
// 'target'}), the tokens scripts/eval uses). tests/fixtures/bleu-cases.json pins the two
// implementations to the same numbers (tests/python/test_bleu_fixture.py writes NLTK's side,
// tests/node/bleu.test.mjs checks this one).
//
// NLTK's details, kept on purpose so the page's number is the model card's number:
// - each hypothesis adds its clipped n-gram matches to the numerator and max(1, its n-gram
//   count) to the denominator, so a hypothesis shorter than n still adds 1;
// - the reference length is the one closest to the hypothesis, ties to the shorter;
// - no unigram match at all gives 0; a missing higher-order match is replaced by the smallest
//   normal double (NLTK's method0), which makes the score ~1e-77, not 0.

const MAX_N = 4;
const TINY = 2.2250738585072014e-308; // Python's sys.float_info.min

function ngramCounts(tokens, n) {
  const counts = new Map();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

// Running sums, so a page can add one sentence at a time and redraw as it goes.
export class CorpusBleu {
  constructor() {
    this.numerators = new Array(MAX_N).fill(0);
    this.denominators = new Array(MAX_N).fill(0);
    this.hypLength = 0;
    this.refLength = 0;
    this.sentences = 0;
  }

  // hypothesis: tokens; references: a list of token lists (at least one).
  add(hypothesis, references) {
    if (!Array.isArray(hypothesis) || !Array.isArray(references) || references.length === 0) {
      throw new TypeError('CorpusBleu.add(hypothesis, references): token arrays, one reference at least');
    }
    for (let n = 1; n <= MAX_N; n++) {
      const counts = ngramCounts(hypothesis, n);
      const refCounts = references.map((r) => ngramCounts(r, n));
      let matched = 0;
      let total = 0;
      for (const [key, count] of counts) {
        const best = Math.max(...refCounts.map((c) => c.get(key) ?? 0));
        matched += Math.min(count, best);
        total += count;
      }
      this.numerators[n - 1] += matched;
      this.denominators[n - 1] += Math.max(1, total);
    }
    const h = hypothesis.length;
    this.hypLength += h;
    this.refLength += references
      .map((r) => r.length)
      .reduce((a, b) => (Math.abs(b - h) < Math.abs(a - h) || (Math.abs(b - h) === Math.abs(a - h) && b < a) ? b : a));
    this.sentences++;
    return this;
  }

  // BLEU in [0, 1] (NLTK's scale; scripts/eval prints 100x).
  score() {
    if (this.numerators[0] === 0) return 0;
    const c = this.hypLength;
    const r = this.refLength;
    const bp = c > r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
    let logSum = 0;
    for (let n = 0; n < MAX_N; n++) {
      const p = this.numerators[n] === 0 ? TINY : this.numerators[n] / this.denominators[n];
      logSum += Math.log(p) / MAX_N;
    }
    return bp * Math.exp(logSum);
  }
}

// One call for a whole corpus: hypotheses[i] is scored against references[i] (token lists).
export function corpusBleu(hypotheses, references) {
  if (hypotheses.length !== references.length) {
    throw new RangeError(`corpusBleu: ${hypotheses.length} hypotheses, ${references.length} reference sets`);
  }
  const acc = new CorpusBleu();
  hypotheses.forEach((h, i) => acc.add(h, references[i]));
  return acc.score();
}
