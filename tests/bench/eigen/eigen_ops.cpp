// Eigen against our kernels, op by op, on the training math of issue 25's model (emb 64,
// hidden 128, attention 64, 3,000 target words, batch 32 of ~9 target tokens: 288 output rows).
// scripts/eigen-bench builds it natively and for wasm (Node) and runs it; docs/eigen.md has the
// results and the decision per op.
//
// Over 400 lines on purpose: the ops, every version of each and the harness that times them
// interleaved in one run belong together, so that one binary answers "which is faster" without
// trusting timings taken at different moments on a shared machine.
//
// Each version is checked against a double-precision reference on the same inputs before it is
// timed; the run fails (exit 1) if any is off by more than 1e-4 of its output's scale.
//
// One Eigen configuration per binary (Eigen's vectorisation macros change what its templates
// compile to, and two configurations in one program would break the one-definition rule), so
// the Eigen builds are separate binaries, each timing our kernels alongside as the control.
#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace {

using RM = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RA = Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MapM = Eigen::Map<RM>;
using CMapM = Eigen::Map<const RM>;
using MapA = Eigen::Map<RA>;
using CMapA = Eigen::Map<const RA>;

// Shapes of the model (src/core/train_config.h defaults, docs/training-core.md).
constexpr size_t kB = 32, kRows = 288, kE = 64, kH = 128, kA = 64, kVt = 3000, kSrc = 10;

struct Version {
  std::string name;
  bool ours;                  // ours (the ratio's baseline) or Eigen
  std::function<void()> run;  // one call of the op
  std::vector<float>* out;    // what run() writes
  std::vector<float> out0;    // out's value before the checked call (accumulating ops)
  std::vector<double> us;     // one sample per round, microseconds per call
  size_t inner = 1;
  double err = 0;
};

struct Op {
  std::string name;
  double flops;  // per call
  // The output in double from the same inputs (and from out0, for the += ops).
  std::function<std::vector<double>(const std::vector<float>& out0)> reference;
  std::vector<Version> versions;
};

std::vector<float> random_vec(size_t n, unsigned seed, float lo = -1, float hi = 1) {
  std::vector<float> v(n);
  uint64_t s = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (float& x : v) {  // xorshift64*: the same inputs on every platform
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    const double u = double((s * 2685821657736338717ull) >> 11) / double(1ull << 53);
    x = float(lo + (hi - lo) * u);
  }
  return v;
}

std::vector<float> transpose(const std::vector<float>& a, size_t rows, size_t cols) {
  std::vector<float> t(a.size());
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++) t[c * rows + r] = a[r * cols + c];
  return t;
}

// --- The three product shapes of the training pass, with every version -----------------------
// NT:  C[M x N]  = A[M x K] B[N x K]^T   (forward: logits, GRU gates)
// NN:  C[M x N]  = A[M x K] B[K x N]     (backward: dX = dY W)
// TN: C[M x N] += A[K x M]^T B[K x N]   (backward: dW += dY^T X)
enum class Kind { NT, NN, TN };

struct Gemm {
  Kind kind;
  size_t M, N, K;
  std::vector<float> A, B, Bt;  // Bt = B's transpose, made once (the core's Transposed)
};

std::vector<double> gemm_reference(const Gemm& g, const std::vector<float>& c0) {
  std::vector<double> c(g.M * g.N, 0.0);
  if (g.kind == Kind::TN)
    for (size_t i = 0; i < c.size(); i++) c[i] = c0[i];
  for (size_t m = 0; m < g.M; m++)
    for (size_t n = 0; n < g.N; n++) {
      double s = 0;
      for (size_t k = 0; k < g.K; k++) {
        const double a = g.kind == Kind::TN ? g.A[k * g.M + m] : g.A[m * g.K + k];
        const double b = g.kind == Kind::NT ? g.B[n * g.K + k] : g.B[k * g.N + n];
        s += a * b;
      }
      c[m * g.N + n] += s;
    }
  return c;
}

