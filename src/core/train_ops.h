// The small linear algebra of the training pass, templated on the activation type T: float for
// training, double for the finite-difference checks of tests/cpp/train_test.cpp (which compute
// the loss alone, no gradient). Weights stay f32; gradients are f32 buffers of the same shapes.
//
// The f32 instance does every product through the kernel table's train_gemm_f32 (kernels.h):
// scalar and wasm SIMD twins that give the same bits, so both wasm variants train alike. Its
// lanes run over a product's outputs, so y = W x reads W's transpose (Transposed, made once a
// batch), and dW += dy x^T goes through OuterSum, which keeps a batch's (dy, x) pairs and adds
// them as one product with K = the number of pairs, in the order they came.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/weights.h"
#include "kernels/kernels.h"
#include "kernels/scratch.h"

namespace bl::train {

// The table a Trainer chose for its calls (UseTrainKernels), or null: then the wasm SIMD one
// where the build has it (the scalar wasm variant and BL_SIMD=OFF builds get the scalar twin,
// with the same results). Per thread, since native tests train on several.
inline const Kernels*& chosen_train_kernels() {
  BL_THREAD_LOCAL const Kernels* k = nullptr;  // scratch.h: static in a wasm instance
  return k;
}
inline const Kernels& train_kernels() {
  const Kernels* k = chosen_train_kernels();
  return k ? *k : simd_kernels();
}
// For one call of a Trainer: its table (null: whatever was chosen around the call, which is
// the default above unless a test chose another), then the one before.
class UseTrainKernels {
 public:
  explicit UseTrainKernels(const Kernels* k) : before_(chosen_train_kernels()) {
    if (k) chosen_train_kernels() = k;
  }
  ~UseTrainKernels() { chosen_train_kernels() = before_; }
  UseTrainKernels(const UseTrainKernels&) = delete;
  UseTrainKernels& operator=(const UseTrainKernels&) = delete;

 private:
  const Kernels* before_;
};

// C[m*ldc + j] += sum_k A[m*a_row + k*a_col] * B[k*ldb + j], k ascending (kernels.h).
template <class TC, class TA, class TB>
void gemm_add(size_t M, size_t N, size_t K, const TA* A, size_t a_row, size_t a_col,
              const TB* B, size_t ldb, TC* C, size_t ldc) {
  if constexpr (std::is_same_v<TC, float> && std::is_same_v<TA, float> &&
                std::is_same_v<TB, float>) {
    train_kernels().train_gemm_f32(M, N, K, A, a_row, a_col, B, ldb, C, ldc);
  } else {
    for (size_t m = 0; m < M; m++)
      for (size_t k = 0; k < K; k++) {
        const TC a = TC(A[m * a_row + k * a_col]);
        for (size_t j = 0; j < N; j++) C[m * ldc + j] += a * TC(B[k * ldb + j]);
      }
  }
}

// W^T as a Matrix (cols x rows), f32.
inline Matrix transpose(const Matrix& W) {
  Matrix t;
  t.rows = W.cols, t.cols = W.rows;
  t.f32.resize(W.f32.size());
  constexpr size_t kB = 16;  // in 16 x 16 blocks, so that reads and writes both stay in cache
  for (size_t r0 = 0; r0 < W.rows; r0 += kB)
    for (size_t k0 = 0; k0 < W.cols; k0 += kB)
      for (size_t r = r0; r < std::min(W.rows, r0 + kB); r++)
        for (size_t k = k0; k < std::min(W.cols, k0 + kB); k++)
          t.f32[k * W.rows + r] = W.f32[r * W.cols + k];
  return t;
}

// The transposes of the matrices that multiply a vector in the forward pass, made once per
// batch (0.8M floats for the model: far less than one step's products).
struct Transposed {
  struct GruT {
    Matrix W_ih, W_hh;
  };
  GruT enc_fwd, enc_bwd, dec_gru, dec_gru1, dec_gru2;
  Matrix init_W, att_W, att_U, readout_W, tgt_emb;

