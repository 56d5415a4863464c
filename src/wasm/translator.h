// The two C++ objects JS holds (web/lib owns them and calls delete()): Translator, over one
// loaded model, and Decoder, one steps() iteration over it. Every other result is plain data
// (results.h). Nothing here throws: a failure comes back as an {error} object, which web/lib's
// unwrap() turns into a JS Error.
#pragma once
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "bahdanau.h"
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

// JS: `new Module.Translator()`, then `load(bytes, {simd, relaxed})`.
class Translator {
 public:
  val load(const val& bytes, const val& options);
  val translate(const std::string& text, const val& options);
  val translateBatch(const val& texts, const val& options);
  val info() const;
  val scoringCost(const std::string& text, const val& options);
  val align(const std::string& source, const std::string& target, const val& options);
  val splitSentences(const std::string& text) const;
  val tokenize(const std::string& text, const val& options) const;
  val selfAttention(const std::string& text);

  // The one guard: every call but load() needs a model. Null, and *error set, before load().
  std::shared_ptr<bl::Translator> model(std::string* error) const {
    if (!tr_) *error = "no model loaded";
    return tr_;
  }

 private:
  // The shape of every call: run(core, &result, &error) on the loaded model, then the result
  // as JS, or {error}.
  template <class Result, class Run>
  val answer(Run run) const {
    std::string err;
    const std::shared_ptr<bl::Translator> tr = model(&err);
    Result r;
    if (!tr || !run(*tr, &r, &err)) return error_object(err);
    return to_js(r);
  }

  // Shared, so a Decoder stays valid whichever of the two JS deletes first.
  std::shared_ptr<bl::Translator> tr_;
};

}  // namespace blw
