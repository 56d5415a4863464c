// Attention as word alignment, measured on gold links (issue 25's "Train it yourself"): the
// exact definitions of scripts/nmt/alignment.py's measure(), so a model trained in the tab is
// judged as scripts/eval judges the shipped ones. Pure functions, no engine:
// tests/node/train-measure.test.mjs checks them against the Python on the shipped model's rows.
//
//   alignmentMeasure([{ rows, sourceLength, sure, possible }, ...])
//
// rows: forced decoding's attention rows, one per gold French token (the '</s>' row left out),
// each with one weight per English token and then '</s>'. sourceLength: the English tokens
// ('</s>' not counted). sure, possible: gold links [english index, french index]; possible holds
// the sure links too (alignment.parse_links), and a link only in sure counts as possible.
//
// -> { accuracy, offDiagonal, diagonal, mass, aer, entropyBits, tokens, offDiagonalTokens,
//      sentences }, shares in [0, 1] (the Python's percentages / 100) and entropy in bits:
// - accuracy: the share of French tokens with a sure link whose attention argmax over the
//   English tokens ('</s>' excluded; ties to the first) is one of their gold (sure or possible)
//   English tokens; tokens counts them.
// - diagonal: the same share for no model at all, French token i of m looking at English token
//   round(i (n - 1) / (m - 1)) of n: the in-order words any alignment gets for free.
// - offDiagonal: accuracy on the sure-linked French tokens whose diagonal English token is not
//   gold (offDiagonalTokens of them), where the word orders differ: the paper's claim.
// - mass: the mean weight those tokens put on their gold English tokens ('</s>' in the total).
// - aer (Och & Ney 2003): 1 - (|A&S| + |A&P|) / (|A| + |S|), A the argmax link of every French
//   token whose largest weight is not on '</s>'.
// - entropyBits: the mean entropy of all the French tokens' rows.
// Empty counts give 0 where the Python divides by max(count, 1).

// The English position that French position i of m faces on the plain diagonal (n English
// tokens). Math.floor(x + 0.5), as the Python's int(math.floor(x + 0.5)), not Math.round's
// half-up-toward-+inf on negatives (never negative here; the same double operations anyway).
export function diagonal(i, m, n) {
  return m <= 1 ? 0 : Math.floor((i * (n - 1)) / (m - 1) + 0.5);
}

// alignmentMeasure of a translator's forced decoding of every gold pair: what a run's measure
// reports (train-worker.js) and scripts/lib/train-average.mjs compares. translator: anything
// with createTranslator's align(); gold: pairs with en, fr, enTokens, sure and possible links.
export function goldAlignment(translator, gold) {
  return alignmentMeasure(gold.map((g) => ({
    rows: translator.align(g.en, g.fr).steps.slice(0, -1).map((s) => s.alpha), // '</s>' row out
    sourceLength: g.enTokens.length, sure: g.sure, possible: g.possible ?? [],
  })));
}

function entropyBits(row) {
  let h = 0;
  for (const p of row) if (p > 0) h -= p * Math.log2(p);
  return h;
}

const key = (e, f) => `${e} ${f}`;

export function alignmentMeasure(items) {
  if (!Array.isArray(items)) throw new TypeError('alignmentMeasure: items must be an array');
  let hit = 0, linked = 0, diagHit = 0, offLinked = 0, offHit = 0, mass = 0;
  let aS = 0, aP = 0, nA = 0, nS = 0, ent = 0, nRows = 0;
  items.forEach((it, k) => {
    const { rows, sourceLength: n, sure: sureLinks, possible: possibleLinks = [] } = it ?? {};
    if (!Array.isArray(rows) || !Number.isInteger(n) || n < 1 || !Array.isArray(sureLinks)) {
      throw new TypeError(`alignmentMeasure: item ${k} needs rows, a sourceLength >= 1 and sure links`);
    }
    const sure = new Set(sureLinks.map(([e, f]) => key(e, f)));
    const possible = new Set([...possibleLinks.map(([e, f]) => key(e, f)), ...sure]);
    const links = [...possible].map((s) => s.split(' ').map(Number));
    rows.forEach((row, fi) => {
      if (!Array.isArray(row) || row.length !== n + 1) {
        throw new RangeError(`alignmentMeasure: item ${k}, row ${fi} has ${row?.length} weights, not ${n + 1} (the source tokens and '</s>')`);
      }
      ent += entropyBits(row);
      nRows += 1;
      let best = 0;
      for (let j = 1; j < n; j++) if (row[j] > row[best]) best = j; // '</s>' (index n) excluded
      const gold = new Set(links.filter(([, f]) => f === fi).map(([e]) => e));
      const sureHere = links.some(([e, f]) => f === fi && sure.has(key(e, f)));
      if (sureHere) {
        linked += 1;
        const right = gold.has(best);
        hit += right;
        let onGold = 0; // summed on its own, then added, as the Python does
        for (const e of [...gold].sort((a, b) => a - b)) onGold += row[e];
        mass += onGold;
        const onDiag = gold.has(diagonal(fi, rows.length, n));
        diagHit += onDiag;
        if (!onDiag) {
          offLinked += 1;
          offHit += right;
        }
      }
      if (row[best] >= row[n]) { // the argmax over the whole row is a source word
        nA += 1;
        aS += sure.has(key(best, fi));
        aP += possible.has(key(best, fi));
      }
    });
    nS += sure.size;
  });
  const share = (a, b) => a / Math.max(b, 1);
  return {
    accuracy: share(hit, linked),
    offDiagonal: share(offHit, offLinked),
    diagonal: share(diagHit, linked),
    mass: share(mass, linked),
    aer: 1 - share(aS + aP, nA + nS),
    entropyBits: share(ent, nRows),
    tokens: linked,
    offDiagonalTokens: offLinked,
    sentences: items.length,
  };
}
