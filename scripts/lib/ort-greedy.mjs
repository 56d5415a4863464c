// The peer's greedy loop over onnxruntime sessions, with no Node import, so that the same code
// runs in Node (scripts/lib/ort-peer.mjs, the bench's peer table) and in the page of
// scripts/bench --browser (scripts/lib/browser-bench.mjs). The rules follow the reference
// (scripts/nmt/search.py Translator.greedy, src/core/search.cpp):
//   - the next token is the arg max of log p, ties to the lower id;
//   - <unk> is taken only where the source word with the largest weight (ties to the earlier,
//     </s> excluded) is copyable; elsewhere the second best; never without attention;
//   - at most min(max_tgt_len, 2n + 10) steps for n source tokens, </s> included.

// Arg max of a Float32Array and the runner-up, ties to the lower id (strict > in id order).
export function top2(logp) {
  let b1 = 0;
  let b2 = -1;
  for (let i = 1; i < logp.length; i++) {
    const v = logp[i];
    if (v > logp[b1]) {
      b2 = b1;
      b1 = i;
    } else if (b2 < 0 || v > logp[b2]) b2 = i;
  }
  return [b1, b2];
}

// search.py attended(): the source token (</s> excluded) with the largest weight, ties earlier.
function attended(alpha, nSrc) {
  let best = 0;
  for (let k = 1; k < nSrc; k++) if (alpha[k] > alpha[best]) best = k;
  return best;
}

export class OrtGreedy {
  // ort: the onnxruntime-web module; info: the graphs' peer.json; the two graphs' bytes.
  static async fromBytes(ort, info, encoderBytes, stepBytes) {
    const opts = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
    const [encoder, step] = await Promise.all([
      ort.InferenceSession.create(encoderBytes, opts),
      ort.InferenceSession.create(stepBytes, opts),
    ]);
    return new this(ort, info, encoder, step);
  }

  constructor(ort, info, encoder, step) {
    this.ort = ort;
    this.info = info;
    this.encoder = encoder;
    this.stepSession = step;
  }

  // ids: the source ids without </s>. -> {h, keys, s0} as onnxruntime tensors (keys null
  // without attention) and the all-true mask.
  async encode(ids) {
    const { Tensor } = this.ort;
    const n = ids.length + 1;
    const src = BigInt64Array.from([...ids, this.info.eos], (x) => BigInt(x));
    const out = await this.encoder.run({ src: new Tensor('int64', src, [1, n]) });
    return { h: out.h, keys: out.keys ?? null, s0: out.s0,
      mask: new Tensor('bool', new Uint8Array(n).fill(1), [1, n]) };
  }

  // One decoder step from token yPrev and state sPrev (a tensor, or a Float32Array).
  async step(enc, yPrev, sPrev) {
    const { Tensor } = this.ort;
    const feeds = { y_prev: new Tensor('int64', BigInt64Array.of(BigInt(yPrev)), [1]),
      s_prev: sPrev instanceof Float32Array ? new Tensor('float32', sPrev, [1, sPrev.length]) : sPrev,
      h: enc.h, mask: enc.mask };
    if (enc.keys) feeds.keys = enc.keys;
    const out = await this.stepSession.run(feeds);
    return { logp: out.logp.data, s: out.s, alpha: out.alpha ? out.alpha.data : null };
  }

  // Greedy decoding of ids (no </s>) with copyable[k] for each source token. -> the output ids,
  // </s> included when it was written (so ids.length is the steps decoded), and truncated.
  async greedy(ids, copyable) {
    const { bos, eos, unk, max_tgt_len: maxTgt } = this.info;
    const enc = await this.encode(ids);
    const out = [];
    let s = enc.s0;
    let y = bos;
    const maxLen = Math.min(maxTgt, 2 * ids.length + 10);
    for (let i = 0; i < maxLen; i++) {
      const st = await this.step(enc, y, s);
      const [b1, b2] = top2(st.logp);
      y = b1;
      if (y === unk && !(st.alpha && copyable[attended(st.alpha, copyable.length)])) y = b2;
      out.push(y);
      s = st.s;
      if (y === eos) break;
    }
    return { ids: out, truncated: out[out.length - 1] !== eos };
  }

  async release() {
    await this.encoder.release();
    await this.stepSession.release();
  }
}