  explicit Transposed(const Weights& w) {
    for (auto [g, t] : {std::pair{&w.enc_fwd, &enc_fwd}, std::pair{&w.enc_bwd, &enc_bwd},
                        std::pair{&w.dec_gru, &dec_gru}, std::pair{&w.dec_gru1, &dec_gru1},
                        std::pair{&w.dec_gru2, &dec_gru2}})
      t->W_ih = transpose(g->W_ih), t->W_hh = transpose(g->W_hh);
    init_W = transpose(w.init_W), att_W = transpose(w.att_W), att_U = transpose(w.att_U);
    readout_W = transpose(w.readout_W), tgt_emb = transpose(w.tgt_emb);
  }
};

// y = W x + b (b may be null), with Wt = W^T. f32: y = 0 + sum_k W[.][k] x[k] in k order, then
// b + y, the scalar gemv's order; double: b first, as the finite differences always summed.
template <class T>
void matvec(const Matrix& W, const Matrix& Wt, const T* x, const float* b, T* y) {
  if constexpr (std::is_same_v<T, float>) {
    std::fill(y, y + W.rows, 0.0f);
    gemm_add(1, W.rows, W.cols, x, 0, 1, Wt.f32.data(), W.rows, y, W.rows);
    if (b)
      for (size_t r = 0; r < W.rows; r++) y[r] = b[r] + y[r];
  } else {
    for (size_t r = 0; r < W.rows; r++) {
      T acc = b ? T(b[r]) : T(0);
      const float* w = &W.f32[r * W.cols];
      for (size_t k = 0; k < W.cols; k++) acc += T(w[k]) * x[k];
      y[r] = acc;
    }
  }
}

// Y[i*ldy + r] = (W X_i + b)[r] for the n rows X_i = X + i*ldx: matvec's bits for each row,
// one product for all of them (inputs known before a recurrence runs: the encoder's
// embeddings, the decoder's E y_{i-1}, the keys U h_j).
template <class T>
void matvec_rows(const Matrix& W, const Matrix& Wt, size_t n, const T* X, size_t ldx,
                 const float* b, T* Y, size_t ldy) {
  if constexpr (std::is_same_v<T, float>) {
    for (size_t i = 0; i < n; i++) std::fill(Y + i * ldy, Y + i * ldy + W.rows, 0.0f);
    gemm_add(n, W.rows, W.cols, X, ldx, 1, Wt.f32.data(), W.rows, Y, ldy);
    if (b)
      for (size_t i = 0; i < n; i++)
        for (size_t r = 0; r < W.rows; r++) Y[i * ldy + r] = b[r] + Y[i * ldy + r];
  } else {
    for (size_t i = 0; i < n; i++) matvec(W, Wt, X + i * ldx, b, Y + i * ldy);
  }
}

// dx += W^T dy
template <class T>
void matvec_t_add(const Matrix& W, const T* dy, T* dx) {
  gemm_add(1, W.cols, W.rows, dy, 0, 1, W.f32.data(), W.cols, dx, W.cols);
}

// dW += sum over the added pairs of dy x^T, kept until flush() (or until kMax pairs wait): one
// product of K = pairs instead of one pass over dW per pair. The same sums, in the same order,
// as adding each pair at once.
template <class T>
class OuterSum {
 public:
  explicit OuterSum(Matrix* dW) : dW_(dW) {}
  OuterSum(const OuterSum&) = delete;
  OuterSum& operator=(const OuterSum&) = delete;

  void add(const T* dy, const T* x) {
    const size_t R = dW_->rows, Cn = dW_->cols;
    if (!dy_) {  // once, uninitialised: a step adds each row exactly once
      dy_.reset(new T[kMax * R]);
      x_.reset(new T[kMax * Cn]);
    }
    std::copy_n(dy, R, &dy_[n_ * R]);
    std::copy_n(x, Cn, &x_[n_ * Cn]);
    if (++n_ == kMax) flush();
  }
  void flush() {  // dW[r][k] += sum_p dy_p[r] x_p[k], p in order
    if (n_ == 0) return;
    const size_t R = dW_->rows, Cn = dW_->cols;
    gemm_add(R, Cn, n_, dy_.get(), 1, R, x_.get(), Cn, dW_->f32.data(), Cn);
    n_ = 0;
  }

