// why.html's lineage strip, measured: once the strip is in view, each of the four models is
// loaded in turn in one worker (one at a time, so they do not compete for the machine while
// their scoring is timed), asked for its info() and, on the page's sentence, its
// scoringCost(), and then let go. A model whose file is missing is marked so and the next one
// is measured.

import { EngineClient } from '../engine/client.js';
import { isMissingModel } from '../ui/transformer-strings.js';

// models: [{name, url}]; view: ui/lineage-strip.js; text(): the sentence to time on (read when
// measuring starts); simd: 'auto' | false.
export function measureWhenVisible(element, { models, view, text, simd }) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    measure(models, view, text(), simd);
  };
  if (typeof IntersectionObserver !== 'function') {
    start();
    return;
  }
  const io = new IntersectionObserver((entries) => {
    if (!entries.some((x) => x.isIntersecting)) return;
    io.disconnect();
    start();
  }, { rootMargin: '100px' });
  io.observe(element);
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
      view.setModel(name, { status: 'ready', info, cost, costError });
    } catch (e) {
      view.setModel(name, { status: isMissingModel(e) ? 'missing' : 'failed', error: e.message });
    } finally {
      client.dispose();
    }
  }
}
