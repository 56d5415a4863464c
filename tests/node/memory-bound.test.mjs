// scripts/lib/memory-bound.mjs, which scripts/bench reports against: the stream kernel reads
// every 16-byte lane of the buffer it is timed on, and the decoder-step bytes of the shipped
// model are what its config says one greedy step reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { stepWeightBytes, streamReadGBps, streamSum } from '../../scripts/lib/memory-bound.mjs';
import { fixturePath, shippedModelOrFail } from './helpers.mjs';

test('the stream kernel sums word 0 of every 16-byte lane, to the last one', async () => {
  for (const n of [64, 128, 4096, 65536 + 64]) {
    const data = new Uint8Array(n).map((_, i) => (i * 37 + 11) & 0xff);
    const words = new DataView(data.buffer);
    let want = 0;
    for (let k = 0; k < n; k += 16) want = (want + words.getInt32(k, true)) | 0;
    assert.equal(await streamSum(data), want, `n = ${n}`);
    data[n - 16] ^= 0xff;  // a change in the last lane must show
    assert.notEqual(await streamSum(data), want, `n = ${n}: the last lane is read`);
  }
  const r = await streamReadGBps(1 << 20, 3);
  assert.ok(r.gbps > 0.1 && r.gbps < 1e4, `${r.gbps} GB/s`);
});

test('decoder-step bytes: the shipped model, from its config', () => {
  const bytes = readFileSync(shippedModelOrFail('en-fr'));
  const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString());
  const c = JSON.parse(header.__metadata__.config);
  const { emb: E, enc_hidden: H, dec_hidden: D, attn: A, maxout: M, tgt_vocab: V } = c;
  // int8 matrices (one byte a weight, 4 a row for the scale) and f32 vectors (4 bytes each).
  const mat = (rows, cols) => rows * cols + 4 * rows;
  const want = mat(3 * D, E) + mat(3 * D, D) + mat(3 * D, 2 * H) + mat(3 * D, D)  // GRUs
    + 4 * 4 * 3 * D                                                                // their biases
    + mat(A, D) + 4 * A                                                            // att.W, att.v
    + mat(M * E, D + 2 * H + E) + 4 * M * E                                        // readout
    + mat(V, E) + 4 * V;                                                           // tgt_emb, dec.out.b
  const got = stepWeightBytes(bytes);
  assert.equal(got.bytes, want);
  assert.ok(!got.tensors.some((t) => /^(enc|src_emb|att\.U|dec\.init)/.test(t)), got.tensors.join(' '));
  assert.equal(stepWeightBytes(readFileSync(fixturePath('tiny-transformer-int8.safetensors'))), null);
});
