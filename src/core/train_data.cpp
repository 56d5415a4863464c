// parse_train_data (bahdanau_train.h). One pass over the bytes, line by line, with nothing
// reserved from a count in the file: what is allocated grows with what was actually read, so
// a hostile header ("train 4000000000") costs nothing but its refusal.
#include "core/train_data.h"

#include <string>
#include <string_view>
#include <utility>

#include "bahdanau_train.h"
#include "core/train_config.h"

namespace bl {

namespace {

using std::to_string;

class Parser {
 public:
  Parser(const uint8_t* data, size_t size)
      : text_(reinterpret_cast<const char*>(data), data ? size : 0) {}

  bool parse(TrainData* out, std::string* error) {
    error_ = error;
    std::string_view line;
    if (!next(&line)) return false;
    if (line.rfind("bahdanau-train ", 0) != 0)
      return fail("not a training data file: the first line must be \"bahdanau-train 1\"");
    if (line != "bahdanau-train 1")
      return fail("format version \"" + printable(line.substr(15)) + "\" is not supported (1 is)");
    if (!next(&line)) return false;
    if (line != "langs en fr" && line != "langs fr en")
      return fail("expected \"langs en fr\" or \"langs fr en\", found \"" + printable(line) + "\"");
    out->src_lang = std::string(line.substr(6, 2)), out->tgt_lang = std::string(line.substr(9, 2));
    size_t pairs_left = train::kMaxDataPairs;
    return strings("src_vocab", true, &out->src_vocab) &&
           strings("tgt_vocab", true, &out->tgt_vocab) &&
           strings("src_names", false, &out->src_names) &&
           strings("tgt_names", false, &out->tgt_names) &&
           pairs("train", 1, &pairs_left, *out, &out->train) &&
           pairs("heldout", 0, &pairs_left, *out, &out->heldout) && finish();
  }

 private:
  bool fail(const std::string& message) {
    *error_ = "train data: " + (line_no_ ? "line " + to_string(line_no_) + ": " : "") + message;
    return false;
  }

  // A line shown in a message: at most 40 bytes, anything but printable ASCII as '?'.
  static std::string printable(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size() && i < 40; i++)
      out += s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    if (s.size() > 40) out += "...";
    return out;
  }

  // The next line without its '\n'; every line ends with one, so a file cut short anywhere
  // is refused here or by a count that runs out.
  bool next(std::string_view* line) {
    if (pos_ >= text_.size())
      return line_no_++, fail("the file ends early (truncated?): expected another line");
    const size_t end = text_.find('\n', pos_);
    line_no_++;
    if (end == std::string_view::npos)
      return fail("the last line has no line feed (truncated?)");
    *line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return true;
  }

  // A decimal number of at most `digits` digits, no sign or leading zero.
  static bool number(std::string_view s, size_t digits, size_t* out) {
    if (s.empty() || s.size() > digits || (s.size() > 1 && s[0] == '0')) return false;
    size_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + size_t(c - '0');
    }
    *out = v;
    return true;
  }

  // "<name> <count>", count <= max.
  bool header(const char* name, size_t max, size_t* count) {
    std::string_view line;
    if (!next(&line)) return false;
    const std::string want = std::string(name) + " ";
    if (line.rfind(want, 0) != 0)
      return fail("expected the section \"" + want + "<count>\", found \"" + printable(line) +
                  "\"");
    if (!number(line.substr(want.size()), 9, count))
      return fail(std::string(name) + ": the count \"" + printable(line.substr(want.size())) +
                  "\" is not a decimal number");
    if (*count > max)
      return fail(std::string(name) + ": " + to_string(*count) + " entries, more than " +
                  to_string(max));
    return true;
  }

  bool strings(const char* name, bool vocab, std::vector<std::string>* out) {
    size_t count = 0;
    if (!header(name, vocab ? size_t(train::kMaxTrainVocab) : train::kMaxNames, &count))
      return false;
    std::vector<std::string> list;
    for (size_t i = 0; i < count; i++) {
      std::string_view line;
      if (!next(&line)) return false;
      list.emplace_back(line);
    }
    std::string why;
    if (!train::check_strings(name, list, vocab, &why)) return fail(why);
    *out = std::move(list);
    return true;
  }

  // Space-separated ids of a vocabulary of v tokens: 1 (<unk>) or 4..v-1.
  bool ids(std::string_view s, int v, size_t max, const char* side, std::vector<int>* out) {
    for (size_t at = 0; at < s.size();) {
      size_t end = s.find(' ', at);
      if (end == std::string_view::npos) end = s.size();
      size_t id = 0;
      if (!number(s.substr(at, end - at), 6, &id))
        return fail(std::string(side) + ": \"" + printable(s.substr(at, end - at)) +
                    "\" is not an id (ids are decimal numbers separated by one space)");
      if (id == 0 || id == 2 || id == 3 || id >= size_t(v))
        return fail(std::string(side) + ": id " + to_string(id) + " is outside 1 and 4.." +
                    to_string(v - 1) + " (<pad>, <s> and </s> are not written)");
      if (out->size() == max)
        return fail(std::string(side) + ": more than " + to_string(max) + " tokens");
      out->push_back(int(id));
      at = end + 1;
      if (end + 1 == s.size()) return fail(std::string(side) + ": a space at the end");
    }
    return true;
  }

  bool pairs(const char* name, size_t min, size_t* left, const TrainData& d,
             std::vector<TrainPair>* out) {
    size_t count = 0;
    if (!header(name, *left, &count)) return false;
    if (count < min) return fail(std::string(name) + ": no pairs (at least 1 is needed)");
    *left -= count;
    std::vector<TrainPair> list;
    for (size_t i = 0; i < count; i++) {
      std::string_view line;
      if (!next(&line)) return false;
      const size_t tab = line.find('\t');
      if (tab == std::string_view::npos || line.find('\t', tab + 1) != std::string_view::npos)
        return fail(std::string(name) + " pair " + to_string(i) +
                    ": expected source ids, one tab, target ids");
      TrainPair p;
      if (!ids(line.substr(0, tab), int(d.src_vocab.size()), train::kMaxDataSource, "source",
               &p.src) ||
          !ids(line.substr(tab + 1), int(d.tgt_vocab.size()), train::kMaxDataTarget, "target",
               &p.tgt))
        return false;
      list.push_back(std::move(p));
    }
    *out = std::move(list);
    return true;
  }

  bool finish() {
    std::string_view line;
    if (!next(&line)) return false;
    if (line != "end") return fail("expected \"end\", found \"" + printable(line) + "\"");
    if (pos_ != text_.size())
      return line_no_++, fail("bytes after \"end\"");
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0, line_no_ = 0;
  std::string* error_ = nullptr;
};

}  // namespace

bool parse_train_data(const uint8_t* data, size_t size, TrainData* out, std::string* error) {
  std::string unused;
  if (!error) error = &unused;
  if (size > train::kMaxTrainDataBytes) {
    *error = "train data: the file has " + to_string(size) + " bytes, more than the limit of " +
             to_string(train::kMaxTrainDataBytes);
    return false;
  }
  TrainData d;
  if (!Parser(data, size).parse(&d, error)) return false;
  *out = std::move(d);
  return true;
}

}  // namespace bl
