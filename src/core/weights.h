// What a model file holds once validated: Config, vocabularies and Weights (docs/model-format.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bl {

// None is the paper's RNNencdec baseline: no attention, one fixed context for every step.
enum class Scoring { Additive, ScaledDot, None };
// Where attention's query comes from: Paper scores with s_{i-1} (Bahdanau et al. 2014); CGru
// with s'_i, the state of a first GRU that has read y_{i-1} (Sennrich et al. 2017).
enum class DecoderKind { Paper, CGru };
// How attention was trained: Plain by the translation loss alone; Ibm1Diag also pulled towards
// the links of an unsupervised IBM-1 + diagonal aligner (scripts/nmt/ibm.py, train
// --guided-alignment). The decoder computes the same either way; this is for what a page says.
enum class Guidance { Plain, Ibm1Diag };
// Q4: every matrix in 4-bit codes with an f16 scale per group of 16 columns (docs/model-format.md).
enum class DType { F32, Int8, Q4 };
// Rnn: the Bahdanau encoder-decoder (files without "arch"); Transformer: scripts/nmt/transformer.py.
enum class Arch { Rnn, Transformer };

struct Config {
  std::string src_lang, tgt_lang;  // "en", "fr"; tgt_lang may also be "zh" (tokenizer_version 3)
  Arch arch = Arch::Rnn;
  Scoring scoring = Scoring::Additive;
  DecoderKind decoder = DecoderKind::Paper;
  Guidance guidance = Guidance::Plain;
  DType dtype = DType::F32;
  int emb = 0;         // E
  int enc_hidden = 0;  // H (annotations are 2H wide)
  int dec_hidden = 0;  // D
  int attn = 0;        // A (0 when scoring is None)
  int maxout = 2;      // M
  int src_vocab = 0, tgt_vocab = 0;
  int max_src_len = 0, max_tgt_len = 0;
  // Transformer only (0 for an RNN; enc_hidden, dec_hidden, attn and maxout are 0 for it).
  int d_model = 0, heads = 0, ffn = 0, enc_layers = 0, dec_layers = 0;
};

// A row-major matrix in the file's dtype: exactly one of f32 / i8 / q4 is filled.
struct Matrix {
  size_t rows = 0, cols = 0;
  std::vector<float> f32;
  std::vector<int8_t> i8;
  // 4-bit codes, cols / 2 bytes a row, packed as kernels/gemv-qs4-scalar.cpp says.
  std::vector<uint8_t> q4;
  std::vector<float> scale;  // int8: one per row; q4: one per group of 16, cols / 16 a row
  // int8 only: sum_k i8[r][k] per row, for the relaxed kernels (kernels.h: gemv_i8's wsum),
  // which use it for rows of up to 2048 columns (and the wasm-simd kernels beyond).
  std::vector<int32_t> row_sum;
  bool is_int8() const { return !i8.empty(); }
  bool is_q4() const { return !q4.empty(); }
};

struct Gru {
  Matrix W_ih, W_hh;  // [3H, in], [3H, H]; gate rows r, z, n
  std::vector<float> b_ih, b_hh;
};

// The Transformer's pieces (docs/model-format.md names them: enc.0.self.Wq, dec.1.ff1.b, ...).
struct LayerNormW {
  std::vector<float> g, b;  // [d] gain and offset
};
struct AttentionW {
  Matrix Wq, Wk, Wv, Wo;  // [d, d] each; heads are consecutive blocks of d / heads rows
  std::vector<float> bq, bk, bv, bo;
};
struct FeedForwardW {
  Matrix W1, W2;  // [ffn, d], [d, ffn]
  std::vector<float> b1, b2;
};
struct EncoderLayerW {
  LayerNormW ln1, ln2;
  AttentionW self;
  FeedForwardW ff;
};
struct DecoderLayerW {
  LayerNormW ln1, ln2, ln3;
  AttentionW self, cross;
  FeedForwardW ff;
};

struct Weights {
  Matrix src_emb;                 // [Vs, E]
  Gru enc_fwd, enc_bwd;           // input E, hidden H
  Matrix init_W;                  // [D, H]
  std::vector<float> init_b;      // [D]
  Matrix att_W;                   // [A, D], not in a None model
  Matrix att_U;                   // [A, 2H], not in a None model
  std::vector<float> att_v;       // [A], additive only
  Matrix tgt_emb;                 // [Vt, E], also the tied output projection
  Gru dec_gru;                    // Paper: input E + 2H, hidden D
  Gru dec_gru1, dec_gru2;         // CGru: input E, and input 2H; hidden D
  Matrix readout_W;               // [M*E, D + 2H + E]
  std::vector<float> readout_b;   // [M*E]
  std::vector<float> out_b;       // [Vt]
  // Transformer only: src_emb, tgt_emb and out_b above are shared with the RNN layout.
  Matrix src_in, tgt_in;          // [d, E]: x_j = W_in E x_j * sqrt(d) + PE(j)
  std::vector<EncoderLayerW> enc;
  std::vector<DecoderLayerW> dec;
  LayerNormW enc_ln, dec_ln;      // the final LayerNorm of each stack
  Matrix out_proj;                // [E, d]: logits = E_tgt (out_proj z) + out_b (tied)
};

struct ModelData {
  Config config;
  Weights weights;
  std::vector<std::string> src_vocab, tgt_vocab, src_names, tgt_names;
  // The metadata's tokenizer_version, 1-3 (docs/tokenization.md): the spec every Tokenizer
  // built for this model follows. 2 for a ModelData made in memory, as the trainer writes it.
  int tokenizer_version = 2;
  size_t file_bytes = 0;
  size_t num_params = 0;  // weights and biases, scales not counted
};

}  // namespace bl
