// bl::Translation and bl::Hypothesis as JS objects (web/lib/bahdanau.d.ts: Translation).
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

template <>
struct Fields<bl::Hypothesis> {
  using H = bl::Hypothesis;
  static constexpr auto list = std::make_tuple(  //
      field("tokens", &H::tokens),               //
      field("score", &H::score),                 //
      field("norm", &H::norm),                   //
      field("finished", &H::finished));
};

template <>
struct Fields<bl::Translation> {
  using T = bl::Translation;
  static constexpr auto list = std::make_tuple(        //
      field("sourceTokens", &T::src_tokens),           //
      field("sourceIds", &T::src_ids),                 //
      field("targetTokens", &T::tgt_tokens),           //
      field("targetIds", &T::tgt_ids),                 //
      field("attention", &T::attention),               //
      field("probs", &T::probs),                       //
      field("text", &T::text),                         //
      field("truncated", &T::truncated),               //
      field("hypotheses", &T::hypotheses),             //
      // With attention edits: the rows whose attention was given, and the model's own there.
      field("edited", &T::edited),                     //
      field("ownAttention", &T::own_attention),        //
      group<T>("timings", nullptr,                     //
               field("encodeMs", &T::encode_ms),       //
               field("decodeMs", &T::decode_ms)));
};

val to_js(const bl::Translation& t) { return detail::object_of(t, Fields<bl::Translation>::list); }

val to_js(const Batch& b) {
  val out = val::array();
  for (size_t i = 0; i < b.translations.size(); i++)
    out.set(i, b.errors[i].empty() ? to_js(b.translations[i]) : error_object(b.errors[i]));
  return out;
}

}  // namespace blw
