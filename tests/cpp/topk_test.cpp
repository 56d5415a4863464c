// The top-k kernels against a partial sort with the search's tie rule (larger first, equal
// values to the lower index), on every length 1..67 (each tail mod 16) and a 16,000-word
// vocabulary, with heavy ties, -inf entries and orders that insert at every entry; and the SIMD
// table against the scalar one, which must agree exactly, not approximately.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "core/search.h"
#include "kernels/kernels.h"

namespace {

using Top = std::vector<std::pair<int, float>>;

Top reference(const std::vector<float>& x, size_t k) {
  std::vector<int> idx(x.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return x[a] > x[b]; });
  Top out;
  for (size_t i = 0; i < std::min(k, x.size()); i++) out.emplace_back(idx[i], x[idx[i]]);
  return out;
}

Top run(const bl::Kernels& kt, const std::vector<float>& x, size_t k, size_t off) {
  // Start the input `off` floats into its storage so the SIMD loads see every misalignment.
  std::vector<float> mem(x.size() + off);
  std::copy(x.begin(), x.end(), mem.begin() + off);
  std::vector<float> vals(k + 1, NAN);
  std::vector<int32_t> ids(k + 1, -7);
  const size_t m = kt.top_k(x.size(), mem.data() + off, k, vals.data(), ids.data());
  EXPECT_EQ(m, std::min(k, x.size()));
  EXPECT_EQ(ids[k], -7) << "wrote past k";
  Top out;
  for (size_t i = 0; i < m; i++) out.emplace_back(ids[i], vals[i]);
  return out;
}

// Inputs of length n: continuous, few distinct values (ties everywhere), some -inf, rising
// (every entry beats the k-th so far) and falling.
std::vector<std::vector<float>> inputs(std::mt19937& rng, size_t n) {
  std::uniform_real_distribution<float> u(-20.0f, 0.0f);
  std::uniform_int_distribution<int> few(0, 3);
  std::vector<std::vector<float>> v(5, std::vector<float>(n));
  for (size_t i = 0; i < n; i++) {
    v[0][i] = u(rng);
    v[1][i] = float(few(rng));
    v[2][i] = i % 3 == 0 ? -INFINITY : float(few(rng)) - 2.5f;
    v[3][i] = float(i) * 0.25f;
    v[4][i] = -float(i);
  }
  return v;
}

TEST(TopK, KernelsMatchPartialSortAndEachOther) {
  std::mt19937 rng(11);
  std::vector<size_t> lengths;
  for (size_t n = 1; n <= 67; n++) lengths.push_back(n);
  lengths.push_back(16000);
  for (size_t n : lengths) {
    for (const auto& x : inputs(rng, n)) {
      for (size_t k : {size_t(0), size_t(1), size_t(2), size_t(3), size_t(5), size_t(17),
                       size_t(64), n, n + 1}) {
        if (k > 64 && n > 67) continue;  // O(n k) by design; the search partial-sorts there
        SCOPED_TRACE(::testing::Message() << "n=" << n << " k=" << k << " x0=" << x[0]);
        const Top want = reference(x, k);
        const Top scalar = run(bl::scalar_kernels(), x, k, n % 4);
        ASSERT_EQ(scalar, want);
        if (bl::have_simd_kernels()) {
          ASSERT_EQ(run(bl::simd_kernels(), x, k, (n + 1) % 4), want);
        }
      }
    }
  }
}

// search.cpp's top_k() takes the kernel up to k = 64 and a partial sort beyond; both sides of
// the switch must follow the same rule.
TEST(TopK, SearchTopKBothPaths) {
  std::mt19937 rng(12);
  for (size_t n : {size_t(1), size_t(70), size_t(16000)}) {
    for (const auto& x : inputs(rng, n)) {
      for (int k : {1, 2, 64, 65, 200}) {
        SCOPED_TRACE(::testing::Message() << "n=" << n << " k=" << k);
        ASSERT_EQ(bl::top_k(bl::scalar_kernels(), x, k), reference(x, size_t(k)));
        ASSERT_EQ(bl::top_k(bl::simd_kernels(), x, k), reference(x, size_t(k)));
      }
    }
  }
}

}  // namespace
