// Helpers for the tools, not the translator: the Node CLI (scripts/translate.mjs) prints what
// the native CLI prints, byte for byte, through these. web/lib's heatmap() reaches the first.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/heatmap.h"

namespace {

using emscripten::val;

// The native CLI's picture of an attention matrix. web/lib checks the arguments' types.
std::string heatmap(const val& columns, const val& row_labels, const val& weights) {
  std::vector<std::vector<float>> w;
  const size_t n = weights["length"].as<size_t>();
  for (size_t i = 0; i < n; i++)
    w.push_back(emscripten::convertJSArrayToNumberVector<float>(weights[i]));
  return bl::render_heatmap(emscripten::vecFromJSArray<std::string>(columns),
                            emscripten::vecFromJSArray<std::string>(row_labels), w);
}

// A JS value (plain objects, arrays, strings, numbers, booleans) as nlohmann::json; numbers
// become doubles when floats is set, else integers where they are integral. The values of the
// object keys named in ints are integers either way (a count in a line of floats).
nlohmann::json from_js(const val& v, bool floats, const std::vector<std::string>& ints) {
  if (v.isNumber()) {
    const double d = v.as<double>();
    if (!floats && std::floor(d) == d && std::fabs(d) < 9007199254740992.0)
      return static_cast<int64_t>(d);
    return d;
  }
  if (v.isString()) return v.as<std::string>();
  if (v.isTrue() || v.isFalse()) return v.isTrue();
  if (v.isNull() || v.isUndefined()) return nullptr;
  if (v.isArray()) {
    nlohmann::json a = nlohmann::json::array();
    const size_t n = v["length"].as<size_t>();
    for (size_t i = 0; i < n; i++) a.push_back(from_js(v[i], floats, ints));
    return a;
  }
  nlohmann::json o = nlohmann::json::object();
  const val keys = val::global("Object").call<val>("keys", v);
  const size_t n = keys["length"].as<size_t>();
  for (size_t i = 0; i < n; i++) {
    const std::string k = keys[i].as<std::string>();
    const bool integral = std::find(ints.begin(), ints.end(), k) != ints.end();
    o[k] = from_js(v[k], floats && !integral, ints);
  }
  return o;
}

// JSON text exactly as the native CLI prints it (same library, same number formatting), so
// the Node CLI's --json lines match the native ones byte for byte. options: {floats, ints}
// (scripts/lib/native-json.mjs says what they mean).
std::string dump_json(const val& v, const val& options) {
  const bool floats = options["floats"].isTrue();
  const val int_keys = options["ints"];
  const std::vector<std::string> ints =
      int_keys.isUndefined() ? std::vector<std::string>{}
                             : emscripten::vecFromJSArray<std::string>(int_keys);
  return from_js(v, floats, ints).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

EMSCRIPTEN_BINDINGS(tools) {
  emscripten::function("heatmap", &heatmap);
  emscripten::function("dumpJson", &dump_json);
}
