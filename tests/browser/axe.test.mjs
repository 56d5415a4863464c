// axe-core on every page of the site, in English and in Chinese, once decoding is done:
// index.html, compare.html, embed-docs.html and the iframe route embed.html.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { ROOT, launch, pageModel } from './helpers.mjs';

const AXE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
let browser;
let model;

before(async () => {
  model = pageModel();
  browser = await launch();
}, { timeout: 90_000 });

after(() => browser?.close());

const text = encodeURIComponent('The black cat is sleeping.');
const PAGES = [
  ['index.html', (lang) => `?model=${model.name}&text=${text}&lang=${lang}`, '[data-role="app"][data-state="done"]'],
  ['compare.html', (lang) => `?text=${text}&lang=${lang}`, '[data-role="app"][data-state="done"]'],
  ['embed.html', (lang) => `?model=${model.name}&text=${text}&lang=${lang}&speed=4`, 'attention-translator[data-state="done"]'],
  // Its widgets below the fold load when scrolled to; the two at the top decode on load.
  ['embed-docs.html', () => '', 'attention-translator[data-state="done"]'],
];

for (const [file, query, ready] of PAGES) {
  for (const lang of ['en', 'zh']) {
    test(`${file} (${lang}): axe finds nothing`, { timeout: 120_000 }, async () => {
      const page = await browser.newPage();
      await page.goto(`${browser.url}${file}${query(lang)}`);
      await page.waitForSelector(ready, { timeout: 90_000 });
      // No widget still loading or decoding: one that is can start a row's fade-in after the
      // check below and fail colour contrast (embed-docs.html in zh did, in one CI run, when
      // this waited only for the element to exist).
      await page.waitForFunction(() => [...document.querySelectorAll('attention-translator')]
        .every((el) => el.dataset.state !== 'loading' && el.dataset.state !== 'decoding'), null, { timeout: 90_000 });
      // Rows fade in, also inside the widgets' shadow roots, which document.getAnimations()
      // leaves out (a row caught mid-fade fails colour contrast).
      await page.waitForFunction(() => [document, ...[...document.querySelectorAll('attention-translator')]
        .map((el) => el.shadowRoot)].every((root) => !root || root.getAnimations().length === 0));
      // (axe applies inline styles, which the pages' CSP refuses and logs: not the page's.)
      await page.evaluate(AXE);
      const violations = await page.evaluate(async () =>
        (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      assert.deepEqual(violations, []);
      await page.close();
    });
  }
}
