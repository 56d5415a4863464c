// Decoder: greedy decoding one step at a time, for web/lib's steps() iterator.
// JS: `new Module.Decoder(translator, text, {topK, maxLen, edits})`; check status() before
// next().
#include <emscripten/bind.h>

#include <memory>
#include <string>

#include "wasm/translator.h"

namespace blw {

class Decoder {
 public:
  Decoder(const Translator& t, const std::string& text, const val& options)
      : tr_(t.model(&error_)) {
    bl::TranslateParams params;
    if (!tr_ || !translate_params(options, &params, &error_)) return;
    dec_ = tr_->start(text, params, &error_);
    if (!dec_ && error_.empty()) error_ = "cannot start decoding";
  }

  // undefined, or {error} when decoding could not start.
  val status() const { return dec_ ? val::undefined() : error_object(error_); }
  val columns() const { return dec_ ? to_js(dec_->src_tokens()) : val::array(); }

  // The next step, or null once decoding is over.
  val next() {
    bl::Step s;
    if (!dec_ || !dec_->next(&s)) return val::null();
    return to_js(s);
  }

  val result() const { return dec_ ? to_js(dec_->result()) : error_object(error_); }

 private:
  std::string error_;  // first: the constructor's guard writes it
  // Held too, so the model outlives this Decoder whichever of the two JS deletes first.
  std::shared_ptr<bl::Translator> tr_;
  std::unique_ptr<bl::Decoder> dec_;
};

}  // namespace blw

EMSCRIPTEN_BINDINGS(decoder) {
  using blw::Decoder;
  emscripten::class_<Decoder>("Decoder")
      .constructor<const blw::Translator&, const std::string&, const emscripten::val&>()
      .function("status", &Decoder::status)
      .function("columns", &Decoder::columns)
      .function("next", &Decoder::next)
      .function("result", &Decoder::result);
}
