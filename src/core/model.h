// The Bahdanau et al. (2014) network: encode a sentence once, then decode one step at a time.
// Equations in docs/model-format.md; names follow the paper (h, s, c, alpha, e).
#pragma once
#include <vector>

#include "core/seq2seq.h"
#include "core/weights.h"
#include "kernels/kernels.h"

namespace bl {

class Model : public Network {
 public:
  Model(const ModelData& data, const Kernels& kernels);

  // ids: source token ids without </s> (appended here).
  void encode(const std::vector<int>& ids, Annotations* out) const override;
  // One step: y_prev is y_{i-1} (<s> for i = 1), s_prev is s_{i-1} (Annotations::s0 first).
  // Attention's query is s_{i-1} (Config::decoder Paper) or s'_i = GRU1(E y_{i-1}, s_{i-1}) (CGru).
  // edit: the given alpha_i replaces softmax(e_i), and c_i is mixed from it.
  void step(const Annotations& a, int y_prev, const float* s_prev, StepState* out,
            const StepEdit* edit = nullptr) const;
  void decode(const Annotations& a, int y_prev, const std::vector<float>& s_prev,
              StepState* out, const StepEdit* edit = nullptr) const override {
    step(a, y_prev, s_prev.data(), out, edit);
  }
  // B steps at once (model_batch.cpp), hypotheses of different sentences: a[b], y_prev[b] and
  // s_prev[b*D .. b*D + D) to out[b]. out[b] is bit for bit what step(*a[b], y_prev[b],
  // s_prev + b*D, &out[b]) writes: the weight products run as GEMMs (kernels.h), which read
  // each matrix once per step for the whole batch and equal gemv exactly.
  void step_batch(size_t B, const Annotations* const* a, const int* y_prev, const float* s_prev,
                  StepState* out) const;
  // encode() for B sentences at once (model_batch.cpp): *out[b] is bit for bit what
  // encode(*ids[b], out[b]) writes. The input products W_ih x_t of every token of every sentence
  // are one GEMM, and each recurrence step t is one GEMM over the sentences at least that long.
  void encode_batch(size_t B, const std::vector<int>* const* ids, Annotations* const* out) const;

  // The two halves of attention's scoring, public so they can be timed and reused on their own:
  // keys_j = U h_j for n annotations (once per sentence, in encode), and the n scores e_ij
  // against q = W s_{i-1} (once per step; q is written too).
  void project_keys(const float* h, int n, float* keys) const;
  void score(const Annotations& a, const float* s_prev, float* q, float* e) const;
  void score_keys(const Annotations& a, const float* q, float* e) const;  // score() without W s

  const Weights& weights() const { return w_; }

 private:
  void embed(const Matrix& table, int id, float* out) const;
  // h = GRU(x, h_prev) with the input half (W_ih x + b_ih) already computed in gi.
  void gru(const Gru& g, const float* gi, const float* h_prev, float* h_out) const;
  // gru() once gh = W_h* h_prev + b_h* is known (step_batch computes gh for B rows at once).
  void gru_gates(size_t H, const float* gi, const float* gh, const float* h_prev,
                 float* h_out) const;
  // gru() for B rows of gi, h_prev, h_out.
  void gru_batch(const Gru& g, size_t B, const float* gi, const float* h_prev,
                 float* h_out) const;
};

}  // namespace bl
