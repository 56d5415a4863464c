// bl::SelfAttention as a JS object, in one of its two shapes (web/lib/bahdanau.d.ts:
// SelfAttention, LayeredSelfAttention): an RNN's illustration is one n x n matrix, a
// Transformer's encoder [layer][head][n][n]. Two tables, one per shape, over the same struct.
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

namespace {

using SA = bl::SelfAttention;

constexpr auto kOneMatrix = std::make_tuple(  //
    field("tokens", &SA::tokens),             //
    field("scores", &SA::scores),             //
    field("weights", &SA::weights),           //
    field("method", &SA::method));

constexpr auto kLayered = std::make_tuple(      //
    field("tokens", &SA::tokens),               //
    field("layers", &SA::layers),               //
    field("heads", &SA::heads),                 //
    field("scores", &SA::layer_scores),         //
    field("weights", &SA::layer_weights),       //
    field("method", &SA::method));

}  // namespace

val to_js(const bl::SelfAttention& sa) {
  return sa.layers > 0 ? detail::object_of(sa, kLayered) : detail::object_of(sa, kOneMatrix);
}

}  // namespace blw
