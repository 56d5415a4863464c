#include "core/self_attention.h"

#include <cmath>

namespace bl {

// W_q cannot be used: it reads decoder states (D numbers), not annotations (2H). Measured on the
// en-fr-dot model: W_q applied to half-annotations or to tanh(W_init <-h_i + b) (the model's own
// annotation -> state map) gives near-uniform rows, while W_k on both sides gives the local,
// mostly diagonal pattern a reader can interpret.
const char* const kSelfAttentionMethod =
    "Queries and keys are both this model's key projection of the annotations: "
    "q_i = W_k h_i and k_j = W_k h_j (W_q reads decoder states, not annotations; a Transformer "
    "learns a separate W_q for this).";

void source_self_attention(const Model& m, const Annotations& a,
                           std::vector<std::vector<float>>* scores,
                           std::vector<std::vector<float>>* weights) {
  const size_t n = size_t(a.n), A = m.config().attn;
  const Kernels& k = m.kernels();
  scores->assign(n, std::vector<float>(n));
  weights->assign(n, std::vector<float>(n));
  for (size_t i = 0; i < n; i++) {
    const float* q = &a.keys[i * A];
    // e_ij = q_i . k_j / sqrt(A); alpha_i = softmax(e_i)
    k.dot_score(n, A, a.keys.data(), A, q, 1.0f / std::sqrt(float(A)), (*scores)[i].data());
    k.softmax(n, (*scores)[i].data(), (*weights)[i].data());
  }
}

const char* const kEncoderSelfAttentionMethod =
    "The encoder's own self-attention, every layer and head: q_i = W_q LN(x_i), "
    "k_j = W_k LN(x_j), e_ij = q_i . k_j / sqrt(d_k) per head, as the Transformer computes it "
    "while translating.";

void encoder_self_attention(const Transformer& t, const std::vector<int>& ids,
                            SelfAttention* out) {
  const Config& c = t.config();
  const size_t L = c.enc_layers, H = c.heads, n = ids.size() + 1;
  Annotations a;
  std::vector<float> e, alpha;
  t.encode_with_attention(ids, &a, &e, &alpha);
  out->layers = int(L);
  out->heads = int(H);
  auto unpack = [&](const std::vector<float>& flat, LayeredRows* rows) {
    rows->assign(L, std::vector<std::vector<std::vector<float>>>(H));
    for (size_t l = 0; l < L; l++)
      for (size_t h = 0; h < H; h++)
        for (size_t i = 0; i < n; i++) {
          const auto row = flat.begin() + long(((l * H + h) * n + i) * n);
          (*rows)[l][h].emplace_back(row, row + long(n));
        }
  };
  unpack(e, &out->layer_scores);
  unpack(alpha, &out->layer_weights);
}

}  // namespace bl
