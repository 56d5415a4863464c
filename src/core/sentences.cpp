#include "core/sentences.h"

#include <string>

namespace bl {

namespace {

// The tokenizer's sentence ends (spec version 3's list, docs/tokenization.md), whatever the
// model's version: 。！？ are tokens of their own under every version.
bool is_end(const std::string& t) {
  return t == "." || t == "!" || t == "?" || t == "..." || t == "\u2026" || t == "\u3002" ||
         t == "\uFF01" || t == "\uFF1F";
}

// What closes a sentence after its end and stays with it: ) ] }, and the full-width ）and the
// corner brackets 」』 of Chinese text.
bool is_closer(const std::string& t) {
  return t == ")" || t == "]" || t == "}" || t == "\uFF09" || t == "\u300D" || t == "\u300F";
}

}  // namespace

bool split_sentences(const Tokenizer& tok, std::string_view text,
                     std::vector<Tokenizer::ByteRange>* out, std::string* error) {
  out->clear();
  std::vector<std::string> t;
  std::vector<Tokenizer::ByteRange> at;
  if (!tok.tokenize(text, &t, &at, error)) return false;
  const size_t n = t.size();
  // Straight quotes alternate, as in detokenization: one after a sentence end closes a quote
  // only if one is open ("Yes." she said / He said "yes." Then...).
  bool quote_open = false;
  std::vector<size_t> words(n + 1, 0);  // word tokens before i
  for (size_t i = 0; i < n; i++) words[i + 1] = words[i] + has_word_char(t[i]);
  // A sentence needs a word; punctuation before the first word joins the next sentence.
  auto has_words = [&](size_t from, size_t to) { return words[to] > words[from]; };
  size_t first = 0;
  for (size_t i = 0; i < n;) {
    if (t[i] == "\"") quote_open = !quote_open;
    if (!is_end(t[i])) {
      i++;
      continue;
    }
    size_t j = i + 1;
    while (j < n && (is_end(t[j]) || is_closer(t[j]) || (t[j] == "\"" && quote_open))) {
      if (t[j] == "\"") quote_open = false;
      j++;
    }
    if (has_words(first, j) && has_words(j, n)) {
      out->push_back({at[first].begin, at[j - 1].end});
      first = j;
    }
    i = j;
  }
  if (has_words(first, n)) out->push_back({at[first].begin, at[n - 1].end});
  return true;
}

}  // namespace bl
