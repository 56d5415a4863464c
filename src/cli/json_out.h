// The native CLI's --json and --info objects (scripts/lib/native-json.mjs builds the same for
// the Node CLI), and the one way they are printed.
#pragma once
#include <nlohmann/json.hpp>

#include "bahdanau.h"

nlohmann::json to_json(const bl::Translation& t);  // a --json line (with its edited rows)
nlohmann::json to_json(const bl::Alignment& al);   // a --force --json line
nlohmann::json info_json(const bl::ModelInfo& m);  // --info
// One line of stdout, as nlohmann dumps it (invalid UTF-8 replaced).
void print_json(const nlohmann::json& j);
