// libFuzzer harness: the tokenizer alone (English, French, Chinese and another language; with
// and without the vocabulary that turns on case repair; spec 3 and spec 2, which the shipped
// en-fr models use) and the detokenizer, for a high rate of inputs. Names and vocabularies are
// the tokenizer fixtures' (tests/fixtures/tokenizer.json, tokenizer-zh.json).
// The first input byte picks the tokenizer; the rest is the text.
// Findings: a crash, a sanitizer report, a leak, an escaping exception, a refusal without a
// message, an empty token or one that is not valid UTF-8, or a refusal of valid UTF-8.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tokenizer.h"
#include "core/utf8.h"
#include "fuzz_util.h"

namespace {

std::vector<std::unique_ptr<bl::Tokenizer>> make_tokenizers() {
  const std::vector<uint8_t> bytes = fuzz::repo_file("tests/fixtures/tokenizer.json");
  const auto fixture = nlohmann::json::parse(bytes.begin(), bytes.end());
  std::vector<std::unique_ptr<bl::Tokenizer>> out;
  for (const char* lang : {"en", "fr"}) {
    const auto names = fixture["names"][lang].get<std::vector<std::string>>();
    const auto vocab = fixture["vocab"][lang].get<std::vector<std::string>>();
    out.push_back(std::make_unique<bl::Tokenizer>(lang, names));
    out.push_back(std::make_unique<bl::Tokenizer>(lang, names, vocab));
    out.push_back(std::make_unique<bl::Tokenizer>(lang, names, vocab, 2));
  }
  const std::vector<uint8_t> zh_bytes = fuzz::repo_file("tests/fixtures/tokenizer-zh.json");
  const auto zh = nlohmann::json::parse(zh_bytes.begin(), zh_bytes.end());
  const auto zh_names = zh["names"]["zh"].get<std::vector<std::string>>();
  out.push_back(std::make_unique<bl::Tokenizer>("zh", zh_names));
  out.push_back(std::make_unique<bl::Tokenizer>(
      "zh", zh_names, zh["vocab"]["zh"].get<std::vector<std::string>>()));
  out.push_back(std::make_unique<bl::Tokenizer>("xx", std::vector<std::string>{}));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<std::unique_ptr<bl::Tokenizer>> tokenizers = make_tokenizers();
  if (size < 1) return 0;
  const bl::Tokenizer& tok = *tokenizers[data[0] % tokenizers.size()];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string> tokens;
  std::string err;
  std::vector<uint32_t> cps;
  std::string why;
  const bool valid = bl::utf8_decode(text, &cps, &why);
  if (!tok.tokenize(text, &tokens, &err)) {
    fuzz::check(!err.empty(), "a refused text says why");
    fuzz::check(!valid, "only invalid UTF-8 is refused");
  } else {
    fuzz::check(valid, "invalid UTF-8 is refused");
    for (const std::string& t : tokens) {
      fuzz::check(!t.empty(), "no empty token");
      fuzz::check(bl::utf8_decode(t, &cps, &why), "tokens are valid UTF-8");
      bl::looks_like_name_or_number(t);
    }
    tok.detokenize(tokens);
  }
  // The detokenizer takes any bytes: the input cut at spaces, as tokens.
  std::vector<std::string> pieces;
  for (size_t at = 0; at <= text.size();) {
    const size_t sp = std::min(text.find(' ', at), text.size());
    pieces.emplace_back(text.substr(at, sp - at));
    at = sp + 1;
  }
  tok.detokenize(pieces);
  return 0;
}
