// Attention edits against the PyTorch reference (scripts/nmt/golden.py write_edits): greedy
// steps and forced rows decoded under given weights, held edits, and a Transformer's per-head
// edits and ablation, on the tiny models (f32 and int8) with both kernel tables. Each edited
// step must report the given row as alpha and the model's own softmax as own_alpha, and the
// steps after it must follow from the state it left.
#include <gtest/gtest.h>

#include "bahdanau.h"
#include "golden.h"

namespace {

using namespace golden;

std::vector<bl::AttentionEdit> edits_of(const json& list) {
  std::vector<bl::AttentionEdit> out;
  for (const json& e : list) {
    bl::AttentionEdit x;
    x.step = e["step"];
    if (e.contains("weights")) x.weights = e["weights"].get<std::vector<float>>();
    x.column = e.value("column", -1);
    x.layer = e.value("layer", -1);
    x.head = e.value("head", -1);
    x.ablate = e.value("ablate", false);
    x.hold = e.value("hold", false);
    out.push_back(x);
  }
  return out;
}

std::vector<float> flat(const std::vector<std::vector<std::vector<float>>>& v) {
  std::vector<float> out;
  for (const auto& l : v)
    for (const auto& h : l) out.insert(out.end(), h.begin(), h.end());
  return out;
}

json flat(const json& v) {
  json out = json::array();
  for (const json& l : v)
    for (const json& h : l)
      for (const json& x : h) out.push_back(x);
  return out;
}

// One step (greedy or forced) against the reference's record of it.
void expect_step(const bl::Step& st, const json& want, const std::string& at, double tol,
                 bool transformer) {
  expect_close(st.e, want["e"], at + "e", tol);
  expect_close(st.alpha, want["alpha"], at + "alpha", tol);
  expect_close(st.c, want["c"], at + "c", tol);
  expect_close(st.top_logp, want["top_logp"], at + "top_logp", tol);
  const bool edited = want.value("edited", false);
  ASSERT_EQ(st.edited, edited) << at;
  if (edited) expect_close(st.own_alpha, want["own_alpha"], at + "own_alpha", tol);
  else EXPECT_TRUE(st.own_alpha.empty()) << at;
  if (!transformer) return;
  expect_close(flat(st.cross_alpha), flat(want["cross"]["alpha"]), at + "cross alpha", tol);
  if (edited)
    expect_close(flat(st.own_cross_alpha), flat(want["cross_own"]), at + "cross own", tol);
}

struct Engine {
  bool simd;
};

class GoldenEdits : public testing::TestWithParam<Engine> {};

TEST_P(GoldenEdits, StepsAndForcedRowsMatchPyTorch) {
  const json doc = read_json(path_of("tests/fixtures/tiny-edits.json"));
  ASSERT_FALSE(doc.is_discarded());
  const std::string text = doc["text"], target = doc["target"];
  ASSERT_GE(doc["models"].size(), 10u);
  int edited_steps = 0, forced_edited = 0;
  for (const json& m : doc["models"]) {
    const std::string name = m["model"];
    SCOPED_TRACE(name);
    auto tr = load("tests/fixtures/" + name, GetParam().simd);
    ASSERT_TRUE(tr);
    const bool transformer = tr->info().arch == "transformer";
    const bool int8 = tr->info().dtype == "int8";
    const double tol = !int8 ? 1e-5 : transformer ? kTransformerInt8Tol : kRnnInt8Tol;
    for (const json& c : m["cases"]) {
      SCOPED_TRACE(c["edits"].dump());
      bl::TranslateParams p;
      p.edits = edits_of(c["edits"]);
      std::string err;
      auto dec = tr->start(text, p, &err);
      ASSERT_TRUE(dec) << err;
      bl::Step st;
      size_t i = 0;
      bool flipped = false;  // int8: a near tie may pick the other word (golden_test.cpp)
      while (dec->next(&st)) {
        ASSERT_LT(i, c["steps"].size());
        const json& want = c["steps"][i];
        expect_step(st, want, "step " + std::to_string(i) + " ", tol, transformer);
        edited_steps += st.edited;
        if (int8 && st.token != want["token"].get<int>()) {
          flipped = true;
          break;
        }
        ASSERT_EQ(st.token, want["token"].get<int>()) << "step " << i;
        i++;
      }
      if (!flipped) {
        EXPECT_EQ(i, c["steps"].size());
        // translate() decodes the same under the same edits, and lists the edited rows.
        bl::Translation t;
        ASSERT_TRUE(tr->translate(text, p, &t, &err)) << err;
        const bl::Translation r = dec->result();
        EXPECT_EQ(t.tgt_ids, r.tgt_ids);
        EXPECT_EQ(t.edited, r.edited);
        for (size_t k = 0; k < t.edited.size(); k++)
          expect_close(t.own_attention[k], c["steps"][size_t(t.edited[k])]["own_alpha"],
                       "own_attention", tol);
      }
      bl::AlignParams ap;
      ap.edits = p.edits;
      bl::Alignment al;
      ASSERT_TRUE(tr->align(text, target, ap, &al, &err)) << err;
      ASSERT_EQ(al.steps.size(), c["force"].size());
      for (size_t r = 0; r < al.steps.size(); r++) {
        const json& want = c["force"][r];
        expect_step(al.steps[r], want, "forced row " + std::to_string(r) + " ", tol, transformer);
        EXPECT_NEAR(al.steps[r].prob, want["prob"].get<double>(), tol) << "forced row " << r;
        forced_edited += al.steps[r].edited;
      }
    }
  }
  EXPECT_GE(edited_steps, 40);  // the fixtures do exercise edits (held ones span many steps)
  EXPECT_GE(forced_edited, 30);
}

INSTANTIATE_TEST_SUITE_P(Engines, GoldenEdits, testing::Values(Engine{false}, Engine{true}),
                         [](const auto& info) { return info.param.simd ? "simd" : "scalar"; });

}  // namespace
