#include "core/train_snapshot.h"

#include <cstring>
#include <string>

namespace bl::train {

std::vector<uint8_t> write_f32_model(nlohmann::json meta, const std::vector<TensorRef>& tensors) {
  nlohmann::json config = nlohmann::json::parse(meta["config"].get<std::string>());
  config["dtype"] = "f32";
  meta["config"] = config.dump();
  nlohmann::json header = nlohmann::json::object();
  header["__metadata__"] = std::move(meta);
  size_t offset = 0;
  for (const TensorRef& t : tensors) {
    const size_t bytes = t.size() * sizeof(float);
    nlohmann::json shape = t.cols ? nlohmann::json::array({t.rows, t.cols})
                                  : nlohmann::json::array({t.rows});
    header[t.name] = {
        {"dtype", "F32"}, {"shape", shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data buffer starts 8-byte aligned
  std::vector<uint8_t> out(8 + text.size() + offset);
  uint64_t len = text.size();
  for (int i = 0; i < 8; i++) out[i] = uint8_t(len >> (8 * i));  // u64 little-endian
  std::memcpy(out.data() + 8, text.data(), text.size());
  uint8_t* data = out.data() + 8 + text.size();
  for (const TensorRef& t : tensors) {  // little-endian f32, as this machine and wasm store it
    std::memcpy(data, t.data, t.size() * sizeof(float));
    data += t.size() * sizeof(float);
  }
  return out;
}

}  // namespace bl::train
