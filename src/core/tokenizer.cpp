// Tokenizer spec versions 1-3; see tokenizer.h. The structure follows scripts/nmt/tokenizer.py
// function by function so that a rule change there has one obvious place to land here.
// Over 400 lines (about 440) on purpose: it is that one file's mirror, every step of the spec
// and detokenization in the reference's order; the tables live in unicode_tables.h.
#include "core/tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/unicode_tables.h"
#include "core/utf8.h"

namespace bl {
namespace {

using tables::Range;

template <size_t N>
bool in_set(const uint32_t (&set)[N], uint32_t cp) {
  return std::find(set, set + N, cp) != set + N;
}

template <size_t N>
bool in_ranges(const Range (&ranges)[N], uint32_t cp) {
  for (const Range& r : ranges)
    if (r.lo <= cp && cp <= r.hi) return true;
  return false;
}

bool is_word_cp(uint32_t cp, bool v3) {
  const auto& w = tables::kWordRanges;
  const Range* it = std::lower_bound(std::begin(w), std::end(w), cp,
                                     [](const Range& r, uint32_t c) { return r.hi < c; });
  if (it != std::end(w)) return it->lo <= cp;
  return v3 && cp >= tables::kWordRangeV3Extra.lo && cp <= tables::kWordRangeV3Extra.hi;
}

// Version 3: a CJK ideograph, a token of its own.
bool is_ideograph(uint32_t cp, bool v3) { return v3 && in_ranges(tables::kIdeographRanges, cp); }

// A word character that may continue a word: under version 3, not an ideograph.
bool in_word(uint32_t cp, bool v3) { return is_word_cp(cp, v3) && !is_ideograph(cp, v3); }

bool is_word_v3(uint32_t cp) { return is_word_cp(cp, true); }
bool is_word_v2(uint32_t cp) { return is_word_cp(cp, false); }

bool is_ascii_digit(uint32_t cp) { return cp >= '0' && cp <= '9'; }

// Returns the precomposed letter for base + mark, or 0 when the table has none.
uint32_t compose(uint32_t base, uint32_t mark) {
  using Key = std::pair<uint32_t, uint32_t>;
  const auto& t = tables::kCompose;
  const auto* it = std::lower_bound(
      std::begin(t), std::end(t), Key{base, mark},
      [](const tables::Composition& c, Key k) { return Key{c.base, c.mark} < k; });
  return (it != std::end(t) && it->base == base && it->mark == mark) ? it->composed : 0;
}

// The spec's case table. Deliberately tiny: towlower() & co. know far more of Unicode than
// the Python reference does, and would make the two disagree.
uint32_t upper_to_lower(uint32_t cp) {
  if ((cp >= 0x41 && cp <= 0x5A) || (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)) return cp + 0x20;
  if (cp == 0x152) return 0x153;
  return cp;
}

uint32_t lower_to_upper(uint32_t cp) {
  if ((cp >= 0x61 && cp <= 0x7A) || (cp >= 0xE0 && cp <= 0xFE && cp != 0xF7)) return cp - 0x20;
  if (cp == 0x153) return 0x152;
  return cp;
}

bool is_upper(uint32_t cp) { return upper_to_lower(cp) != cp; }

}  // namespace

bool looks_like_name_or_number(std::string_view token) {
  return utf8_any_lenient(token,
                          [](uint32_t cp) { return is_upper(cp) || (cp >= '0' && cp <= '9'); });
}

namespace {

// Spec steps 1-3 in one pass: drop controls, map spaces / apostrophes / quotes / hyphens,
// compose Latin accents onto the character already emitted. origin, when given, gets for each
// output code point the input code points it came from, [begin, end) (a composed one: its base
// and its mark), so tokens can be traced back to the caller's text.
void normalize(const std::vector<uint32_t>& in, bool v3, std::vector<uint32_t>* out,
               std::vector<std::pair<size_t, size_t>>* origin = nullptr) {
  out->clear();
  out->reserve(in.size());
  if (origin) origin->clear();
  for (size_t i = 0; i < in.size(); i++) {
    const uint32_t cp = in[i];
    const size_t before = out->size();
    if (cp > 0x20 && cp < 0x7F && cp != 0x60) {  // printable ASCII, except ` (an apostrophe)
      out->push_back(cp);
    } else if (v3 && in_ranges(tables::kFullwidthAlnum, cp)) {  // version 3: ＡＢ１２ -> AB12
      out->push_back(cp - tables::kFullwidthOffset);
    } else if (in_set(tables::kSpaces, cp)) {
      out->push_back(0x20);
    } else if (in_ranges(tables::kDroppedRanges, cp)) {
      continue;
    } else if (in_set(tables::kApostrophes, cp)) {
      out->push_back('\'');
    } else if (in_set(tables::kDoubleQuotes, cp)) {
      out->push_back('"');
    } else if (in_set(tables::kDashes, cp)) {
      out->push_back('-');
    } else if (uint32_t c = out->empty() ? 0 : compose(out->back(), cp)) {
      out->back() = c;
      if (origin) origin->back().second = i + 1;
    } else {
      out->push_back(cp);
    }
    if (origin && out->size() > before) origin->push_back({i, i + 1});
  }
}

// A token is a half-open range of code points in the normalized text. Clitic splitting only
// cuts ranges and truecasing only rewrites one code point, so nothing is copied until the
// final UTF-8 encoding.
struct Span {
  size_t b, e;
};

// Spec step 4 on the whole text at once. Splitting on spaces first, as the reference does,
// gives the same result: a space is neither a word character nor a '.', so no rule below can
// reach across one. Version 3: an ideograph is a word of its own, and ends the word before it.
template <typename Emit>
void split_words(const std::vector<uint32_t>& v, bool v3, Emit emit_word,
                 std::vector<Span>* out) {
  const size_t n = v.size();
  size_t i = 0;
  while (i < n) {
    const uint32_t cp = v[i];
    if (cp == 0x20) {
      i++;
    } else if (is_ideograph(cp, v3)) {
      emit_word(Span{i, i + 1});
      i++;
    } else if (is_word_cp(cp, v3)) {
      size_t j = i + 1;
      while (j < n) {
        if (in_word(v[j], v3)) {
          j++;
          continue;
        }
        // Joiners stay inside a word only between two word characters.
        if (j + 1 < n && in_word(v[j + 1], v3)) {
          const uint32_t c = v[j];
          if (c == '\'' || c == '-') {
            j += 2;
            continue;
          }
          if ((c == ',' || c == '.' || c == ':') && is_ascii_digit(v[j - 1]) &&
              is_ascii_digit(v[j + 1])) {  // 3.14 1,000 12:30
            j += 2;
            continue;
          }
        }
        break;
      }
      emit_word(Span{i, j});
      i = j;
    } else if (cp == '.' && i + 2 < n && v[i + 1] == '.' && v[i + 2] == '.') {
      out->push_back(Span{i, i + 3});
      i += 3;
    } else {
      out->push_back(Span{i, i + 1});
      i++;
    }
  }
}

// Case-insensitive (spec case table) match of ASCII text at v[pos...].
bool matches_at(const std::vector<uint32_t>& v, size_t pos, std::string_view ascii) {
  for (size_t k = 0; k < ascii.size(); k++)
    if (upper_to_lower(v[pos + k]) != static_cast<unsigned char>(ascii[k])) return false;
  return true;
}

constexpr std::string_view kFrElisions[] = {"jusqu'", "lorsqu'", "puisqu'", "qu'", "l'", "j'",
                                            "c'",     "d'",      "n'",      "s'",  "m'", "t'"};
constexpr std::string_view kEnSuffixes[] = {"n't", "'s", "'m", "'re", "'ve", "'ll", "'d"};

// Spec step 5. The "longer than" tests count code points, as the reference's len() does.
void split_fr_elisions(const std::vector<uint32_t>& v, Span w, std::vector<Span>* out) {
  bool again = true;
  while (again) {
    again = false;
    for (std::string_view el : kFrElisions) {
      if (w.e - w.b > el.size() && matches_at(v, w.b, el)) {
        out->push_back(Span{w.b, w.b + el.size()});
        w.b += el.size();
        again = true;
        break;
      }
    }
  }
  out->push_back(w);
}

void split_en_suffix(const std::vector<uint32_t>& v, Span w, std::vector<Span>* out) {
  for (std::string_view suf : kEnSuffixes) {
    if (w.e - w.b > suf.size() && matches_at(v, w.e - suf.size(), suf)) {
      out->push_back(Span{w.b, w.e - suf.size()});
      out->push_back(Span{w.e - suf.size(), w.e});
      return;
    }
  }
  out->push_back(w);
}

bool span_has_word(const std::vector<uint32_t>& v, Span s, bool v3) {
  for (size_t k = s.b; k < s.e; k++)
    if (is_word_cp(v[k], v3)) return true;
  return false;
}

// Version 3 adds the CJK full stop and the full-width ! and ?: 。！？
bool is_cjk_sentence_end(uint32_t c) { return c == 0x3002 || c == 0xFF01 || c == 0xFF1F; }

bool span_is_sentence_end(const std::vector<uint32_t>& v, Span s, bool v3) {
  if (s.e - s.b == 1) {
    const uint32_t c = v[s.b];
    return c == '.' || c == '!' || c == '?' || c == 0x2026 || (v3 && is_cjk_sentence_end(c));
  }
  return s.e - s.b == 3 && v[s.b] == '.' && v[s.b + 1] == '.' && v[s.b + 2] == '.';
}

// Detokenization works on strings that may come from any vocabulary, so it decodes leniently:
// a byte that is not valid UTF-8 reads as a non-word character and is copied through.
bool str_has_word(std::string_view s, bool v3) {
  return utf8_any_lenient(s, v3 ? is_word_v3 : is_word_v2);
}

// Chinese detokenization (version 3): whether a token's first (or last) code point is a word
// character other than an ideograph, a Latin letter or a digit, so that two such tokens side
// by side need a space. Bytes that do not decode read as no such character.
bool edge_is_alnum(std::string_view s, bool last) {
  if (s.empty()) return false;
  size_t pos = 0;
  if (last) {  // back over continuation bytes to where the last code point starts
    pos = s.size() - 1;
    while (pos > 0 && s.size() - pos < 4 && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80)
      pos--;
  }
  uint32_t cp = 0;
  const char* why = nullptr;
  const size_t len = utf8_decode_one(s, pos, &cp, &why);
  return len != 0 && (!last || pos + len == s.size()) && in_word(cp, true);
}

// First code point upper-cased with the spec's case table; other bytes unchanged.
std::string capitalize(std::string_view s) {
  uint32_t cp = 0;
  const char* why = nullptr;
  const size_t len = s.empty() ? 0 : utf8_decode_one(s, 0, &cp, &why);
  std::string out;
  out.reserve(s.size());
  if (len == 0 || lower_to_upper(cp) == cp) {
    out.assign(s);
  } else {
    utf8_append(lower_to_upper(cp), &out);
    out.append(s.substr(len));
  }
  return out;
}

template <size_t N>
bool one_of(std::string_view t, const std::string_view (&set)[N]) {
  return std::find(std::begin(set), std::end(set), t) != std::end(set);
}

bool is_en_suffix(std::string_view t) {  // case-insensitive, like the reference's _lower(t)
  if (t.size() < 2 || t.size() > 3) return false;
  char low[3];
  for (size_t k = 0; k < t.size(); k++)
    low[k] = (t[k] >= 'A' && t[k] <= 'Z') ? static_cast<char>(t[k] + 0x20) : t[k];
  return one_of(std::string_view(low, t.size()), kEnSuffixes);
}

constexpr std::string_view kSentenceEnd[] = {".", "!", "?", "...", "\u2026"};
constexpr std::string_view kSentenceEndV3[] = {"\u3002", "\uFF01", "\uFF1F"};  // 。！？

// Spec step 6, case repair: all-lowercase or shouted text reads like normal case. Lower-cases
// shouted text, then gives names their capitals back where the lower-case token is not itself
// a word of the vocabulary. Mixed-case text is left alone. Case mapping is one code point to
// one, so every token keeps its span and v is rewritten in place.
void repair_case(const std::vector<Span>& spans, const std::unordered_set<std::string>& vocab,
                 const std::unordered_map<std::string, std::vector<uint32_t>>& name_by_lower,
                 std::vector<uint32_t>& v) {
  size_t upper = 0, lower = 0;
  for (const Span& s : spans) {
    for (size_t k = s.b; k < s.e; k++) {
      upper += is_upper(v[k]);
      lower += lower_to_upper(v[k]) != v[k];
    }
  }
  if (lower == 0 && upper >= 2) {
    for (const Span& s : spans)
      for (size_t k = s.b; k < s.e; k++) v[k] = upper_to_lower(v[k]);
  } else if (!(upper == 0 && lower > 0)) {
    return;
  }
  for (const Span& s : spans) {
    const std::string tok = utf8_encode(&v[s.b], s.e - s.b);
    if (vocab.count(tok)) continue;
    const auto name = name_by_lower.find(tok);
    if (name != name_by_lower.end()) std::copy(name->second.begin(), name->second.end(), v.begin() + s.b);
  }
}
constexpr std::string_view kNoSpaceBefore[] = {".", ",", ")", "]", "}", "...", "\u2026", "%"};
constexpr std::string_view kNoSpaceBeforeEn[] = {"!", "?", ":", ";"};
constexpr std::string_view kNoSpaceAfter[] = {"(", "[", "{", "\u00bf", "\u00a1", "-"};

}  // namespace

Tokenizer::Tokenizer(std::string lang, std::vector<std::string> names,
                     const std::vector<std::string>& vocab, int spec_version)
    : lang_(std::move(lang)), version_(spec_version), v3_(spec_version >= 3),
      names_(names.begin(), names.end()), vocab_(vocab.begin(), vocab.end()) {
  kind_ = lang_ == "en"   ? Lang::En
          : lang_ == "fr" ? Lang::Fr
          : lang_ == "zh" ? Lang::Zh
                          : Lang::Other;
  if (vocab_.empty()) return;
  std::sort(names.begin(), names.end());  // byte order of UTF-8 is code point order
  for (const std::string& n : names) {
    std::vector<uint32_t> cps;
    std::string ignored;
    if (!utf8_decode(n, &cps, &ignored)) continue;  // the loader checked them; be safe anyway
    std::vector<uint32_t> low(cps);
    for (uint32_t& cp : low) cp = upper_to_lower(cp);
    name_by_lower_.emplace(utf8_encode(low.data(), low.size()), std::move(cps));
  }
}

bool Tokenizer::tokenize(std::string_view text, std::vector<std::string>* tokens,
                         std::string* error) const {
  return tokenize(text, tokens, nullptr, error);
}

bool Tokenizer::tokenize(std::string_view text, std::vector<std::string>* tokens,
                         std::vector<ByteRange>* ranges, std::string* error) const {
  tokens->clear();
  if (ranges) ranges->clear();
  std::vector<uint32_t> cps, v;
  std::vector<std::pair<size_t, size_t>> origin;
  if (!utf8_decode(text, &cps, error)) return false;
  normalize(cps, v3_, &v, ranges ? &origin : nullptr);

  std::vector<Span> spans;
  auto emit_word = [&](Span w) {
    if (kind_ == Lang::Fr)
      split_fr_elisions(v, w, &spans);
    else if (kind_ == Lang::En)
      split_en_suffix(v, w, &spans);
    else
      spans.push_back(w);
  };
  split_words(v, v3_, emit_word, &spans);

  if (!vocab_.empty()) repair_case(spans, vocab_, name_by_lower_, v);

  // Spec step 7, truecasing: lower-case a sentence-initial capital unless the word is a known
  // name or is capitalised elsewhere too (NASA, McDonald), or, with a vocabulary, its
  // lower-case form is not a word of it: an unknown capitalised first word is more likely a
  // name ("Marie and John") and the copied <unk> keeps its capital. Rewrites v in place:
  // spans are disjoint, so each first code point belongs to one token only.
  bool at_start = true;
  for (const Span& s : spans) {
    if (at_start && span_has_word(v, s, v3_)) {
      at_start = false;
      if (!is_upper(v[s.b])) continue;
      bool rest_upper = false;
      for (size_t k = s.b + 1; k < s.e && !rest_upper; k++) rest_upper = is_upper(v[k]);
      if (rest_upper || names_.count(utf8_encode(&v[s.b], s.e - s.b))) continue;
      const uint32_t low = upper_to_lower(v[s.b]);
      if (!vocab_.empty()) {
        std::vector<uint32_t> w(v.begin() + s.b, v.begin() + s.e);
        w[0] = low;
        if (!vocab_.count(utf8_encode(w.data(), w.size()))) continue;
      }
      v[s.b] = low;
    } else if (span_is_sentence_end(v, s, v3_)) {
      at_start = true;
    }
  }

  tokens->reserve(spans.size());
  for (const Span& s : spans) tokens->push_back(utf8_encode(&v[s.b], s.e - s.b));
  if (ranges) {
    std::vector<size_t> at(cps.size() + 1, 0);  // byte offset of each input code point
    for (size_t i = 0; i < cps.size(); i++)
      at[i + 1] = at[i] + (cps[i] < 0x80 ? 1 : cps[i] < 0x800 ? 2 : cps[i] < 0x10000 ? 3 : 4);
    for (const Span& s : spans) ranges->push_back({at[origin[s.b].first], at[origin[s.e - 1].second]});
  }
  return true;
}

std::string Tokenizer::detokenize(const std::vector<std::string>& tokens) const {
  std::string out, prev;
  bool first = true, quote_open = false, cap_next = true;
  for (const std::string& tok : tokens) {
    std::string_view t = tok;
    bool glue = first;
    if (!glue && kind_ == Lang::Zh && v3_) {  // Chinese: a space only between Latin/digit tokens
      glue = !(edge_is_alnum(prev, true) && edge_is_alnum(t, false));
    } else if (!glue) {
      const bool prev_elision = !prev.empty() && prev.back() == '\'' && str_has_word(prev, v3_);
      glue = one_of(t, kNoSpaceBefore) || (kind_ != Lang::Fr && one_of(t, kNoSpaceBeforeEn)) ||
             (kind_ == Lang::En && is_en_suffix(t)) || one_of(prev, kNoSpaceAfter) ||
             prev_elision || (prev == "\"" && quote_open) || (t == "\"" && quote_open);
    }
    if (t == "\"") quote_open = !quote_open;
    std::string cased;
    if (cap_next && str_has_word(t, v3_)) {
      cased = capitalize(t);
      t = cased;
      cap_next = false;
    } else if (one_of(t, kSentenceEnd) || (v3_ && one_of(t, kSentenceEndV3))) {
      cap_next = true;
    }
    if (!glue) out.push_back(' ');
    out.append(t);
    prev.assign(t);  // the reference compares against the capitalised token
    first = false;
  }
  return out;
}

bool has_word_char(std::string_view token) { return str_has_word(token, true); }

}  // namespace bl
