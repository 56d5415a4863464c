// bahdanau-live public API: a small interface over an opaque translator (whisper.cpp style).
//
//   std::string err;
//   auto tr = bl::Translator::load(bytes, size, bl::LoadParams{}, &err);
//   bl::Translation t;
//   if (!tr->translate("The black cat is sleeping.", bl::TranslateParams{}, &t, &err)) ...
//
// Nothing here throws or aborts on bad input: every failure is a false return with a message.
// The Embind bindings (src/wasm/) and the CLI (src/cli/) are thin layers over this header.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace bl {

struct LoadParams {
  bool use_simd = true;  // false forces the scalar kernels (same results, within 1e-5)
  // With use_simd and an int8 model: the relaxed-SIMD int8 products where the host installed
  // them (wasm only; kernels.h). Same bits as without; false is for comparing the two.
  bool use_relaxed = true;
};

// Attention given to one decoder step instead of the model's own softmax: "what if it had
// looked there?" (docs/attention-edits.md). c_i is mixed from these weights, and the next-word
// distribution, its top-k and the chosen word follow from that c_i; later steps decode with the
// model's own attention from the state this step left, unless hold is set.
struct AttentionEdit {
  int step = 0;  // output position i, from 0
  // One weight per column (source tokens then </s>): finite, >= 0, not all 0. They are scaled
  // to sum 1 here, so {0, 1, 0} and {0, 5, 0} are the same edit.
  std::vector<float> weights;
  int column = -1;  // instead of weights: all the weight on this column (0 .. n-1, </s> is n-1)
  // Transformer only: which decoder layer's cross-attention and which head (-1: every layer,
  // every head). An RNN has one attention: both must stay -1.
  int layer = -1, head = -1;
  bool ablate = false;  // Transformer only: switch the head(s) off (output zeroed; no weights)
  bool hold = false;    // the same edit at every later step too
};

// The most edits one call takes (the page makes one or two; a step-by-step override of a
// whole 2-layer, 4-head Transformer sentence stays under it).
constexpr int kMaxEdits = 1024;

struct TranslateParams {
  int beam = 1;     // 1 = greedy; at most kMaxBeam
  int max_len = 0;  // output tokens; 0 = the model's rule min(max_tgt_len, 2n + 10)
  int top_k = 5;    // candidates reported per step (steps only)
  // Greedy decoding only (beam 1): a beam > 1 with edits is refused. translate() also refuses an
  // edit at a step the translation does not reach; a Decoder just never applies it.
  std::vector<AttentionEdit> edits;
};

constexpr int kMaxBeam = 16;
// The longest text that translate(), translate_batch() (per text), start() and align() (each
// side) read, in characters (code points): some 30 sentences. A call blocks its thread until
// its text is done, so the bound keeps one call to seconds, not minutes. A front end that
// splits a paragraph into sentences itself checks the whole text with check_text_length() first
// (split_sentences and the tokenizers take any length).
constexpr size_t kMaxTextChars = 2000;
// False and "text has N characters; at most 2000 ..." past kMaxTextChars.
bool check_text_length(std::string_view text, std::string* error);
// The most texts a front end passes to translate_batch in one call (the JS API's MAX_BATCH,
// the CLIs' --batch N): one call blocks its thread until all are done.
constexpr int kMaxBatch = 1024;

// The largest model file a front end reads: 256 MiB (web/lib/model-cache.js has the same
// MAX_MODEL_BYTES). The shipped models are about 5 MB (19 MB in f32). A path to anything
// bigger, or to anything but a regular file (/dev/zero, a FIFO, a directory), is refused
// before a byte is read, so a wrong --model can neither exhaust memory nor hang.
constexpr size_t kMaxModelBytes = size_t(256) << 20;

