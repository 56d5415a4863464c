// bl::ModelInfo as a JS object (web/lib/bahdanau.d.ts: ModelInfo; web/lib adds `engine`).
#include "wasm/marshal.h"
#include "wasm/results.h"

namespace blw {

template <>
struct Fields<bl::ModelInfo> {
  using M = bl::ModelInfo;
  static constexpr auto list = std::make_tuple(          //
      field("srcLang", &M::src_lang),                    //
      field("tgtLang", &M::tgt_lang),                    //
      field("scoring", &M::scoring),                     //
      field("decoder", &M::decoder),                     //
      field("attentionGuidance", &M::attention_guidance),  //
      field("dtype", &M::dtype),                         //
      field("kernels", &M::kernels),                     //
      field("emb", &M::emb),                             //
      field("encHidden", &M::enc_hidden),                //
      field("decHidden", &M::dec_hidden),                //
      field("attn", &M::attn),                           //
      field("srcVocab", &M::src_vocab),                  //
      field("tgtVocab", &M::tgt_vocab),                  //
      field("maxSrcLen", &M::max_src_len),               //
      field("maxTgtLen", &M::max_tgt_len),               //
      field("numParams", &M::num_params),                //
      field("fileBytes", &M::file_bytes),                //
      field("scoringParams", &M::scoring_params),        //
      field("arch", &M::arch),                           //
      field("encLayers", &M::enc_layers),                //
      field("decLayers", &M::dec_layers),                //
      field("heads", &M::heads),                         //
      field("dModel", &M::d_model),                      //
      field("ffn", &M::ffn));
};

val to_js(const bl::ModelInfo& m) { return detail::object_of(m, Fields<bl::ModelInfo>::list); }

}  // namespace blw