// The loops of src/core/train_ops.h as of commit 96de4e4 (one sentence at a time): y = W x
// through the scalar gemv, dx += W^T dy and dW += dy x^T as plain loops, one row at a time.
void loops_gemm(const Gemm& g, float* C) {
  const size_t M = g.M, N = g.N, K = g.K;
  if (g.kind == Kind::NT) {
    for (size_t m = 0; m < M; m++)
      bl::scalar_kernels().gemv_f32(N, K, g.B.data(), K, &g.A[m * K], nullptr, C + m * N);
  } else if (g.kind == Kind::NN) {  // matvec_t_add with W = B [K x N], dy = row m of A
    for (size_t m = 0; m < M; m++) {
      float* dx = C + m * N;
      std::fill(dx, dx + N, 0.0f);
      for (size_t r = 0; r < K; r++) {
        const float* w = &g.B[r * N];
        for (size_t k = 0; k < N; k++) dx[k] += w[k] * g.A[m * K + r];
      }
    }
  } else {  // outer_add per pair k: dW[r][j] += dy_k[r] * x_k[j]
    for (size_t k = 0; k < K; k++) {
      const float* dy = &g.A[k * M];
      const float* x = &g.B[k * N];
      for (size_t r = 0; r < M; r++)
        for (size_t j = 0; j < N; j++) C[r * N + j] += float(dy[r] * x[j]);
    }
  }
}

// The inference kernel gemm_f32 (Y[b][r] = sum_k W[r][k] X[b][k]); NT reads B as W directly,
// NN reads the transposed copy, TN transposes A and B and the result within the call.
void inference_gemm(const bl::Kernels& kt, const Gemm& g, float* C, std::vector<float>* tmp) {
  const size_t M = g.M, N = g.N, K = g.K;
  if (g.kind == Kind::NT) {
    kt.gemm_f32(N, K, g.B.data(), K, M, g.A.data(), K, nullptr, C, N);
  } else if (g.kind == Kind::NN) {
    kt.gemm_f32(N, K, g.Bt.data(), K, M, g.A.data(), K, nullptr, C, N);
  } else {  // C^T[j][r] = sum_k B^T[j][k] A^T[r][k]: W = A^T [M x K], X = B^T [N x K]
    tmp->resize(M * K + N * K + M * N);
    float* At = tmp->data();
    float* Btk = At + M * K;
    float* Ct = Btk + N * K;
    for (size_t k = 0; k < K; k++)
      for (size_t m = 0; m < M; m++) At[m * K + k] = g.A[k * M + m];
    for (size_t k = 0; k < K; k++)
      for (size_t n = 0; n < N; n++) Btk[n * K + k] = g.B[k * N + n];
    kt.gemm_f32(M, K, At, K, N, Btk, K, nullptr, Ct, M);
    for (size_t m = 0; m < M; m++)
      for (size_t n = 0; n < N; n++) C[m * N + n] += Ct[n * M + m];
  }
}

// The training kernel train_gemm_f32 (C += A(m, k) B[k][j]) on the whole batch in one call,
// or row by row (per_row, M = 1 per call: what one sentence's matrix-vector products cost).
void training_gemm(const bl::Kernels& kt, const Gemm& g, float* C, bool per_row) {
  const size_t M = g.M, N = g.N, K = g.K;
  if (g.kind != Kind::TN) std::fill(C, C + M * N, 0.0f);
  const float* B = g.kind == Kind::NT ? g.Bt.data() : g.B.data();  // [K x N] either way
  const size_t a_row = g.kind == Kind::TN ? 1 : K, a_col = g.kind == Kind::TN ? M : 1;
  if (!per_row) return kt.train_gemm_f32(M, N, K, g.A.data(), a_row, a_col, B, N, C, N);
  for (size_t m = 0; m < M; m++)
    kt.train_gemm_f32(1, N, K, g.A.data() + m * a_row, 0, a_col, B, N, C + m * N, N);
}

