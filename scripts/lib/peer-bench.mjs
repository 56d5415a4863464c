// scripts/bench --peers: our wasm-simd engine against onnxruntime-web (scripts/lib/ort-peer.mjs)
// on the same weights (the model file, int8 dequantized as the core sees it, run in f32 by the
// peer) and the same sentences, greedy, batch 1, one thread each, in this one Node process.
//
// Three passes over the sentences, each sentence R times, its time the median of those:
//   alone        ours over all sentences, then the peer over all sentences;
//   interleaved  ours and the peer take turns on each sentence (who goes first alternates with
//                each repetition), so both see the same machine state: the ratio to quote.
// Interleaving moves the absolute figures (each engine evicts the other's weights from the
// caches between calls), which is why the alone pass is reported beside it.
// What is timed, per decoded token (</s> included), medians over sentences:
//   ours core    the engine's own encode + decode clock (as in the engines table);
//   ours call    translate()'s wall time in Node: core plus tokenization and building the
//                result (attention rows, strings), work the peer's loop does not do;
//   peer         the greedy loop's wall time: the encoder run, each step's run, tensor
//                creation and the JS arg max. Source ids are made beforehand by the reference
//                tokenizer (scripts/nmt), as tokenization is outside ours core too.
// The peer's output ids are compared with ours, sentence by sentence.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { createTranslator } from '../../web/lib/bahdanau.js';
import { ROOT } from './engines.mjs';
import { OrtPeer, ortVersion } from './ort-peer.mjs';
import { median } from './median.mjs';

export const INT8_PEER_SKIPPED = 'no int8 peer: ONNX dynamic quantization is onnxruntime\'s ' +
  'Python quantizer (onnxruntime.quantization), which Debian 12 does not package';

