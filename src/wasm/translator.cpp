// Translator: each method is a call of src/bahdanau.h with its params read from a JS options
// object and its result converted by that result's table (results.h).
#include "wasm/translator.h"

#include <emscripten/bind.h>

#include <vector>

namespace blw {

using Core = bl::Translator;

// bytes: a Uint8Array, copied into the heap for the duration of the call (the core keeps its
// own copy of the weights). undefined on success.
val Translator::load(const val& bytes, const val& options) {
  const std::vector<uint8_t> buf = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  std::string err;
  bl::LoadParams params;
  if (!load_params(options, &params, &err)) return error_object(err);
  std::unique_ptr<Core> tr = Core::load(buf.data(), buf.size(), params, &err);
  if (!tr) return error_object(err.empty() ? "cannot load the model" : err);
  tr_ = std::move(tr);
  return val::undefined();
}

val Translator::translate(const std::string& text, const val& options) {
  return answer<bl::Translation>([&](Core& tr, bl::Translation* t, std::string* err) {
    bl::TranslateParams p;
    return translate_params(options, &p, err) && tr.translate(text, p, t, err);
  });
}

// texts is an Array of strings: web/lib checks that first, since a conversion failing in here
// would throw past the destructors and leak what the call had built on the heap. A text that
// fails has its own {error}; the call itself succeeds, unless the options are wrong.
val Translator::translateBatch(const val& texts, const val& options) {
  return answer<Batch>([&](Core& tr, Batch* b, std::string* err) {
    bl::TranslateParams p;
    if (!translate_params(options, &p, err)) return false;
    tr.translate_batch(emscripten::vecFromJSArray<std::string>(texts), p, &b->translations,
                       &b->errors);
    return true;
  });
}

val Translator::info() const {
  return answer<bl::ModelInfo>([](Core& tr, bl::ModelInfo* m, std::string*) {
    *m = tr.info();
    return true;
  });
}

val Translator::scoringCost(const std::string& text, const val& options) {
  return answer<bl::ScoringCost>([&](Core& tr, bl::ScoringCost* c, std::string* err) {
    bl::ScoringCostParams p;
    return scoring_cost_params(options, &p, err) && tr.scoring_cost(text, p, c, err);
  });
}

val Translator::align(const std::string& source, const std::string& target,
                      const val& options) {
  return answer<bl::Alignment>([&](Core& tr, bl::Alignment* al, std::string* err) {
    bl::AlignParams p;
    return align_params(options, &p, err) && tr.align(source, target, p, al, err);
  });
}

val Translator::splitSentences(const std::string& text) const {
  return answer<std::vector<std::string>>(
      [&](Core& tr, std::vector<std::string>* s, std::string* err) {
        return tr.split_sentences(text, s, err);
      });
}

// options.side: 'target', the target language's tokenizer (BLEU's tokens), else the source's.
val Translator::tokenize(const std::string& text, const val& options) const {
  const bool target = options["side"].strictlyEquals(val("target"));
  return answer<std::vector<std::string>>(
      [&](Core& tr, std::vector<std::string>* toks, std::string* err) {
        return target ? tr.tokenize_target(text, toks, err) : tr.tokenize_source(text, toks, err);
      });
}

val Translator::selfAttention(const std::string& text) {
  return answer<bl::SelfAttention>([&](Core& tr, bl::SelfAttention* sa, std::string* err) {
    return tr.self_attention(text, sa, err);
  });
}

}  // namespace blw

EMSCRIPTEN_BINDINGS(translator) {
  using blw::Translator;
  emscripten::class_<Translator>("Translator")
      .constructor<>()
      .function("load", &Translator::load)
      .function("translate", &Translator::translate)
      .function("translateBatch", &Translator::translateBatch)
      .function("info", &Translator::info)
      .function("scoringCost", &Translator::scoringCost)
      .function("selfAttention", &Translator::selfAttention)
      .function("tokenize", &Translator::tokenize)
      .function("splitSentences", &Translator::splitSentences)
      .function("align", &Translator::align);
}
