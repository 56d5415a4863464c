// bl::Step (a row of Decoder.next() and of align()) and bl::Alignment as JS objects
// (web/lib/bahdanau.d.ts: Step, Alignment). cNorm, topProbs and cross's layers and heads are
// not here: web/lib/native.js computes them from these arrays.
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

namespace {

// An RNN has one attention, the row itself: its cross is null.
bool has_cross(const bl::Step& s) { return !s.cross_alpha.empty(); }
// An unedited step has no own rows beside its alpha: null, not [].
bool edited(const bl::Step& s) { return s.edited; }
bool edited_cross(const bl::Step& s) { return s.edited && !s.own_cross_alpha.empty(); }

}  // namespace

template <>
struct Fields<bl::Step> {
  using S = bl::Step;
  static constexpr auto list = std::make_tuple(  //
      field("index", &S::index),                 //
      field("token", &S::token),                 //
      field("word", &S::word),                   //
      field("prob", &S::prob),                   //
      field("e", &S::e),                         //
      field("alpha", &S::alpha),                 //
      field("c", &S::c),                         //
      field("topIds", &S::top_ids),              //
      field("topWords", &S::top_words),          //
      field("topLogProbs", &S::top_logp),        //
      field("done", &S::done),                   //
      // Decoded under given attention (AttentionEdit): alpha is the given row, ownAlpha the
      // model's own softmax at this step.
      field("edited", &S::edited),                             //
      field_or_null("ownAlpha", &S::own_alpha, edited),        //
      // A Transformer's every decoder layer and head, [layer][head][column]; e and alpha
      // above are then the last layer's mean over heads.
      group<S>("cross", has_cross,                             //
               field("alpha", &S::cross_alpha),                //
               field("e", &S::cross_e),                        //
               field_or_null("ownAlpha", &S::own_cross_alpha, edited_cross)));
};

template <>
struct Fields<bl::Alignment> {
  using A = bl::Alignment;
  static constexpr auto list = std::make_tuple(  //
      field("sourceTokens", &A::src_tokens),     //
      field("targetTokens", &A::tgt_tokens),     //
      field("targetIds", &A::tgt_ids),           //
      field("steps", &A::steps),                 //
      field("logProb", &A::log_prob),            //
      field("unknown", &A::unknown));
};

val to_js(const bl::Step& s) { return detail::object_of(s, Fields<bl::Step>::list); }
val to_js(const bl::Alignment& a) { return detail::object_of(a, Fields<bl::Alignment>::list); }

}  // namespace blw
