// scripts/bench --browser: the engines as the page runs them, in headless Chromium (Debian's,
// driven by playwright-core as tests/browser does). Chromium runs relaxed SIMD by default, so
// this is where the page's fastest engine (wasm-simd with the relaxed int8 products,
// web/lib/relaxed.js) can be timed: Node 20 needs a flag for it, and its baseline compiler gets
// the instruction wrong, so the engine refuses it there (tests/node/relaxed.test.mjs).
//
// One page, cross-origin isolated (COOP/COEP) so that performance.now() ticks in microseconds
// rather than 100 µs. In it, on the same sentences, greedy:
//   wasm-relaxed   createTranslator({relaxed: true})  (what the page runs here)
//   wasm-simd      createTranslator({relaxed: false})
//   wasm-scalar    createTranslator({simd: false})
//   peer           with --peers: onnxruntime-web (wasm, 1 thread, SIMD) on the same graphs and
//                  greedy loop as the Node peer table (scripts/lib/ort-greedy.mjs)
// take turns on each sentence, R times, in an order that rotates with each repetition. As in
// the Node tables: core = the engine's own clock, call = translate()'s wall time, peer = its
// greedy loop's wall time; a sentence's time is the median of its R runs, and each column is
// the median over sentences of ms per decoded token (</s> included). wasm-relaxed and wasm-simd
// must agree on every number of every result, wasm-scalar and the peer on every token.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { startServer } from '../serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS, cannotStart } from './chromium.mjs';
import { ROOT } from './engines.mjs';
import { ortVersion } from './ort-peer.mjs';
import { peerInputs } from './peer-bench.mjs';
import { median } from './median.mjs';

const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// Runs in the page: -> {isolated, kernels, runs: {engine: [{core: [], call: [], tokens}]},
// peer: [{ms: [], ids, truncated}] | null, differing: [...]}
async function inPage({ model, sentences, sources, peerInfo, repeat }) {
  const { createTranslator } = await import('/lib/bahdanau.js');
  const engines = {
    'wasm-relaxed': await createTranslator({ model, relaxed: true }),
    'wasm-simd': await createTranslator({ model, relaxed: false }),
    'wasm-scalar': await createTranslator({ model, simd: false }),
  };
  let peer = null;
  if (peerInfo) {
    const ort = await import('/ort/ort.wasm.min.mjs');
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.proxy = false;
    ort.env.wasm.wasmPaths = '/ort/';
    ort.env.logLevel = 'error';
    const { OrtGreedy } = await import('/bench-lib/ort-greedy.mjs');
    const bytes = async (f) => new Uint8Array(await (await fetch(`/onnx/${f}`)).arrayBuffer());
    peer = await OrtGreedy.fromBytes(ort, peerInfo, await bytes(peerInfo.graphs.encoder),
      await bytes(peerInfo.graphs.decoder_step));
  }
  const names = Object.keys(engines);
  const decoded = (r) => r.targetIds.length + (r.truncated ? 0 : 1);
  const idx = sentences.map((_, i) => i).filter((i) => !sources || sources[i].ids.length > 0);
  // Warm-up: let V8 tier every engine up before anything is timed.
  for (const i of idx.slice(0, 30)) {
    for (const n of names) engines[n].translate(sentences[i]);
    if (peer) await peer.greedy(sources[i].ids, sources[i].copyable);
  }
  const runs = Object.fromEntries(names.map((n) => [n, idx.map(() => ({ core: [], call: [], tokens: 0 }))]));
  const peerRuns = peer ? idx.map(() => ({ ms: [], ids: null, truncated: false })) : null;
  const differing = [];
  const order = peer ? [...names, 'peer'] : names;
  for (const [j, i] of idx.entries()) {
    const results = {};
    for (let k = 0; k < repeat; k++) {
      for (let o = 0; o < order.length; o++) {
        const name = order[(o + k) % order.length];
        const t0 = performance.now();
        if (name === 'peer') {
          const g = await peer.greedy(sources[i].ids, sources[i].copyable);
          peerRuns[j].ms.push(performance.now() - t0);
          Object.assign(peerRuns[j], { ids: g.ids, truncated: g.truncated });
        } else {
          const r = engines[name].translate(sentences[i]);
          const call = performance.now() - t0;
          const run = runs[name][j];
          run.core.push(r.timings.encodeMs + r.timings.decodeMs);
          run.call.push(call);
          run.tokens = decoded(r);
          results[name] = r;
        }
      }
    }
    // wasm-relaxed and wasm-simd: every number (the same integer products); wasm-scalar: the
    // tokens (its f32 tanh and exp differ from SIMD's in the last bits).
    const strip = (r) => JSON.stringify({ ...r, timings: null });
    const [relaxed, simd, scalar] = names.map((n) => results[n]);
    if (strip(relaxed) !== strip(simd)) differing.push(`wasm-simd: sentence ${i + 1}`);
    if (relaxed.targetIds.join() !== scalar.targetIds.join()) differing.push(`wasm-scalar: sentence ${i + 1}`);
    if (peer) {
      const r = results[names[0]];
      const g = peerRuns[j];
      const ids = g.truncated ? g.ids : g.ids.slice(0, -1);
      if (ids.join() !== r.targetIds.join() || g.truncated !== r.truncated) differing.push(`peer: sentence ${i + 1}`);
    }
  }
  const kernels = Object.fromEntries(names.map((n) => [n, engines[n].engine.kernels]));
  for (const t of Object.values(engines)) t.dispose();
  if (peer) await peer.release();
  return { isolated: self.crossOriginIsolated, kernels, runs, peer: peerRuns, differing, sentences: idx.length };
}

