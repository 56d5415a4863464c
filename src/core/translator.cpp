// bl::Translator and bl::Decoder: the public API over loader, tokenizer, model and search.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "bahdanau.h"
#include "core/model_file.h"
#include "core/scoring_cost.h"
#include "core/search.h"
#include "core/self_attention.h"
#include "core/sentences.h"
#include "core/tokenizer.h"
#include "core/translator_impl.h"

namespace bl {

namespace {
const char* scoring_name(Scoring s) {
  switch (s) {
    case Scoring::Additive: return "additive";
    case Scoring::ScaledDot: return "scaled_dot";
    case Scoring::None: return "none";
  }
  return "?";
}
}  // namespace

Translator::Translator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Translator::~Translator() = default;

bool install_relaxed_kernels(uintptr_t table_index) { return install_relaxed_dots(table_index); }

bool check_text_length(std::string_view text, std::string* error) {
  size_t chars = 0;  // code points: every byte but UTF-8's continuation bytes (invalid UTF-8 is
                     // refused later, by the tokenizer, with its byte offset)
  for (unsigned char b : text) chars += (b & 0xC0) != 0x80;
  if (chars <= kMaxTextChars) return true;
  *error = "text has " + std::to_string(chars) + " characters; at most " +
           std::to_string(kMaxTextChars) +
           " are translated at once (split it into sentences or lines)";
  return false;
}

std::unique_ptr<Translator> Translator::load(const uint8_t* bytes, size_t size,
                                             const LoadParams& params, std::string* error) {
  auto impl = std::make_unique<Impl>();
  if (!load_model(bytes, size, &impl->data, error)) return nullptr;
  const ModelData& d = impl->data;
  const Config& c = d.config;
  // The relaxed table differs only in its int8 products: an f32 or q4 model runs (and reports)
  // wasm-simd.
  const bool relaxed_helps = params.use_simd && params.use_relaxed && c.dtype == DType::Int8;
  const Kernels* relaxed = relaxed_helps ? relaxed_kernels() : nullptr;
  const Kernels& k = relaxed ? *relaxed : params.use_simd ? simd_kernels() : scalar_kernels();
  if (c.arch == Arch::Transformer) {
    auto t = std::make_unique<Transformer>(d, k);
    impl->transformer = t.get();
    impl->net = std::move(t);
  } else {
    auto m = std::make_unique<Model>(d, k);
    impl->model = m.get();
    impl->net = std::move(m);
  }
  // The spec the model's data was tokenized with (its tokenizer_version), not the newest.
  impl->src_tok =
      std::make_unique<Tokenizer>(c.src_lang, d.src_names, d.src_vocab, d.tokenizer_version);
  impl->tgt_tok =
      std::make_unique<Tokenizer>(c.tgt_lang, d.tgt_names, d.tgt_vocab, d.tokenizer_version);
  for (size_t i = 0; i < d.src_vocab.size(); i++) impl->src_index.emplace(d.src_vocab[i], int(i));
  for (size_t i = 0; i < d.tgt_vocab.size(); i++) impl->tgt_index.emplace(d.tgt_vocab[i], int(i));

  ModelInfo& in = impl->info;
  in.src_lang = c.src_lang;
  in.tgt_lang = c.tgt_lang;
  in.scoring = scoring_name(c.scoring);
  const bool transformer = c.arch == Arch::Transformer;
  in.arch = transformer ? "transformer" : "rnn";
  in.decoder = transformer ? "transformer" : c.decoder == DecoderKind::CGru ? "cgru" : "paper";
  in.attention_guidance = c.guidance == Guidance::Ibm1Diag ? "ibm1-diag" : "none";
  in.dtype = c.dtype == DType::Q4 ? "q4" : c.dtype == DType::Int8 ? "int8" : "f32";
  in.kernels = k.name;
  in.emb = c.emb;
  in.enc_hidden = c.enc_hidden;
  in.dec_hidden = c.dec_hidden;
  in.attn = c.attn;
  in.src_vocab = c.src_vocab;
  in.tgt_vocab = c.tgt_vocab;
  in.max_src_len = c.max_src_len;
  in.max_tgt_len = c.max_tgt_len;
  in.d_model = c.d_model;
  in.heads = c.heads;
  in.ffn = c.ffn;
  in.enc_layers = c.enc_layers;
  in.dec_layers = c.dec_layers;
  in.num_params = d.num_params;
  in.file_bytes = d.file_bytes;
  if (transformer) {  // each decoder layer's cross-attention W_q and W_k (d x d) and biases
    in.scoring_params = size_t(c.dec_layers) * 2 * (size_t(c.d_model) * c.d_model + c.d_model);
  } else {  // W (A x D) and U (A x 2H), plus v (A) for the additive network; A = 0 without
    in.scoring_params = size_t(c.attn) * (c.dec_hidden + 2 * c.enc_hidden) +
                        (c.scoring == Scoring::Additive ? size_t(c.attn) : 0);
  }
  return std::unique_ptr<Translator>(new Translator(std::move(impl)));
}

const ModelInfo& Translator::info() const { return impl_->info; }

bool Translator::tokenize_source(std::string_view text, std::vector<std::string>* tokens,
                                 std::string* error) const {
  return impl_->src_tok->tokenize(text, tokens, error);
}

bool Translator::split_sentences(std::string_view text, std::vector<std::string>* sentences,
                                 std::string* error) const {
  sentences->clear();
  std::vector<Tokenizer::ByteRange> ranges;
  if (!bl::split_sentences(*impl_->src_tok, text, &ranges, error)) return false;
  for (const auto& r : ranges) sentences->emplace_back(text.substr(r.begin, r.end - r.begin));
  return true;
}

bool Translator::tokenize_target(std::string_view text, std::vector<std::string>* tokens,
                                 std::string* error) const {
  return impl_->tgt_tok->tokenize(text, tokens, error);
}

bool Translator::scoring_cost(std::string_view text, const ScoringCostParams& p,
                              ScoringCost* out, std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  *out = ScoringCost{};
  // Bounded so that one call cannot hang a page: it ends within scoring_cost_bound_ms(p),
  // 4 * (batches + 1) * min_batch_ms, and the product is capped at one second (4.4 s at most).
  if (!(p.min_batch_ms > 0 && p.min_batch_ms <= 100) || p.batches < 1 || p.batches > 100 ||
      p.min_batch_ms * p.batches > 1000) {
    *error = "scoring_cost: min_batch_ms must be in (0, 100], batches in 1..100, and "
             "min_batch_ms * batches at most 1000";
    return false;
  }
  if (impl_->data.config.scoring == Scoring::None) {
    *error = "scoring_cost needs an attention model: this one (scoring \"none\") has no "
             "scoring network to time";
    return false;
  }
  if (!impl_->model) {
    *error = "scoring_cost times an RNN's scoring network: this Transformer's attention is "
             "several layers of heads, which one timing of one score function would not describe";
    return false;
  }
  std::vector<std::string> toks;
  std::vector<int> ids;
  if (!impl_->source(text, &toks, &ids, error)) return false;
  if (toks.empty()) return true;
  Annotations a;
  impl_->model->encode(ids, &a);
  *out = measure_scoring(*impl_->model, a, p);
  return true;
}

bool Translator::self_attention(std::string_view text, SelfAttention* out, std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  *out = SelfAttention{};
  if (impl_->transformer) {  // the real thing: the encoder's every layer and head
    std::vector<std::string> toks;
    std::vector<int> ids;
    if (!impl_->source(text, &toks, &ids, error)) return false;
    out->method = kEncoderSelfAttentionMethod;
    if (toks.empty()) return true;
    encoder_self_attention(*impl_->transformer, ids, out);
    out->tokens = std::move(toks);
    out->tokens.push_back("</s>");
    return true;
  }
  if (impl_->data.config.scoring != Scoring::ScaledDot) {
    *error = impl_->data.config.scoring == Scoring::None
                 ? "self_attention needs a scaled_dot model: this one (scoring \"none\") has no "
                   "attention weights at all"
                 : "self_attention needs a scaled_dot model: its W_q and W_k are trained for dot "
                   "products, which this additive model's W and U are not";
    return false;
  }
  std::vector<std::string> toks;
  std::vector<int> ids;
  if (!impl_->source(text, &toks, &ids, error)) return false;
  out->method = kSelfAttentionMethod;
  if (toks.empty()) return true;
  Annotations a;
  impl_->model->encode(ids, &a);
  source_self_attention(*impl_->model, a, &out->scores, &out->weights);
  out->tokens = std::move(toks);
  out->tokens.push_back("</s>");
  return true;
}

bool Translator::translate(std::string_view text, const TranslateParams& p, Translation* out,
                           std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  *out = Translation{};
  if (p.beam < 1 || p.beam > kMaxBeam) {
    *error = "beam must be between 1 and " + std::to_string(kMaxBeam);
    return false;
  }
  if (p.beam != 1 && !p.edits.empty()) {
    *error = "attention edits need greedy decoding (beam 1): a beam keeps several "
             "hypotheses, each with its own attention at every step";
    return false;
  }
  std::vector<std::string> toks;
  if (!impl_->source(text, &toks, &out->src_ids, error)) return false;
  if (toks.empty()) return true;
  const int max_len = max_output_len(impl_->data.config, int(toks.size()), p.max_len);
  EditPlan plan;
  if (!impl_->plan_edits(p.edits, toks.size(), max_len, &plan, error)) return false;
  auto t0 = std::chrono::steady_clock::now();
  Annotations a;
  impl_->net->encode(out->src_ids, &a);
  impl_->mark_copyable(toks, &a);
  out->encode_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  if (p.beam == 1) {
    Hyp best = greedy_search(*impl_->net, a, max_len, &plan);
    if (!check_edits_reached(p.edits, int(best.ids.size()), error)) {
      *out = Translation{};
      return false;
    }
    impl_->fill_greedy(best, toks, out);
  } else {
    std::vector<Hyp> hyps = beam_search(*impl_->net, a, p.beam, max_len);
    impl_->fill(hyps[0], toks, out);
    for (const Hyp& h : hyps)
      out->hypotheses.push_back({target_words(h.ids, h.alphas, toks, impl_->data.tgt_vocab),
                                 h.score, h.norm, h.finished});
  }
  out->decode_ms = ms_since(t0);
  out->src_tokens = std::move(toks);
  out->src_tokens.push_back("</s>");
  return true;
}

// ---- step-by-step decoding ---------------------------------------------------------------

struct Decoder::State {
  const Translator::Impl* impl;
  std::vector<std::string> src_tokens;  // without </s>
  std::vector<std::string> columns;     // with </s>
  std::vector<int> src_ids;
  Annotations a;
  StepState st;
  std::vector<float> s;
  Hyp hyp;
  EditPlan edits;
  int max_len = 0, top_k = 5;
  bool done = false;
  double encode_ms = 0, decode_ms = 0;
};

Decoder::Decoder(std::unique_ptr<State> st) : st_(std::move(st)) {}
Decoder::~Decoder() = default;

std::unique_ptr<Decoder> Translator::start(std::string_view text, const TranslateParams& p,
                                           std::string* error) {
  std::string ignored;
  if (!error) error = &ignored;
  auto st = std::make_unique<Decoder::State>();
  st->impl = impl_.get();
  if (!impl_->source(text, &st->src_tokens, &st->src_ids, error)) return nullptr;
  st->columns = st->src_tokens;
  if (!st->columns.empty()) st->columns.push_back("</s>");  // as translate(): none for no input
  st->top_k = std::max(1, std::min(p.top_k, impl_->data.config.tgt_vocab));
  st->max_len = max_output_len(impl_->data.config, int(st->src_tokens.size()), p.max_len);
  if (!st->src_tokens.empty() &&
      !impl_->plan_edits(p.edits, st->src_tokens.size(), st->max_len, &st->edits, error))
    return nullptr;
  if (st->src_tokens.empty()) {
    st->done = true;
  } else {
    auto t0 = std::chrono::steady_clock::now();
    impl_->net->encode(st->src_ids, &st->a);
    impl_->mark_copyable(st->src_tokens, &st->a);
    st->s = st->a.s0;
    st->encode_ms = ms_since(t0);
  }
  return std::unique_ptr<Decoder>(new Decoder(std::move(st)));
}

bool Decoder::done() const { return st_->done; }
const std::vector<std::string>& Decoder::src_tokens() const { return st_->columns; }

bool Decoder::next(Step* out) {
  State& d = *st_;
  if (d.done) return false;
  auto t0 = std::chrono::steady_clock::now();
  auto top = greedy_step(*d.impl->net, d.a, d.top_k, &d.s, &d.st, &d.hyp,
                         d.edits.at(int(d.hyp.ids.size())));
  const int y = d.hyp.ids.back();
  d.done = d.hyp.finished || int(d.hyp.ids.size()) >= d.max_len;

  *out = Step{};
  out->index = int(d.hyp.ids.size()) - 1;
  out->token = y;
  out->word = y == kEos   ? "</s>"
              : y == kUnk ? replace_unk(d.st.alpha, d.src_tokens)
                          : d.impl->data.tgt_vocab[y];
  out->prob = d.hyp.probs.back();
  d.impl->set_attention(d.st, out);
  d.impl->set_top(top, out);
  out->done = d.done;
  d.decode_ms += ms_since(t0);
  return true;
}

Translation Decoder::result() const {
  const State& d = *st_;
  Translation t;
  t.src_ids = d.src_ids;
  t.src_tokens = d.columns;
  if (!d.hyp.ids.empty()) d.impl->fill_greedy(d.hyp, d.src_tokens, &t);
  t.encode_ms = d.encode_ms;
  t.decode_ms = d.decode_ms;
  return t;
}

}  // namespace bl