struct ModelInfo {
  // scoring: "additive", "scaled_dot", or "none" (no attention: one fixed context vector, and
  // every attention row, e and alpha is empty). A Transformer's is "scaled_dot".
  std::string src_lang, tgt_lang, scoring, dtype, kernels;
  std::string decoder;  // where attention's query comes from: "paper" s_{i-1}, "cgru" s'_i;
                        // "transformer" for a Transformer (its decoder layers' states)
  std::string arch;     // "rnn" or "transformer"
  // "none", or "ibm1-diag": attention was also trained towards an unsupervised aligner's links
  // (scripts/nmt/ibm.py); the computation is the same, the weights are sharper.
  std::string attention_guidance;
  // enc_hidden, dec_hidden and attn are 0 for a Transformer; d_model, heads, ffn, enc_layers
  // and dec_layers are 0 for an RNN.
  int emb, enc_hidden, dec_hidden, attn, src_vocab, tgt_vocab, max_src_len, max_tgt_len;
  int d_model, heads, ffn, enc_layers, dec_layers;
  // scoring_params: what computes the attention scores. RNN: W, U (and v). Transformer: every
  // decoder layer's cross-attention W_q and W_k with their biases.
  size_t num_params, file_bytes, scoring_params;
};

// Attention per layer and head: [layers][heads][rows]; each row one weight per column.
using LayeredRows = std::vector<std::vector<std::vector<std::vector<float>>>>;

struct Hypothesis {
  std::vector<std::string> tokens;  // </s> excluded, <unk> replaced
  double score = 0;                 // total log-probability
  double norm = 0;                  // score / length (</s> counted)
  bool finished = true;             // false when it hit the length limit
};

struct Translation {
  std::vector<std::string> src_tokens;      // the columns: source tokens then "</s>"
  std::vector<int> src_ids;                 // without </s>
  std::vector<std::string> tgt_tokens;      // the rows: output tokens, </s> excluded
  std::vector<int> tgt_ids;                 // before <unk> replacement
  std::vector<std::vector<float>> attention;  // [rows][columns]; [rows][0] without attention
  std::vector<float> probs;                 // p of each output token (greedy only, else empty)
  std::string text;                         // detokenized
  bool truncated = false;                   // stopped at the length limit, not at </s>
  std::vector<Hypothesis> hypotheses;       // beam > 1: finished hypotheses, best first
  // With edits: the rows whose attention was given, ascending, and for each the row the
  // model's own softmax computed at that step (attention[edited[k]] is the given one).
  std::vector<int> edited;
  std::vector<std::vector<float>> own_attention;
  double encode_ms = 0, decode_ms = 0;
};

// One decoder step, exactly as the page animates it.
struct Step {
  int index = 0;          // output position i, from 0
  int token = 0;          // chosen id (greedy)
  std::string word;       // chosen token's text, <unk> replaced; "</s>" at the end
  float prob = 0;         // p(token)
  std::vector<float> e, alpha, c;  // raw scores, weights (one per column; none without
                                   // attention), context
  std::vector<int> top_ids;
  std::vector<float> top_logp;
  std::vector<std::string> top_words;
  bool done = false;      // this step emitted </s> or reached the length limit
  // Transformer: every decoder layer's cross-attention for this step, [layers][heads][column]
  // (scores and weights); e and alpha above are the summary row, the last layer's mean over
  // heads, and c the final decoder state z_i. Empty for an RNN.
  std::vector<std::vector<std::vector<float>>> cross_e, cross_alpha;
  // An edited step (AttentionEdit): alpha and cross_alpha are the weights it mixed c from,
  // and own_alpha / own_cross_alpha what the model's own softmax gave at this step (e stays the
  // model's own scores). An RNN's own_cross_alpha stays empty; unedited steps leave all empty.
  bool edited = false;
  std::vector<float> own_alpha;
  std::vector<std::vector<std::vector<float>>> own_cross_alpha;
};

// Forced decoding (teacher forcing): the decoder reads a given translation instead of its own
// choices, so the attention rows show how the model aligns that translation, and each row's
// probability how surprised the model is by that word.
struct AlignParams {
  int top_k = 5;  // the model's own candidates reported per row
  // Rows decoded under given attention (AttentionEdit.step is the row); each such row's prob is
  // the given word's probability under the edited attention. A step past the last row (</s>)
  // is refused.
  std::vector<AttentionEdit> edits;
};

