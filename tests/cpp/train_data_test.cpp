// The trainer's input parsers (issue 25): the training data file (parse_train_data, format in
// docs/training-core.md) and the config's JSON form (parse_train_config): what they accept,
// and that every bad input gets its own clear message, never a crash. Their fuzz corpora are
// replayed in fuzz_corpus_test.cpp, with the other harnesses'.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bahdanau_train.h"
#include "core/train_data.h"

namespace {

const std::string kGood =
    "bahdanau-train 1\n"
    "langs en fr\n"
    "src_vocab 6\n<pad>\n<unk>\n<s>\n</s>\nthe\ncat\n"
    "tgt_vocab 7\n<pad>\n<unk>\n<s>\n</s>\nle\nchat\nnoir\n"
    "src_names 1\nTom\n"
    "tgt_names 0\n"
    "train 3\n4 5\t4 5\n5\t\n\t6 1\n"
    "heldout 1\n4 1 5\t4 6 5\n"
    "end\n";

bool parse(const std::string& text, bl::TrainData* d, std::string* err) {
  return bl::parse_train_data(reinterpret_cast<const uint8_t*>(text.data()), text.size(), d, err);
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST(TrainData, ReadsAWellFormedFile) {
  bl::TrainData d;
  std::string err;
  ASSERT_TRUE(parse(kGood, &d, &err)) << err;
  EXPECT_EQ(d.src_lang, "en");
  EXPECT_EQ(d.tgt_lang, "fr");
  EXPECT_EQ(d.src_vocab, (std::vector<std::string>{"<pad>", "<unk>", "<s>", "</s>", "the", "cat"}));
  EXPECT_EQ(d.tgt_vocab.size(), 7u);
  EXPECT_EQ(d.tgt_vocab[6], "noir");
  EXPECT_EQ(d.src_names, std::vector<std::string>{"Tom"});
  EXPECT_TRUE(d.tgt_names.empty());
  ASSERT_EQ(d.train.size(), 3u);
  EXPECT_EQ(d.train[0].src, (std::vector<int>{4, 5}));
  EXPECT_EQ(d.train[0].tgt, (std::vector<int>{4, 5}));
  EXPECT_EQ(d.train[1].src, std::vector<int>{5});
  EXPECT_TRUE(d.train[1].tgt.empty());
  EXPECT_TRUE(d.train[2].src.empty());
  EXPECT_EQ(d.train[2].tgt, (std::vector<int>{6, 1}));
  ASSERT_EQ(d.heldout.size(), 1u);
  EXPECT_EQ(d.heldout[0].tgt, (std::vector<int>{4, 6, 5}));

  // What the page does with it: a model of its vocabularies that trains on its pairs.
  bl::TrainConfig c;
  c.emb = 4, c.enc_hidden = 4, c.dec_hidden = 4, c.attn = 4;
  c.src_vocab = d.src_vocab, c.tgt_vocab = d.tgt_vocab;
  c.src_names = d.src_names, c.tgt_names = d.tgt_names;
  auto t = bl::Trainer::create(c, 1, {}, &err);
  ASSERT_TRUE(t) << err;
  float loss = 0;
  EXPECT_TRUE(t->step(d.train, &loss, &err)) << err;
  EXPECT_TRUE(t->evaluate(d.heldout, &loss, &err)) << err;
}

TEST(TrainData, EveryBadFileHasItsMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "line 1: the file ends early"},
      {replaced(kGood, "bahdanau-train 1", "PK\x03\x04"), "line 1: not a training data file"},
      {replaced(kGood, "bahdanau-train 1", "bahdanau-train 2"),
       "format version \"2\" is not supported"},
      {replaced(kGood, "langs en fr", "langs en en"), "line 2: expected \"langs en fr\""},
      {replaced(kGood, "src_vocab 6", "src_vocab six"), "line 3: src_vocab: the count \"six\""},
      {replaced(kGood, "src_vocab 6", "src_vocab 06"), "is not a decimal number"},
      {replaced(kGood, "src_vocab 6", "src_vocab 4000000000"), "the count \"4000000000\""},
      {replaced(kGood, "src_vocab 6", "src_vocab 999999999"),
       "src_vocab: 999999999 entries, more than 65536"},
      {replaced(kGood, "src_vocab 6", "src_vocab 3"), "src_vocab: 3 tokens, expected 4..65536"},
      {replaced(kGood, "tgt_vocab 7", "tgt_vocab 8"), "tgt_vocab: token 7 holds a space or control character (byte 32)"},
      {replaced(kGood, "\n<s>\n</s>\nthe", "\n<bos>\n</s>\nthe"),
       "src_vocab: token 2 is \"<bos>\", expected \"<s>\""},
      {replaced(kGood, "le\nchat", "le\nle"), "tgt_vocab: token 5 \"le\" repeats token 4"},
      {replaced(kGood, "the\ncat", "the\nc\xc3t"), "src_vocab: token 5 is not valid UTF-8"},
      {replaced(kGood, "the\ncat", "the\nc\rt"), "token 5 holds a space or control character"},
      {replaced(kGood, "Tom\n", "\n"), "src_names: name 0 is empty"},
      {replaced(kGood, "src_names 1", "names 1"), "expected the section \"src_names <count>\""},
      {replaced(kGood, "train 3", "train 0"), "train: no pairs"},
      {replaced(kGood, "train 3", "train 2000000"), "train: 2000000 entries, more than 1048576"},
      {replaced(kGood, "4 5\t4 5", "4 5 4 5"), "train pair 0: expected source ids, one tab"},
      {replaced(kGood, "4 5\t4 5", "4\t5\t4"), "one tab"},
      {replaced(kGood, "4 5\t4 5", "4 6\t4 5"), "source: id 6 is outside 1 and 4..5"},
      {replaced(kGood, "4 5\t4 5", "4 5\t4 7"), "target: id 7 is outside 1 and 4..6"},
      {replaced(kGood, "4 5\t4 5", "4 0\t4 5"), "id 0 is outside"},
      {replaced(kGood, "4 5\t4 5", "4 5\t3"), "(<pad>, <s> and </s> are not written)"},
      {replaced(kGood, "4 5\t4 5", "2 5\t4"), "source: id 2 is outside 1 and 4..5"},
      {replaced(kGood, "4 5\t4 5", "4  5\t4"), "\"\" is not an id"},
      {replaced(kGood, "4 5\t4 5", "4 5 \t4"), "a space at the end"},
      {replaced(kGood, "4 5\t4 5", "4 -5\t4"), "\"-5\" is not an id"},
      {replaced(kGood, "4 5\t4 5", "4 5\t4 5\r"), "\"5?\" is not an id"},
      {replaced(kGood, "4 5\t4 5", "4 5\t4 1234567"), "\"1234567\" is not an id"},
      {replaced(kGood, "heldout 1", "heldout 2"), "heldout pair 1: expected source ids"},
      {replaced(kGood, "end\n", "end"), "line 27: the last line has no line feed (truncated?)"},
      {replaced(kGood, "end\n", ""), "line 27: the file ends early"},
      {replaced(kGood, "end\n", "fin\n"), "expected \"end\", found \"fin\""},
      {kGood + "4 5\t4\n", "line 28: bytes after \"end\""},
  };
  for (const auto& [text, want] : cases) {
    bl::TrainData d;
    d.src_lang = "untouched";
    std::string err;
    EXPECT_FALSE(parse(text, &d, &err)) << want;
    EXPECT_NE(err.find(want), std::string::npos) << "want \"" << want << "\", got: " << err;
    EXPECT_EQ(err.rfind("train data: ", 0), 0u) << err;
    EXPECT_EQ(d.src_lang, "untouched") << "a refused file leaves *out alone";
  }
}

