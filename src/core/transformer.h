// The Transformer (Vaswani et al. 2017) as scripts/nmt/transformer.py defines it: pre-LN
// encoder-decoder, sinusoidal positions, ReLU feed-forward, factorised and tied embeddings.
// Equations in docs/model-format.md. The encoder runs every position at once (GEMMs); the
// decoder keeps a key/value cache of its self-attention in the step state, and each layer's
// cross-attention keys and values are computed once per sentence, in encode().
#pragma once
#include <vector>

#include "core/seq2seq.h"
#include "core/weights.h"
#include "kernels/kernels.h"

namespace bl {

constexpr float kLayerNormEps = 1e-5f;  // nn.LayerNorm(eps=1e-5) in the reference

class Transformer : public Network {
 public:
  Transformer(const ModelData& data, const Kernels& kernels);

  void encode(const std::vector<int>& ids, Annotations* out) const override;
  // encode(), and every encoder layer's self-attention: scores e (scaled) and weights alpha,
  // each [layers][heads][n][n] with n = ids.size() + 1.
  void encode_with_attention(const std::vector<int>& ids, Annotations* out, std::vector<float>* e,
                             std::vector<float>* alpha) const;
  // state: the key/value cache of the positions read so far (empty first); out->s is it with
  // this step's position appended. out->e/alpha are the summary row (last layer, mean of
  // heads), out->c the final decoder state z_i, out->cross_e/cross_alpha every layer and head.
  // edit: given weights for some heads of some layers' cross-attention, or heads switched off
  // (their output zeroed); out->own_cross_alpha then holds every head's own softmax.
  void decode(const Annotations& a, int y_prev, const std::vector<float>& state,
              StepState* out, const StepEdit* edit = nullptr) const override;

  // Floats one target position adds to the cache: layers x (key and value) x d.
  size_t cache_row() const { return size_t(cfg_.dec_layers) * 2 * size_t(cfg_.d_model); }

 private:
  void encode_impl(const std::vector<int>& ids, Annotations* out, float* self_e,
                   float* self_alpha) const;
  // Y[b] = W X[b] + bias for B rows of width W.cols (X) and W.rows (Y), packed.
  using Network::gemm;
  void gemm(const Matrix& W, size_t B, const float* X, const float* bias, float* Y) const {
    gemm(W, B, X, W.cols, bias, Y, W.rows);
  }
  // x = W_in E[id] * sqrt(d) + PE(pos)
  void embed(const Matrix& table, const Matrix& W_in, int id, int pos, float* x) const;
  // One head, one query: e_j = q . k_j / sqrt(d_k), alpha = softmax(e), ctx = sum_j alpha_j v_j
  // over n keys and values with ld floats between rows.
  void attend(size_t n, const float* q, const float* K, const float* V, size_t ld, float* e,
              float* alpha, float* ctx) const;
  // After attend() for head h of layer l: keeps its own weights in out->own_cross_alpha[at..],
  // and if the edit sets that head, replaces its weights at out->cross_alpha[at..] and its
  // output ctx (V: its values, ld floats apart).
  void override_head(const StepEdit& edit, size_t l, size_t h, size_t n, const float* V,
                     size_t ld, StepState* out, size_t at, float* ctx) const;
  // x += W2 relu(W1 LN(x) + b1) + b2 for B rows of x.
  void feed_forward(const FeedForwardW& f, const LayerNormW& ln, size_t B, float* x) const;
  void layer_norm(const LayerNormW& ln, size_t B, const float* x, float* y) const;
};

}  // namespace bl
