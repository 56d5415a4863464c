#include "core/search.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "kernels/kernels.h"

namespace bl {

namespace {
// Up to this k, top_k() uses the kernel (an insertion per new candidate costs O(k)); beyond it,
// as for the step API's or alignment's large "top" requests, a partial sort of all ids.
constexpr int kKernelTopK = 64;
}  // namespace

int max_output_len(const Config& cfg, int n_src, int requested) {
  int len = std::min(cfg.max_tgt_len, 2 * n_src + 10);
  if (requested > 0) len = std::min(len, requested);
  return len;
}

std::vector<std::pair<int, float>> top_k(const Kernels& kt, const std::vector<float>& logp, int k) {
  const int n = int(logp.size());
  k = std::max(0, std::min(k, n));
  std::vector<std::pair<int, float>> out;
  out.reserve(k);
  if (k <= kKernelTopK) {
    // The kernel's single pass (ties to the lower id, as below).
    float vals[kKernelTopK];
    int32_t ids[kKernelTopK];
    const size_t m = kt.top_k(size_t(n), logp.data(), size_t(k), vals, ids);
    for (size_t i = 0; i < m; i++) out.emplace_back(int(ids[i]), vals[i]);
    return out;
  }
  std::vector<int> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  auto better = [&](int a, int b) { return logp[a] > logp[b] || (logp[a] == logp[b] && a < b); };
  std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), better);
  for (int i = 0; i < k; i++) out.emplace_back(idx[i], logp[idx[i]]);
  return out;
}

namespace {
// The source token (of the first n, so </s> is left out) with the largest weight, ties to the
// earlier: the one an <unk> would copy.
size_t attended(const std::vector<float>& alpha, size_t n) {
  size_t best = 0;
  for (size_t j = 1; j < n && j < alpha.size(); j++)
    if (alpha[j] > alpha[best]) best = j;
  return best;
}
}  // namespace

bool may_write_unk(const std::vector<float>& alpha, const std::vector<char>& copyable) {
  if (alpha.empty()) return false;  // no attention: there is no source word to copy
  return copyable.empty() || copyable[attended(alpha, copyable.size())] != 0;
}

std::vector<std::pair<int, float>> greedy_step(const Seq2Seq& m, const Annotations& a, int top,
                                               std::vector<float>* s, StepState* st, Hyp* hyp,
                                               const StepEdit* edit) {
  m.decode(a, hyp->ids.empty() ? kBos : hyp->ids.back(), *s, st, edit);
  return greedy_pick(m.kernels(), a, top, s, st, hyp);
}

std::vector<std::pair<int, float>> greedy_pick(const Kernels& kt, const Annotations& a,
                                               int top, std::vector<float>* s, StepState* st,
                                               Hyp* hyp) {
  auto best = top_k(kt, st->logp, std::max(top, 2));  // the runner-up stands in for a banned <unk>
  const bool skip_unk = best[0].first == kUnk && best.size() > 1 &&
                        !may_write_unk(st->alpha, a.copyable);
  const int y = best[skip_unk ? 1 : 0].first;
  if (int(best.size()) > top) best.resize(size_t(std::max(top, 1)));
  if (!st->own_alpha.empty()) {
    hyp->edited.push_back(int(hyp->ids.size()));
    hyp->own_alphas.push_back(st->own_alpha);
  }
  hyp->ids.push_back(y);
  hyp->alphas.push_back(st->alpha);
  hyp->probs.push_back(std::exp(st->logp[y]));
  hyp->score += double(st->logp[y]);
  hyp->finished = y == kEos;
  hyp->norm = hyp->score / double(hyp->ids.size());
  s->swap(st->s);  // st->s now holds s_{i-1}; e, alpha and c are untouched
  return best;
}

Hyp greedy_search(const Seq2Seq& m, const Annotations& a, int max_len, const EditPlan* plan) {
  Hyp hyp;
  StepState st;
  std::vector<float> s = a.s0;
  for (int i = 0; i < max_len && !hyp.finished; i++)
    greedy_step(m, a, 1, &s, &st, &hyp, plan ? plan->at(i) : nullptr);
  return hyp;
}

namespace {
struct Live {
  Hyp hyp;
  std::vector<float> s;
};
}  // namespace

std::vector<Hyp> beam_search(const Seq2Seq& m, const Annotations& a, int k, int max_len) {
  std::vector<Live> live(1);
  live[0].s = a.s0;
  std::vector<Hyp> finished;
  StepState st;
  for (int i = 0; i < max_len; i++) {
    // (total, hypothesis index, token); each hypothesis proposes its own top k.
    std::vector<std::tuple<double, int, int>> cands;
    std::vector<StepState> outs(live.size());
    for (size_t hi = 0; hi < live.size(); hi++) {
      const Hyp& h = live[hi].hyp;
      m.decode(a, h.ids.empty() ? kBos : h.ids.back(), live[hi].s, &outs[hi]);
      const bool unk_ok = may_write_unk(outs[hi].alpha, a.copyable);
      int taken = 0;
      for (auto [tok, lp] : top_k(m.kernels(), outs[hi].logp, k + 1)) {
        if (taken == k || (tok == kUnk && !unk_ok)) continue;
        cands.emplace_back(h.score + double(lp), int(hi), tok);
        taken++;
      }
    }
    std::sort(cands.begin(), cands.end(), [](const auto& x, const auto& y) {
      if (std::get<0>(x) != std::get<0>(y)) return std::get<0>(x) > std::get<0>(y);
      if (std::get<1>(x) != std::get<1>(y)) return std::get<1>(x) < std::get<1>(y);
      return std::get<2>(x) < std::get<2>(y);
    });
    const size_t width = size_t(k) - finished.size();
    std::vector<Live> next;
    for (size_t c = 0; c < cands.size() && c < width; c++) {
      auto [score, hi, tok] = cands[c];
      Live n{live[hi].hyp, outs[hi].s};
      n.hyp.ids.push_back(tok);
      n.hyp.alphas.push_back(outs[hi].alpha);
      n.hyp.probs.push_back(std::exp(outs[hi].logp[tok]));
      n.hyp.score = score;
      if (tok == kEos) {
        n.hyp.finished = true;
        n.hyp.norm = score / double(n.hyp.ids.size());
        finished.push_back(std::move(n.hyp));
      } else {
        next.push_back(std::move(n));
      }
    }
    live.swap(next);
    if (live.empty() || finished.size() >= size_t(k)) break;
  }
  for (Live& l : live) {  // out of length: keep them, unterminated
    l.hyp.norm = l.hyp.score / double(l.hyp.ids.size());
    finished.push_back(std::move(l.hyp));
  }
  std::vector<size_t> order(finished.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return finished[x].norm > finished[y].norm; });
  std::vector<Hyp> out;
  out.reserve(order.size());
  for (size_t i : order) out.push_back(std::move(finished[i]));
  return out;
}

std::string replace_unk(const std::vector<float>& alpha,
                        const std::vector<std::string>& src_tokens) {
  return src_tokens.empty() || alpha.empty() ? "<unk>"
                                             : src_tokens[attended(alpha, src_tokens.size())];
}

std::vector<std::string> target_words(const std::vector<int>& ids,
                                      const std::vector<std::vector<float>>& alphas,
                                      const std::vector<std::string>& src_tokens,
                                      const std::vector<std::string>& tgt_vocab) {
  std::vector<std::string> out;
  for (size_t i = 0; i < ids.size() && ids[i] != kEos; i++)
    out.push_back(ids[i] == kUnk ? replace_unk(alphas[i], src_tokens) : tgt_vocab[ids[i]]);
  return out;
}

}  // namespace bl