void eigen_gemm(const Gemm& g, float* C, bool lazy) {
  const size_t M = g.M, N = g.N, K = g.K;
  MapM c(C, M, N);
  if (g.kind == Kind::NT) {
    CMapM a(g.A.data(), M, K), b(g.B.data(), N, K);
    if (lazy) c.noalias() = a.lazyProduct(b.transpose());
    else c.noalias() = a * b.transpose();
  } else if (g.kind == Kind::NN) {
    CMapM a(g.A.data(), M, K), b(g.B.data(), K, N);
    if (lazy) c.noalias() = a.lazyProduct(b);
    else c.noalias() = a * b;
  } else {
    CMapM a(g.A.data(), K, M), b(g.B.data(), K, N);
    if (lazy) c.noalias() += a.transpose().lazyProduct(b);
    else c.noalias() += a.transpose() * b;
  }
}

void add_gemm_op(std::vector<Op>* ops, std::vector<Gemm>* store, std::vector<std::vector<float>>* outs,
                 const std::string& name, Kind kind, size_t M, size_t N, size_t K, unsigned seed) {
  Gemm& g = (*store)[ops->size()];  // the products are the first ops; store never resizes
  g.kind = kind, g.M = M, g.N = N, g.K = K;
  g.A = random_vec(M * K, seed);
  g.B = random_vec(N * K, seed + 100);
  if (kind == Kind::NT) g.Bt = transpose(g.B, N, K);
  if (kind == Kind::NN) g.Bt = transpose(g.B, K, N);
  Op op;
  op.name = name;
  op.flops = 2.0 * double(M) * double(N) * double(K);
  op.reference = [&g](const std::vector<float>& c0) { return gemm_reference(g, c0); };
  const bool simd = bl::have_simd_kernels();
  const bl::Kernels &ks = bl::scalar_kernels(), &kv = bl::simd_kernels();
  auto add = [&](const std::string& vname, bool ours, std::function<void(float*)> f) {
    outs->emplace_back(random_vec(M * N, seed + 200));  // += ops start from a nonzero C
    std::vector<float>* o = &outs->back();
    op.versions.push_back({vname, ours, [f, o] { f(o->data()); }, o, {}, {}});
  };
  add("loops@96de4e4", true, [&g](float* C) { loops_gemm(g, C); });
  auto tmp = std::make_shared<std::vector<float>>();
  add("gemm_f32 scalar", true, [&g, &ks, tmp](float* C) { inference_gemm(ks, g, C, tmp.get()); });
  if (simd)
    add("gemm_f32 simd", true, [&g, &kv, tmp](float* C) { inference_gemm(kv, g, C, tmp.get()); });
  add("train_gemm scalar", true, [&g, &ks](float* C) { training_gemm(ks, g, C, false); });
  if (simd) {
    add("train_gemm simd", true, [&g, &kv](float* C) { training_gemm(kv, g, C, false); });
    if (kind != Kind::TN)
      add("train_gemm simd M=1", true, [&g, &kv](float* C) { training_gemm(kv, g, C, true); });
  }
  add("eigen", false, [&g](float* C) { eigen_gemm(g, C, false); });
  add("eigen lazyProduct", false, [&g](float* C) { eigen_gemm(g, C, true); });
  ops->push_back(std::move(op));
}

// --- (e) additive attention score backward, one decoder step of the batch -------------------
// e_bj = v . tanh(q_b + k_bj): given de [B x n], dv += sum tanh * de, dkeys += dpre, dq = sum_j
// dpre, dpre = de v (1 - tanh^2). Outputs packed as [dv (A) | dkeys (B n A) | dq (B A)].
struct Attn {
  std::vector<float> q, keys, de, v;
};

