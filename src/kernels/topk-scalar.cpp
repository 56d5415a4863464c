// Reference top-k: one pass keeping the k best in a sorted array (topk.h). Against a partial
// sort of all n ids this touches each entry once and, for the small k the search asks for
// (2 for greedy, beam + 1 for beam search), inserts only a few dozen times per 16,000 logits.
#include "kernels/checks.h"
#include "kernels/kernels-impl.h"
#include "kernels/topk.h"

size_t bl_f32_top_k__scalar(size_t n, const float* x, size_t k, float* vals, int32_t* ids) {
  assert(bl_check::top_k(n, x));
  const size_t m = bl_topk_fill(n, x, k, vals, ids);
  if (m == 0) return 0;
  for (size_t i = m; i < n; i++)
    if (x[i] > vals[m - 1]) bl_topk_insert(m - 1, vals, ids, x[i], int32_t(i));
  return m;
}
