// The Transformer's forward pass, llama2.c style: one function per stage, each equation in a
// one-line comment beside the code that computes it. Names follow the paper (Q, K, V, heads)
// and scripts/nmt/transformer.py, which the golden fixtures pin.
#include "core/transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/attention_edit.h"
#include "core/matrix_ops.h"
#include "kernels/scratch.h"

namespace bl {

namespace {

// One decoder step's scratch, reused so a step allocates nothing but its outputs once warmed
// up; BL_THREAD_LOCAL for the reason model.cpp gives (one thread uses a model at a time).
struct StepScratch {
  std::vector<float> x, a, q, ctx, out, ff, e, alpha, t;
};
BL_THREAD_LOCAL StepScratch ws;

void add(size_t n, const float* y, float* x) {
  for (size_t k = 0; k < n; k++) x[k] += y[k];
}

}  // namespace

Transformer::Transformer(const ModelData& data, const Kernels& kernels)
    : Network(data, kernels) {}

void Transformer::layer_norm(const LayerNormW& ln, size_t B, const float* x, float* y) const {
  const size_t d = cfg_.d_model;
  for (size_t b = 0; b < B; b++)
    k_.layer_norm(d, x + b * d, ln.g.data(), ln.b.data(), kLayerNormEps, y + b * d);
}

void Transformer::embed(const Matrix& table, const Matrix& W_in, int id, int pos,
                        float* x) const {
  const size_t E = cfg_.emb, d = cfg_.d_model;
  fit(ws.t, E);
  embedding_row(table, id, ws.t.data());  // E[id]
  gemv(W_in, ws.t.data(), nullptr, x);  // W_in E[id]
  // PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...). The arguments are the
  // reference's float32 ones (rate_i = exp(2i * -ln(10000) / d), angle = pos * rate_i); exp,
  // sin and cos run in double and round to float, so every libm (glibc natively, musl in wasm)
  // gives the same floats and the engines agree bit for bit.
  const float sqrt_d = std::sqrt(float(d));
  const float slope = float(-std::log(10000.0) / double(d));
  for (size_t k = 0; k < d; k++) {
    const float rate = float(std::exp(double(float(k & ~size_t(1)) * slope)));
    const double angle = double(float(pos) * rate);
    x[k] = x[k] * sqrt_d + float(k % 2 == 0 ? std::sin(angle) : std::cos(angle));
  }
}

void Transformer::attend(size_t n, const float* q, const float* K, const float* V, size_t ld,
                         float* e, float* alpha, float* ctx) const {
  const size_t dk = size_t(cfg_.d_model / cfg_.heads);
  k_.dot_score(n, dk, K, ld, q, 1.0f / std::sqrt(float(dk)), e);  // e_j = q . k_j / sqrt(d_k)
  k_.softmax(n, e, alpha);                                        // alpha = softmax(e)
  k_.weighted_sum(n, dk, alpha, V, ld, ctx);                      // ctx = sum_j alpha_j v_j
}

void Transformer::override_head(const StepEdit& edit, size_t l, size_t h, size_t n,
                                const float* V, size_t ld, StepState* out, size_t at,
                                float* ctx) const {
  float* alpha = &out->cross_alpha[at];
  std::copy(alpha, alpha + n, &out->own_cross_alpha[at]);
  const HeadEdit* given = edit.find(int(l), int(h));
  if (!given) return;
  const size_t dk = size_t(cfg_.d_model / cfg_.heads);
  std::copy(given->alpha.begin(), given->alpha.end(), alpha);
  if (given->ablate)  // the head switched off: it adds nothing to Wo ctx
    std::fill(ctx, ctx + dk, 0.0f);
  else  // ctx = sum_j alpha_j v_j with the given alpha
    k_.weighted_sum(n, dk, alpha, V, ld, ctx);
}

void Transformer::feed_forward(const FeedForwardW& f, const LayerNormW& ln, size_t B,
                               float* x) const {
  const size_t d = cfg_.d_model, F = cfg_.ffn;
  std::vector<float> a(B * d), h(B * F), y(B * d);
  layer_norm(ln, B, x, a.data());                   // a = LN(x)
  gemm(f.W1, B, a.data(), f.b1.data(), h.data());   // h = W1 a + b1
  k_.relu(B * F, h.data(), h.data());               // h = relu(h)
  gemm(f.W2, B, h.data(), f.b2.data(), y.data());   // y = W2 h + b2
  add(B * d, y.data(), x);                          // x = x + y
}

void Transformer::encode(const std::vector<int>& ids, Annotations* out) const {
  encode_impl(ids, out, nullptr, nullptr);
}

void Transformer::encode_with_attention(const std::vector<int>& ids, Annotations* out,
                                        std::vector<float>* e, std::vector<float>* alpha) const {
  const size_t n = ids.size() + 1;
  const size_t size = size_t(cfg_.enc_layers) * size_t(cfg_.heads) * n * n;
  e->assign(size, 0.0f);
  alpha->assign(size, 0.0f);
  encode_impl(ids, out, e->data(), alpha->data());
}

void Transformer::encode_impl(const std::vector<int>& ids, Annotations* out, float* self_e,
                              float* self_alpha) const {
  const size_t d = cfg_.d_model, H = cfg_.heads, dk = d / H;
  std::vector<int> src(ids);
  src.push_back(kEos);
  const size_t n = src.size();
  out->n = int(n);
  out->keys.clear();
  out->c.clear();
  out->s0.clear();  // the decoder starts with an empty cache

  std::vector<float> x(n * d), a(n * d), q(n * d), k(n * d), v(n * d), ctx(n * d), o(n * d);
  std::vector<float> e_row(n), alpha_row(n);
  for (size_t j = 0; j < n; j++)  // x_j = W_in E x_j * sqrt(d) + PE(j)
    embed(w_.src_emb, w_.src_in, src[j], int(j), &x[j * d]);

  for (size_t l = 0; l < w_.enc.size(); l++) {
    const EncoderLayerW& L = w_.enc[l];
    layer_norm(L.ln1, n, x.data(), a.data());          // a = LN1(x)
    gemm(L.self.Wq, n, a.data(), L.self.bq.data(), q.data());  // Q = a Wq^T + bq, all j at once
    gemm(L.self.Wk, n, a.data(), L.self.bk.data(), k.data());  // K = a Wk^T + bk
    gemm(L.self.Wv, n, a.data(), L.self.bv.data(), v.data());  // V = a Wv^T + bv
    for (size_t h = 0; h < H; h++) {
      for (size_t i = 0; i < n; i++) {  // head h of position i reads every position j
        const size_t at = ((l * H + h) * n + i) * n;  // row i of [layer][head][n][n]
        float* e = self_e ? self_e + at : e_row.data();
        float* al = self_alpha ? self_alpha + at : alpha_row.data();
        attend(n, &q[i * d + h * dk], &k[h * dk], &v[h * dk], d, e, al, &ctx[i * d + h * dk]);
      }
    }
    gemm(L.self.Wo, n, ctx.data(), L.self.bo.data(), o.data());  // o = ctx Wo^T + bo
    add(n * d, o.data(), x.data());                              // x = x + o
    feed_forward(L.ff, L.ln2, n, x.data());  // x = x + FFN(LN2(x))
  }
  out->h.resize(n * d);
  layer_norm(w_.enc_ln, n, x.data(), out->h.data());  // h = LN_enc(x): the memory

  // Each decoder layer's cross-attention keys and values of the memory, once per sentence.
  out->cross_kv.resize(w_.dec.size() * 2 * n * d);
  for (size_t l = 0; l < w_.dec.size(); l++) {
    const AttentionW& C = w_.dec[l].cross;
    float* K = &out->cross_kv[l * 2 * n * d];
    gemm(C.Wk, n, out->h.data(), C.bk.data(), K);          // K = h Wk^T + bk
    gemm(C.Wv, n, out->h.data(), C.bv.data(), K + n * d);  // V = h Wv^T + bv
  }
}

void Transformer::decode(const Annotations& a, int y_prev, const std::vector<float>& state,
                         StepState* out, const StepEdit* edit) const {
  const size_t d = cfg_.d_model, H = cfg_.heads, dk = d / H, E = cfg_.emb,
               Vt = cfg_.tgt_vocab, n = size_t(a.n), row = cache_row();
  const size_t L = w_.dec.size(), pos = state.size() / row;  // y_prev sits at position pos
  // The cache grows by this position's keys and values: out->s = [state; row pos].
  out->s.resize(state.size() + row);
  std::copy(state.begin(), state.end(), out->s.begin());
  float* cache = out->s.data();
  out->cross_e.resize(L * H * n);
  out->cross_alpha.resize(L * H * n);
  const bool edited = edit && !edit->heads.empty();
  out->own_cross_alpha.assign(edited ? L * H * n : 0, 0.0f);

  fit(ws.x, d), fit(ws.a, d), fit(ws.q, d), fit(ws.ctx, d), fit(ws.out, d);
  fit(ws.e, pos + 1), fit(ws.alpha, pos + 1), fit(ws.ff, cfg_.ffn);
  float *x = ws.x.data(), *an = ws.a.data(), *q = ws.q.data(), *ctx = ws.ctx.data(),
        *o = ws.out.data();
  embed(w_.tgt_emb, w_.tgt_in, y_prev, int(pos), x);  // x = W_in E y_{i-1} * sqrt(d) + PE(pos)

  for (size_t l = 0; l < L; l++) {
    const DecoderLayerW& D = w_.dec[l];
    float* k_new = cache + pos * row + l * 2 * d;  // this position's key, then its value
    // Causal self-attention: position pos reads y_0..y_pos through the cache.
    layer_norm(D.ln1, 1, x, an);                    // a = LN1(x)
    gemv(D.self.Wq, an, D.self.bq.data(), q);       // q = Wq a + bq
    gemv(D.self.Wk, an, D.self.bk.data(), k_new);   // k = Wk a + bk, appended to the cache
    gemv(D.self.Wv, an, D.self.bv.data(), k_new + d);  // v = Wv a + bv
    for (size_t h = 0; h < H; h++)
      attend(pos + 1, q + h * dk, cache + l * 2 * d + h * dk, cache + l * 2 * d + d + h * dk,
             row, ws.e.data(), ws.alpha.data(), ctx + h * dk);
    gemv(D.self.Wo, ctx, D.self.bo.data(), o);  // x = x + Wo ctx + bo
    add(d, o, x);
    // Cross-attention over the memory's keys and values (encode() computed them).
    layer_norm(D.ln2, 1, x, an);                     // a = LN2(x)
    gemv(D.cross.Wq, an, D.cross.bq.data(), q);      // q = Wq a + bq
    const float* K = &a.cross_kv[l * 2 * n * d];
    for (size_t h = 0; h < H; h++) {
      const size_t at = (l * H + h) * n;
      attend(n, q + h * dk, K + h * dk, K + n * d + h * dk, d, &out->cross_e[at],
             &out->cross_alpha[at], ctx + h * dk);
      if (edited) override_head(*edit, l, h, n, K + n * d + h * dk, d, out, at, ctx + h * dk);
    }
    gemv(D.cross.Wo, ctx, D.cross.bo.data(), o);  // x = x + Wo ctx + bo
    add(d, o, x);
    // x = x + W2 relu(W1 LN3(x) + b1) + b2
    layer_norm(D.ln3, 1, x, an);
    gemv(D.ff.W1, an, D.ff.b1.data(), ws.ff.data());
    k_.relu(cfg_.ffn, ws.ff.data(), ws.ff.data());
    gemv(D.ff.W2, ws.ff.data(), D.ff.b2.data(), o);
    add(d, o, x);
  }

  out->c.resize(d);
  layer_norm(w_.dec_ln, 1, x, out->c.data());  // z = LN_dec(x)
  // The summary row: the last layer's cross-attention, mean over heads.
  out->e.assign(n, 0.0f);
  out->alpha.assign(n, 0.0f);
  const size_t last = (L - 1) * H * n;
  for (size_t j = 0; j < n; j++) {
    float se = 0.0f, sa = 0.0f;
    for (size_t h = 0; h < H; h++) {
      se += out->cross_e[last + h * n + j];
      sa += out->cross_alpha[last + h * n + j];
    }
    out->e[j] = se / float(H);
    out->alpha[j] = sa / float(H);
  }
  out->own_alpha.clear();
  if (edited) {  // the summary of what the heads' own softmax gave, as alpha summarises
    out->own_alpha.assign(n, 0.0f);
    for (size_t j = 0; j < n; j++) {
      float sa = 0.0f;
      for (size_t h = 0; h < H; h++) sa += out->own_cross_alpha[last + h * n + j];
      out->own_alpha[j] = sa / float(H);
    }
  }
  // p(y_i) = softmax(E_tgt (out_proj z) + out_b): the output layer tied to the embedding
  fit(ws.t, E);
  gemv(w_.out_proj, out->c.data(), nullptr, ws.t.data());
  out->logp.resize(Vt);
  gemv(w_.tgt_emb, ws.t.data(), w_.out_b.data(), out->logp.data());
  // As in Model::step: a crafted file's huge weights may give NaN; log_softmax ranks it last.
  k_.log_softmax(Vt, out->logp.data(), out->logp.data());
}

}  // namespace bl
