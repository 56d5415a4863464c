// Relaxed SIMD in real Chromium, which runs it by default: the page's engine takes the relaxed
// int8 products and says so, and in Chromium's own implementation of the instruction they give
// exactly what wasm-simd gives, on 200 dev sentences and every int8 model kind.
// (tests/node/relaxed.test.mjs covers Node's states and the loop against exact sums.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { devSentences } from '../../scripts/lib/dev-sentences.mjs';
import { launch, pageModel, setSpeed, waitDone, waitReady } from './helpers.mjs';

const T = { timeout: 180_000 };
let browser;

before(async () => {
  browser = await launch();
}, { timeout: 90_000 });

after(async () => {
  await browser?.close();
});

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

  test('relaxed and relaxed:false give the same numbers on every int8 model kind', T, async () => {
    const sentences = devSentences(200);
    // A page of the test server without the app's CSP (a 404), where the test may evaluate code.
    const page = await browser.newPage();
    await page.goto(`${browser.url}no-such-page`);
    const out = await page.evaluate(async (sentences) => {
      const { createTranslator } = await import('/lib/bahdanau.js');
      const differ = [];
      const kernels = [];
      const models = ['/models/en-fr.safetensors', '/models/en-fr-dot.safetensors',
        '/models/en-fr-noattn.safetensors', '/models/en-fr-transformer.safetensors'];
      for (const model of models) {
        const a = await createTranslator({ model });
        const b = await createTranslator({ model, relaxed: false });
        kernels.push(`${a.engine.kernels}/${b.engine.kernels}`);
        for (const text of sentences) {
          for (const beam of model.endsWith('/en-fr.safetensors') ? [1, 4] : [1]) {
            const x = JSON.stringify({ ...a.translate(text, { beam }), timings: null });
            const y = JSON.stringify({ ...b.translate(text, { beam }), timings: null });
            if (x !== y) differ.push(`${model} beam ${beam}: ${text}`);
          }
        }
        a.dispose();
        b.dispose();
      }
      return { differ, kernels };
    }, sentences);
    assert.deepEqual(out.kernels, Array(4).fill('wasm-relaxed/wasm-simd'));
    assert.deepEqual(out.differ, []);
    await page.close();
  });
});
