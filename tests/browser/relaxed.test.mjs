// Relaxed SIMD in real Chromium, which runs it by default: the page's engine takes the relaxed
// int8 products and says so, and in Chromium's own implementation of the instruction they give
// exactly what wasm-simd gives: 1,000 dev sentences on en-fr and en-fr-dot and 200 on the other
// two shipped models, one at a time; 200 each batched; 100 with beam 4 on en-fr; and the tiny
// int8 fixtures' texts, whose odd shapes take the kernels' fallbacks.
// (tests/node/relaxed.test.mjs covers Node's states and the loop against exact sums.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { devSentences } from '../../scripts/lib/dev-sentences.mjs';
import { pageModel, setSpeed, sharedBrowser, waitDone, waitReady } from './helpers.mjs';

const T = { timeout: 180_000 };
const browser = sharedBrowser();

describe('relaxed SIMD in Chromium', { timeout: 600_000 }, () => {
  test('the page computes with the relaxed kernels and says so', T, async () => {
    const model = pageModel();
    const page = await browser.newPage();
    await page.goto(`${browser.url}?model=${model.name}&text=${encodeURIComponent('The black cat is sleeping.')}`);
    await waitReady(page);
    await setSpeed(page, 4);
    await waitDone(page);
    const status = await page.textContent('[data-role="status"]');
    assert.match(status, /wasm-simd \(SIMD and relaxed SIMD supported\)/);
    await page.close();
  });

  test('relaxed and relaxed:false give the same numbers on every int8 model kind, batched too', T, async () => {
    // The measure: 1,000 dev sentences on the additive and dot models, 200 on the others.
    const sentences = devSentences(1000);
    // A page of the test server without the app's CSP (a 404), where the test may evaluate code.
    const page = await browser.newPage();
    await page.goto(`${browser.url}no-such-page`);
    const out = await page.evaluate(async (sentences) => {
      const { createTranslator } = await import('/lib/bahdanau.js');
      const strip = (r) => JSON.stringify({ ...r, timings: null });
      const differ = [];
      const kernels = [];
      const models = ['en-fr', 'en-fr-dot', 'en-fr-noattn', 'en-fr-transformer'];
      for (const name of models) {
        const model = `/models/${name}.safetensors`;
        const a = await createTranslator({ model });
        const b = await createTranslator({ model, relaxed: false });
        kernels.push(`${a.engine.kernels}/${b.engine.kernels}`);
        const texts = name === 'en-fr' || name === 'en-fr-dot' ? sentences : sentences.slice(0, 200);
        const one = texts.map((text) => b.translate(text));
        texts.forEach((text, i) => {
          if (strip(a.translate(text)) !== strip(one[i])) differ.push(`${name}: ${text}`);
        });
        // Batched greedy decoding (the gemm kernels) against one at a time.
        a.translateBatch(texts.slice(0, 200)).forEach((r, i) => {
          if (strip(r) !== strip(one[i])) differ.push(`${name} batched: ${texts[i]}`);
        });
        if (name === 'en-fr') {
          for (const text of texts.slice(0, 100)) {
            const x = strip(a.translate(text, { beam: 4 }));
            if (x !== strip(b.translate(text, { beam: 4 }))) differ.push(`${name} beam 4: ${text}`);
          }
        }
        a.dispose();
        b.dispose();
      }
      // The tiny int8 fixtures: odd widths and row counts, where the relaxed kernels hand rows
      // that are not whole groups of 16 columns to wasm-simd and sum the last rows % 4 alone.
      for (const s of ['additive', 'scaled_dot', 'none']) {
        for (const name of [`tiny-${s}-int8`, `tiny-${s}-cgru-int8`]) {
          const doc = await (await fetch(`/fixtures/${name}.json`)).json();
          const model = `/fixtures/${doc.model}`;
          const a = await createTranslator({ model });
          const b = await createTranslator({ model, relaxed: false });
          kernels.push(`${a.engine.kernels}/${b.engine.kernels}`);
          for (const { text } of doc.cases) {
            for (const beam of [1, 4]) {
              if (strip(a.translate(text, { beam })) !== strip(b.translate(text, { beam }))) differ.push(`${name} beam ${beam}: ${text}`);
            }
          }
          a.dispose();
          b.dispose();
        }
      }
      return { differ, kernels };
    }, sentences);
    assert.deepEqual(out.kernels, Array(10).fill('wasm-relaxed/wasm-simd'));
    assert.deepEqual(out.differ, []);
    await page.close();
  });

  test('an f32 model runs and reports wasm-simd: the relaxed kernels differ only in int8 products', T, async () => {
    const page = await browser.newPage();
    await page.goto(`${browser.url}no-such-page`);
    const kernels = await page.evaluate(async () => {
      const { createTranslator } = await import('/lib/bahdanau.js');
      const t = await createTranslator({ model: '/fixtures/tiny-additive-f32.safetensors', relaxed: true });
      const k = [t.engine.kernels, t.engine.relaxed];
      t.dispose();
      return k;
    });
    assert.deepEqual(kernels, ['wasm-simd', 'relaxed SIMD supported']);
    await page.close();
  });
});
