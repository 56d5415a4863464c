// Translator::translate_batch: translate() for many texts, greedy decoding batched.
//
// Each text is tokenized on its own; the sentences that join the batch together are encoded
// together (Model::encode_batch), then up to kMaxLive of them decode together through
// Model::step_batch, one output word each per step, with greedy_search's own rules
// (greedy_pick: the copy rule for <unk>; the same length limit per sentence). A sentence that
// writes </s> or reaches its limit leaves the batch and the next waiting one joins; both batched
// functions equal their one-sentence twins bit for bit, so every translation is exactly
// translate()'s. Beam search (beam > 1) is not batched: each text goes through translate();
// nor is a Transformer, whatever the beam.
#include <chrono>
#include <memory>

#include "bahdanau.h"
#include "core/search.h"
#include "core/translator_impl.h"

namespace bl {

namespace {

// Sentences decoding at once. A step's scratch and the live StepStates hold about 2 x Vt
// floats per sentence (128 KB for a 16,000-word vocabulary), and the weight blocks are already
// shared by the whole batch well before 64, so a larger batch buys little and costs memory
// (the wasm heap never shrinks). Texts beyond it wait and join as sentences finish.
constexpr size_t kMaxLive = 64;

// A sentence in the batch.
struct Live {
  size_t index = 0;  // into texts
  Annotations a;
  std::vector<float> s;  // s_{i-1}
  Hyp hyp;
  int max_len = 0;
  std::chrono::steady_clock::time_point joined;
};

}  // namespace

bool Translator::translate_batch(const std::vector<std::string>& texts, const TranslateParams& p,
                                 std::vector<Translation>* out,
                                 std::vector<std::string>* errors) {
  out->assign(texts.size(), Translation{});
  errors->assign(texts.size(), std::string());
  bool ok = true;
  // Beam search, or a beam translate() refuses, and every Transformer (its batched step is not
  // written: each hypothesis's key/value cache has its own length), and attention edits (only
  // step() takes one): one text at a time.
  if (p.beam != 1 || !impl_->model || !p.edits.empty()) {
    for (size_t i = 0; i < texts.size(); i++)
      ok = translate(texts[i], p, &(*out)[i], &(*errors)[i]) && ok;
    return ok;
  }

  // Tokens now (cheap, and every error is known up front); annotations only when a sentence
  // joins the batch, so at most kMaxLive of them are held at once.
  std::vector<std::vector<std::string>> toks(texts.size());
  std::vector<size_t> waiting;
  for (size_t i = 0; i < texts.size(); i++) {
    if (!impl_->source(texts[i], &toks[i], &(*out)[i].src_ids, &(*errors)[i])) {
      ok = false;
      continue;
    }
    if (!toks[i].empty()) waiting.push_back(i);  // empty text: an empty Translation, as translate()
  }

  const Model& m = *impl_->model;
  const size_t D = size_t(impl_->data.config.dec_hidden);
  std::vector<std::unique_ptr<Live>> live;
  std::vector<StepState> states;  // step_batch's outputs, one per live sentence
  std::vector<const Annotations*> ann;
  std::vector<int> y_prev;
  std::vector<float> s_prev;
  auto finish = [&](const Live& l) {
    Translation& t = (*out)[l.index];
    impl_->fill_greedy(l.hyp, toks[l.index], &t);
    t.decode_ms = ms_since(l.joined);
    t.src_tokens = std::move(toks[l.index]);
    t.src_tokens.push_back("</s>");
  };
  size_t next = 0;
  while (next < waiting.size() || !live.empty()) {
    // Fill the free places: the sentences that join are encoded together.
    std::vector<std::unique_ptr<Live>> joining;
    std::vector<const std::vector<int>*> ids;
    std::vector<Annotations*> annotations;
    while (live.size() + joining.size() < kMaxLive && next < waiting.size()) {
      joining.push_back(std::make_unique<Live>());
      joining.back()->index = waiting[next++];
      ids.push_back(&(*out)[joining.back()->index].src_ids);
      annotations.push_back(&joining.back()->a);
    }
    if (!joining.empty()) {
      auto t0 = std::chrono::steady_clock::now();
      m.encode_batch(joining.size(), ids.data(), annotations.data());
      const double encode_ms = ms_since(t0) / double(joining.size());  // each one's share
      for (auto& l : joining) {
        impl_->mark_copyable(toks[l->index], &l->a);
        (*out)[l->index].encode_ms = encode_ms;
        l->joined = std::chrono::steady_clock::now();
        l->s = l->a.s0;
        l->max_len = max_output_len(impl_->data.config, int(toks[l->index].size()), p.max_len);
        if (l->max_len > 0)
          live.push_back(std::move(l));
        else
          finish(*l);  // greedy_search would not take a step either
      }
    }
    if (live.empty()) break;

    const size_t B = live.size();
    ann.resize(B);
    y_prev.resize(B);
    s_prev.resize(B * D);
    if (states.size() < B) states.resize(B);
    for (size_t b = 0; b < B; b++) {
      const Live& l = *live[b];
      ann[b] = &l.a;
      y_prev[b] = l.hyp.ids.empty() ? kBos : l.hyp.ids.back();
      std::copy(l.s.begin(), l.s.end(), s_prev.begin() + b * D);
    }
    m.step_batch(B, ann.data(), y_prev.data(), s_prev.data(), states.data());

    size_t kept = 0;  // the sentences still decoding move to the front, in order
    for (size_t b = 0; b < B; b++) {
      Live& l = *live[b];
      greedy_pick(m.kernels(), l.a, 1, &l.s, &states[b], &l.hyp);
      // greedy_search's loop: at most max_len steps, and none after </s>
      if (l.hyp.finished || int(l.hyp.ids.size()) >= l.max_len)
        finish(l);
      else if (kept++ != b)
        live[kept - 1] = std::move(live[b]);
    }
    live.resize(kept);
  }
  return ok;
}

}  // namespace bl
