// bl::ScoringCost as a JS object (web/lib/bahdanau.d.ts: ScoringCost).
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

template <>
struct Fields<bl::ScoringCost> {
  using C = bl::ScoringCost;
  static constexpr auto list = std::make_tuple(     //
      field("n", &C::n),                            //
      field("stepUs", &C::step_us),                 //
      field("scoreUs", &C::score_us),               //
      field("keysUs", &C::keys_us),                 //
      field("stepUsMin", &C::step_us_min),          //
      field("stepUsMax", &C::step_us_max),          //
      field("scoreUsMin", &C::score_us_min),        //
      field("scoreUsMax", &C::score_us_max),        //
      field("keysUsMin", &C::keys_us_min),          //
      field("keysUsMax", &C::keys_us_max),          //
      field("batches", &C::batches),                //
      field("callsPerBatch", &C::calls_per_batch));
};

val to_js(const bl::ScoringCost& c) { return detail::object_of(c, Fields<bl::ScoringCost>::list); }

}  // namespace blw
