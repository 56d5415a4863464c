// The attention matrix as text: one row per output word, one column per source word, each cell
// a Unicode shade block. Shared by the native CLI and (through Embind) the Node CLI, so every
// engine prints the same picture.
#pragma once
#include <string>
#include <vector>

namespace bl {

std::string render_heatmap(const std::vector<std::string>& columns,
                           const std::vector<std::string>& rows,
                           const std::vector<std::vector<float>>& weights);

}  // namespace bl
