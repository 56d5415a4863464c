#include "cli/json_out.h"

#include <cstdio>
#include <string>
#include <vector>

#include "cli/attend.h"

nlohmann::json to_json(const bl::Translation& t) {
  nlohmann::json j;
  j["source"] = t.src_tokens;
  j["target"] = t.tgt_tokens;
  j["text"] = t.text;
  j["attention"] = t.attention;
  j["truncated"] = t.truncated;
  if (!t.probs.empty()) j["probs"] = t.probs;
  if (!t.hypotheses.empty()) {
    j["hypotheses"] = nlohmann::json::array();
    for (const auto& h : t.hypotheses)
      j["hypotheses"].push_back(
          {{"tokens", h.tokens}, {"score", h.score}, {"norm", h.norm}, {"finished", h.finished}});
  }
  j["timings"] = {{"encode_ms", t.encode_ms}, {"decode_ms", t.decode_ms}};
  attend_json(t, &j);
  return j;
}

nlohmann::json to_json(const bl::Alignment& al) {
  nlohmann::json j;
  j["source"] = al.src_tokens;
  j["target"] = al.tgt_tokens;
  std::vector<std::string> words;
  std::vector<float> probs;
  std::vector<std::vector<float>> attention;
  for (const bl::Step& s : al.steps) {
    words.push_back(s.word);
    probs.push_back(s.prob);
    attention.push_back(s.alpha);
  }
  j["words"] = words;
  j["attention"] = attention;
  j["probs"] = probs;
  j["log_prob"] = al.log_prob;
  j["unknown"] = al.unknown;
  attend_json(al, &j);
  return j;
}

nlohmann::json info_json(const bl::ModelInfo& m) {
  return {{"src_lang", m.src_lang},     {"tgt_lang", m.tgt_lang},
          {"scoring", m.scoring},       {"decoder", m.decoder},
          {"attention_guidance", m.attention_guidance},
          {"dtype", m.dtype},
          {"kernels", m.kernels},       {"emb", m.emb},
          {"enc_hidden", m.enc_hidden}, {"dec_hidden", m.dec_hidden},
          {"attn", m.attn},             {"src_vocab", m.src_vocab},
          {"tgt_vocab", m.tgt_vocab},   {"max_src_len", m.max_src_len},
          {"max_tgt_len", m.max_tgt_len}, {"num_params", m.num_params},
          {"file_bytes", m.file_bytes}, {"scoring_params", m.scoring_params},
          {"arch", m.arch},             {"enc_layers", m.enc_layers},
          {"dec_layers", m.dec_layers}, {"heads", m.heads},
          {"d_model", m.d_model},       {"ffn", m.ffn}};
}

void print_json(const nlohmann::json& j) {
  std::fputs((j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n").c_str(),
             stdout);
}
