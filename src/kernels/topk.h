// The insertion step shared by the scalar and SIMD top-k kernels (topk-*.cpp), so the two tables
// keep the k best in exactly the same way and their results are identical, not merely close.
#pragma once
#include <cstddef>
#include <cstdint>

// Puts (v, id) into vals/ids[0..last], sorted by value, largest first; whatever sat in slot
// `last` is dropped. The shift stops at an equal value, so of two equal values the one inserted
// first stays ahead: the kernels scan ids in increasing order, which makes ties go to the lower
// id (scripts/nmt/search.py's rule).
static inline void bl_topk_insert(size_t last, float* vals, int32_t* ids, float v, int32_t id) {
  size_t p = last;
  for (; p > 0 && vals[p - 1] < v; p--) {
    vals[p] = vals[p - 1];
    ids[p] = ids[p - 1];
  }
  vals[p] = v;
  ids[p] = id;
}

// The first min(k, n) entries, sorted; returns that count. After it, an entry can enter only by
// beating vals[count - 1] strictly (a later id loses a tie).
static inline size_t bl_topk_fill(size_t n, const float* x, size_t k, float* vals, int32_t* ids) {
  const size_t m = k < n ? k : n;
  for (size_t i = 0; i < m; i++) bl_topk_insert(i, vals, ids, x[i], int32_t(i));
  return m;
}
