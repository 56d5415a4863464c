#!/usr/bin/env node
// node scripts/lib/onnx-check.mjs GRAPH_DIR CASES.json OUT.json
// Runs the ONNX peer's graphs in onnxruntime-web on the cases of scripts/nmt/onnx_export.py
// check(): the encoder on each sentence, each decoder step on PyTorch's own inputs (its y_prev
// and s_prev, so that one step's error does not feed the next), and a greedy run of its own.
// Writes the outputs as JSON; Python compares them with PyTorch's.
import { readFileSync, writeFileSync } from 'node:fs';

import { OrtPeer } from './ort-peer.mjs';

const [graphDir, casesPath, outPath] = process.argv.slice(2);
if (!outPath) {
  process.stderr.write('usage: node scripts/lib/onnx-check.mjs GRAPH_DIR CASES.json OUT.json\n');
  process.exit(2);
}
const rows = (t) => {
  const [, n, w] = t.dims;
  return Array.from({ length: n }, (_, j) => Array.from(t.data.subarray(j * w, (j + 1) * w)));
};

const peer = await OrtPeer.create(graphDir);
const out = [];
for (const c of JSON.parse(readFileSync(casesPath, 'utf8'))) {
  const enc = await peer.encode(c.ids);
  const steps = [];
  for (const st of c.steps) {
    const r = await peer.step(enc, st.y_prev, Float32Array.from(st.s_prev));
    steps.push({ logp: Array.from(r.logp), s: Array.from(r.s.data), alpha: r.alpha ? Array.from(r.alpha) : [] });
  }
  const greedy = await peer.greedy(c.ids, c.copyable);
  out.push({ h: rows(enc.h), keys: enc.keys ? rows(enc.keys) : null, s0: Array.from(enc.s0.data),
    steps, tokens: greedy.ids });
}
await peer.release();
writeFileSync(outPath, JSON.stringify(out));
