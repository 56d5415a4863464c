// why.html's lineage strip, measured: once the strip is in view, each of the four models is
// loaded in turn in one worker (one at a time, so they do not compete for the machine while
// their scoring is timed), asked for its info() and, on the page's sentence, its
// scoringCost(), then timed translating that sentence (DECODE_RUNS greedy translations, the
// median of the engine's own timings), and then let go. A model whose file is missing is marked
// so and the next one is measured.

import { EngineClient } from '../engine/client.js';
import { isMissingModel } from '../ui/transformer-strings.js';
import { whenNear } from '../ui/when-near.js';

// Translations timed per model: the first may include the browser's late compilation of the
// engine, so one run alone would be unfair to whichever model comes first; the median of five
// drops it without holding the worker for long.
const DECODE_RUNS = 5;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// -> {msPerWord, encodeMs, words, runs}: the decoder's time per output word ('</s>' counted: the
// decoder computes that step too, unless the length limit cut it) and the encoder's once per
// sentence, medians of the engine's timings. translateBatch() of one text is translate()
// without the per-step messages to the page, which would otherwise sit inside the time.
async function timeDecoding(client, text) {
  const perWord = [];
  const encode = [];
  let words = 0;
  for (let k = 0; k < DECODE_RUNS; k++) {
    const [r] = await client.translateBatch([text]);
    if (r.error !== undefined) throw new Error(r.error);
    words = r.targetTokens.length;
    perWord.push(r.timings.decodeMs / Math.max(1, words + (r.truncated ? 0 : 1)));
    encode.push(r.timings.encodeMs);
  }
  return { msPerWord: median(perWord), encodeMs: median(encode), words, runs: DECODE_RUNS };
}

// models: [{name, url}]; view: ui/lineage-strip.js; text(): the sentence to time on (read when
// measuring starts); simd: 'auto' | false.
export function measureWhenVisible(element, { models, view, text, simd }) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    measure(models, view, text(), simd);
  };
  whenNear(element, start, '100px');
}

async function measure(models, view, text, simd) {
  view.setSentence(text);
  for (const { name, url } of models) {
    view.setModel(name, { status: 'loading' });
    const client = new EngineClient();
    try {
      const { info } = await client.load({ model: url, simd });
      let cost = null;
      let costError = null;
      // A model without attention has no scoring to time (the engine throws): the strip says so.
      if (info.scoring !== 'none' || info.arch === 'transformer') {
        try {
          const a = await client.analyze(text);
          cost = a.scoringCost;
          costError = a.scoringCostError;
        } catch (e) {
          costError = e.message;
        }
      }
      let decode = null;
      let decodeError = null;
      try {
        decode = await timeDecoding(client, text);
      } catch (e) {
        decodeError = e.message;
      }
      view.setModel(name, { status: 'ready', info, cost, costError, decode, decodeError });
    } catch (e) {
      view.setModel(name, { status: isMissingModel(e) ? 'missing' : 'failed', error: e.message });
    } finally {
      client.dispose();
    }
  }
}