TEST(TrainData, LongSentencesAndHugeFilesAreRefused) {
  std::string src, tgt;
  for (size_t k = 0; k < bl::train::kMaxDataSource; k++) src += k ? " 4" : "4";
  for (size_t k = 0; k < bl::train::kMaxDataTarget; k++) tgt += k ? " 4" : "4";
  bl::TrainData d;
  std::string err;
  ASSERT_TRUE(parse(replaced(kGood, "4 5\t4 5", src + "\t" + tgt), &d, &err)) << err;
  EXPECT_EQ(d.train[0].src.size(), 1024u);
  EXPECT_FALSE(parse(replaced(kGood, "4 5\t4 5", src + " 4\t4"), &d, &err));
  EXPECT_NE(err.find("source: more than 1024 tokens"), std::string::npos) << err;
  EXPECT_FALSE(parse(replaced(kGood, "4 5\t4 5", "4\t" + tgt + " 4"), &d, &err));
  EXPECT_NE(err.find("target: more than 1023 tokens"), std::string::npos) << err;
  const std::vector<uint8_t> huge(bl::train::kMaxTrainDataBytes + 1, '\n');
  EXPECT_FALSE(bl::parse_train_data(huge.data(), huge.size(), &d, &err));
  EXPECT_NE(err.find("more than the limit of 67108864"), std::string::npos) << err;
  EXPECT_FALSE(bl::parse_train_data(nullptr, 0, &d, &err));
  EXPECT_NE(err.find("ends early"), std::string::npos) << err;
}

// A download cut short at any byte is refused with a message.
TEST(TrainData, EveryTruncationIsRefused) {
  for (size_t n = 0; n < kGood.size(); n++) {
    bl::TrainData d;
    std::string err;
    EXPECT_FALSE(parse(kGood.substr(0, n), &d, &err)) << n;
    EXPECT_FALSE(err.empty()) << n;
  }
}