struct Alignment {
  std::vector<std::string> src_tokens;  // the columns: source tokens then "</s>"
  std::vector<std::string> tgt_tokens;  // the rows: the given target's tokens then "</s>"
  std::vector<int> tgt_ids;             // their ids, "</s>" included; 1 (<unk>) for a word
                                        // outside the target vocabulary
  std::vector<Step> steps;              // one per row: e, alpha, c, top-k; token, word and prob
                                        // are the given token's ("<unk>" when unknown)
  double log_prob = 0;                  // sum of the rows' log p: the whole target's
  int unknown = 0;                      // rows whose word is outside the vocabulary
};

// What attention's scoring costs on one sentence, measured by re-running the model's own
// kernels on its annotations (timings are medians over batches, with their min and max; the
// values are data-independent).
struct ScoringCostParams {
  double min_batch_ms = 2;  // each batch repeats the call until this much time has passed,
                            // so coarse clocks (browsers round performance.now()) still resolve
  int batches = 5;          // the median of these is reported; 1..100, and
                            // min_batch_ms * batches <= 1000 (see scoring_cost_bound_ms)
};

// How long a scoring_cost call blocks at most, in ms: 4 * (batches + 1) * min_batch_ms (4.4 s
// for the largest params allowed), on a steady clock. Its three timings (step, scores, keys)
// must end by one, two and three thirds of it: a timing starts a batch only if the batch before
// it would still fit, so on a slow or busy machine it times fewer batches instead of taking
// longer; only a batch much slower than the one before it, or one more batch when the engine
// sped up at the very end, can overrun it. Encoding the sentence comes on top (about 1 ms), and
// so does compiling the kernels on an engine's first call.
constexpr double scoring_cost_bound_ms(const ScoringCostParams& p) {
  return 4 * (p.batches + 1) * p.min_batch_ms;
}

struct ScoringCost {
  int n = 0;             // source positions, </s> included
  double step_us = 0;    // one decoder step's scoring: q = W s_{i-1}, then e_i1..e_in
  double score_us = 0;   // the n scores alone (q given)
  double keys_us = 0;    // U h_j for all j: paid once per sentence, at encoding
  // The spread of each timing over its batches: the fastest and the slowest batch (equal to the
  // median when one batch was timed). It moves with the machine's load, often by 2-4x.
  double step_us_min = 0, step_us_max = 0;
  double score_us_min = 0, score_us_max = 0;
  double keys_us_min = 0, keys_us_max = 0;
  int batches = 0;       // timed for step_us: params.batches, or fewer if time ran out
  long calls_per_batch = 0;  // of the step_us measurement
};

// Self-attention over the source, as an illustration of the mechanism (not used to translate):
// each annotation asks a query of every annotation, scaled dot-product, softmax, per row.
//
// A Transformer gives its encoder's real self-attention instead, every layer and head, in the
// layered form (scores and weights stay empty).
struct SelfAttention {
  std::vector<std::string> tokens;          // rows and columns: source tokens then "</s>"
  std::vector<std::vector<float>> scores;   // [n][n] e_ij
  std::vector<std::vector<float>> weights;  // [n][n] softmax over j
  std::string method;                       // how queries and keys are formed, in one sentence
  int layers = 0, heads = 0;                // Transformer: the encoder's layers and heads
  LayeredRows layer_scores, layer_weights;  // Transformer: [layers][heads][n][n]
};

class Decoder;

// wasm SIMD builds: takes relaxed SIMD's int8 loop (src/kernels/qs8-wasmrelaxed.wat), which the
// host instantiated on this module's memory and put at this index of its function table
// (web/lib/relaxed.js). Translators loaded afterwards with use_relaxed use it. False, and
// nothing changes, in other builds or when the loop fails its check against exact sums.
bool install_relaxed_kernels(uintptr_t table_index);