std::vector<double> attn_reference(const Attn& t, const std::vector<float>& o0) {
  std::vector<double> o(o0.begin(), o0.end());
  double* dv = o.data();
  double* dk = dv + kA;
  double* dq = dk + kB * kSrc * kA;
  for (size_t i = 0; i < kB * kA; i++) dq[i] = 0;
  for (size_t b = 0; b < kB; b++)
    for (size_t j = 0; j < kSrc; j++)
      for (size_t a = 0; a < kA; a++) {
        const double tq = std::tanh(double(t.q[b * kA + a]) + t.keys[(b * kSrc + j) * kA + a]);
        const double de = t.de[b * kSrc + j];
        dv[a] += de * tq;
        const double dpre = de * t.v[a] * (1 - tq * tq);
        dk[(b * kSrc + j) * kA + a] += dpre;
        dq[b * kA + a] += dpre;
      }
  return o;
}

// train_model.cpp's attention_backward loop (additive), for each sentence of the batch.
void attn_loops(const Attn& t, float* o) {
  float *dv = o, *dk = o + kA, *dq = dk + kB * kSrc * kA;
  std::fill(dq, dq + kB * kA, 0.0f);
  for (size_t b = 0; b < kB; b++)
    for (size_t j = 0; j < kSrc; j++) {
      const float de = t.de[b * kSrc + j];
      for (size_t a = 0; a < kA; a++) {
        const float tq = std::tanh(t.q[b * kA + a] + t.keys[(b * kSrc + j) * kA + a]);
        dv[a] += de * tq;
        const float dpre = de * t.v[a] * (1.0f - tq * tq);
        dk[(b * kSrc + j) * kA + a] += dpre;
        dq[b * kA + a] += dpre;
      }
    }
}

// The same with the tanh from a kernel table over the whole step at once, then the loop.
void attn_table(const bl::Kernels& kt, const Attn& t, float* o, std::vector<float>* tq) {
  float *dv = o, *dk = o + kA, *dq = dk + kB * kSrc * kA;
  tq->resize(kB * kSrc * kA);
  for (size_t b = 0; b < kB; b++)
    for (size_t j = 0; j < kSrc; j++)
      for (size_t a = 0; a < kA; a++)
        (*tq)[(b * kSrc + j) * kA + a] = t.q[b * kA + a] + t.keys[(b * kSrc + j) * kA + a];
  kt.tanh(tq->size(), tq->data(), tq->data());
  std::fill(dq, dq + kB * kA, 0.0f);
  for (size_t b = 0; b < kB; b++)
    for (size_t j = 0; j < kSrc; j++) {
      const float de = t.de[b * kSrc + j];
      const float* th = &(*tq)[(b * kSrc + j) * kA];
      for (size_t a = 0; a < kA; a++) {
        dv[a] += de * th[a];
        const float dpre = de * t.v[a] * (1.0f - th[a] * th[a]);
        dk[(b * kSrc + j) * kA + a] += dpre;
        dq[b * kA + a] += dpre;
      }
    }
}

void attn_eigen(const Attn& t, float* o) {
  Eigen::Map<Eigen::RowVectorXf> dv(o, kA);
  const Eigen::Map<const Eigen::RowVectorXf> v(t.v.data(), kA);
  for (size_t b = 0; b < kB; b++) {
    const CMapA k(&t.keys[b * kSrc * kA], kSrc, kA);
    const Eigen::Map<const Eigen::ArrayXf> de(&t.de[b * kSrc], kSrc);
    const Eigen::Map<const Eigen::RowVectorXf> q(&t.q[b * kA], kA);
    MapA dk(o + kA + b * kSrc * kA, kSrc, kA);
    Eigen::Map<Eigen::RowVectorXf> dq(o + kA + kB * kSrc * kA + b * kA, kA);
    const RA tq = (k.matrix().rowwise() + q).array().tanh();
    dv += (tq.colwise() * de).colwise().sum().matrix();
    const RA dpre = ((1.0f - tq.square()).colwise() * de).rowwise() * v.array();
    dk += dpre;
    dq = dpre.colwise().sum().matrix();
  }
}

