// Embind bindings: a thin layer over bahdanau.h for web/lib/ (the only caller; its wrapper is
// the public JS API). Nothing here throws: failures come back as an error string, or as a
// `{error}` object, and web/lib turns them into JS Errors. Results are plain JS objects and
// arrays, so the only C++ objects JS ever holds are Translator and Decoder, which web/lib
// deletes.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bahdanau.h"
#include "core/heatmap.h"

namespace {

using emscripten::val;

val error_object(const std::string& message) {
  val o = val::object();
  o.set("error", message);
  return o;
}

// One copy out of the wasm heap through a typed-array view; the result is a plain Array.
template <class T>
val numbers(const std::vector<T>& v) {
  return val::global("Array").call<val>("from",
                                        val(emscripten::typed_memory_view(v.size(), v.data())));
}

val strings(const std::vector<std::string>& v) {
  val a = val::array();
  for (size_t i = 0; i < v.size(); i++) a.set(i, v[i]);
  return a;
}

val rows(const std::vector<std::vector<float>>& m) {
  val a = val::array();
  for (size_t i = 0; i < m.size(); i++) a.set(i, numbers(m[i]));
  return a;
}

// [layers][heads][rows...] as nested arrays (rows: a row per entry, or a matrix per entry).
template <typename Inner, typename F>
val nested(const std::vector<Inner>& v, F inner) {
  val a = val::array();
  for (size_t i = 0; i < v.size(); i++) a.set(i, inner(v[i]));
  return a;
}

val translation(const bl::Translation& t) {
  val o = val::object();
  o.set("sourceTokens", strings(t.src_tokens));
  o.set("sourceIds", numbers(t.src_ids));
  o.set("targetTokens", strings(t.tgt_tokens));
  o.set("targetIds", numbers(t.tgt_ids));
  o.set("attention", rows(t.attention));
  o.set("probs", numbers(t.probs));
  o.set("text", t.text);
  o.set("truncated", t.truncated);
  val hyps = val::array();
  for (size_t i = 0; i < t.hypotheses.size(); i++) {
    const bl::Hypothesis& h = t.hypotheses[i];
    val ho = val::object();
    ho.set("tokens", strings(h.tokens));
    ho.set("score", h.score);
    ho.set("norm", h.norm);
    ho.set("finished", h.finished);
    hyps.set(i, ho);
  }
  o.set("hypotheses", hyps);
  val timings = val::object();
  timings.set("encodeMs", t.encode_ms);
  timings.set("decodeMs", t.decode_ms);
  o.set("timings", timings);
  return o;
}

// One decoder row, as Decoder.next() and Translator.align() give it.
val step_object(const bl::Step& s) {
  double sq = 0;
  for (float x : s.c) sq += double(x) * x;
  std::vector<float> top_probs(s.top_logp.size());
  for (size_t k = 0; k < top_probs.size(); k++) top_probs[k] = std::exp(s.top_logp[k]);
  val o = val::object();
  o.set("index", s.index);
  o.set("token", s.token);
  o.set("word", s.word);
  o.set("prob", s.prob);
  o.set("e", numbers(s.e));
  o.set("alpha", numbers(s.alpha));
  o.set("c", numbers(s.c));
  o.set("cNorm", std::sqrt(sq));
  o.set("topIds", numbers(s.top_ids));
  o.set("topWords", strings(s.top_words));
  o.set("topLogProbs", numbers(s.top_logp));
  o.set("topProbs", numbers(top_probs));
  o.set("done", s.done);
  if (s.cross_alpha.empty()) {  // an RNN: one attention, the row above
    o.set("cross", val::null());
  } else {  // a Transformer: alpha and e above are the last layer's mean over heads
    val cross = val::object();
    cross.set("layers", int(s.cross_alpha.size()));
    cross.set("heads", int(s.cross_alpha[0].size()));
    cross.set("alpha", nested(s.cross_alpha, rows));
    cross.set("e", nested(s.cross_e, rows));
    o.set("cross", cross);
  }
  return o;
}

// JS: `new Module.Translator()`, then `load(bytes, simd, relaxed)`; web/lib owns it and calls
// delete().
class Translator {
 public:
  // "" on success, else the loader's message. bytes: a Uint8Array, copied into the heap for
  // the duration of the call (the core keeps its own copy of the weights).
  std::string load(const val& bytes, bool simd, bool relaxed) {
    const std::vector<uint8_t> buf = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    std::string err;
    std::unique_ptr<bl::Translator> tr =
        bl::Translator::load(buf.data(), buf.size(), bl::LoadParams{simd, relaxed}, &err);
    if (!tr) return err.empty() ? "cannot load the model" : err;
    tr_ = std::move(tr);
    return "";
  }

  val translate(const std::string& text, int beam, int max_len) {
    if (!tr_) return error_object("no model loaded");
    bl::TranslateParams p;
    p.beam = beam;
    p.max_len = max_len;
    bl::Translation t;
    std::string err;
    if (!tr_->translate(text, p, &t, &err)) return error_object(err);
    return translation(t);
  }

