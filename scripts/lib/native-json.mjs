// The native CLI's --json and --info output for the Node CLI: the same keys and shape, and
// the same text (object keys sorted, nlohmann's number format), so lines from every engine can
// be compared byte for byte, timings aside.
import { alignmentEdits, translationEdits } from './attend-args.mjs';

// One --json line's object, from a web/lib translate() result (native key names and shape),
// with its edited rows (attend-args.mjs) where attention was edited.
export function translationObject(r) {
  const o = {
    source: r.sourceTokens,
    target: r.targetTokens,
    text: r.text,
    attention: r.attention,
    truncated: r.truncated,
    timings: { encode_ms: r.timings.encodeMs, decode_ms: r.timings.decodeMs },
  };
  if (r.probs.length) o.probs = r.probs;
  if (r.hypotheses.length) {
    o.hypotheses = r.hypotheses.map((h) => ({
      tokens: h.tokens,
      score: h.score,
      norm: h.norm,
      finished: h.finished,
    }));
  }
  return Object.assign(o, translationEdits(r));
}

// A --force line's object, from a web/lib align() result.
export function alignmentObject(r) {
  return {
    source: r.sourceTokens,
    target: r.targetTokens,
    words: r.steps.map((s) => s.word),
    attention: r.steps.map((s) => s.alpha),
    probs: r.steps.map((s) => s.prob),
    log_prob: r.logProb,
    unknown: r.unknown,
    ...alignmentEdits(r),
  };
}

// --force's text line: each target token with its probability ('<unk>' appended when the
// model does not know the word), then the whole target's log-probability.
export function alignmentLine(r) {
  const words = r.steps.map((s, i) =>
    `${r.targetTokens[i]}${s.token === 1 ? '<unk>' : ''}/${s.prob.toFixed(3)}`);
  return `${words.join(' ')}  log p = ${r.logProb.toFixed(3)}`;
}

// --info's object, from a web/lib info() result.
export function infoObject(i) {
  const snake = (k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const keys = ['srcLang', 'tgtLang', 'scoring', 'decoder', 'attentionGuidance', 'dtype',
    'kernels', 'emb', 'encHidden', 'decHidden', 'attn', 'srcVocab', 'tgtVocab', 'maxSrcLen',
    'maxTgtLen', 'numParams', 'fileBytes', 'scoringParams', 'arch', 'encLayers', 'decLayers',
    'heads', 'dModel', 'ffn'];
  return Object.fromEntries(keys.map((k) => [snake(k), i[k]]));
}

// The JSON text itself: made by the engine's Embind dumpJson, i.e. by nlohmann::json as in the
// native CLI, since its double formatting (Grisu2) differs from JavaScript's in the last digit
// of about 1 number in 200. floats: numbers are doubles ("1.0"), as in a translation; else
// integers, as in --info. ints: keys whose values are integers all the same (a --force line's
// "unknown" count); "edited" (the rows an attention edit gave) always is.
export function dump(module, value, { floats = true, ints = [] } = {}) {
  return module.dumpJson(value, { floats, ints: [...ints, 'edited'] });
}
