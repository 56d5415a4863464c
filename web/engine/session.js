// One sentence decoded as a stream of steps, whichever way it is decoded: greedy (web/lib's
// steps(), a step as soon as the engine has computed it), beam search (one search, then its
// winner's rows), or forced (align(): the rows of a given translation). The worker, the widget
// and, through the worker, the page iterate it the same way:
//
//   const session = new DecodeSession(translator, text, { beam, edits });
//   draw(session.sourceTokens);
//   for await (const step of session) push(step);   // break or return stops it
//   session.result, session.msPerWord                 // once the last step is out
//
// Leaving the loop early (a newer sentence was asked for) frees the C++ decoder at once, not
// at the next GC; close() does the same for a session read step by step with next().

import { beamSteps, forcedSteps, isRow } from './steps.js';

export class DecodeSession {
  sourceTokens = [];
  result = null; // translate()'s result (align()'s when forced), once the last step is out
  msPerWord = null;
  lastMs = null; // what the step just yielded took the engine (greedy only)
  #iterator = null; // greedy: steps()'s
  #steps = null; // beam and forced: all of them, computed at once

  // beam: 1 (greedy) or wider; target: a translation to force (align()), or null. edits:
  // attention edits (web/lib's AttentionEdit: a step decoded from given weights instead of its
  // own softmax), greedy and forced only; none leaves every call as it was. Bad input throws
  // here, before any step.
  constructor(translator, text, { beam = 1, target = null, edits = [] } = {}) {
    const more = edits?.length ? { edits } : {};
    if (target === null && beam <= 1) {
      this.#iterator = translator.steps(text, more);
      this.sourceTokens = this.#iterator.sourceTokens;
      return;
    }
    const t0 = performance.now();
    const result = target === null ? translator.translate(text, { beam, ...more }) : translator.align(text, target, more);
    const ms = performance.now() - t0;
    this.#steps = target === null ? beamSteps(result) : forcedSteps(result);
    this.sourceTokens = result.sourceTokens;
    this.result = result;
    // One search for all the words, </s> counted.
    this.msPerWord = ms / Math.max(1, this.#steps.filter(isRow).length + 1);
  }

  // Frees the decoder of a stream not read to its end (a no-op once it has been).
  async close() {
    if (this.#iterator && !this.result) await this.#iterator.return();
  }

  async *[Symbol.asyncIterator]() {
    if (this.#steps) {
      yield* this.#steps;
      return;
    }
    const it = this.#iterator;
    let total = 0;
    let count = 0;
    try {
      for (;;) {
        const t0 = performance.now();
        const { done, value } = await it.next();
        const ms = performance.now() - t0;
        if (done) break;
        total += ms;
        count += 1;
        this.lastMs = ms;
        yield value;
      }
      // The decoder's own result: the detokenized text and the attention the rows came from.
      this.result = it.result;
      this.msPerWord = total / Math.max(1, count);
    } finally {
      if (!this.result) await it.return();
    }
  }
}
