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

}  // namespace bl
