// Self-attention over the source sentence, for the comparison view's illustration: the same
// score -> softmax -> mix as the decoder's attention, but a sequence attending to itself, as
// in a Transformer. The translator never uses it.
#pragma once
#include <vector>

#include "bahdanau.h"
#include "core/model.h"
#include "core/transformer.h"

namespace bl {

extern const char* const kSelfAttentionMethod;  // how queries and keys are formed, for the UI

// scores[i][j] = q_i . k_j / sqrt(A), weights[i] = softmax(scores[i]), over the n annotations
// (</s> included). Meant for scaled_dot models, whose W_q and W_k were trained for dot products.
void source_self_attention(const Model& m, const Annotations& a,
                           std::vector<std::vector<float>>* scores,
                           std::vector<std::vector<float>>* weights);

extern const char* const kEncoderSelfAttentionMethod;  // the Transformer's, for the UI

// A Transformer's encoder self-attention over ids and </s>: out->layers, heads, and
// layer_scores / layer_weights [layers][heads][n][n], the scaled scores and softmax weights
// each encoder layer's heads computed while encoding (not an illustration: the real thing).
void encoder_self_attention(const Transformer& t, const std::vector<int>& ids,
                            SelfAttention* out);

}  // namespace bl
