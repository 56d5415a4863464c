// Model::step_batch: one decoder step for B hypotheses of different sentences at once; and
// Model::encode_batch, the encoder for B sentences at once, the same way.
//
// Every weight matrix product of step() (the GRUs' W_ih and W_hh, attention's W, the readout
// W_o and the output projection E_tgt) becomes one GEMM over the batch, which reads the matrix
// once per step instead of B times; kernels.h guarantees each GEMM output equals the gemv one
// bit for bit. What depends on a sentence's own length n (scores, softmax, context) runs per
// hypothesis with step()'s kernels, and every elementwise kernel (sigmoid, tanh, log_softmax)
// runs per hypothesis on exactly the slices step() gives it: a SIMD kernel may treat an array's
// tail differently from its body, so the same slice boundaries keep the results identical.
// tests/cpp/batch_test.cpp checks batched translations against translate() on every engine.
#include <algorithm>
#include <cmath>

#include "core/model.h"
#include "core/matrix_ops.h"
#include "kernels/scratch.h"

namespace bl {

namespace {

// Scratch for one batched step, [B x width] row-major; grown, never shrunk, so a step allocates
// nothing once warmed up. BL_THREAD_LOCAL for the reason model.cpp gives.
struct BatchState {
  std::vector<float> x, gi, gh, q, s_query, s, u, t, logits;
};
BL_THREAD_LOCAL BatchState bs;

}  // namespace

// Model::gru for B rows: one GEMM for W_hh, then gru()'s own gate code per row.
void Model::gru_batch(const Gru& g, size_t B, const float* gi, const float* h_prev,
                      float* h_out) const {
  const size_t H = g.W_hh.cols;
  float* gh = fit(bs.gh, B * 3 * H);
  gemm(g.W_hh, B, h_prev, H, g.b_hh.data(), gh, 3 * H);  // W_h* h + b_h*, gates r, z, n
  for (size_t b = 0; b < B; b++)
    gru_gates(H, gi + b * 3 * H, gh + b * 3 * H, h_prev + b * H, h_out + b * H);
}

void Model::encode_batch(size_t B, const std::vector<int>* const* ids,
                         Annotations* const* out) const {
  const size_t E = cfg_.emb, H = cfg_.enc_hidden, A = cfg_.attn, D = cfg_.dec_hidden;
  // All tokens of all sentences stacked: sentence b's token t (</s> appended, as encode() does)
  // is row first[b] + t.
  std::vector<size_t> n(B), first(B);
  size_t N = 0, longest = 0;
  for (size_t b = 0; b < B; b++) {
    n[b] = ids[b]->size() + 1;
    first[b] = N;
    N += n[b];
    longest = std::max(longest, n[b]);
    Annotations& a = *out[b];
    a.n = int(n[b]);
    a.h.assign(n[b] * 2 * H, 0.0f);
    a.keys.assign(n[b] * A, 0.0f);
    a.s0.assign(D, 0.0f);
  }
  // The input halves W_ih x_t + b_ih of every token: one GEMM per direction.
  std::vector<float> emb(N * E), gi_f(N * 3 * H), gi_b(N * 3 * H);
  for (size_t b = 0; b < B; b++)
    for (size_t t = 0; t < n[b]; t++)
      embed(w_.src_emb, t + 1 < n[b] ? (*ids[b])[t] : 3, &emb[(first[b] + t) * E]);
  gemm(w_.enc_fwd.W_ih, N, emb.data(), E, w_.enc_fwd.b_ih.data(), gi_f.data(), 3 * H);
  gemm(w_.enc_bwd.W_ih, N, emb.data(), E, w_.enc_bwd.b_ih.data(), gi_b.data(), 3 * H);

  // The recurrences: step k reads x_{k+1} (->h) or x_{n-k} (<-h) of every sentence longer than
  // k, all in one gru_batch; h_prev is 0 at the first step, as in encode().
  std::vector<float> gi(B * 3 * H), h_prev(B * H), h(B * H);
  std::vector<size_t> who(B), at(B);  // row m of the step: sentence who[m], its position at[m]
  for (size_t dir = 0; dir < 2; dir++) {  // 0: ->h_j, the first H of h_j; 1: <-h_j, the last H
    const Gru& g = dir ? w_.enc_bwd : w_.enc_fwd;
    const float* gin = dir ? gi_b.data() : gi_f.data();
    for (size_t k = 0; k < longest; k++) {
      size_t m = 0;
      for (size_t b = 0; b < B; b++) {
        if (n[b] <= k) continue;
        const size_t t = dir ? n[b] - 1 - k : k;
        const float* g_row = gin + (first[b] + t) * 3 * H;
        std::copy(g_row, g_row + 3 * H, &gi[m * 3 * H]);
        if (k == 0) {
          std::fill(&h_prev[m * H], &h_prev[(m + 1) * H], 0.0f);
        } else {
          const float* p = &out[b]->h[(dir ? t + 1 : t - 1) * 2 * H + dir * H];
          std::copy(p, p + H, &h_prev[m * H]);
        }
        who[m] = b;
        at[m++] = t;
      }
      gru_batch(g, m, gi.data(), h_prev.data(), h.data());
      for (size_t r = 0; r < m; r++)
        std::copy(&h[r * H], &h[(r + 1) * H], &out[who[r]]->h[at[r] * 2 * H + dir * H]);
    }
  }

  std::vector<float> h1(B * H), s0(B * D);  // <-h_1 of each sentence, and s_0 from it
  for (size_t b = 0; b < B; b++) {
    Annotations& a = *out[b];
    if (cfg_.scoring == Scoring::None) {  // c = [->h_T; <-h_1], as encode()
      a.keys.clear();
      a.c.assign(a.h.end() - 2 * H, a.h.end() - H);
      a.c.insert(a.c.end(), a.h.begin() + H, a.h.begin() + 2 * H);
    } else {  // keys_j = U h_j: one GEMM over the sentence's n annotations
      gemm(w_.att_U, n[b], a.h.data(), 2 * H, nullptr, a.keys.data(), A);
    }
    std::copy(a.h.begin() + H, a.h.begin() + 2 * H, &h1[b * H]);
  }
  gemm(w_.init_W, B, h1.data(), H, w_.init_b.data(), s0.data(), D);
  for (size_t b = 0; b < B; b++) {
    std::copy(&s0[b * D], &s0[(b + 1) * D], out[b]->s0.begin());
    k_.tanh(D, out[b]->s0.data(), out[b]->s0.data());
  }
}

void Model::step_batch(size_t B, const Annotations* const* a, const int* y_prev,
                       const float* s_prev, StepState* out) const {
  const size_t E = cfg_.emb, H2 = 2 * size_t(cfg_.enc_hidden), A = cfg_.attn,
               D = cfg_.dec_hidden, M = cfg_.maxout, Vt = cfg_.tgt_vocab;
  const bool attention = cfg_.scoring != Scoring::None;
  const bool cgru = cfg_.decoder == DecoderKind::CGru;
  // Row b of x is [E y_{i-1}; c_i]: the paper's GRU input whole, and CGru's two inputs as its
  // two halves, so every GEMM reads its input rows in place.
  const size_t XW = E + H2, UW = D + H2 + E;
  float* x = fit(bs.x, B * XW);
  float* gi = fit(bs.gi, B * 3 * D);
  float* s = fit(bs.s, B * D);
  for (size_t b = 0; b < B; b++) {
    const size_t n = size_t(a[b]->n);
    out[b].e.resize(attention ? n : 0);
    out[b].alpha.resize(attention ? n : 0);
    out[b].c.resize(H2);
    out[b].s.resize(D);
    out[b].logp.resize(Vt);
    embed(w_.tgt_emb, y_prev[b], x + b * XW);  // E y_{i-1}
  }

  const float* query = s_prev;
  if (cgru) {  // s'_i = GRU1(E y_{i-1}, s_{i-1})
    float* s_query = fit(bs.s_query, B * D);
    gemm(w_.dec_gru1.W_ih, B, x, XW, w_.dec_gru1.b_ih.data(), gi, 3 * D);
    gru_batch(w_.dec_gru1, B, gi, s_prev, s_query);
    query = s_query;
  }

  if (attention) {
    float* q = fit(bs.q, B * A);
    gemm(w_.att_W, B, query, D, nullptr, q, A);  // q = W s_{i-1} (or W s'_i) for every b
    for (size_t b = 0; b < B; b++) {  // score, normalise, mix: over this sentence's n
      const Annotations& ab = *a[b];
      StepState& o = out[b];
      score_keys(ab, q + b * A, o.e.data());
      k_.softmax(size_t(ab.n), o.e.data(), o.alpha.data());
      k_.weighted_sum(size_t(ab.n), H2, o.alpha.data(), ab.h.data(), H2, x + b * XW + E);
    }
  } else {  // no attention: c_i = c, the same fixed vector at every step
    for (size_t b = 0; b < B; b++) std::copy(a[b]->c.begin(), a[b]->c.end(), x + b * XW + E);
  }
  for (size_t b = 0; b < B; b++)
    std::copy(x + b * XW + E, x + (b + 1) * XW, out[b].c.begin());

  if (cgru) {  // s_i = GRU2(c_i, s'_i)
    gemm(w_.dec_gru2.W_ih, B, x + E, XW, w_.dec_gru2.b_ih.data(), gi, 3 * D);
    gru_batch(w_.dec_gru2, B, gi, query, s);
  } else {  // s_i = GRU([E y_{i-1}; c_i], s_{i-1})
    gemm(w_.dec_gru.W_ih, B, x, XW, w_.dec_gru.b_ih.data(), gi, 3 * D);
    gru_batch(w_.dec_gru, B, gi, s_prev, s);
  }

  // Generate: t = maxout(W_o [s_i; c_i; E y_{i-1}] + b_o); p = softmax(E_tgt t + b_out)
  float* u = fit(bs.u, B * UW);
  for (size_t b = 0; b < B; b++) {
    std::copy(s + b * D, s + (b + 1) * D, out[b].s.begin());
    std::copy(s + b * D, s + (b + 1) * D, u + b * UW);
    std::copy(x + b * XW + E, x + (b + 1) * XW, u + b * UW + D);
    std::copy(x + b * XW, x + b * XW + E, u + b * UW + D + H2);
  }
  float* t = fit(bs.t, B * M * E);
  gemm(w_.readout_W, B, u, UW, w_.readout_b.data(), t, M * E);
  for (size_t b = 0; b < B; b++) {
    float* tb = t + b * M * E;
    for (size_t k = 0; k < E; k++) {
      float m = tb[k * M];
      for (size_t p = 1; p < M; p++) m = std::max(m, tb[k * M + p]);
      tb[k] = m;  // in place is safe: k <= k * M
    }
  }
  float* logits = fit(bs.logits, B * Vt);
  gemm(w_.tgt_emb, B, t, M * E, w_.out_b.data(), logits, Vt);
  // As step(): log_softmax turns a NaN into -inf, so it ranks last.
  for (size_t b = 0; b < B; b++) k_.log_softmax(Vt, logits + b * Vt, out[b].logp.data());
}

}  // namespace bl
