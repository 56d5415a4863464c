#!/usr/bin/env node
// node scripts/int8-error.mjs [--json]
//
// How far the engines' int8 models are from the PyTorch reference, which computes with f32
// activations (scripts/nmt/golden.py) while the engines quantize each activation vector to
// 14-bit integers (kernels.h, qd14). Per wasm engine:
//   tiny int8 fixtures (tests/fixtures/tiny-*-int8.json): the largest |difference| of every
//     step's e, alpha, c, top-5 log-probs and prob (up to a step whose token differs, after
//     which the decodings part), of the forced log-prob and of the beam-4 norm, and how many
//     tokens (with the reference's largest top-2 gap where they do), top-5 ids or
//     translations differ;
//   shipped models' dev100 fixtures: greedy and beam-4 translations that differ, and the
//     largest |difference| of the beam-4 norm.
// The golden tests' int8 tolerance (tests/node/golden.test.mjs, tests/cpp/golden_test.cpp) is
// set from these numbers; docs/model-format.md records them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createTranslator } from '../web/lib/bahdanau.js';
import { ROOT, ensureBuilt } from './lib/engines.mjs';

const FIX = path.join(ROOT, 'tests', 'fixtures');
const TINY = ['additive', 'scaled_dot', 'none'].flatMap((s) => ['', '-cgru'].map((d) => `tiny-${s}${d}-int8`));
const SHIPPED = ['en-fr', 'en-fr-dot', 'en-fr-noattn'];

function maxDiff(acc, key, got, want) {
  for (let k = 0; k < want.length; k++) acc[key] = Math.max(acc[key] ?? 0, Math.abs(got[k] - want[k]));
}

async function tinyErrors(name, simd) {
  const doc = JSON.parse(readFileSync(path.join(FIX, `${name}.json`), 'utf8'));
  const tr = await createTranslator({ model: readFileSync(path.join(FIX, doc.model)), simd });
  const d = { steps: 0, tokenDiffs: 0, topIdDiffs: 0, translationDiffs: 0 };
  for (const c of doc.cases) {
    if (c.steps) {
      let i = 0;
      for await (const s of tr.steps(c.text)) {
        const w = c.steps[i++];
        if (!w) { d.tokenDiffs++; break; }
        for (const k of ['e', 'alpha', 'c']) maxDiff(d, k, s[k], w[k]);
        maxDiff(d, 'topLogProbs', s.topLogProbs, w.top_logp);
        maxDiff(d, 'prob', [s.prob], [w.prob]);
        if (JSON.stringify(s.topIds) !== JSON.stringify(w.top_ids)) d.topIdDiffs++;
        d.steps++;
        if (s.token !== w.token) {  // a near tie went the other way: the decodings part here
          d.tokenDiffs++;
          maxDiff(d, 'flipGap', [w.top_logp[0] - w.top_logp[1]], [0]);
          break;
        }
      }
    }
    if (c.force && !c.force.error && c.force.steps.length && !d.alignError) {
      try {
        maxDiff(d, 'forcedLogProb', [tr.align(c.text, c.force.target).logProb], [c.force.log_prob]);
      } catch (e) {
        d.alignError = e.message;  // reported, not hidden: the engine failed, not the model
      }
    }
    const g = tr.translate(c.text);
    const b = tr.translate(c.text, { beam: 4 });
    if (g.targetTokens.join(' ') !== c.greedy.tokens.join(' ')) d.translationDiffs++;
    if (b.targetTokens.join(' ') !== c.beam4.tokens.join(' ')) d.translationDiffs++;
    if (c.beam4.norm !== null && c.beam4.norm !== undefined && b.hypotheses.length) {
      maxDiff(d, 'beamNorm', [b.hypotheses[0].norm], [c.beam4.norm]);
    }
  }
  tr.dispose();
  return d;
}

async function dev100Errors(name, simd) {
  const model = path.join(ROOT, 'models', `${name}.safetensors`);
  const fix = path.join(FIX, `${name}-dev100.json`);
  if (!existsSync(model) || !existsSync(fix)) return null;
  const doc = JSON.parse(readFileSync(fix, 'utf8'));
  const tr = await createTranslator({ model: readFileSync(model), simd });
  const d = { greedyDiffs: 0, beamDiffs: 0, beamNorm: 0 };
  for (const c of doc.cases) {
    if (tr.translate(c.text).targetTokens.join(' ') !== c.greedy.tokens.join(' ')) d.greedyDiffs++;
    const b = tr.translate(c.text, { beam: 4 });
    if (b.targetTokens.join(' ') !== c.beam4.tokens.join(' ')) d.beamDiffs++;
    if (c.beam4.norm !== null && b.hypotheses.length) maxDiff(d, 'beamNorm', [b.hypotheses[0].norm], [c.beam4.norm]);
  }
  tr.dispose();
  return d;
}

async function main() {
  ensureBuilt('wasm-simd');
  const out = {};
  for (const variant of ['wasm-simd', 'wasm-scalar']) {
    const simd = variant === 'wasm-simd';
    out[variant] = {};
    for (const name of TINY) out[variant][name] = await tinyErrors(name, simd);
    for (const name of SHIPPED) {
      const d = await dev100Errors(name, simd);
      if (d) out[variant][`${name}-dev100`] = d;
    }
  }
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  const fmt = (v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toExponential(2) : String(v));
  for (const [variant, byName] of Object.entries(out)) {
    console.log(`== ${variant}`);
    for (const [name, d] of Object.entries(byName)) {
      console.log(`  ${name.padEnd(26)} ${Object.entries(d).map(([k, v]) => `${k} ${fmt(v)}`).join('  ')}`);
    }
  }
}

main().catch((e) => {
  process.stderr.write(`int8-error: ${e.stack || e}\n`);
  process.exitCode = 1;
});