  // One entry per text: a translation object, or {error} for a text that failed. texts is an
  // Array of strings: web/lib checks that first, since a conversion failing in here would
  // throw past the destructors and leak what the call had built on the heap.
  val translateBatch(const val& texts, int beam, int max_len) {
    if (!tr_) return error_object("no model loaded");
    bl::TranslateParams p;
    p.beam = beam;
    p.max_len = max_len;
    std::vector<bl::Translation> ts;
    std::vector<std::string> errors;
    tr_->translate_batch(emscripten::vecFromJSArray<std::string>(texts), p, &ts, &errors);
    val out = val::array();
    for (size_t i = 0; i < ts.size(); i++)
      out.set(i, errors[i].empty() ? translation(ts[i]) : error_object(errors[i]));
    return out;
  }

  val info() const {
    if (!tr_) return error_object("no model loaded");
    const bl::ModelInfo& m = tr_->info();
    val o = val::object();
    o.set("srcLang", m.src_lang);
    o.set("tgtLang", m.tgt_lang);
    o.set("scoring", m.scoring);
    o.set("decoder", m.decoder);
    o.set("attentionGuidance", m.attention_guidance);
    o.set("dtype", m.dtype);
    o.set("kernels", m.kernels);
    o.set("emb", m.emb);
    o.set("encHidden", m.enc_hidden);
    o.set("decHidden", m.dec_hidden);
    o.set("attn", m.attn);
    o.set("srcVocab", m.src_vocab);
    o.set("tgtVocab", m.tgt_vocab);
    o.set("maxSrcLen", m.max_src_len);
    o.set("maxTgtLen", m.max_tgt_len);
    o.set("numParams", double(m.num_params));
    o.set("fileBytes", double(m.file_bytes));
    o.set("scoringParams", double(m.scoring_params));
    o.set("arch", m.arch);
    o.set("encLayers", m.enc_layers);
    o.set("decLayers", m.dec_layers);
    o.set("heads", m.heads);
    o.set("dModel", m.d_model);
    o.set("ffn", m.ffn);
    return o;
  }

  val scoringCost(const std::string& text, double min_batch_ms, int batches) {
    if (!tr_) return error_object("no model loaded");
    bl::ScoringCostParams p;
    p.min_batch_ms = min_batch_ms;
    p.batches = batches;
    bl::ScoringCost c;
    std::string err;
    if (!tr_->scoring_cost(text, p, &c, &err)) return error_object(err);
    val o = val::object();
    o.set("n", c.n);
    o.set("stepUs", c.step_us);
    o.set("scoreUs", c.score_us);
    o.set("keysUs", c.keys_us);
    o.set("stepUsMin", c.step_us_min);
    o.set("stepUsMax", c.step_us_max);
    o.set("scoreUsMin", c.score_us_min);
    o.set("scoreUsMax", c.score_us_max);
    o.set("keysUsMin", c.keys_us_min);
    o.set("keysUsMax", c.keys_us_max);
    o.set("batches", c.batches);
    o.set("callsPerBatch", double(c.calls_per_batch));
    return o;
  }

  val align(const std::string& source, const std::string& target, int top_k) {
    if (!tr_) return error_object("no model loaded");
    bl::AlignParams p;
    p.top_k = top_k;
    bl::Alignment al;
    std::string err;
    if (!tr_->align(source, target, p, &al, &err)) return error_object(err);
    val o = val::object();
    o.set("sourceTokens", strings(al.src_tokens));
    o.set("targetTokens", strings(al.tgt_tokens));
    o.set("targetIds", numbers(al.tgt_ids));
    val steps = val::array();
    for (size_t i = 0; i < al.steps.size(); i++) steps.set(i, step_object(al.steps[i]));
    o.set("steps", steps);
    o.set("logProb", al.log_prob);
    o.set("unknown", al.unknown);
    return o;
  }

  val splitSentences(const std::string& text) const {
    if (!tr_) return error_object("no model loaded");
    std::vector<std::string> sentences;
    std::string err;
    if (!tr_->split_sentences(text, &sentences, &err)) return error_object(err);
    return strings(sentences);
  }

  // target: the target language's tokenizer (BLEU's tokens), else the source's.
  val tokenize(const std::string& text, bool target) const {
    if (!tr_) return error_object("no model loaded");
    std::vector<std::string> toks;
    std::string err;
    const bool ok = target ? tr_->tokenize_target(text, &toks, &err)
                           : tr_->tokenize_source(text, &toks, &err);
    if (!ok) return error_object(err);
    return strings(toks);
  }

