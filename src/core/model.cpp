#include "core/model.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/attention_edit.h"
#include "core/matrix_ops.h"
#include "kernels/scratch.h"

namespace bl {

namespace {

// Scratch space for one step, reused so a step allocates nothing once warmed up. One Model is
// used by one thread at a time (the JS API is single-threaded), hence a thread-local is enough
// (scratch.h, BL_THREAD_LOCAL).
struct RunState {
  std::vector<float> x, gi, gh, rz, q, u, t, s_query;
};
BL_THREAD_LOCAL RunState rs;

}  // namespace

Model::Model(const ModelData& data, const Kernels& kernels) : Network(data, kernels) {}

void Model::embed(const Matrix& table, int id, float* out) const { embedding_row(table, id, out); }

void Model::gru(const Gru& g, const float* gi, const float* h_prev, float* h_out) const {
  const size_t H = g.W_hh.cols;
  fit(rs.gh, 3 * H);
  float* gh = rs.gh.data();
  gemv(g.W_hh, h_prev, g.b_hh.data(), gh);  // W_h* h + b_h*, gates r, z, n
  gru_gates(H, gi, gh, h_prev, h_out);
}

// The rest of gru() once gh = W_h* h + b_h* is known; step_batch shares it.
void Model::gru_gates(size_t H, const float* gi, const float* gh, const float* h_prev,
                      float* h_out) const {
  fit(rs.rz, 2 * H);
  float* rz = rs.rz.data();
  for (size_t k = 0; k < 2 * H; k++) rz[k] = gi[k] + gh[k];
  k_.sigmoid(2 * H, rz, rz);  // r = rz[0..H), z = rz[H..2H)
  for (size_t k = 0; k < H; k++) h_out[k] = gi[2 * H + k] + rz[k] * gh[2 * H + k];
  k_.tanh(H, h_out, h_out);  // n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
  for (size_t k = 0; k < H; k++) {
    const float z = rz[H + k];
    h_out[k] = (1.0f - z) * h_out[k] + z * h_prev[k];  // h' = (1 - z) n + z h
  }
}

void Model::encode(const std::vector<int>& ids, Annotations* a) const {
  const size_t E = cfg_.emb, H = cfg_.enc_hidden, A = cfg_.attn, D = cfg_.dec_hidden;
  std::vector<int> x(ids);
  x.push_back(kEos);
  const size_t n = x.size();
  a->n = int(n);
  a->h.assign(n * 2 * H, 0.0f);
  a->keys.assign(n * A, 0.0f);
  a->s0.assign(D, 0.0f);

  // The input halves W_ih x_t + b_ih do not depend on the recurrence: compute them for all t.
  std::vector<float> emb(n * E), gi_f(n * 3 * H), gi_b(n * 3 * H);
  for (size_t t = 0; t < n; t++) {
    embed(w_.src_emb, x[t], &emb[t * E]);
    gemv(w_.enc_fwd.W_ih, &emb[t * E], w_.enc_fwd.b_ih.data(), &gi_f[t * 3 * H]);
    gemv(w_.enc_bwd.W_ih, &emb[t * E], w_.enc_bwd.b_ih.data(), &gi_b[t * 3 * H]);
  }
  std::vector<float> zero(H, 0.0f);
  const float* prev = zero.data();
  for (size_t t = 0; t < n; t++) {  // ->h_j reads x_1 .. x_T
    float* h = &a->h[t * 2 * H];
    gru(w_.enc_fwd, &gi_f[t * 3 * H], prev, h);
    prev = h;
  }
  prev = zero.data();
  for (size_t t = n; t-- > 0;) {  // <-h_j reads x_T .. x_1
    float* h = &a->h[t * 2 * H + H];
    gru(w_.enc_bwd, &gi_b[t * 3 * H], prev, h);
    prev = h;
  }
  if (cfg_.scoring == Scoring::None) {  // c = [->h_T; <-h_1]: all the decoder will see of x
    a->keys.clear();
    a->c.assign(a->h.end() - 2 * H, a->h.end() - H);
    a->c.insert(a->c.end(), a->h.begin() + H, a->h.begin() + 2 * H);
  } else {
    project_keys(a->h.data(), int(n), a->keys.data());
  }
  gemv(w_.init_W, &a->h[H], w_.init_b.data(), a->s0.data());  // s_0 from <-h_1
  k_.tanh(D, a->s0.data(), a->s0.data());
}

void Model::project_keys(const float* h, int n, float* keys) const {
  const size_t H2 = 2 * size_t(cfg_.enc_hidden), A = cfg_.attn;
  for (size_t j = 0; j < size_t(n); j++) gemv(w_.att_U, h + j * H2, nullptr, keys + j * A);
}

void Model::score(const Annotations& a, const float* s_prev, float* q, float* e) const {
  gemv(w_.att_W, s_prev, nullptr, q);  // q = W s_{i-1}
  score_keys(a, q, e);
}

void Model::score_keys(const Annotations& a, const float* q, float* e) const {
  const size_t A = cfg_.attn;
  if (cfg_.scoring == Scoring::Additive)
    k_.additive_score(a.n, A, a.keys.data(), A, q, w_.att_v.data(), e);
  else
    k_.dot_score(a.n, A, a.keys.data(), A, q, 1.0f / std::sqrt(float(A)), e);
}

void Model::step(const Annotations& a, int y_prev, const float* s_prev, StepState* out,
                 const StepEdit* edit) const {
  const size_t E = cfg_.emb, H2 = 2 * size_t(cfg_.enc_hidden), A = cfg_.attn,
               D = cfg_.dec_hidden, M = cfg_.maxout, Vt = cfg_.tgt_vocab;
  const size_t n = size_t(a.n);
  const bool attention = cfg_.scoring != Scoring::None;
  out->e.resize(attention ? n : 0);
  out->alpha.resize(attention ? n : 0);
  out->c.resize(H2);
  out->s.resize(D);
  out->logp.resize(Vt);

  fit(rs.x, E + H2);
  embed(w_.tgt_emb, y_prev, rs.x.data());  // E y_{i-1}
  fit(rs.gi, 3 * D);
  const bool cgru = cfg_.decoder == DecoderKind::CGru;
  const float* query = s_prev;
  if (cgru) {  // s'_i = GRU1(E y_{i-1}, s_{i-1}): the query has already read the previous word
    fit(rs.s_query, D);
    gemv(w_.dec_gru1.W_ih, rs.x.data(), w_.dec_gru1.b_ih.data(), rs.gi.data());
    gru(w_.dec_gru1, rs.gi.data(), s_prev, rs.s_query.data());
    query = rs.s_query.data();
  }

  if (attention) {
    // Score: e_ij = v . tanh(W q + U h_j)  or  (W q . U h_j) / sqrt(A), q = s_{i-1} or s'_i
    fit(rs.q, A);
    score(a, query, rs.q.data(), out->e.data());
    // Normalise: alpha_i = softmax(e_i)
    k_.softmax(n, out->e.data(), out->alpha.data());
    out->own_alpha.clear();
    if (edit && !edit->heads.empty()) {  // "what if it had looked there?": the given alpha_i
      out->own_alpha.swap(out->alpha);
      out->alpha = edit->heads[0].alpha;
    }
    // Mix: c_i = sum_j alpha_ij h_j
    k_.weighted_sum(n, H2, out->alpha.data(), a.h.data(), H2, out->c.data());
  } else {  // no attention: c_i = c, the same fixed vector at every step
    std::copy(a.c.begin(), a.c.end(), out->c.begin());
  }

  if (cgru) {  // s_i = GRU2(c_i, s'_i)
    gemv(w_.dec_gru2.W_ih, out->c.data(), w_.dec_gru2.b_ih.data(), rs.gi.data());
    gru(w_.dec_gru2, rs.gi.data(), query, out->s.data());
  } else {  // s_i = GRU([E y_{i-1}; c_i], s_{i-1})
    std::copy(out->c.begin(), out->c.end(), rs.x.begin() + E);
    gemv(w_.dec_gru.W_ih, rs.x.data(), w_.dec_gru.b_ih.data(), rs.gi.data());
    gru(w_.dec_gru, rs.gi.data(), s_prev, out->s.data());
  }

  // Generate: t = maxout(W_o [s_i; c_i; E y_{i-1}] + b_o); p = softmax(E_tgt t + b_out)
  fit(rs.u, D + H2 + E);
  std::copy(out->s.begin(), out->s.end(), rs.u.begin());
  std::copy(out->c.begin(), out->c.end(), rs.u.begin() + D);
  std::copy(rs.x.begin(), rs.x.begin() + E, rs.u.begin() + D + H2);
  fit(rs.t, M * E);
  gemv(w_.readout_W, rs.u.data(), w_.readout_b.data(), rs.t.data());
  for (size_t k = 0; k < E; k++) {
    float m = rs.t[k * M];
    for (size_t p = 1; p < M; p++) m = std::max(m, rs.t[k * M + p]);
    rs.t[k] = m;  // in place is safe: k <= k * M
  }
  gemv(w_.tgt_emb, rs.t.data(), w_.out_b.data(), out->logp.data());
  // Finite but huge weights (a crafted file passes the NaN/Inf check) can overflow to inf - inf;
  // a NaN would break the strict ordering search relies on, so log_softmax ranks it last (-inf).
  k_.log_softmax(Vt, out->logp.data(), out->logp.data());
}

}  // namespace bl
