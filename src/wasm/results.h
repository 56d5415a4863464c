// What each binding file gives the others: the conversion of one core result to its JS object
// (the file named beside it holds its field table), and the params read from a JS options
// object (params.cpp). src/bahdanau.h documents the fields; web/lib/bahdanau.d.ts their JS
// types.
#pragma once
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "bahdanau.h"

namespace blw {

using emscripten::val;

val to_js(const bl::Translation& t);      // translation.cpp
val to_js(const bl::Step& s);             // step.cpp
val to_js(const bl::Alignment& a);        // step.cpp
val to_js(const bl::ModelInfo& m);        // model_info.cpp
val to_js(const bl::ScoringCost& c);      // scoring_cost.cpp
val to_js(const bl::SelfAttention& sa);   // self_attention.cpp

// translate_batch's answer: one translation or {error} per text (translation.cpp).
struct Batch {
  std::vector<bl::Translation> translations;
  std::vector<std::string> errors;
};
val to_js(const Batch& b);

// params.cpp: the JS options objects web/lib passes, by key, into *p; false and *error for a
// value of the wrong type.
bool load_params(const val& options, bl::LoadParams* p, std::string* error);  // {simd, relaxed}
// {beam, maxLen, topK, edits: [{step, weights, column, layer, head, ablate, hold}]}
bool translate_params(const val& options, bl::TranslateParams* p, std::string* error);
bool align_params(const val& options, bl::AlignParams* p, std::string* error);  // {topK, edits}
// {minBatchMs, batches}
bool scoring_cost_params(const val& options, bl::ScoringCostParams* p, std::string* error);

}  // namespace blw