  val selfAttention(const std::string& text) {
    if (!tr_) return error_object("no model loaded");
    bl::SelfAttention sa;
    std::string err;
    if (!tr_->self_attention(text, &sa, &err)) return error_object(err);
    val o = val::object();
    o.set("tokens", strings(sa.tokens));
    if (sa.layers > 0) {  // a Transformer's encoder: [layer][head][n][n]
      auto by_head = [](const std::vector<std::vector<std::vector<float>>>& heads) {
        return nested(heads, rows);
      };
      o.set("layers", sa.layers);
      o.set("heads", sa.heads);
      o.set("scores", nested(sa.layer_scores, by_head));
      o.set("weights", nested(sa.layer_weights, by_head));
    } else {
      o.set("scores", rows(sa.scores));
      o.set("weights", rows(sa.weights));
    }
    o.set("method", sa.method);
    return o;
  }

  // Shared, so a Decoder stays valid whichever of the two JS deletes first.
  std::shared_ptr<bl::Translator> tr_;
};

// JS: `new Module.Decoder(translator, text, topK, maxLen)`; check error() before next().
class Decoder {
 public:
  Decoder(const Translator& t, const std::string& text, int top_k, int max_len) : tr_(t.tr_) {
    if (!tr_) {
      error_ = "no model loaded";
      return;
    }
    bl::TranslateParams p;
    p.top_k = top_k;
    p.max_len = max_len;
    dec_ = tr_->start(text, p, &error_);
    if (!dec_ && error_.empty()) error_ = "cannot start decoding";
  }

  std::string error() const { return error_; }
  val columns() const { return dec_ ? strings(dec_->src_tokens()) : val::array(); }

  // The next step as a plain object, or null once decoding is over.
  val next() {
    bl::Step s;
    if (!dec_ || !dec_->next(&s)) return val::null();
    return step_object(s);
  }

  val result() const { return dec_ ? translation(dec_->result()) : error_object(error_); }

 private:
  std::shared_ptr<bl::Translator> tr_;
  std::unique_ptr<bl::Decoder> dec_;
  std::string error_;
};

// The native CLI's picture, so every engine prints the same one.
std::string heatmap(const val& columns, const val& row_labels, const val& weights) {
  std::vector<std::vector<float>> w;
  const size_t n = weights["length"].as<size_t>();
  for (size_t i = 0; i < n; i++)
    w.push_back(emscripten::convertJSArrayToNumberVector<float>(weights[i]));
  return bl::render_heatmap(emscripten::vecFromJSArray<std::string>(columns),
                            emscripten::vecFromJSArray<std::string>(row_labels), w);
}

// A JS value (plain objects, arrays, strings, numbers, booleans) as nlohmann::json; numbers
// become doubles when floats is set, else integers where they are integral. The values of the
// object keys named in ints are integers either way (a count in a line of floats).
nlohmann::json from_js(const val& v, bool floats, const std::vector<std::string>& ints) {
  if (v.isNumber()) {
    const double d = v.as<double>();
    if (!floats && std::floor(d) == d && std::fabs(d) < 9007199254740992.0)
      return static_cast<int64_t>(d);
    return d;
  }
  if (v.isString()) return v.as<std::string>();
  if (v.isTrue() || v.isFalse()) return v.isTrue();
  if (v.isNull() || v.isUndefined()) return nullptr;
  if (v.isArray()) {
    nlohmann::json a = nlohmann::json::array();
    const size_t n = v["length"].as<size_t>();
    for (size_t i = 0; i < n; i++) a.push_back(from_js(v[i], floats, ints));
    return a;
  }
  nlohmann::json o = nlohmann::json::object();
  const val keys = val::global("Object").call<val>("keys", v);
  const size_t n = keys["length"].as<size_t>();
  for (size_t i = 0; i < n; i++) {
    const std::string k = keys[i].as<std::string>();
    const bool integral = std::find(ints.begin(), ints.end(), k) != ints.end();
    o[k] = from_js(v[k], floats && !integral, ints);
  }
  return o;
}

// JSON text exactly as the native CLI prints it (same library, same number formatting), so
// the Node CLI's --json lines match the native ones byte for byte.
std::string dump_json(const val& v, bool floats, const val& int_keys) {
  const auto ints = emscripten::vecFromJSArray<std::string>(int_keys);
  return from_js(v, floats, ints).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Bytes in use on the wasm heap, for leak tests.
double heap_used() { return double(mallinfo().uordblks); }

}  // namespace

// web/lib/relaxed.js: the table index where it put qs8-wasmrelaxed.wat's dots (a double in JS).
bool install_relaxed(double table_index) {
  if (!(table_index >= 1 && table_index < 4294967296.0)) return false;
  return bl::install_relaxed_kernels(uintptr_t(table_index));
}

EMSCRIPTEN_BINDINGS(bahdanau) {
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
  emscripten::class_<Decoder>("Decoder")
      .constructor<const Translator&, const std::string&, int, int>()
      .function("error", &Decoder::error)
      .function("columns", &Decoder::columns)
      .function("next", &Decoder::next)
      .function("result", &Decoder::result);
  emscripten::function("installRelaxed", &install_relaxed);
  emscripten::function("heatmap", &heatmap);
  emscripten::function("dumpJson", &dump_json);
  emscripten::function("heapUsed", &heap_used);
  emscripten::constant("maxBeam", bl::kMaxBeam);
}
