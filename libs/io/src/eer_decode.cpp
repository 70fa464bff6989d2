// EER bit-stream decoding and rendering (docs/formats.md#decoding-an-eer-frame), on the rule of
// eer_stream.hpp that the CUDA upload shares; frames hold ~10^5-10^6 codes.
#include "frost/io/eer_decode.hpp"

#include "frost/core/error.hpp"
#include "frost/io/eer_stream.hpp"

namespace frost::io {


std::string EerEncoding::describe() const {
  return std::to_string(run_bits) + "-bit RLE + " + std::to_string(symbol_bits) + "-bit symbols" +
         (max_run_has_symbol ? " (12-bit units)" : "");
}

EerEncoding eer_encoding_for_compression(int compression, const std::string& path) {
  if (compression == kEerCompression8Bit) return {8, 4, true};
  if (compression == kEerCompression7Bit) return {7, 4, false};
  throw_input_error(path, "TIFF compression " + std::to_string(compression) +
                              " is not an EER encoding (expected 65000, 65001 or 65002)");
}

EerEncoding make_detailed_eer_encoding(int run_bits, int horizontal_bits, int vertical_bits, const std::string& path) {
  const bool run_ok = run_bits == 7 || run_bits == 8;
  const bool sub_ok = horizontal_bits == vertical_bits && (horizontal_bits == 1 || horizontal_bits == 2);
  if (!run_ok || !sub_ok)
    throw_input_error(path, "EER compression 65002 with " + std::to_string(run_bits) + "-bit runs and " +
                                std::to_string(horizontal_bits) + "+" + std::to_string(vertical_bits) +
                                " sub-pixel bits is not supported (frost reads 7 or 8-bit runs with 2+2 or 1+1 bits)");
  return {run_bits, horizontal_bits + vertical_bits, false};
}

bool decode_eer_frame(const unsigned char* data, std::size_t bytes, const EerEncoding& encoding,
                      std::int64_t pixel_count, std::vector<EerEvent>& events) {
  events.clear();
  auto emit = [&events](std::uint32_t position, std::uint32_t symbol) {
    events.push_back({position, static_cast<std::uint8_t>(symbol)});
  };
  return for_each_eer_event(data, bytes, encoding.codes(), pixel_count, emit);
}

void render_eer_events(const std::vector<EerEvent>& events, index_t sensor_width, int symbol_bits,
                       int upsampling, float* grid) {
  FROST_EXPECTS(valid_eer_upsampling(upsampling), "EER upsampling must be 1, 2 or 4");
  FROST_EXPECTS(symbol_bits == 4 || upsampling < 4, "EER 2-bit symbols cannot be rendered at upsampling 4");
  for (const EerEvent& e : events)
    grid[eer_grid_index(e.position, e.symbol, sensor_width, symbol_bits, upsampling)] += 1.0f;
}

} // namespace frost::io
