// The params structs of src/bahdanau.h from the JS options objects web/lib passes: one table
// per struct, by key. A key left out keeps the struct's default; a value of the wrong type is
// an {error} (marshal.h: from_js), never a throw.
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

// One attention edit, an element of edits below: {step, weights, column, layer, head, ablate,
// hold} (the core validates the values: lengths, finiteness, ranges).
template <>
struct Fields<bl::AttentionEdit> {
  using E = bl::AttentionEdit;
  static constexpr auto list = std::make_tuple(  //
      field("step", &E::step),                   //
      field("weights", &E::weights),             //
      field("column", &E::column),               //
      field("layer", &E::layer),                 //
      field("head", &E::head),                   //
      field("ablate", &E::ablate),               //
      field("hold", &E::hold));
};

template <>
struct Fields<bl::TranslateParams> {
  using P = bl::TranslateParams;
  static constexpr auto list = std::make_tuple(  //
      field("beam", &P::beam),                   //
      field("maxLen", &P::max_len),              //
      field("topK", &P::top_k),                  //
      field("edits", &P::edits, bl::kMaxEdits));
};

template <>
struct Fields<bl::AlignParams> {
  using P = bl::AlignParams;
  static constexpr auto list = std::make_tuple(  //
      field("topK", &P::top_k),                  //
      field("edits", &P::edits, bl::kMaxEdits));
};

template <>
struct Fields<bl::ScoringCostParams> {
  using P = bl::ScoringCostParams;
  static constexpr auto list = std::make_tuple(  //
      field("minBatchMs", &P::min_batch_ms),     //
      field("batches", &P::batches));
};

bool load_params(const val& o, bl::LoadParams* p, std::string* error) {
  return from_js(o, p, error);
}
bool translate_params(const val& o, bl::TranslateParams* p, std::string* error) {
  return from_js(o, p, error);
}
bool align_params(const val& o, bl::AlignParams* p, std::string* error) {
  return from_js(o, p, error);
}
bool scoring_cost_params(const val& o, bl::ScoringCostParams* p, std::string* error) {
  return from_js(o, p, error);
}

}  // namespace blw