TEST(TrainConfigJson, ReadsItsFieldsAndKeepsTheRest) {
  bl::TrainConfig c;
  c.src_vocab = {"<pad>", "<unk>", "<s>", "</s>"};
  std::string err;
  ASSERT_TRUE(bl::parse_train_config(
      R"({"decoder": "paper", "scoring": "scaled_dot", "emb": 32, "enc_hidden": 48,
          "dec_hidden": 40, "attn": 16, "maxout": 2, "max_src_len": 20, "max_tgt_len": 30,
          "src_lang": "fr", "tgt_lang": "en"})", &c, &err)) << err;
  EXPECT_EQ(c.decoder, "paper");
  EXPECT_EQ(c.scoring, "scaled_dot");
  EXPECT_EQ(c.emb, 32);
  EXPECT_EQ(c.enc_hidden, 48);
  EXPECT_EQ(c.dec_hidden, 40);
  EXPECT_EQ(c.attn, 16);
  EXPECT_EQ(c.max_src_len, 20);
  EXPECT_EQ(c.max_tgt_len, 30);
  EXPECT_EQ(c.src_lang, "fr");
  EXPECT_EQ(c.src_vocab.size(), 4u);  // not in the JSON: kept
  bl::TrainConfig n;
  ASSERT_TRUE(bl::parse_train_config(R"({"scoring": "none"})", &n, &err)) << err;
  EXPECT_EQ(n.attn, 0);  // no attention, no width
  EXPECT_EQ(n.emb, 64);  // the default
}

TEST(TrainConfigJson, EveryBadConfigHasItsMessage) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "train config: "},
      {"{\"emb\": 8", "train config: "},
      {"[1, 2]", "[1,2] is not a JSON object"},
      {R"({"emb": 8, "emb": 9})", "train config: "},  // a repeated key
      {R"({"hidden": 8})", "unknown field \"hidden\""},
      {R"({"src_vocab": ["<pad>"]})", "vocabularies and names come from the data file"},
      {R"({"emb": "8"})", "field \"emb\" is \"8\", expected an integer"},
      {R"({"emb": 8.0})", "expected an integer"},
      {R"({"emb": true})", "expected an integer"},
      {R"({"emb": 18446744073709551615})", "is out of range"},
      {R"({"emb": -9223372036854775807})", "is out of range"},
      {R"({"emb": 2000})", "emb = 2000, expected 1..1024"},
      {R"({"decoder": 1})", "field \"decoder\" is 1, expected a string"},
      {R"({"decoder": "gru"})", "decoder \"gru\", expected \"paper\" or \"cgru\""},
      {R"({"scoring": "none", "attn": 8})", "attn = 8, expected 0..0"},
      {R"({"attn": 0})", "attn = 0, expected 1..1024"},
      {R"({"maxout": 4})", "maxout = 4, expected 2..2"},
      {R"({"max_tgt_len": 0})", "max_tgt_len = 0, expected 1..1024"},
      {R"({"src_lang": "fr"})", "src_lang and tgt_lang are both \"fr\""},
      {R"({"tgt_lang": "de"})", "tgt_lang \"de\", expected \"en\" or \"fr\""},
      {"{\"decoder\": \"\xff\"}", "train config: "},  // not UTF-8
  };
  for (const auto& [text, want] : cases) {
    bl::TrainConfig c;
    std::string err;
    EXPECT_FALSE(bl::parse_train_config(text, &c, &err)) << text;
    EXPECT_NE(err.find(want), std::string::npos) << text << ": want \"" << want << "\", got: " << err;
    EXPECT_GT(err.size(), std::string("train config: ").size()) << text;
    EXPECT_EQ(c.emb, 64) << "a refused config leaves *out alone";
  }
}

}  // namespace

// What scripts/train-data writes (scripts/nmt/train_bundle.py; tests/python/test_train_bundle.py
// checks that the fixture is what it writes today) is what the core reads: the two
// implementations of one format agree.
TEST(TrainData, ReadsWhatScriptsTrainDataWrites) {
  std::ifstream in(std::string(BL_SOURCE_DIR) + "/tests/fixtures/train-bundle-tiny.txt",
                   std::ios::binary);
  ASSERT_TRUE(in) << "tests/fixtures/train-bundle-tiny.txt";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bl::TrainData d;
  std::string err;
  ASSERT_TRUE(parse(text, &d, &err)) << err;
  EXPECT_EQ(d.src_lang, "en");
  EXPECT_EQ(d.tgt_lang, "fr");
  ASSERT_EQ(d.src_vocab.size(), 24u);
  ASSERT_EQ(d.tgt_vocab.size(), 28u);
  EXPECT_EQ(d.src_vocab[4], "the");  // the most frequent English word of the training split
  EXPECT_EQ(d.tgt_vocab[3], "</s>");
  EXPECT_EQ(d.train.size(), 15u);
  EXPECT_EQ(d.heldout.size(), 1u);
  // "The cat is black." -> "Le chat est noir.": the, cat, is, black, . / le, chat, est, noir, .
  const std::vector<int> want_src{4, 7, 6, 9, 5}, want_tgt{5, 6, 7, 12, 4};
  EXPECT_EQ(d.train[0].src, want_src);
  EXPECT_EQ(d.train[0].tgt, want_tgt);
}