export async function benchBrowser(o, sentences, { peers = false } = {}) {
  const inputs = peers ? peerInputs(o.model, sentences) : { dir: null, sources: null };
  const mounts = [['/bench-model/', path.dirname(path.resolve(o.model))],
    ['/bench-lib/', path.join(ROOT, 'scripts', 'lib')]];
  if (peers) {
    mounts.push(['/ort/', path.join(ROOT, 'node_modules', 'onnxruntime-web', 'dist')]);
    mounts.push(['/onnx/', inputs.dir]);
  }
  const server = await startServer({ port: 0, extraMounts: mounts, headers: ISOLATED });
  let browser;
  try {
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
    } catch (e) {
      throw cannotStart(e);
    }
    const page = await browser.newPage();
    // The test server's 404 page carries no CSP, so the bench may evaluate its code there.
    await page.goto(`${server.url}bench-page`);
    const peerInfo = peers ? JSON.parse(readFileSync(path.join(inputs.dir, 'peer.json'), 'utf8')) : null;
    const raw = await page.evaluate(inPage, {
      model: `/bench-model/${path.basename(o.model)}`, sentences, sources: inputs.sources, peerInfo, repeat: o.repeat,
    });
    const out = { browser: `Chromium ${browser.version()}`, isolated: raw.isolated, sentences: raw.sentences,
      repeat: o.repeat, kernels: raw.kernels, engines: {}, differing: raw.differing };
    for (const [name, per] of Object.entries(raw.runs)) {
      out.engines[name] = {
        kernels: raw.kernels[name],
        coreMsPerToken: median(per.map((s) => median(s.core) / s.tokens)),
        callMsPerToken: median(per.map((s) => median(s.call) / s.tokens)),
      };
    }
    if (raw.peer) {
      out.peer = { name: `onnxruntime-web ${ortVersion()}`, backend: 'wasm, 1 thread, SIMD, graph optimization all',
        graphs: path.relative(ROOT, inputs.dir),
        msPerToken: median(raw.peer.map((s) => median(s.ms) / s.ids.length)) };
    }
    return out;
  } finally {
    await browser?.close();
    await server.close();
  }
}

export function browserTable(b, boundMs) {
  const f = (x, d = 4) => (x === null || x === undefined ? '–' : x.toFixed(d));
  const rows = [['engine', 'kernels', 'core ms/token', 'call ms/token', 'tokens/s (core)',
    ...(b.peer ? ['core / peer', 'call / peer'] : []), ...(boundMs ? ['x the bound'] : [])]];
  for (const [name, e] of Object.entries(b.engines)) {
    rows.push([name, e.kernels, f(e.coreMsPerToken), f(e.callMsPerToken), f(1000 / e.coreMsPerToken, 0),
      ...(b.peer ? [f(e.coreMsPerToken / b.peer.msPerToken, 3), f(e.callMsPerToken / b.peer.msPerToken, 3)] : []),
      ...(boundMs ? [f(e.coreMsPerToken / boundMs, 2)] : [])]);
  }
  if (b.peer) {
    rows.push(['peer', b.peer.name, '–', f(b.peer.msPerToken), '–', ...(b.peer ? ['1.000', '1.000'] : []),
      ...(boundMs ? [f(b.peer.msPerToken / boundMs, 2)] : [])]);
  }
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const lines = rows.map((r) => r.map((x, c) => (c < 2 ? String(x).padEnd(w[c]) : String(x).padStart(w[c]))).join('  '));
  const e = b.engines;
  return [
    `in the browser: ${b.browser}, headless, one page ${b.isolated ? '(cross-origin isolated: µs clock)' : '(not isolated: 100 µs clock)'}; ` +
      `greedy, ${b.sentences} dev sentences, each engine in turn on each sentence, median of ${b.repeat} runs each`,
    '',
    ...lines,
    '',
    `wasm-relaxed / wasm-simd per decoded token (core): ${f(e['wasm-relaxed'].coreMsPerToken / e['wasm-simd'].coreMsPerToken, 3)}  ` +
      `(relaxed ${f(e['wasm-simd'].coreMsPerToken / e['wasm-relaxed'].coreMsPerToken, 2)}x faster)`,
    `wasm-relaxed / wasm-scalar per decoded token (core): ${f(e['wasm-relaxed'].coreMsPerToken / e['wasm-scalar'].coreMsPerToken, 3)}`,
    ...(b.peer ? [`peer: ${b.peer.name} (${b.peer.backend}), f32 graphs in ${b.peer.graphs}; ratio < 1: ours is faster`] : []),
    ...(boundMs ? [`x the bound: against the memory bound above (${f(boundMs)} ms/token, measured in Node)`] : []),
    `results differing from wasm-relaxed's (wasm-simd: any number; wasm-scalar, peer: tokens): ` +
      `${b.differing.length} of ${b.sentences} sentences` +
      (b.differing.length ? ` (first: ${b.differing[0]})` : ''),
  ].join('\n');
}
