// The small linear algebra of the backward pass, plain scalar loops (llama2.c style) templated
// on the activation type T: float for training, double for the finite-difference checks of
// tests/cpp/train_test.cpp. Weights stay f32; gradients are f32 buffers of the same shapes.
// The wasm SIMD twins of these loops are not written yet (docs/training-core.md).
#pragma once
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "core/weights.h"
#include "kernels/kernels.h"

namespace bl::train {

// y = W x + b (b may be null); the f32 instance is the inference kernel table's scalar gemv.
template <class T>
void matvec(const Matrix& W, const T* x, const float* b, T* y) {
  if constexpr (std::is_same_v<T, float>) {
    scalar_kernels().gemv_f32(W.rows, W.cols, W.f32.data(), W.cols, x, b, y);
  } else {
    for (size_t r = 0; r < W.rows; r++) {
      T acc = b ? T(b[r]) : T(0);
      const float* w = &W.f32[r * W.cols];
      for (size_t k = 0; k < W.cols; k++) acc += T(w[k]) * x[k];
      y[r] = acc;
    }
  }
}

// dx += W^T dy
template <class T>
void matvec_t_add(const Matrix& W, const T* dy, T* dx) {
  for (size_t r = 0; r < W.rows; r++) {
    const float* w = &W.f32[r * W.cols];
    for (size_t k = 0; k < W.cols; k++) dx[k] += T(w[k]) * dy[r];
  }
}

// dW += dy x^T
template <class T>
void outer_add(Matrix* dW, const T* dy, const T* x) {
  for (size_t r = 0; r < dW->rows; r++) {
    float* g = &dW->f32[r * dW->cols];
    for (size_t k = 0; k < dW->cols; k++) g[k] += float(dy[r] * x[k]);
  }
}

// db += dy
template <class T>
void vec_add(std::vector<float>* db, const T* dy) {
  for (size_t k = 0; k < db->size(); k++) (*db)[k] += float(dy[k]);
}

template <class T>
T sigmoid(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

// What one GRU application keeps for its backward pass.
template <class T>
struct GruTape {
  std::vector<T> x, h, r, z, n, ghn;  // input, h_prev, gates, and W_hn h + b_hn
};

// h' = GRU(x, h) (docs/model-format.md), saving what gru_backward needs.
template <class T>
void gru_forward(const Gru& g, const T* x, const T* h, GruTape<T>* tp, T* h_out) {
  const size_t in = g.W_ih.cols, H = g.W_hh.cols;
  tp->x.assign(x, x + in);
  tp->h.assign(h, h + H);
  std::vector<T> gi(3 * H), gh(3 * H);
  matvec(g.W_ih, x, g.b_ih.data(), gi.data());  // W_i* x + b_i*, gates r, z, n
  matvec(g.W_hh, h, g.b_hh.data(), gh.data());  // W_h* h + b_h*
  tp->r.resize(H), tp->z.resize(H), tp->n.resize(H), tp->ghn.assign(gh.begin() + 2 * H, gh.end());
  for (size_t k = 0; k < H; k++) {
    tp->r[k] = sigmoid(gi[k] + gh[k]);                               // r
    tp->z[k] = sigmoid(gi[H + k] + gh[H + k]);                       // z
    tp->n[k] = std::tanh(gi[2 * H + k] + tp->r[k] * gh[2 * H + k]);  // n
    h_out[k] = (T(1) - tp->z[k]) * tp->n[k] + tp->z[k] * h[k];       // h' = (1-z) n + z h
  }
}

// Backward of gru_forward: dg += dL/dweights; dx += dL/dx (dx may be null), dh += dL/dh_prev.
template <class T>
void gru_backward(const Gru& g, Gru* dg, const GruTape<T>& tp, const T* dh_out, T* dx, T* dh) {
  const size_t H = g.W_hh.cols;
  std::vector<T> dgi(3 * H), dgh(3 * H);
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
  outer_add(&dg->W_ih, dgi.data(), tp.x.data());
  vec_add(&dg->b_ih, dgi.data());
  outer_add(&dg->W_hh, dgh.data(), tp.h.data());
  vec_add(&dg->b_hh, dgh.data());
  if (dx) matvec_t_add(g.W_ih, dgi.data(), dx);
  matvec_t_add(g.W_hh, dgh.data(), dh);
}

}  // namespace bl::train
