// Trainer: a fresh model trained in the tab or in Node (issue 25; bl::Trainer and
// bl::BatchSampler of src/bahdanau_train.h). JS: `new Module.Trainer()`, then
// `create(dataBytes, configJson, options)`; web/lib/trainer.js owns it. Nothing here throws:
// a failure is an {error} object.
#include <emscripten/bind.h>

#include <memory>
#include <string>
#include <vector>

#include "bahdanau_train.h"
#include "wasm/marshal.h"

namespace blw {

// create()'s options, flat as JS passes them: the optimiser's and regularisation's settings
// (bl::TrainParams, checked by the core), the batch size and one seed for the weights, the
// dropout masks and the batches' order. The defaults are the "Train it yourself" page's recipe,
// chosen by held-out loss (docs/training-live.md, "The recipe"): lr 5e-3 decayed as 1/sqrt(t)
// after 1,000 steps, and the weights' moving average at 0.998, which snapshot() and evaluate()
// read unless told otherwise.
struct TrainOptions {
  float lr = 5e-3f, clip = 1.0f, label_smoothing = 0.0f, dropout = 0.0f;
  double lr_decay_steps = 1000, average = 0.998;
  int batch_size = 32;
  double seed = 1;  // a JS number: an integer in 0 .. 2^53
  bool relaxed = false;  // bl::TrainParams::relaxed: web/lib/trainer.js sets it where installed
};

template <>
struct Fields<TrainOptions> {
  using P = TrainOptions;
  static constexpr auto list = std::make_tuple(           //
      field("lr", &P::lr),                                //
      field("lrDecaySteps", &P::lr_decay_steps),          //
      field("clip", &P::clip),                            //
      field("labelSmoothing", &P::label_smoothing),       //
      field("dropout", &P::dropout),                      //
      field("average", &P::average),                      //
      field("batchSize", &P::batch_size),                 //
      field("seed", &P::seed),                            //
      field("relaxed", &P::relaxed));
};

// One n-step call's result.
struct StepReport {
  std::vector<float> losses;
  double steps = 0, epochs = 0;
};

template <>
struct Fields<StepReport> {
  using R = StepReport;
  static constexpr auto list = std::make_tuple(  //
      field("losses", &R::losses),               //
      field("steps", &R::steps),                 //
      field("epochs", &R::epochs));
};

class Trainer {
 public:
  // dataBytes: the training data file (docs/training-core.md) as a Uint8Array; configJson: the
  // model's sizes and kinds ({"scoring": "none", "emb": 32}; the vocabularies come from the
  // data). undefined on success.
  val create(const val& bytes, const std::string& config_json, const val& options) {
    const std::vector<uint8_t> buf = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    std::string err;
    TrainOptions o;
    if (!from_js(options, &o, &err)) return error_object(err);
    if (!(o.seed >= 0 && o.seed <= 9007199254740992.0 && o.seed == double(uint64_t(o.seed))))
      return error_object("seed must be an integer in 0..2^53");
    if (o.batch_size < 1 || o.batch_size > int(bl::kMaxTrainBatch))
      return error_object("batchSize must be 1.." + std::to_string(bl::kMaxTrainBatch));
    bl::TrainData data;
    if (!bl::parse_train_data(buf.data(), buf.size(), &data, &err)) return error_object(err);
    bl::TrainConfig cfg;
    cfg.src_lang = data.src_lang;
    cfg.tgt_lang = data.tgt_lang;
    if (!bl::parse_train_config(config_json, &cfg, &err)) return error_object(err);
    cfg.src_vocab = data.src_vocab;
    cfg.tgt_vocab = data.tgt_vocab;
    cfg.src_names = data.src_names;
    cfg.tgt_names = data.tgt_names;
    bl::TrainParams p;
    p.lr = o.lr;
    p.lr_decay_steps = o.lr_decay_steps;
    p.clip = o.clip;
    p.label_smoothing = o.label_smoothing;
    p.dropout = o.dropout;
    p.average = o.average;
    p.seed = uint64_t(o.seed);
    p.relaxed = o.relaxed;
    auto tr = bl::Trainer::create(cfg, p.seed, p, &err);
    if (!tr) return error_object(err);
    auto batches = bl::BatchSampler::create(data.train, size_t(o.batch_size), p.seed, &err);
    if (!batches) return error_object(err);
    tr_ = std::move(tr);
    batches_ = std::move(batches);
    heldout_ = std::move(data.heldout);
    return val::undefined();
  }

  // n steps: {losses, steps, epochs}, or {error} (the steps before a failing one stay made).
  val step(int n) {
    if (!tr_) return error_object("no model: call create() first");
    StepReport r;
    std::string err;
    if (!tr_->step(*batches_, n, &r.losses, &err)) return error_object(err);
    r.steps = double(tr_->steps());
    r.epochs = double(batches_->epochs());
    return to_js(r);
  }

  // The held-out pairs' mean loss (no dropout or smoothing), or null when the data has none.
  // latest: the latest step's weights rather than their average.
  val evaluate(bool latest) const {
    if (!tr_) return error_object("no model: call create() first");
    if (heldout_.empty()) return val::null();
    float loss = 0;
    std::string err;
    if (!tr_->evaluate(heldout_, &loss, &err, which(latest))) return error_object(err);
    return val(double(loss));
  }

  // The kernel table of its products ("wasm-relaxed", "wasm-simd" or "scalar"), or {error}.
  val kernels() const {
    if (!tr_) return error_object("no model: call create() first");
    return val(tr_->kernels());
  }

  // The averaged (or, with latest, the latest) weights as an f32 model file (a Uint8Array,
  // copied out of the heap), which createTranslator reads.
  val snapshot(bool latest) const {
    if (!tr_) return error_object("no model: call create() first");
    const std::vector<uint8_t> file = tr_->snapshot(which(latest));
    return val(emscripten::typed_memory_view(file.size(), file.data())).call<val>("slice");
  }

 private:
  static bl::TrainWeights which(bool latest) {
    return latest ? bl::TrainWeights::latest : bl::TrainWeights::average;
  }

  std::unique_ptr<bl::Trainer> tr_;
  std::unique_ptr<bl::BatchSampler> batches_;
  std::vector<bl::TrainPair> heldout_;
};

}  // namespace blw

EMSCRIPTEN_BINDINGS(trainer) {
  using blw::Trainer;
  emscripten::class_<Trainer>("Trainer")
      .constructor<>()
      .function("create", &Trainer::create)
      .function("step", &Trainer::step)
      .function("evaluate", &Trainer::evaluate)
      .function("snapshot", &Trainer::snapshot)
      .function("kernels", &Trainer::kernels);
}