// The graphs for modelPath (exported and checked against PyTorch if missing or stale, under
// build/onnx/) and the reference tokenizer's source ids and copyable() flags of each sentence.
export function peerInputs(modelPath, sentences) {
  const out = execFileSync('/usr/bin/python3', ['-m', 'nmt.onnx_export', '--peer-inputs',
    '--model', modelPath], {
    env: { ...process.env, PYTHONPATH: path.join(ROOT, 'scripts') },
    input: JSON.stringify(sentences), encoding: 'utf8', maxBuffer: 64 << 20,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return JSON.parse(out);
}

const decoded = (r) => r.targetIds.length + (r.truncated ? 0 : 1);

function runOurs(tr, s) {
  const t0 = performance.now();
  const r = tr.translate(s);
  const call = performance.now() - t0;
  return { core: r.timings.encodeMs + r.timings.decodeMs, call, tokens: decoded(r), r };
}

async function runPeer(peer, src) {
  const t0 = performance.now();
  const g = await peer.greedy(src.ids, src.copyable);
  return { ms: performance.now() - t0, tokens: g.ids.length, g };
}

// per: [{core, call, peer, tokens, peerTokens}] -> medians of ms per decoded token.
function summary(per, hasOurs, hasPeer) {
  const out = {};
  if (hasOurs) {
    out.oursCoreMsPerToken = median(per.map((p) => p.core / p.tokens));
    out.oursCallMsPerToken = median(per.map((p) => p.call / p.tokens));
  }
  if (hasPeer) out.peerMsPerToken = median(per.map((p) => p.peer / p.peerTokens));
  if (hasOurs && hasPeer) {
    out.ratioCore = out.oursCoreMsPerToken / out.peerMsPerToken;
    out.ratioCall = out.oursCallMsPerToken / out.peerMsPerToken;
  }
  return out;
}

export async function benchPeers(o, bytes, sentences) {
  const { dir, sources } = peerInputs(o.model, sentences);
  const tr = await createTranslator({ model: bytes, simd: true });
  const peer = await OrtPeer.create(dir);
  try {
    // Let V8 and both engines warm up on the first sentences before anything is timed.
    for (let i = 0; i < Math.min(30, sentences.length); i++) {
      if (!sources[i].ids.length) continue;
      runOurs(tr, sentences[i]);
      await runPeer(peer, sources[i]);
    }
    const idx = sentences.map((_, i) => i).filter((i) => sources[i].ids.length > 0);
    const blank = () => idx.map(() => ({ core: [], call: [], peer: [] }));
    const alone = blank();
    const inter = blank();
    const record = (slot, ours) => {
      slot.core.push(ours.core);
      slot.call.push(ours.call);
      slot.tokens = ours.tokens;
      slot.ours = ours.r;
    };
    for (const [j, i] of idx.entries()) {
      for (let k = 0; k < o.repeat; k++) record(alone[j], runOurs(tr, sentences[i]));
    }
    for (const [j, i] of idx.entries()) {
      for (let k = 0; k < o.repeat; k++) {
        const p = await runPeer(peer, sources[i]);
        alone[j].peer.push(p.ms);
        alone[j].peerTokens = p.tokens;
      }
    }
    const differing = [];
    for (const [j, i] of idx.entries()) {
      for (let k = 0; k < o.repeat; k++) {
        let ours;
        let p;
        if (k % 2 === 0) {
          ours = runOurs(tr, sentences[i]);
          p = await runPeer(peer, sources[i]);
        } else {
          p = await runPeer(peer, sources[i]);
          ours = runOurs(tr, sentences[i]);
        }
        record(inter[j], ours);
        inter[j].peer.push(p.ms);
        inter[j].peerTokens = p.tokens;
        inter[j].peerRun = p.g;
      }
      const r = inter[j].ours;
      const g = inter[j].peerRun;
      if (r.sourceIds.join() !== sources[i].ids.join()) {
        throw new Error(`sentence ${i + 1}: the core's source ids ${r.sourceIds} differ from the ` +
          `reference tokenizer's ${sources[i].ids}: the two sides would not decode the same input`);
      }
      const peerIds = g.truncated ? g.ids : g.ids.slice(0, -1);
      if (peerIds.join() !== r.targetIds.join() || g.truncated !== r.truncated) {
        differing.push({ sentence: i + 1, text: sentences[i], ours: r.targetIds, peer: peerIds });
      }
    }
    const med = (rows) => rows.map((s) => ({ core: median(s.core), call: median(s.call),
      peer: median(s.peer), tokens: s.tokens, peerTokens: s.peerTokens }));
    return {
      model: { path: o.model, dtype: tr.info().dtype },
      peer: `onnxruntime-web ${ortVersion()}`,
      backend: 'wasm, 1 thread, SIMD, graph optimization all',
      graphs: path.relative(ROOT, dir),
      graphDtype: 'f32',
      sentences: idx.length,
      repeat: o.repeat,
      alone: summary(med(alone), true, true),
      interleaved: summary(med(inter), true, true),
      differingSentences: differing.length,
      differing: differing.slice(0, 5),
      int8: { skipped: INT8_PEER_SKIPPED },
    };
  } finally {
    tr.dispose();
    await peer.release();
  }
}

export function peersTable(p) {
  const f = (x, d = 4) => x.toFixed(d);
  const rows = [['pass', 'ours core ms/token', 'ours call ms/token', 'peer ms/token',
    'core / peer', 'call / peer']];
  for (const [name, s] of [['alone', p.alone], ['interleaved', p.interleaved]]) {
    rows.push([name, f(s.oursCoreMsPerToken), f(s.oursCallMsPerToken), f(s.peerMsPerToken),
      f(s.ratioCore, 3), f(s.ratioCall, 3)]);
  }
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) => r.map((x, c) => (c ? x.padStart(w[c]) : x.padEnd(w[c]))).join('  '));
  return [
    `peer: ${p.peer} (${p.backend}), ${p.graphDtype} graphs in ${p.graphs}; ours: wasm-simd ` +
      `(${p.model.dtype} weights of ${p.model.path}); greedy, batch 1, ${p.sentences} sentences, median of ${p.repeat} runs each`,
    '',
    ...lines,
    '',
    'ratio < 1: ours is faster. ours core = the engine\'s own clock; ours call = translate() wall ' +
      'time (tokenization and result building included); peer = wall time of its greedy loop.',
    `interleaved = ours and the peer take turns on each sentence (the figure to compare); alone = ` +
      'each over all sentences by itself.',
    `output tokens differing from ours: ${p.differingSentences} of ${p.sentences} sentences` +
      (p.differing.length ? ` (first: sentence ${p.differing[0].sentence})` : ''),
    p.int8.skipped,
  ].join('\n');
}