class Translator {
 public:
  static std::unique_ptr<Translator> load(const uint8_t* data, size_t size,
                                          const LoadParams& params, std::string* error);
  ~Translator();

  // Empty or whitespace-only text gives an empty Translation and true. Invalid UTF-8, or more
  // source tokens than max_src_len, gives false and a message.
  bool translate(std::string_view text, const TranslateParams& params, Translation* out,
                 std::string* error);
  // translate() for each of texts (src/core/translate_batch.cpp): (*out)[i] and (*errors)[i]
  // ("" on success) are exactly what translate(texts[i]) gives (same tokens, attention rows and
  // probabilities on every engine; timings aside). A text that fails gets its message and an
  // empty Translation, and the others still translate; true when every text did. Greedy
  // (beam 1) decodes the sentences together: the GRUs, attention's query, the readout and the
  // output projection run as matrix products that read each weight once per step for the whole
  // batch, and a sentence leaves the batch at </s> or its length limit; the encoder runs the
  // same way over the sentences that join together. encode_ms is a sentence's share of that
  // encoding, decode_ms the time it spent in the batch. beam > 1, and any Transformer, is
  // decoded one sentence at a time with translate(): batched beam search and a batched
  // Transformer step are not implemented.
  // With attention edits (params.edits, applied to each text) every text is decoded with
  // translate(), one at a time.
  bool translate_batch(const std::vector<std::string>& texts, const TranslateParams& params,
                       std::vector<Translation>* out, std::vector<std::string>* errors);
  // Greedy step-by-step decoding of text; nullptr and a message on error. The Decoder reads
  // this Translator's weights: it must not outlive it.
  std::unique_ptr<Decoder> start(std::string_view text, const TranslateParams& params,
                                 std::string* error);

  bool tokenize_source(std::string_view text, std::vector<std::string>* tokens,
                       std::string* error) const;
  // text's sentences, each a piece of text as given (spaces between them left out), by the
  // tokenizer's sentence ends (src/core/sentences.h); for input over max_src_len tokens.
  // Invalid UTF-8: false and a message.
  bool split_sentences(std::string_view text, std::vector<std::string>* sentences,
                       std::string* error) const;
  // The target language's tokens, as scripts/eval's BLEU counts them (docs/tokenization.md).
  bool tokenize_target(std::string_view text, std::vector<std::string>* tokens,
                       std::string* error) const;

  // Forced decoding of target (in the model's target language) after source. Empty source:
  // an empty Alignment and true. Invalid UTF-8 in either, a source over max_src_len tokens or
  // a target over max_tgt_len - 1 tokens gives false and a message.
  bool align(std::string_view source, std::string_view target, const AlignParams& params,
             Alignment* out, std::string* error);

  // Times the scoring of text (empty text: n = 0, all zeros). False on bad text or params,
  // for a model without attention, and for a Transformer (its attention is several layers of
  // heads: one score network's timing would not describe it).
  bool scoring_cost(std::string_view text, const ScoringCostParams& params, ScoringCost* out,
                    std::string* error);
  // Scaled-dot models only (false and a message for others); for a Transformer, the encoder's
  // real self-attention per layer and head. Empty text: no tokens.
  bool self_attention(std::string_view text, SelfAttention* out, std::string* error);
  const ModelInfo& info() const;

  struct Impl;

 private:
  explicit Translator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend class Decoder;
};

class Decoder {
 public:
  ~Decoder();
  // Runs the next step; returns false once done (then *out is untouched).
  bool next(Step* out);
  bool done() const;
  const std::vector<std::string>& src_tokens() const;  // the columns, "</s>" last
  // The translation so far (all of it once done()), same shape as Translator::translate.
  Translation result() const;

  struct State;

 private:
  explicit Decoder(std::unique_ptr<State> st);
  std::unique_ptr<State> st_;
  friend class Translator;
};

}  // namespace bl
