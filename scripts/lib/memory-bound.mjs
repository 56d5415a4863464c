// The memory bound of a decoder step, for scripts/bench: how fast could a token be if decoding
// did nothing but read its weights once?
//
//   bytes/token  the decoder-step weights in the model file (what one greedy step reads: the
//                decoder GRUs, attention's W (and v), the readout, the output projection
//                tgt_emb and the output bias; int8 matrices with their row scales). Not counted:
//                the encoder and att.U, which run once per sentence, and dec.init.
//   GB/s         a streaming read in wasm SIMD on this machine: a hand-assembled loop of
//                4 x v128.load + i32x4.add per 64 bytes (4 accumulators), summing a buffer of
//                exactly bytes/token, again and again, as decoding re-reads the same weights
//                every step (so they sit in whatever cache holds them, as they do for the
//                engines). Median of 15 timed runs of >= 64 MB each. A 256 MiB buffer (main
//                memory) is measured too, for reference.
//   bound        bytes/token / GB/s, in ms/token; each engine's ms/token is reported as a
//                multiple of it and as the percentage of the bound's speed it reaches.
import { median } from './median.mjs';

// (p: i32, n: i32) -> i32 summing n bytes (a multiple of 64) from p, in 16-byte lanes; memory
// exported as "mem" with `pages` 64 KiB pages.
function streamModule(pages) {
  const leb = (n) => {
    const out = [];
    do {
      let b = n & 0x7f;
      n >>>= 7;
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return out;
  };
  const section = (id, body) => [id, ...leb(body.length), ...body];
  const str = (s) => [s.length, ...Buffer.from(s)];
  const get = (i) => [0x20, i];
  const set = (i) => [0x21, i];
  const add4 = [0xfd, 0xae, 0x01];  // i32x4.add
  const load = (offset) => [0xfd, 0x00, 0x04, offset];  // v128.load align=16
  const body = [
    0x02, 0x04, 0x7b, 0x01, 0x7f,  // locals: 4 x v128 (2..5), 1 x i32 (6: end)
    ...get(0), ...get(1), 0x6a, ...set(6),
    0x02, 0x40, 0x03, 0x40,  // block, loop
    ...get(0), ...get(6), 0x4f, 0x0d, 0x01,  // p >= end: br_if out
    ...[0, 1, 2, 3].flatMap((i) => [...get(2 + i), ...get(0), ...load(16 * i), ...add4, ...set(2 + i)]),
    ...get(0), 0x41, 0xc0, 0x00, 0x6a, ...set(0),  // p += 64
    0x0c, 0x00, 0x0b, 0x0b,  // br loop; end loop; end block
    ...get(2), ...get(3), ...add4, ...get(4), ...add4, ...get(5), ...add4,
    0xfd, 0x1b, 0x00,  // i32x4.extract_lane 0
    0x0b,
  ];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f]),
    ...section(3, [0x01, 0x00]),
    ...section(5, [0x01, 0x00, ...leb(pages)]),
    ...section(7, [0x02, ...str('sum'), 0x00, 0x00, ...str('mem'), 0x02, 0x00]),
    ...section(10, [0x01, ...leb(body.length), ...body]),
  ]);
}

// The stream kernel on `data` (its length a multiple of 64): lane 0 of the four i32x4
// accumulators' sum, i.e. the wrapping int32 sum of the little-endian words at 16k, for
// tests/node/memory-bound.test.mjs to check that the loop reads every byte it is timed on.
export async function streamSum(data) {
  const { instance } = await WebAssembly.instantiate(streamModule(Math.ceil(data.length / 65536) + 1));
  new Uint8Array(instance.exports.mem.buffer).set(data);
  return instance.exports.sum(0, data.length);
}

// GB/s (1e9 bytes per second) of the streaming read over a buffer of `size` bytes: median of
// `runs` timed runs, each summing the buffer enough times to read >= 64 MB.
export async function streamReadGBps(size, runs = 15) {
  const n = Math.max(64, Math.ceil(size / 64) * 64);
  const { instance } = await WebAssembly.instantiate(streamModule(Math.ceil(n / 65536) + 1));
  const { sum, mem } = instance.exports;
  new Uint8Array(mem.buffer, 0, n).forEach((_, i, a) => { a[i] = (i * 131) & 0xff; });
  const reps = Math.max(1, Math.ceil(64e6 / n));
  let sink = 0;
  for (let k = 0; k < 3; k++) sink ^= sum(0, n);  // tier up, warm the cache
  const gbps = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    for (let k = 0; k < reps; k++) sink ^= sum(0, n);
    gbps.push((n * reps) / ((performance.now() - t0) * 1e6));
  }
  return { gbps: median(gbps), min: Math.min(...gbps), max: Math.max(...gbps), bytes: n, sink };
}

// The decoder-step weights of an RNN model file (safetensors): bytes and tensor names. null for
// a Transformer (config arch), whose step reads other tensors (not counted here yet).
export function stepWeightBytes(modelBytes) {
  const buf = Buffer.from(modelBytes.buffer, modelBytes.byteOffset, modelBytes.byteLength);
  const headerLen = Number(buf.readBigUInt64LE(0));
  const header = JSON.parse(buf.subarray(8, 8 + headerLen).toString('utf8'));
  const config = JSON.parse(header.__metadata__?.config ?? '{}');
  if ((config.arch ?? 'rnn') !== 'rnn') return null;
  const perStep = /^(dec\.(gru\d?|readout|out)\.|att\.(W|v)(\.|$)|tgt_emb(\.|$))/;
  let bytes = 0;
  const tensors = [];
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__' || !perStep.test(name)) continue;
    bytes += t.data_offsets[1] - t.data_offsets[0];
    tensors.push(name);
  }
  return { bytes, tensors: tensors.sort() };
}

// The bound for a model and the engines' distance from it (engines: {name: {msPerToken}}).
export async function benchMemoryBound(modelBytes, engines) {
  const w = stepWeightBytes(modelBytes);
  if (!w) return null;
  const hot = await streamReadGBps(w.bytes);
  const dram = await streamReadGBps(256 << 20, 5);
  const boundMs = w.bytes / (hot.gbps * 1e6);
  const vs = {};
  for (const [name, e] of Object.entries(engines)) {
    vs[name] = { timesBound: e.msPerToken / boundMs, percentOfBound: (100 * boundMs) / e.msPerToken };
  }
  return { bytesPerToken: w.bytes, tensors: w.tensors, streamGBps: hot, dramGBps: dram, boundMs, engines: vs };
}

export function memoryBoundTable(m) {
  const f = (x, d = 2) => x.toFixed(d);
  const lines = [
    `memory bound (batch 1): ${(m.bytesPerToken / 1e6).toFixed(3)} MB of decoder-step weights per token ` +
      `(${m.tensors.length} tensors) / ${f(m.streamGBps.gbps, 1)} GB/s streaming read in wasm SIMD ` +
      `(median; ${f(m.streamGBps.min, 1)}–${f(m.streamGBps.max, 1)}) = ${f(m.boundMs, 4)} ms/token ` +
      `(${f(1000 / m.boundMs, 0)} tokens/s)`,
    `  (main memory, 256 MiB buffer: ${f(m.dramGBps.gbps, 1)} GB/s; the step's weights stay in cache between tokens)`,
  ];
  for (const [name, e] of Object.entries(m.engines)) {
    lines.push(`  ${name.padEnd(12)} ${f(e.timesBound)}x the bound  (${f(e.percentOfBound, 1)}% of its speed)`);
  }
  return lines.join('\n');
}
