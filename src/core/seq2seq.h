// What the search (search.h) and the Translator drive, whichever the model kind: encode a
// sentence once, then decode one step at a time from an opaque state. The RNN (model.h) and the
// Transformer (transformer.h) implement it; greedy, beam, forced decoding and the step API are
// written once against it.
#pragma once
#include <vector>

#include "core/matrix_ops.h"
#include "core/weights.h"
#include "kernels/kernels.h"

namespace bl {

// The special target (and source) ids every model file shares: docs/model-format.md.
constexpr int kPad = 0, kUnk = 1, kBos = 2, kEos = 3;

// Everything the decoder needs about one source sentence, computed once.
struct Annotations {
  int n = 0;                // source positions, </s> included
  std::vector<float> h;     // RNN: [n, 2H] h_j = [->h_j; <-h_j]. Transformer: [n, d], the
                            // encoder's output after its final LayerNorm
  std::vector<float> keys;  // RNN: [n, A] U h_j, precomputed so a step costs one GEMV less per j
  std::vector<float> c;     // [2H]    Scoring::None only: the fixed context [->h_T; <-h_1]
  std::vector<float> s0;    // the decoder's first state: RNN [D] tanh(W_init <-h_1 + b);
                            // Transformer: empty (no target position read yet)
  // Transformer: each decoder layer's cross-attention keys then values, [layers][2][n][d],
  // computed once per sentence.
  std::vector<float> cross_kv;
  // Per source token (</s> excluded): may <unk> replacement copy it? (search.h). Empty: all.
  std::vector<char> copyable;
};

// The outputs of one decoder step i.
struct StepState {
  std::vector<float> e;      // [n]   raw scores e_ij (empty without attention); Transformer: the
                             //       last decoder layer's cross-attention scores, mean of heads
  std::vector<float> alpha;  // [n]   softmax(e_i); Transformer: the last layer's weights, mean
                             //       of heads (the summary row the <unk> copy rule reads)
  std::vector<float> c;      // RNN: [2H] context c_i. Transformer: [d] the final decoder state
                             //       z_i (after its LayerNorm), what the output layer reads
  std::vector<float> s;      // the next state: RNN [D] s_i; Transformer the self-attention
                             //       key/value cache of y_0..y_{i-1}, [i][layers][2][d]
  std::vector<float> logp;   // [Vt]  log p(y_i | y_<i, x)
  // Transformer: every decoder layer's cross-attention per head, [layers][heads][n]. Empty
  // for an RNN.
  std::vector<float> cross_e, cross_alpha;
  // A step decoded under a StepEdit (attention_edit.h): alpha and cross_alpha hold the given
  // rows, which c was mixed from; own_alpha and own_cross_alpha what the softmax gave. Both
  // are empty after a step without edit.
  std::vector<float> own_alpha, own_cross_alpha;
};

struct StepEdit;

class Seq2Seq {
 public:
  virtual ~Seq2Seq() = default;
  // ids: source token ids without </s> (appended here).
  virtual void encode(const std::vector<int>& ids, Annotations* out) const = 0;
  // One step: y_prev is y_{i-1} (<s> for i = 1), state the state after it (a.s0 first);
  // out->s becomes the state for the next step. Copying a state is all a beam hypothesis
  // needs to branch.
  // edit: given attention for this step instead of the softmax's (nullptr: the model's own).
  virtual void decode(const Annotations& a, int y_prev, const std::vector<float>& state,
                      StepState* out, const StepEdit* edit = nullptr) const = 0;
  virtual const Config& config() const = 0;
  // The kernel table the model runs on (scalar or SIMD): the search uses it too.
  virtual const Kernels& kernels() const = 0;
};

// What both model kinds are built on: the file's config and weights, the kernel table, and the
// weight products on that table, written once for model.cpp and transformer.cpp.
class Network : public Seq2Seq {
 public:
  Network(const ModelData& data, const Kernels& kernels)
      : cfg_(data.config), w_(data.weights), k_(kernels) {}
  const Config& config() const override { return cfg_; }
  const Kernels& kernels() const override { return k_; }

 protected:
  // y = W x + bias (bias may be null)
  void gemv(const Matrix& W, const float* x, const float* bias, float* y) const {
    matvec(k_, W, x, bias, y);
  }
  // Y[b*ldy ..] = W X[b*ldx ..] + bias for B rows
  void gemm(const Matrix& W, size_t B, const float* X, size_t ldx, const float* bias, float* Y,
            size_t ldy) const {
    matmat(k_, W, B, X, ldx, bias, Y, ldy);
  }

  const Config& cfg_;
  const Weights& w_;
  const Kernels& k_;
};

}  // namespace bl