 private:
  static constexpr size_t kMax = 512;  // bounds the memory: 512 pairs of a 384 x 256 GRU ~ 1 MB
  Matrix* dW_;
  std::unique_ptr<T[]> dy_, x_;
  size_t n_ = 0;
};

// db += dy
template <class T>
void vec_add(std::vector<float>* db, const T* dy) {
  for (size_t k = 0; k < db->size(); k++) (*db)[k] += float(dy[k]);
}

// sum_k a[k] b[k], sum_k x[k] and max_k x[k]. f32: the kernel table's reductions, in 16 lanes
// (kernels.h, train_dot_f32...), which every table sums alike; an index-order sum is one
// chain of dependent adds over the softmax's logits and the attention's dots.
// double (the finite differences): index order.
template <class T, class U>
T reduce_dot(size_t n, const U* a, const T* b) {
  if constexpr (std::is_same_v<T, float> && std::is_same_v<U, float>) {
    return train_kernels().train_dot_f32(n, a, b);
  } else {
    T acc = 0;
    for (size_t k = 0; k < n; k++) acc += T(a[k]) * b[k];
    return acc;
  }
}

template <class T>
T reduce_sum(size_t n, const T* x) {
  if constexpr (std::is_same_v<T, float>) {
    return train_kernels().train_sum_f32(n, x);
  } else {
    T acc = 0;
    for (size_t k = 0; k < n; k++) acc += x[k];
    return acc;
  }
}

// n >= 1
template <class T>
T reduce_max(size_t n, const T* x) {
  if constexpr (std::is_same_v<T, float>) {
    return train_kernels().train_max_f32(n, x);
  } else {
    return *std::max_element(x, x + n);
  }
}

// x = f(x) for n values, in place. f32: the kernel table's training twins (kernels.h,
// train_exp_f32...), whose bits are the same on every table; a loop over libm would cost the
// trainer a tenth of its time. double (the finite differences): libm, as before.
template <class T, class Libm>
void apply_inplace(void (*Kernels::*f32)(size_t, const float*, float*), Libm libm, size_t n,
                   T* x) {
  if constexpr (std::is_same_v<T, float>) {
    (train_kernels().*f32)(n, x, x);
  } else {
    for (size_t i = 0; i < n; i++) x[i] = libm(x[i]);
  }
}

template <class T>
void exp_inplace(size_t n, T* x) {
  apply_inplace(&Kernels::train_exp_f32, [](T v) { return std::exp(v); }, n, x);
}

template <class T>
void tanh_inplace(size_t n, T* x) {
  apply_inplace(&Kernels::train_tanh_f32, [](T v) { return std::tanh(v); }, n, x);
}

template <class T>
void sigmoid_inplace(size_t n, T* x) {
  apply_inplace(&Kernels::train_sigmoid_f32, [](T v) { return T(1) / (T(1) + std::exp(-v)); }, n,
                x);
}

// What one GRU application keeps for its backward pass.
template <class T>
struct GruTape {
  std::vector<T> x, h, r, z, n, ghn;  // input, h_prev, gates, and W_hn h + b_hn
};

// A GRU's gradients: its biases at once, its matrices through OuterSum.
template <class T>
struct GruGrad {
  explicit GruGrad(Gru* g) : g(g), W_ih(&g->W_ih), W_hh(&g->W_hh) {}
  Gru* g;
  OuterSum<T> W_ih, W_hh;
};

// The rest of h' = GRU(x, h) once its products are known: gi = W_ih x + b_ih and
// gh = W_hh h + b_hh, gates r, z, n (docs/model-format.md). Saves what gru_backward needs (x is
// in wide, h is H wide). h_out must not overlap x or h.
template <class T>
void gru_gates(const T* x, size_t in, const T* h, size_t H, const T* gi, const T* gh,
               GruTape<T>* tp, T* h_out) {
  tp->x.assign(x, x + in);
  tp->h.assign(h, h + H);
  tp->r.resize(H), tp->z.resize(H), tp->n.resize(H), tp->ghn.assign(gh + 2 * H, gh + 3 * H);
  T *r = tp->r.data(), *z = tp->z.data(), *n = tp->n.data();
  for (size_t k = 0; k < H; k++) r[k] = gi[k] + gh[k], z[k] = gi[H + k] + gh[H + k];
  sigmoid_inplace(H, r);  // r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
  sigmoid_inplace(H, z);  // z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
  for (size_t k = 0; k < H; k++) n[k] = gi[2 * H + k] + r[k] * gh[2 * H + k];
  tanh_inplace(H, n);  // n = tanh(W_in x + b_in + r (W_hn h + b_hn))
  for (size_t k = 0; k < H; k++) h_out[k] = (T(1) - z[k]) * n[k] + z[k] * h[k];  // (1-z) n + z h
}

// Backward of gru_gates, from dh_out = dL/dh': the gates' gradients dgi = dL/d(W_ih x + b_ih)
// and dgh = dL/d(W_hh h + b_hh) (3H each), and dh += dh_out z, the part of dL/dh that does not
// go through W_hh. The rest is two products that the caller makes, for many pairs at once:
// dx += W_ih^T dgi, dh += W_hh^T dgh; and the weights' share, gru_grad_add.
template <class T>
void gru_gates_backward(const GruTape<T>& tp, const T* dh_out, T* dgi, T* dgh, T* dh) {
  const size_t H = tp.h.size();
  for (size_t k = 0; k < H; k++) {
    const T r = tp.r[k], z = tp.z[k], n = tp.n[k];
    const T dn = dh_out[k] * (T(1) - z);     // dh'/dn = 1 - z
    const T dz = dh_out[k] * (tp.h[k] - n);  // dh'/dz = h - n
    dh[k] += dh_out[k] * z;                  // dh'/dh = z
    const T da_n = dn * (T(1) - n * n);      // n = tanh(a_n)
    const T dr = da_n * tp.ghn[k];           // a_n = gi_n + r ghn
    dgi[k] = dr * r * (T(1) - r);            // r = sigmoid(gi_r + gh_r)
    dgh[k] = dgi[k];
    dgi[H + k] = dz * z * (T(1) - z);  // z = sigmoid(gi_z + gh_z)
    dgh[H + k] = dgi[H + k];
    dgi[2 * H + k] = da_n;
    dgh[2 * H + k] = da_n * r;
  }
}

// dg += the GRU application's share of the weights' gradients, from its gates' gradients.
template <class T>
void gru_grad_add(GruGrad<T>* dg, const GruTape<T>& tp, const T* dgi, const T* dgh) {
  dg->W_ih.add(dgi, tp.x.data());
  vec_add(&dg->g->b_ih, dgi);
  dg->W_hh.add(dgh, tp.h.data());
  vec_add(&dg->g->b_hh, dgh);
}

}  // namespace bl::train
