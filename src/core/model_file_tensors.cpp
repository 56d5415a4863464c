// The tensor half of the model file loader (model_file_tensors.h). A little over 400 lines, on
// purpose: the two parameter tables (RNN and Transformer) and the checks of each entry against
// them read together; the header and its JSON are model_file.cpp's and model_file_json.cpp's.
#include "core/model_file_tensors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "core/model_file_json.h"

namespace bl {
namespace model_file {
namespace {

using nlohmann::json;

// One weight or bias as docs/model-format.md lists it, and where it goes in Weights.
struct Param {
  std::string name;
  uint64_t rows = 0, cols = 0;           // cols == 0: a 1-D tensor of `rows` values
  Matrix* matrix = nullptr;              // set for 2-D
  std::vector<float>* vector = nullptr;  // set for 1-D
};

// One tensor as it must appear in the file: a Param itself, or the scales of a quantized one.
struct FileTensor {
  std::string name;
  size_t param = 0;  // index into the Param list
  bool is_scale = false;
  const char* dtype = "F32";  // F32; I8 (int8 codes); U8 (4-bit codes, two a byte); F16 (q4 scales)
  uint64_t elem_bytes = 4;
  std::vector<uint64_t> shape;
  uint64_t begin = 0, end = 0;  // data_offsets, once checked
};

bool fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

// Size arithmetic that notices overflow instead of wrapping. The config limits rule overflow
// out today; this keeps a later change of those limits from making it possible silently.
struct Checked {
  bool overflow = false;
  uint64_t add(uint64_t a, uint64_t b) {
    uint64_t r;
    overflow |= __builtin_add_overflow(a, b, &r);
    return r;
  }
  uint64_t mul(uint64_t a, uint64_t b) {
    uint64_t r;
    overflow |= __builtin_mul_overflow(a, b, &r);
    return r;
  }
};

std::string dims_string(const std::vector<uint64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); i++) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string offsets_string(uint64_t begin, uint64_t end) {
  return "[" + std::to_string(begin) + "," + std::to_string(end) + "]";
}

// The table of docs/model-format.md, with shapes from the config, pointing into *w.
bool list_params(const Config& cfg, Weights* w, std::vector<Param>* params, std::string* error) {
  Checked c;
  const uint64_t E = uint64_t(cfg.emb), H = uint64_t(cfg.enc_hidden), D = uint64_t(cfg.dec_hidden),
                 A = uint64_t(cfg.attn), M = uint64_t(cfg.maxout), Vs = uint64_t(cfg.src_vocab),
                 Vt = uint64_t(cfg.tgt_vocab);
  const uint64_t H2 = c.mul(2, H), H3 = c.mul(3, H), D3 = c.mul(3, D), ME = c.mul(M, E);
  const uint64_t dec_in = c.add(E, H2), readout_in = c.add(c.add(D, H2), E);
  if (c.overflow) return fail(error, "config: dimensions overflow 64-bit size arithmetic");

  auto matrix = [&](const char* name, uint64_t rows, uint64_t cols, Matrix* m) {
    params->push_back({name, rows, cols, m, nullptr});
  };
  auto vector = [&](const char* name, uint64_t n, std::vector<float>* v) {
    params->push_back({name, n, 0, nullptr, v});
  };
  matrix("src_emb", Vs, E, &w->src_emb);
  for (int bwd = 0; bwd < 2; bwd++) {
    Gru& g = bwd ? w->enc_bwd : w->enc_fwd;
    matrix(bwd ? "enc.bwd.W_ih" : "enc.fwd.W_ih", H3, E, &g.W_ih);
    matrix(bwd ? "enc.bwd.W_hh" : "enc.fwd.W_hh", H3, H, &g.W_hh);
    vector(bwd ? "enc.bwd.b_ih" : "enc.fwd.b_ih", H3, &g.b_ih);
    vector(bwd ? "enc.bwd.b_hh" : "enc.fwd.b_hh", H3, &g.b_hh);
  }
  matrix("dec.init.W", D, H, &w->init_W);
  vector("dec.init.b", D, &w->init_b);
  if (cfg.scoring != Scoring::None) {
    matrix("att.W", A, D, &w->att_W);
    matrix("att.U", A, H2, &w->att_U);
  }
  if (cfg.scoring == Scoring::Additive) vector("att.v", A, &w->att_v);
  matrix("tgt_emb", Vt, E, &w->tgt_emb);
  auto gru = [&](const char* prefix, uint64_t in, Gru* g) {
    static const char* parts[] = {".W_ih", ".W_hh", ".b_ih", ".b_hh"};
    std::string names[4];
    for (int i = 0; i < 4; i++) names[i] = std::string(prefix) + parts[i];
    params->push_back({names[0], D3, in, &g->W_ih, nullptr});
    params->push_back({names[1], D3, D, &g->W_hh, nullptr});
    params->push_back({names[2], D3, 0, nullptr, &g->b_ih});
    params->push_back({names[3], D3, 0, nullptr, &g->b_hh});
  };
  if (cfg.decoder == DecoderKind::CGru) {
    gru("dec.gru1", E, &w->dec_gru1);
    gru("dec.gru2", H2, &w->dec_gru2);
  } else {
    gru("dec.gru", dec_in, &w->dec_gru);
  }
  matrix("dec.readout.W", ME, readout_in, &w->readout_W);
  vector("dec.readout.b", ME, &w->readout_b);
  vector("dec.out.b", Vt, &w->out_b);
  return true;
}

// The Transformer's table (scripts/nmt/export_transformer.py writes the same names).
bool list_transformer_params(const Config& cfg, Weights* w, std::vector<Param>* params) {
  const uint64_t E = uint64_t(cfg.emb), d = uint64_t(cfg.d_model), F = uint64_t(cfg.ffn),
                 Vs = uint64_t(cfg.src_vocab), Vt = uint64_t(cfg.tgt_vocab);
  auto matrix = [&](const std::string& name, uint64_t rows, uint64_t cols, Matrix* m) {
    params->push_back({name, rows, cols, m, nullptr});
  };
  auto vector = [&](const std::string& name, uint64_t n, std::vector<float>* v) {
    params->push_back({name, n, 0, nullptr, v});
  };
  auto norm = [&](const std::string& name, LayerNormW* ln) {
    vector(name + ".g", d, &ln->g);
    vector(name + ".b", d, &ln->b);
  };
  auto attention = [&](const std::string& name, AttentionW* a) {
    matrix(name + ".Wq", d, d, &a->Wq);
    vector(name + ".bq", d, &a->bq);
    matrix(name + ".Wk", d, d, &a->Wk);
    vector(name + ".bk", d, &a->bk);
    matrix(name + ".Wv", d, d, &a->Wv);
    vector(name + ".bv", d, &a->bv);
    matrix(name + ".Wo", d, d, &a->Wo);
    vector(name + ".bo", d, &a->bo);
  };
  auto feed_forward = [&](const std::string& name, FeedForwardW* f) {
    matrix(name + ".ff1.W", F, d, &f->W1);
    vector(name + ".ff1.b", F, &f->b1);
    matrix(name + ".ff2.W", d, F, &f->W2);
    vector(name + ".ff2.b", d, &f->b2);
  };
  // Sized before any pointer into them is taken: the Params point into these vectors.
  w->enc.resize(size_t(cfg.enc_layers));
  w->dec.resize(size_t(cfg.dec_layers));
  matrix("src_emb", Vs, E, &w->src_emb);
  matrix("tgt_emb", Vt, E, &w->tgt_emb);
  matrix("src_in.W", d, E, &w->src_in);
  matrix("tgt_in.W", d, E, &w->tgt_in);
  for (size_t i = 0; i < w->enc.size(); i++) {
    const std::string l = "enc." + std::to_string(i);
    norm(l + ".ln1", &w->enc[i].ln1);
    norm(l + ".ln2", &w->enc[i].ln2);
    attention(l + ".self", &w->enc[i].self);
    feed_forward(l, &w->enc[i].ff);
  }
  for (size_t i = 0; i < w->dec.size(); i++) {
    const std::string l = "dec." + std::to_string(i);
    norm(l + ".ln1", &w->dec[i].ln1);
    norm(l + ".ln2", &w->dec[i].ln2);
    norm(l + ".ln3", &w->dec[i].ln3);
    attention(l + ".self", &w->dec[i].self);
    attention(l + ".cross", &w->dec[i].cross);
    feed_forward(l, &w->dec[i].ff);
  }
  norm("enc.ln", &w->enc_ln);
  norm("dec.ln", &w->dec_ln);
  matrix("out_proj.W", E, d, &w->out_proj);
  vector("dec.out.b", Vt, &w->out_b);
  return true;
}

// The tensors the file must hold: in an int8 file each matrix is I8 plus an F32 "<name>.scale"
// of one per row; in a q4 file it is U8 [rows, cols/2] plus an F16 "<name>.scale" [rows,
// cols/16] (docs/model-format.md).
std::vector<FileTensor> list_file_tensors(const std::vector<Param>& params, DType dtype) {
  std::vector<FileTensor> tensors;
  for (size_t i = 0; i < params.size(); i++) {
    const Param& p = params[i];
    const bool quantized = p.matrix != nullptr && dtype != DType::F32;
    FileTensor t;
    t.name = p.name;
    t.param = i;
    t.shape = p.matrix ? std::vector<uint64_t>{p.rows, p.cols} : std::vector<uint64_t>{p.rows};
    if (quantized && dtype == DType::Int8) {
      t.dtype = "I8";
      t.elem_bytes = 1;
    } else if (quantized) {
      t.dtype = "U8";
      t.elem_bytes = 1;
      t.shape = {p.rows, p.cols / 2};
    }
    tensors.push_back(t);
    if (quantized) {
      FileTensor s;
      s.name = p.name + ".scale";
      s.param = i;
      s.is_scale = true;
      if (dtype == DType::Int8) {
        s.shape = {p.rows};
      } else {
        s.dtype = "F16";
        s.elem_bytes = 2;
        s.shape = {p.rows, p.cols / 16};
      }
      tensors.push_back(s);
    }
  }
  return tensors;
}

// Checks one header entry: dtype, shape and data_offsets, the last against data_size.
bool check_entry(const json& entry, uint64_t data_size, FileTensor* t, std::string* error) {
  const std::string where = "tensor " + t->name + ": ";
  if (!entry.is_object())
    return fail(error, where + "entry is " + short_dump(entry) + ", expected a JSON object");
  for (const char* field : {"dtype", "shape", "data_offsets"})
    if (!entry.contains(field)) return fail(error, where + "missing \"" + field + "\"");

  const json& dtype = entry["dtype"];
  const char* want_dtype = t->dtype;
  if (!dtype.is_string() || dtype.get_ref<const std::string&>() != want_dtype)
    return fail(error, where + "dtype " + short_dump(dtype) + ", expected \"" + want_dtype + "\"");

  const json& shape = entry["shape"];
  bool shape_ok = shape.is_array() && shape.size() == t->shape.size();
  for (size_t i = 0; shape_ok && i < shape.size(); i++)
    shape_ok = shape[i].is_number_unsigned() && shape[i].get<uint64_t>() == t->shape[i];
  if (!shape_ok)
    return fail(error,
                where + "shape " + short_dump(shape) + ", expected " + dims_string(t->shape));

  const json& offsets = entry["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
      !offsets[1].is_number_unsigned())
    return fail(error, where + "data_offsets " + short_dump(offsets) +
                           ", expected two non-negative integers");
  const uint64_t begin = offsets[0].get<uint64_t>(), end = offsets[1].get<uint64_t>();
  const std::string range = offsets_string(begin, end);
  if (begin > end) return fail(error, where + "data_offsets " + range + " begin after end");
  if (end > data_size)
    return fail(error, where + "data_offsets " + range + " exceed the data buffer (" +
                           std::to_string(data_size) + " bytes)");
  Checked c;
  uint64_t bytes = t->elem_bytes;
  for (uint64_t d : t->shape) bytes = c.mul(bytes, d);
  if (c.overflow)
    return fail(error, where + "size of shape " + dims_string(t->shape) + " overflows");
  if (end - begin != bytes)
    return fail(error, where + "data_offsets " + range + " hold " + std::to_string(end - begin) +
                           " bytes, expected " + std::to_string(bytes));
  t->begin = begin;
  t->end = end;
  return true;
}

// Safetensors requires the tensors to tile the data buffer: no overlap, no hole, no tail.
bool check_coverage(std::vector<const FileTensor*> tensors, uint64_t data_size,
                    std::string* error) {
  std::sort(tensors.begin(), tensors.end(), [](const FileTensor* a, const FileTensor* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  uint64_t covered = 0;  // [0, covered) is tiled so far
  const FileTensor* prev = nullptr;
  for (const FileTensor* t : tensors) {
    if (t->begin < covered)
      return fail(error, "tensor " + t->name + ": data_offsets " +
                             offsets_string(t->begin, t->end) + " overlap tensor " + prev->name);
    if (t->begin > covered)
      return fail(error, "data buffer: bytes " + offsets_string(covered, t->begin) +
                             " belong to no tensor");
    covered = t->end;
    prev = t;
  }
  if (covered != data_size)
    return fail(error, "data buffer: " + std::to_string(data_size - covered) +
                           " trailing bytes after the last tensor");
  return true;
}

// Little-endian f32 assembled byte by byte: the data may be unaligned, the host need not be LE.
float read_f32(const uint8_t* p) {
  const uint32_t u =
      uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Little-endian IEEE half to f32, exactly (every half is an f32); inf and NaN stay so.
float read_f16(const uint8_t* p) {
  const uint32_t h = uint32_t(p[0]) | uint32_t(p[1]) << 8;
  const uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  float mag;
  if (exp == 0x1F) {
    mag = mant ? NAN : INFINITY;
  } else if (exp == 0) {
    mag = std::ldexp(float(mant), -24);  // subnormal (or zero)
  } else {
    mag = std::ldexp(float(mant | 0x400u), int(exp) - 25);
  }
  uint32_t u;
  std::memcpy(&u, &mag, sizeof u);
  u |= sign;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// An F32 tensor, or a q4 file's F16 scales, as f32; NaN, Inf and scales <= 0 refused.
bool copy_floats(const FileTensor& t, const uint8_t* data, std::vector<float>* out,
                 std::string* error) {
  const size_t n = size_t((t.end - t.begin) / t.elem_bytes);
  out->resize(n);
  const uint8_t* p = data + t.begin;
  for (size_t i = 0; i < n; i++) {
    const float v = t.elem_bytes == 2 ? read_f16(p + 2 * i) : read_f32(p + 4 * i);
    if (!std::isfinite(v))
      return fail(error,
                  "tensor " + t.name + ": contains NaN or Inf at element " + std::to_string(i));
    if (t.is_scale && !(v > 0.0f)) {
      char value[32];
      std::snprintf(value, sizeof value, "%g", double(v));
      return fail(error, "tensor " + t.name + ": scale " + value + " at " +
                             (t.elem_bytes == 2 ? "element " : "row ") + std::to_string(i) +
                             ", scales must be > 0");
    }
    (*out)[i] = v;
  }
  return true;
}

}  // namespace

bool load_tensors(const json& header, const Config& cfg, const uint8_t* data, size_t data_size,
                  Weights* weights, size_t* num_params, std::string* error) {
  Weights w;
  std::vector<Param> params;
  if (cfg.arch == Arch::Transformer ? !list_transformer_params(cfg, &w, &params)
                                    : !list_params(cfg, &w, &params, error))
    return false;
  if (cfg.dtype == DType::Q4) {
    for (const Param& p : params)
      if (p.matrix && p.cols % 16 != 0)
        return fail(error, "tensor " + p.name +
                               ": a q4 model needs widths that are multiples of 16, and it has " +
                               std::to_string(p.cols) + " columns");
  }
  std::vector<FileTensor> tensors = list_file_tensors(params, cfg.dtype);

  std::map<std::string, FileTensor*> by_name;
  for (FileTensor& t : tensors) by_name[t.name] = &t;
  for (const auto& item : header.items()) {
    const std::string& name = item.key();
    if (name == "__metadata__" || by_name.count(name)) continue;
    if (name.rfind("att.", 0) == 0 && cfg.arch == Arch::Transformer)
      return fail(error, "tensor " + name + ": not allowed in a transformer model");
    if (name == "att.v" && cfg.scoring == Scoring::ScaledDot)
      return fail(error, "tensor att.v: not allowed in a scaled_dot model");
    if (name.rfind("att.", 0) == 0 && cfg.scoring == Scoring::None)
      return fail(error, "tensor " + name + ": not allowed in a model without attention");
    return fail(error, "unknown tensor " + short_dump(json(name)));
  }
  for (FileTensor& t : tensors) {
    const auto entry = header.find(t.name);
    if (entry == header.end()) return fail(error, "missing tensor " + t.name);
    if (!check_entry(*entry, data_size, &t, error)) return false;
  }
  std::vector<const FileTensor*> all;
  for (const FileTensor& t : tensors) all.push_back(&t);
  if (!check_coverage(all, data_size, error)) return false;

  // Every range is now inside the buffer and sized by the shape, so the copies are bounded.
  size_t count = 0;
  for (const FileTensor& t : tensors) {
    const Param& p = params[t.param];
    if (t.is_scale) {
      if (!copy_floats(t, data, &p.matrix->scale, error)) return false;
    } else if (p.matrix) {
      Matrix& m = *p.matrix;
      m.rows = size_t(p.rows);
      m.cols = size_t(p.cols);
      if (std::strcmp(t.dtype, "U8") == 0) {
        m.q4.resize(size_t(t.end - t.begin));
        std::memcpy(m.q4.data(), data + t.begin, m.q4.size());
      } else if (std::strcmp(t.dtype, "I8") == 0) {
        m.i8.resize(size_t(t.end - t.begin));
        std::memcpy(m.i8.data(), data + t.begin, m.i8.size());
        m.row_sum.assign(m.rows, 0);
        for (size_t r = 0; r < m.rows; r++) {
          int64_t sum = 0;
          for (size_t k = 0; k < m.cols; k++) sum += m.i8[r * m.cols + k];
          m.row_sum[r] = int32_t(sum);  // exact up to 2^24 columns; used up to 2048
        }
      } else if (!copy_floats(t, data, &m.f32, error)) {
        return false;
      }
      count += m.rows * m.cols;
    } else {
      if (!copy_floats(t, data, p.vector, error)) return false;
      count += p.vector->size();
    }
  }
  *weights = std::move(w);
  *num_params = count;
  return true;
}

}  // namespace model_file
}  // namespace bl
