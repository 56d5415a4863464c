#include "core/model_file_json.h"

#include <set>
#include <vector>

namespace bl {
namespace model_file {

using nlohmann::json;

bool is_valid_utf8(const uint8_t* s, size_t n, size_t* bad_offset) {
  size_t i = 0;
  while (i < n) {
    const uint8_t lead = s[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    size_t len;
    uint32_t cp, min_cp;  // min_cp: smaller code points must use a shorter form
    if ((lead & 0xE0) == 0xC0) {
      len = 2, cp = lead & 0x1F, min_cp = 0x80;
    } else if ((lead & 0xF0) == 0xE0) {
      len = 3, cp = lead & 0x0F, min_cp = 0x800;
    } else if ((lead & 0xF8) == 0xF0) {
      len = 4, cp = lead & 0x07, min_cp = 0x10000;
    } else {
      *bad_offset = i;
      return false;
    }
    if (n - i < len) {
      *bad_offset = i;
      return false;
    }
    for (size_t k = 1; k < len; k++) {
      if ((s[i + k] & 0xC0) != 0x80) {
        *bad_offset = i + k;
        return false;
      }
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      *bad_offset = i;
      return false;
    }
    i += len;
  }
  return true;
}

namespace {

// Shortens an error message text without splitting a UTF-8 sequence (messages reach JS).
std::string cut_utf8(std::string s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  size_t cut = max_bytes;
  while (cut > 0 && (uint8_t(s[cut]) & 0xC0) == 0x80) cut--;
  return s.substr(0, cut) + "...";
}

// Counts brackets outside strings before nlohmann builds anything: a header of a million '['
// would otherwise become a million nested arrays.
bool nesting_within_limit(const char* first, const char* last) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (const char* p = first; p != last; p++) {
    const char c = *p;
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return false;
    } else if (c == ']' || c == '}') {
      depth--;  // unbalanced text is left for the parser to reject
    }
  }
  return true;
}

// A SAX handler that keeps nothing but the parser's error, which the DOM parse does not report
// when exceptions are off. Used only once a parse has failed.
struct ErrorOnlySax {
  std::string message;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(size_t) { return true; }
  bool key(json::string_t&) { return true; }
  bool end_object() { return true; }
  bool start_array(size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(size_t, const std::string&, const nlohmann::detail::exception& ex) {
    message = ex.what();
    return false;
  }
};

std::string describe_parse_error(const char* first, const char* last) {
  ErrorOnlySax sax;
  json::sax_parse(first, last, &sax);
  std::string m = sax.message;
  const size_t bracket = m.find("] ");  // drop nlohmann's "[json.exception.parse_error.101] "
  if (m.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos) m.erase(0, bracket + 2);
  if (m.empty()) m = "parse error";
  return cut_utf8(m, 200);
}

}  // namespace

bool parse_json(const char* first, const char* last, size_t max_values, json* out,
                std::string* error) {
  if (!nesting_within_limit(first, last)) {
    *error = "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  // Past max_values every value is discarded, so nothing more is stored. Until then nothing is
  // discarded, so every object_start has its object_end and the key sets stay in step.
  size_t values = 0;
  bool too_many = false;
  std::vector<std::set<std::string>> open_objects;  // the keys seen in each open object
  std::string duplicate;
  bool has_duplicate = false;
  auto watch = [&](int, json::parse_event_t event, json& parsed) {
    if (event != json::parse_event_t::object_end && event != json::parse_event_t::array_end &&
        ++values > max_values)
      too_many = true;
    if (too_many) return false;
    if (event == json::parse_event_t::object_start) {
      open_objects.emplace_back();
    } else if (event == json::parse_event_t::object_end) {
      if (!open_objects.empty()) open_objects.pop_back();
    } else if (event == json::parse_event_t::key && !open_objects.empty() && !has_duplicate) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!open_objects.back().insert(key).second) has_duplicate = true, duplicate = key;
    }
    return true;
  };
  json parsed = json::parse(first, last, watch, /*allow_exceptions=*/false);
  if (parsed.is_discarded() && !too_many) {
    *error = "not valid JSON (" + describe_parse_error(first, last) + ")";
    return false;
  }
  if (too_many) {
    *error = "more than " + std::to_string(max_values) + " JSON values";
    return false;
  }
  if (has_duplicate) {
    *error = "duplicate key " + short_dump(json(duplicate));
    return false;
  }
  *out = std::move(parsed);
  return true;
}

std::string short_dump(const json& value) {
  return cut_utf8(value.dump(-1, ' ', false, json::error_handler_t::replace), 80);
}

}  // namespace model_file
}  // namespace bl
