// Scalar vs wasm-SIMD kernels at the shapes one decoder step of the real model uses. Natively
// the SIMD table runs through SIMDe (on SSE2), so the ratio here is a proxy for the .wasm one,
// not a measurement of it. Pairs are named <kernel>/<table>/<shape> so they sort side by side:
//   core_bench --benchmark_filter='gemv_i8/.*/8000x128'
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace {

std::vector<float> randf(size_t n, float lo, float hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& f : v) f = u(rng);
  return v;
}

std::vector<int8_t> randi8(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> u(-127, 127);
  std::vector<int8_t> v(n);
  for (int8_t& q : v) q = static_cast<int8_t>(u(rng));
  return v;
}

// Rows x cols of the model's matrices: the decoder LSTM (768x640), the encoder/attention
// projections (768x256, 256x896) and the 8000-word output layer (8000x128).
const size_t kGemv[][2] = {{768, 640}, {768, 256}, {256, 896}, {8000, 128}};

void bench_gemv_f32(benchmark::State& st, const bl::Kernels* k, size_t rows, size_t cols) {
  const auto W = randf(rows * cols, -1, 1, 1), x = randf(cols, -1, 1, 2), b = randf(rows, -1, 1, 3);
  std::vector<float> y(rows);
  for (auto _ : st) {
    k->gemv_f32(rows, cols, W.data(), cols, x.data(), b.data(), y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(rows * cols * sizeof(float)));
}

void bench_gemv_i8(benchmark::State& st, const bl::Kernels* k, size_t rows, size_t cols) {
  const auto W = randi8(rows * cols, 1);
  const auto x = randf(cols, -1, 1, 2), b = randf(rows, -1, 1, 3), s = randf(rows, 1e-3f, 1e-2f, 4);
  std::vector<float> y(rows);
  for (auto _ : st) {
    k->gemv_i8(rows, cols, W.data(), cols, s.data(), nullptr, x.data(), b.data(), y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(rows * cols));
}

void bench_score(benchmark::State& st, const bl::Kernels* k, bool additive, size_t n, size_t dim) {
  const auto keys = randf(n * dim, -2, 2, 1), q = randf(dim, -2, 2, 2), v = randf(dim, -1, 1, 3);
  std::vector<float> e(n);
  for (auto _ : st) {
    if (additive) {
      k->additive_score(n, dim, keys.data(), dim, q.data(), v.data(), e.data());
    } else {
      k->dot_score(n, dim, keys.data(), dim, q.data(), 0.088f, e.data());
    }
    benchmark::DoNotOptimize(e.data());
    benchmark::ClobberMemory();
  }
}

void bench_weighted_sum(benchmark::State& st, const bl::Kernels* k, size_t n, size_t dim) {
  const auto alpha = randf(n, 0, 1, 1), h = randf(n * dim, -1, 1, 2);
  std::vector<float> c(dim);
  for (auto _ : st) {
    k->weighted_sum(n, dim, alpha.data(), h.data(), dim, c.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
}

// Elementwise or per-vector kernels with signature (n, x, y).
void bench_vector(benchmark::State& st, void (*fn)(size_t, const float*, float*), size_t n,
                  float lo, float hi) {
  const auto x = randf(n, lo, hi, 1);
  std::vector<float> y(n);
  for (auto _ : st) {
    fn(n, x.data(), y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
}

std::string name(const char* kernel, const bl::Kernels* k, const std::string& shape) {
  return std::string(kernel) + "/" + k->name + "/" + shape;
}

std::string by(size_t a, size_t b) { return std::to_string(a) + "x" + std::to_string(b); }

// Registered at static-init time, before BENCHMARK_MAIN's main() runs, so this file needs no
// hook into main.cpp. Without SIMD in the build only the scalar rows appear.
int register_all() {
  std::vector<const bl::Kernels*> tables = {&bl::scalar_kernels()};
  if (bl::have_simd_kernels()) tables.push_back(&bl::simd_kernels());
  for (const auto& s : kGemv)
    for (const bl::Kernels* k : tables)
      benchmark::RegisterBenchmark(name("gemv_f32", k, by(s[0], s[1])).c_str(), bench_gemv_f32, k,
                                   s[0], s[1]);
  for (const auto& s : kGemv)
    for (const bl::Kernels* k : tables)
      benchmark::RegisterBenchmark(name("gemv_i8", k, by(s[0], s[1])).c_str(), bench_gemv_i8, k,
                                   s[0], s[1]);
  for (bool additive : {true, false})
    for (size_t n : {10, 20, 60})
      for (const bl::Kernels* k : tables)
        benchmark::RegisterBenchmark(
            name(additive ? "additive_score" : "dot_score", k, "n" + std::to_string(n) + "/d128")
                .c_str(),
            bench_score, k, additive, n, size_t(128));
  for (const bl::Kernels* k : tables)
    benchmark::RegisterBenchmark(name("weighted_sum", k, "n20/d512").c_str(), bench_weighted_sum, k,
                                 size_t(20), size_t(512));
  // Logits spread like a real output layer's; activations over their useful range.
  for (const bl::Kernels* k : tables)
    benchmark::RegisterBenchmark(name("softmax", k, "8000").c_str(), bench_vector, k->softmax,
                                 size_t(8000), -10.0f, 10.0f);
  for (const bl::Kernels* k : tables)
    benchmark::RegisterBenchmark(name("log_softmax", k, "8000").c_str(), bench_vector,
                                 k->log_softmax, size_t(8000), -10.0f, 10.0f);
  for (const bl::Kernels* k : tables)
    benchmark::RegisterBenchmark(name("tanh", k, "768").c_str(), bench_vector, k->tanh, size_t(768),
                                 -5.0f, 5.0f);
  for (const bl::Kernels* k : tables)
    benchmark::RegisterBenchmark(name("sigmoid", k, "768").c_str(), bench_vector, k->sigmoid,
                                 size_t(768), -5.0f, 5.0f);
  return 0;
}

const int registered = register_all();

}  // namespace