// --- (f) softmax + cross-entropy backward over the target vocabulary -----------------------
// dz = scale (softmax(z) - onehot(y)) for each of the batch's 288 rows.
struct Xent {
  std::vector<float> z;
  std::vector<int> y;
  float scale = 1.0f / kRows;
};

std::vector<double> xent_reference(const Xent& t) {
  std::vector<double> o(kRows * kVt);
  for (size_t r = 0; r < kRows; r++) {
    const float* z = &t.z[r * kVt];
    const double m = *std::max_element(z, z + kVt);
    double s = 0;
    for (size_t i = 0; i < kVt; i++) s += std::exp(z[i] - m);
    for (size_t i = 0; i < kVt; i++) o[r * kVt + i] = t.scale * std::exp(z[i] - m) / s;
    o[r * kVt + t.y[r]] -= t.scale;
  }
  return o;
}

// train_model.cpp's step(): max, the sum of exp, lse, then exp(z - lse) scale, minus onehot.
void xent_loops(const Xent& t, float* o) {
  for (size_t r = 0; r < kRows; r++) {
    const float* z = &t.z[r * kVt];
    float* p = o + r * kVt;
    const float m = *std::max_element(z, z + kVt);
    float s = 0;
    for (size_t i = 0; i < kVt; i++) s += std::exp(z[i] - m);
    const float lse = m + std::log(s);
    for (size_t i = 0; i < kVt; i++) p[i] = std::exp(z[i] - lse) * t.scale;
    p[t.y[r]] -= t.scale;
  }
}

void xent_table(const bl::Kernels& kt, const Xent& t, float* o) {
  for (size_t r = 0; r < kRows; r++) {
    float* p = o + r * kVt;
    kt.softmax(kVt, &t.z[r * kVt], p);
    for (size_t i = 0; i < kVt; i++) p[i] *= t.scale;
    p[t.y[r]] -= t.scale;
  }
}

void xent_eigen(const Xent& t, float* o) {
  const CMapA z(t.z.data(), kRows, kVt);
  MapA p(o, kRows, kVt);
  const Eigen::ArrayXf m = z.rowwise().maxCoeff();
  p = (z.colwise() - m).exp();
  const Eigen::ArrayXf f = t.scale / p.rowwise().sum();
  p.colwise() *= f;
  for (size_t r = 0; r < kRows; r++) p(r, t.y[r]) -= t.scale;
}

