#include "core/heatmap.h"

#include <algorithm>
#include <cstdint>

#include "core/utf8.h"

namespace bl {

namespace {

// Terminal columns a UTF-8 string takes: East Asian wide ranges count 2, combining marks 0.
size_t display_width(const std::string& s) {
  size_t w = 0;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const char* why = nullptr;
    const size_t len = utf8_decode_one(s, i, &cp, &why);
    i += len ? len : 1;  // a stray byte takes one column
    if (!len) cp = '?';
    if (cp >= 0x300 && cp <= 0x36F) continue;
    const bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
                      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                      (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0x1F300 && cp <= 0x1FAFF);
    w += wide ? 2 : 1;
  }
  return w;
}

std::string pad(const std::string& s, size_t width) {
  const size_t w = display_width(s);
  return s + std::string(width > w ? width - w : 0, ' ');
}

// Five levels are what a terminal can show reliably; the exact weights are in --json.
const char* shade(float a) {
  if (a >= 0.8f) return "\u2588";  // █
  if (a >= 0.5f) return "\u2593";  // ▓
  if (a >= 0.25f) return "\u2592"; // ▒
  if (a >= 0.1f) return "\u2591";  // ░
  return "\u00b7";                 // ·
}

}  // namespace

std::string render_heatmap(const std::vector<std::string>& columns,
                           const std::vector<std::string>& rows,
                           const std::vector<std::vector<float>>& weights) {
  // A model without attention has empty rows: drawing them as all-"·" would claim it looked
  // nowhere, when it never had the choice.
  const bool attention = std::any_of(weights.begin(), weights.end(),
                                     [](const std::vector<float>& r) { return !r.empty(); });
  if (!weights.empty() && !attention)
    return "no attention matrix: this model reads one fixed vector c = [->h_T; <-h_1] for "
           "every output word\n";
  size_t label = 0;
  for (const auto& r : rows) label = std::max(label, display_width(r));
  std::vector<size_t> width(columns.size());
  std::string out = std::string(label, ' ');
  for (size_t j = 0; j < columns.size(); j++) {
    width[j] = std::max<size_t>(display_width(columns[j]), 1);
    out += " " + pad(columns[j], width[j]);
  }
  out += "\n";
  for (size_t i = 0; i < rows.size(); i++) {
    out += pad(rows[i], label);
    for (size_t j = 0; j < columns.size(); j++) {
      const float a = i < weights.size() && j < weights[i].size() ? weights[i][j] : 0.0f;
      std::string cell;
      for (size_t k = 0; k < width[j]; k++) cell += shade(a);
      out += " " + cell;
    }
    out += "\n";
  }
  out += "legend: \u00b7 <0.1  \u2591 0.1  \u2592 0.25  \u2593 0.5  \u2588 0.8\n";
  return out;
}

}  // namespace bl
