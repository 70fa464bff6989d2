// EER bit-stream decoding and rendering (docs/formats.md#decoding-an-eer-frame). The decoder keeps a
// 64-bit window of the stream so that each code costs a shift and a mask; frames hold ~10^5-10^6 codes.
#include "frost/io/eer_decode.hpp"

#include "frost/core/error.hpp"

namespace frost::io {

namespace {

/// Least-significant-bit-first reader over a byte range.
class BitReader {
public:
  BitReader(const unsigned char* data, std::size_t bytes) : data_(data), end_(data + bytes) {}

  /// True when `n` more bits exist.
  bool has(int n) {
    refill();
    return count_ >= n;
  }
  /// Next `n` bits (n <= 32); call has(n) first.
  std::uint32_t take(int n) {
    const auto v = static_cast<std::uint32_t>(window_ & ((std::uint64_t(1) << n) - 1));
    window_ >>= n;
    count_ -= n;
    return v;
  }

private:
  void refill() {
    while (count_ <= 56 && data_ < end_) {
      window_ |= std::uint64_t(*data_++) << count_;
      count_ += 8;
    }
  }
  const unsigned char* data_;
  const unsigned char* end_;
  std::uint64_t window_ = 0;
  int count_ = 0;
};

} // namespace

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
  BitReader bits(data, bytes);
  const std::uint32_t max_run = encoding.max_run();
  const std::uint32_t flip = encoding.symbol_xor();
  const int rb = encoding.run_bits, sb = encoding.symbol_bits;
  std::int64_t pos = 0;
  while (pos < pixel_count) {
    if (!bits.has(rb)) return false; // the stream ends before the last pixel
    const std::uint32_t run = bits.take(rb);
    pos += run;
    if (pos >= pixel_count) break;
    if (run == max_run) {
      if (encoding.max_run_has_symbol) {
        if (!bits.has(sb)) return false;
        bits.take(sb);
      }
      continue;
    }
    if (!bits.has(sb)) return false;
    const std::uint32_t symbol = bits.take(sb) ^ flip;
    events.push_back({static_cast<std::uint32_t>(pos), static_cast<std::uint8_t>(symbol)});
    ++pos;
  }
  return pos == pixel_count;
}

void render_eer_events(const std::vector<EerEvent>& events, index_t sensor_width, int symbol_bits,
                       int upsampling, float* grid) {
  FROST_EXPECTS(valid_eer_upsampling(upsampling), "EER upsampling must be 1, 2 or 4");
  FROST_EXPECTS(symbol_bits == 4 || upsampling < 4, "EER 2-bit symbols cannot be rendered at upsampling 4");
  const index_t w = sensor_width;
  const index_t grid_w = w * upsampling;
  for (const EerEvent& e : events) {
    const index_t x = e.position % w, y = e.position / w;
    const unsigned s = e.symbol;
    index_t gx = x, gy = y;
    if (upsampling == 2) {
      // The half-pixel bit of each axis is the high bit of its field.
      gx = 2 * x + (symbol_bits == 4 ? (s >> 1) & 1u : s & 1u);
      gy = 2 * y + (symbol_bits == 4 ? (s >> 3) & 1u : (s >> 1) & 1u);
    } else if (upsampling == 4) {
      gx = 4 * x + (s & 3u);
      gy = 4 * y + ((s >> 2) & 3u);
    }
    grid[gy * grid_w + gx] += 1.0f;
  }
}

} // namespace frost::io
