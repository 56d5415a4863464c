// Word-level tokenizer and detokenizer, spec version 3 (docs/tokenization.md); versions 1 and 2
// on request (they tokenize alike; 3 differs from them only on CJK and full-width text).
//
// The reference is scripts/nmt/tokenizer.py, which made the training data; this must agree
// with it byte for byte, which tests/cpp/tokenizer_test.cpp checks on every case of
// tests/fixtures/tokenizer.json (version 2) and tokenizer-zh.json (version 3). Where the doc and
// the Python differ, the Python wins.
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace bl {

constexpr int kTokenizerSpecVersion = 3;

// True when token has an upper-case letter (per the spec's case table) or an ASCII digit, so
// it looks like a name or a number: what <unk> replacement may copy (scripts/nmt/search.py
// copyable). Bytes that do not decode count as neither.
bool looks_like_name_or_number(std::string_view token);

// True when token has a word character (spec step 4): a word, not punctuation or a symbol. By
// version 3's table, whose word characters are version 2's and the ideographs of planes 2-3.
bool has_word_char(std::string_view token);

class Tokenizer {
 public:
  // lang is "en", "fr" or "zh". Any other value behaves like the reference does for it: no
  // clitic splitting, and English spacing before ! ? : ; when detokenizing ("zh" too, under
  // versions 1-2; under 3 it detokenizes Chinese: no spaces but between Latin/digit tokens).
  // spec_version: the model's tokenizer_version, 1-3 (1 and 2 tokenize alike); 3 makes each
  // CJK ideograph a token and folds full-width letters and digits, and tokenizes text without
  // CJK or full-width characters as 1 and 2 do. names are the words the
  // training data capitalises mid-sentence (src_names / tgt_names in the model metadata).
  // vocab, when not empty, turns on case repair (spec step 6): the engines pass the model's
  // vocabulary; an empty one tokenizes as training did.
  Tokenizer(std::string lang, std::vector<std::string> names,
            const std::vector<std::string>& vocab = {},
            int spec_version = kTokenizerSpecVersion);

  // Splits text (UTF-8, not necessarily NFC) into tokens. Returns false and sets *error on
  // invalid UTF-8; never throws on any input, and is linear in the input size.
  bool tokenize(std::string_view text, std::vector<std::string>* tokens,
                std::string* error) const;
  // The same, and where each token came from in text: byte offsets [begin, end) of the code
  // points it was made of (a token rewritten by normalization or truecasing still points at
  // what the user typed).
  struct ByteRange {
    size_t begin, end;
  };
  bool tokenize(std::string_view text, std::vector<std::string>* tokens,
                std::vector<ByteRange>* ranges, std::string* error) const;

  // Joins tokens into display text. Tokens need not be valid UTF-8 (bytes that do not decode
  // are passed through untouched and count as non-word characters).
  std::string detokenize(const std::vector<std::string>& tokens) const;

  const std::string& lang() const { return lang_; }
  int spec_version() const { return version_; }

 private:
  enum class Lang { En, Fr, Zh, Other };

  std::string lang_;
  Lang kind_;
  int version_;
  bool v3_;  // version_ >= 3
  std::unordered_set<std::string> names_;
  std::unordered_set<std::string> vocab_;
  // Case repair: a name's lower-case form -> the name's code points (the first name in code
  // point order wins a shared form).
  std::unordered_map<std::string, std::vector<uint32_t>> name_by_lower_;
};

}  // namespace bl