double now_us() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int usage(const char* why) {
  std::fprintf(stderr, "eigen_ops: %s\nusage: eigen_ops [--rounds N (1..1000)] [--ms T (0.1..1000)]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 7;
  double target_ms = 8;
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if ((a == "--rounds" || a == "--ms") && i + 1 < argc) {
      char* end = nullptr;
      const double v = std::strtod(argv[++i], &end);
      if (*end != '\0') return usage(("not a number: " + std::string(argv[i])).c_str());
      if (a == "--rounds" && (v < 1 || v > 1000 || v != std::floor(v)))
        return usage("--rounds must be a whole number in 1..1000");
      if (a == "--ms" && !(v >= 0.1 && v <= 1000)) return usage("--ms must be in 0.1..1000");
      (a == "--rounds" ? (void)(rounds = int(v)) : (void)(target_ms = v));
    } else {
      return usage(("unknown or incomplete argument: " + a).c_str());
    }
  }

  std::vector<Op> ops;
  std::vector<Gemm> gemms(9);
  std::vector<std::vector<float>> outs;
  outs.reserve(200);  // Versions keep pointers into it: it must never reallocate
  const size_t capacity = outs.capacity();
  add_gemm_op(&ops, &gemms, &outs, "(a) logits T W^T  288x64 . 3000x64^T", Kind::NT, kRows, kVt, kE, 1);
  add_gemm_op(&ops, &gemms, &outs, "(a') logits  288x128 . 3000x128^T", Kind::NT, kRows, kVt, kH, 2);
  add_gemm_op(&ops, &gemms, &outs, "(b) dW += dY^T X  3000x288 . 288x64", Kind::TN, kVt, kE, kRows, 3);
  add_gemm_op(&ops, &gemms, &outs, "(c) dX = dY W  288x3000 . 3000x64", Kind::NN, kRows, kE, kVt, 4);
  add_gemm_op(&ops, &gemms, &outs, "(d1) GRU x W_ih^T  32x64 . 384x64^T", Kind::NT, kB, 3 * kH, kE, 5);
  add_gemm_op(&ops, &gemms, &outs, "(d2) GRU h W_hh^T  32x128 . 384x128^T", Kind::NT, kB, 3 * kH, kH, 6);
  add_gemm_op(&ops, &gemms, &outs, "(d3) GRU dx = dG W_ih  32x384 . 384x64", Kind::NN, kB, kE, 3 * kH, 7);
  add_gemm_op(&ops, &gemms, &outs, "(d4) GRU dh = dG W_hh  32x384 . 384x128", Kind::NN, kB, kH, 3 * kH, 8);
  add_gemm_op(&ops, &gemms, &outs, "(d5) GRU dW_ih += dG^T x  384x32 . 32x64", Kind::TN, 3 * kH, kE, kB, 9);
  // (d6 = dW_hh += dG^T h, 384x32 . 32x128, is d5 with twice the columns: left out for time.)

  Attn at{random_vec(kB * kA, 20, -2, 2), random_vec(kB * kSrc * kA, 21, -2, 2),
          random_vec(kB * kSrc, 22), random_vec(kA, 23, -0.1f, 0.1f)};
  {
    Op op;
    op.name = "(e) additive score backward  32x10x64";
    op.flops = 10.0 * kB * kSrc * kA;  // add, tanh, 2 for dv, 1 - t^2 (2), 2 muls, 2 adds
    op.reference = [&at](const std::vector<float>& o0) { return attn_reference(at, o0); };
    auto add = [&](const std::string& n, bool ours, std::function<void(float*)> f) {
      outs.emplace_back(random_vec(kA + kB * kSrc * kA + kB * kA, 24));
      std::vector<float>* o = &outs.back();
      op.versions.push_back({n, ours, [f, o] { f(o->data()); }, o, {}, {}});
    };
    auto tq = std::make_shared<std::vector<float>>();
    add("loops@96de4e4", true, [&at](float* o) { attn_loops(at, o); });
    add("tanh scalar + loop", true, [&at, tq](float* o) { attn_table(bl::scalar_kernels(), at, o, tq.get()); });
    if (bl::have_simd_kernels())
      add("tanh simd + loop", true, [&at, tq](float* o) { attn_table(bl::simd_kernels(), at, o, tq.get()); });
    add("eigen", false, [&at](float* o) { attn_eigen(at, o); });
    ops.push_back(std::move(op));
  }
  Xent xe;
  xe.z = random_vec(kRows * kVt, 30, -8, 8);
  for (size_t r = 0; r < kRows; r++) xe.y.push_back(int((r * 7919) % kVt));
  {
    Op op;
    op.name = "(f) softmax + xent backward  288x3000";
    op.flops = 5.0 * kRows * kVt;  // max, sub, exp, sum, scale
    op.reference = [&xe](const std::vector<float>&) { return xent_reference(xe); };
    auto add = [&](const std::string& n, bool ours, std::function<void(float*)> f) {
      outs.emplace_back(kRows * kVt, 0.0f);
      std::vector<float>* o = &outs.back();
      op.versions.push_back({n, ours, [f, o] { f(o->data()); }, o, {}, {}});
    };
    add("loops@96de4e4", true, [&xe](float* o) { xent_loops(xe, o); });
    add("softmax scalar + loop", true, [&xe](float* o) { xent_table(bl::scalar_kernels(), xe, o); });
    if (bl::have_simd_kernels())
      add("softmax simd + loop", true, [&xe](float* o) { xent_table(bl::simd_kernels(), xe, o); });
    add("eigen", false, [&xe](float* o) { xent_eigen(xe, o); });
    ops.push_back(std::move(op));
  }
  if (outs.capacity() != capacity) return usage("internal: more versions than outs.reserve()");

#ifdef EIGEN_VECTORIZE
  const char* eigen_vec = "on";
#else
  const char* eigen_vec = "off";
#endif
  std::printf("# eigen_ops: Eigen %d.%d.%d, EIGEN_VECTORIZE %s (%s), our SIMD table: %s, "
              "%d rounds, ~%.1f ms a sample\n",
              EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION, eigen_vec,
              Eigen::SimdInstructionSetsInUse(), bl::simd_kernels().name, rounds, target_ms);

  // Check every version once against the double reference (also the warm-up), and size its
  // samples: inner calls so that one sample takes about target_ms.
  bool ok = true;
  for (Op& op : ops) {
    for (Version& v : op.versions) {
      v.out0 = *v.out;
      const double t0 = now_us();
      v.run();
      const double t1 = now_us();
      const std::vector<double> ref = op.reference(v.out0);
      double worst = 0, scale = 0;
      for (size_t i = 0; i < ref.size(); i++) {
        worst = std::max(worst, std::fabs(double((*v.out)[i]) - ref[i]));
        scale = std::max(scale, std::fabs(ref[i]));
        if (!std::isfinite((*v.out)[i])) worst = INFINITY;
      }
      v.err = worst / scale;
      if (!(v.err <= 1e-4)) {
        std::printf("FAIL %s / %s: max |error| %.3g of max |ref| %.3g\n", op.name.c_str(),
                    v.name.c_str(), worst, scale);
        ok = false;
      }
      v.inner = std::max<size_t>(1, size_t(target_ms * 1000 / std::max(1.0, t1 - t0)));
    }
  }

  // train_gemm_f32's twins promise the same bits (kernels.h): say whether they gave them here.
  for (const Op& op : ops) {
    const std::vector<float>*scalar = nullptr, *simd = nullptr;
    for (const Version& v : op.versions) {
      if (v.name == "train_gemm scalar") scalar = v.out;
      if (v.name == "train_gemm simd") simd = v.out;
    }
    if (scalar && simd)  // one call each so far, from the same C (random_vec's seed per op)
      std::printf("# %s: train_gemm scalar and simd %s\n", op.name.c_str(),
                  std::memcmp(scalar->data(), simd->data(), scalar->size() * sizeof(float))
                      ? "DIFFER" : "bit-identical");
  }

  // Rounds: every op, every version, in an order rotated each round.
  for (int r = 0; r < rounds; r++)
    for (Op& op : ops) {
      const size_t n = op.versions.size();
      for (size_t i = 0; i < n; i++) {
        Version& v = op.versions[(i + size_t(r)) % n];
        const double t0 = now_us();
        for (size_t k = 0; k < v.inner; k++) v.run();
        v.us.push_back((now_us() - t0) / double(v.inner));
      }
    }

  // The ratio to our best (the fastest of ours by median) is taken round by round, both
  // timed moments apart, then its median: a paired comparison, steadier than a ratio of
  // medians when the machine's load drifts. min is the least disturbed sample.
  std::printf("\n| op | version | median us | min us | GFLOP/s | x our best | max rel err |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  for (Op& op : ops) {
    const Version* best = nullptr;
    for (const Version& v : op.versions)
      if (v.ours && (!best || median(v.us) < median(best->us))) best = &v;
    for (const Version& v : op.versions) {
      std::vector<double> ratio;
      for (size_t r = 0; r < v.us.size(); r++) ratio.push_back(best->us[r] / v.us[r]);
      const double us = median(v.us);
      std::printf("| %s | %s | %.1f | %.1f | %.2f | %.2f | %.1e |\n", op.name.c_str(),
                  v.name.c_str(), us, *std::min_element(v.us.begin(), v.us.end()),
                  op.flops / us * 1e-3, median(ratio), v.err);
    }
  }
  return ok ? 0 : 1;
}
