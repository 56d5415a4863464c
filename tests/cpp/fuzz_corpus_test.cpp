// Every input of tests/fuzz/corpus (the seeds, and each fuzzing finding once fixed) run through
// its libFuzzer harness (tests/fuzz/*_fuzz.cpp, built into this suite under other names), so
// what the fuzzer found stays found here and under ASan. A harness aborts on a broken
// invariant, which fails the whole suite loudly.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int fuzz_loader_input(const uint8_t* data, size_t size);
extern "C" int fuzz_header_input(const uint8_t* data, size_t size);
extern "C" int fuzz_tokenizer_input(const uint8_t* data, size_t size);
extern "C" int fuzz_translate_input(const uint8_t* data, size_t size);
extern "C" int fuzz_train_data_input(const uint8_t* data, size_t size);
extern "C" int fuzz_train_config_input(const uint8_t* data, size_t size);

namespace {

using Harness = int (*)(const uint8_t*, size_t);

// -> the number of inputs run.
int replay(const std::string& harness, Harness run) {
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(BL_SOURCE_DIR) + "/tests/fuzz/corpus/" + harness)) {
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f),
                                     std::istreambuf_iterator<char>()};
    SCOPED_TRACE(entry.path().string());
    EXPECT_EQ(run(bytes.data(), bytes.size()), 0);
    n++;
  }
  return n;
}

TEST(FuzzCorpus, LoaderInputs) { EXPECT_GE(replay("loader", fuzz_loader_input), 12); }
TEST(FuzzCorpus, HeaderInputs) { EXPECT_GE(replay("header", fuzz_header_input), 12); }
TEST(FuzzCorpus, TokenizerInputs) { EXPECT_GE(replay("tokenizer", fuzz_tokenizer_input), 100); }
TEST(FuzzCorpus, TranslateInputs) { EXPECT_GE(replay("translate", fuzz_translate_input), 10); }
TEST(FuzzCorpus, TrainDataInputs) { EXPECT_GE(replay("train_data", fuzz_train_data_input), 4); }
TEST(FuzzCorpus, TrainConfigInputs) { EXPECT_GE(replay("train_config", fuzz_train_config_input), 5); }

}  // namespace
