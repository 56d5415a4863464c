// "What you can learn from editing attention" (web/ui/edit-findings.js) in real Chromium: the
// recorded measurement (web/data/attention-edits.json, scripts/attention-edits --json's format)
// read defensively, every number said to be recorded, names and labels only ever text, and an
// absent, empty or unreadable file said to be not recorded yet. The file is swapped for each
// test through the browser's request routing, so the shipped one is never touched.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { sharedBrowser } from './helpers.mjs';

const T = { timeout: 120_000 };
const NOT_FOUND = /Failed to load resource: the server responded with a status of 404/;

const browser = sharedBrowser();

const url = () => `${browser.url}`;

describe('what you can learn from editing attention (the recorded measurement)', { timeout: 300_000 }, () => {
  // scripts/attention-edits --json's format, with values a script should never write.
  const RECORDED = {
    recorded: '2025-01-01: scripts/attention-edits',
    models: [
      { model: 'en-fr', rows: [
        { edit: 'attention', what: 'gold', steps: 812, changed: 31, human_top1_own: 80, human_top1_edited: 85.5, dlogp_mean: -1.25 },
        { edit: 'attention', what: 'other', steps: 812, changed: 'lots', dlogp_mean: null },
      ] },
      { model: '<b>x</b>', rows: [{ edit: '<i>e</i>', what: 'gold', steps: 3 }] },
      { model: 'en-fr-noattn', reason: 'no attention: every step reads the same fixed vector c, so there is no weight to move' },
      { model: 'en-fr-transformer', rows: [
        { edit: 'every head', what: 'gold', steps: 10, changed: 15.1, human_top1_own: 85.4, human_top1_edited: 80.3, dlogp_mean: -0.146 },
        { edit: 'L1H2', what: 'off', steps: 10, changed: 3.2, human_top1_own: 85.4, human_top1_edited: 85, dlogp_mean: -0.044 },
      ] },
      { model: 'y', rows: 'not a list' },
      null,
    ],
  };

  async function findings(body, status = 200) {
    const page = await browser.newPage();
    await page.route('**/data/attention-edits.json', (r) => r.fulfill({ status, contentType: 'application/json', body }));
    await page.goto(url());
    await page.waitForSelector('[data-role="edit-findings"]:not([data-state="loading"])');
    return page;
  }

  test('the recorded table, read defensively, says that its numbers are recorded', T, async () => {
    const page = await findings(JSON.stringify(RECORDED));
    assert.equal(await page.getAttribute('[data-role="edit-findings"]', 'data-state'), 'recorded');
    assert.match(await page.textContent('[data-role="findings-recorded"]'), /Recorded: 2025-01-01: scripts\/attention-edits\. These numbers were measured once/);
    const rows = (role) => page.$$eval(`[data-role="${role}"] tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    assert.deepEqual(await rows('findings-table'), [
      ['en-fr · additive attention', 'its attention → its gold English word', '812', '31.0%', '80.0% → 85.5%', '−1.25'],
      ['its attention → another source word (mean over each)', '812', '—', '—', '—'],
      ['<b>x</b>', '<i>e</i> → its gold English word', '3', '—', '—', '—'],
      ['en-fr-noattn · no attention', 'no attention: every step reads the same fixed vector c, so there is no weight to move'],
      ['en-fr-transformer · Transformer', 'every head at once → its gold English word', '10', '15.1%', '85.4% → 80.3%', '−0.15'],
    ]);
    assert.deepEqual(await rows('findings-heads'), [['en-fr-transformer · Transformer', 'layer 1, head 2 → nowhere: the head switched off', '10', '3.2%', '85.4% → 85.0%', '−0.04']]);
    assert.equal(await page.locator('[data-role="edit-findings"] :is(b, i)').count(), 0, 'names are text, never markup');
    assert.deepEqual(page.problems, []);
    await page.close();
  });

  test('absent, empty or unreadable: not recorded yet', T, async () => {
    for (const [body, status, state] of [['', 404, 'missing'], ['{"recorded": null, "models": []}', 200, 'missing'], ['{not json', 200, 'bad']]) {
      const page = await findings(body, status);
      assert.equal(await page.getAttribute('[data-role="edit-findings"]', 'data-state'), state, body);
      assert.match(await page.textContent('[data-role="findings-missing"]'), state === 'bad' ? /could not be read/ : /not recorded yet/);
      assert.equal(await page.locator('[data-role="findings-table"]').count(), 0);
      assert.deepEqual(page.problems.filter((p) => !NOT_FOUND.test(p)), []);
      await page.close();
    }
  });
});
