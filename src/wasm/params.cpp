// The params structs of src/bahdanau.h from the JS options objects web/lib passes: one table
// per struct, by key. A key left out keeps the struct's default.
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

template <>
struct Fields<bl::LoadParams> {
  using P = bl::LoadParams;
  static constexpr auto list = std::make_tuple(  //
      field("simd", &P::use_simd),               //
      field("relaxed", &P::use_relaxed));
};

template <>
struct Fields<bl::TranslateParams> {
  using P = bl::TranslateParams;
  static constexpr auto list = std::make_tuple(  //
      field("beam", &P::beam),                   //
      field("maxLen", &P::max_len),              //
      field("topK", &P::top_k));
};

template <>
struct Fields<bl::AlignParams> {
  static constexpr auto list = std::make_tuple(field("topK", &bl::AlignParams::top_k));
};

template <>
struct Fields<bl::ScoringCostParams> {
  using P = bl::ScoringCostParams;
  static constexpr auto list = std::make_tuple(  //
      field("minBatchMs", &P::min_batch_ms),     //
      field("batches", &P::batches));
};

bl::LoadParams load_params(const val& o) { return from_js<bl::LoadParams>(o); }
bl::TranslateParams translate_params(const val& o) { return from_js<bl::TranslateParams>(o); }
bl::AlignParams align_params(const val& o) { return from_js<bl::AlignParams>(o); }
bl::ScoringCostParams scoring_cost_params(const val& o) {
  return from_js<bl::ScoringCostParams>(o);
}

}  // namespace blw
