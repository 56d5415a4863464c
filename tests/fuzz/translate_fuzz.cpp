// libFuzzer harness: translate (greedy and beam), steps and align on arbitrary bytes, with the
// shipped model models/en-fr.safetensors loaded once. The first input byte picks what runs and
// its limits; the rest, cut to 64 bytes, is the text (for align: source TAB target). Outputs
// of at most 4 tokens and beams of 2 or 3 keep it fast: every decoder step pays the 16,000-word
// output layer.
// Findings: a crash, a sanitizer report, a leak, an escaping exception, a refusal without a
// message, or a result of the wrong shape (rows, columns, weights that do not sum to 1, more
// tokens than asked, steps() disagreeing with greedy translate()).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bahdanau.h"
#include "fuzz_util.h"

namespace {

constexpr size_t kMaxText = 64;

bl::Translator& model() {
  static std::unique_ptr<bl::Translator> tr = [] {
    const std::vector<uint8_t> bytes = fuzz::repo_file("models/en-fr.safetensors");
    std::string err;
    auto t = bl::Translator::load(bytes.data(), bytes.size(), bl::LoadParams{}, &err);
    if (!t) {
      std::fprintf(stderr, "fuzz: cannot load models/en-fr.safetensors: %s\n", err.c_str());
      std::exit(2);
    }
    return t;
  }();
  return *tr;
}

// Attention rows: one per target token, one weight per column, each row summing to 1.
void check_rows(const std::vector<std::vector<float>>& rows, size_t columns) {
  for (const auto& row : rows) {
    fuzz::check(row.size() == columns, "one weight per source column");
    double sum = 0;
    for (float w : row) {
      fuzz::check(std::isfinite(w) && w >= 0 && w <= 1, "a weight in [0, 1]");
      sum += w;
    }
    fuzz::check(std::fabs(sum - 1) < 1e-3, "a row sums to 1");
  }
}

void run_translate(bl::Translator& tr, std::string_view text, const bl::TranslateParams& p) {
  bl::Translation t;
  std::string err;
  if (!tr.translate(text, p, &t, &err)) {
    fuzz::check(!err.empty(), "a refused text says why");
    return;
  }
  fuzz::check(t.tgt_tokens.size() <= size_t(p.max_len), "no more tokens than max_len");
  fuzz::check(t.attention.size() == t.tgt_tokens.size(), "one attention row per target token");
  if (!t.src_tokens.empty()) check_rows(t.attention, t.src_tokens.size());
  if (p.beam == 1) {
    fuzz::check(t.probs.size() == t.tgt_tokens.size(), "one probability per target token");
  } else {
    fuzz::check(!t.src_tokens.empty() || t.hypotheses.empty(), "no hypotheses for no text");
    fuzz::check(t.hypotheses.size() <= size_t(p.beam), "at most beam hypotheses");
  }
}

void run_steps(bl::Translator& tr, std::string_view text, const bl::TranslateParams& p) {
  std::string err;
  auto dec = tr.start(text, p, &err);
  if (!dec) {
    fuzz::check(!err.empty(), "a refused text says why");
    return;
  }
  bl::Step step;
  size_t n = 0;
  const size_t columns = dec->src_tokens().size();
  while (dec->next(&step)) {
    fuzz::check(step.index == int(n), "steps come in order");
    fuzz::check(step.top_ids.size() <= size_t(p.top_k), "at most top_k candidates");
    if (!step.alpha.empty()) check_rows({step.alpha}, columns);
    n++;
    fuzz::check(n <= size_t(p.max_len) + 1, "steps end by max_len (+ the end of sentence)");
  }
  fuzz::check(dec->done(), "done once next() says so");
  bl::Translation greedy;
  const bl::Translation streamed = dec->result();
  bl::TranslateParams g = p;
  g.beam = 1;
  fuzz::check(tr.translate(text, g, &greedy, &err), "what steps() took, translate() takes");
  fuzz::check(streamed.tgt_tokens == greedy.tgt_tokens, "steps() agrees with greedy translate()");
}

void run_align(bl::Translator& tr, std::string_view text) {
  const size_t tab = text.find('\t');
  const std::string_view source = text.substr(0, tab);
  const std::string_view target = tab == std::string_view::npos ? "" : text.substr(tab + 1);
  bl::Alignment al;
  std::string err;
  if (!tr.align(source, target, bl::AlignParams{}, &al, &err)) {
    fuzz::check(!err.empty(), "a refused pair says why");
    return;
  }
  fuzz::check(al.steps.size() == al.tgt_tokens.size() || al.src_tokens.empty(),
              "one row per target token and </s>");
  for (const bl::Step& s : al.steps) {
    if (!s.alpha.empty()) check_rows({s.alpha}, al.src_tokens.size());
    fuzz::check(s.prob >= 0 && s.prob <= 1, "a probability in [0, 1]");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t mode = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1),
                              std::min(size - 1, kMaxText));
  bl::Translator& tr = model();
  bl::TranslateParams p;
  p.max_len = 1 + (mode & 3);        // bits 0-1: 1..4 output tokens
  p.top_k = 1 + ((mode >> 3) & 7);  // bits 3-5: 1..8 candidates (steps)
  switch (mode >> 6) {  // bits 6-7
    case 0:
      run_translate(tr, text, p);
      break;
    case 1:
      p.beam = 2 + ((mode >> 2) & 1);  // bit 2: a beam of 2 or 3
      run_translate(tr, text, p);
      break;
    case 2:
      run_steps(tr, text, p);
      break;
    default:
      run_align(tr, text);
  }
  return 0;
}
