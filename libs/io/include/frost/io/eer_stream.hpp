#pragma once
/// @file eer_stream.hpp
/// @brief The per-frame EER decoding rule, written once for the host decoder (decode_eer_frame,
/// render_eer_events) and the CUDA movie upload, which decodes raw frames on the device
/// (docs/formats.md#decoding-an-eer-frame, docs/movie_align.md#the-cuda-backend).
#include <cstddef>
#include <cstdint>

#include "frost/core/hd.hpp"

namespace frost::io {

/// @brief How a frame's codes are laid out, in plain values a device function can take
/// (EerEncoding::codes() makes one).
struct EerCodes {
  int run_bits = 7;
  int symbol_bits = 4;
  bool max_run_has_symbol = false;
  FROST_HD std::uint32_t max_run() const { return (1u << run_bits) - 1u; }
  FROST_HD std::uint32_t symbol_xor() const { return symbol_bits == 4 ? 0x0Au : 0x3u; }
};

/// @brief Least-significant-bit-first reader over a byte range with a 64-bit window, so that a
/// code costs a shift and a mask.
class EerBitReader {
public:
  FROST_HD EerBitReader(const unsigned char* data, std::size_t bytes) : data_(data), end_(data + bytes) {}
  /// True when `n` more bits exist.
  FROST_HD bool has(int n) {
    while (count_ <= 56 && data_ < end_) {
      window_ |= static_cast<std::uint64_t>(*data_++) << count_;
      count_ += 8;
    }
    return count_ >= n;
  }
  /// Next `n` bits (n <= 32); call has(n) first.
  FROST_HD std::uint32_t take(int n) {
    const auto v = static_cast<std::uint32_t>(window_ & ((std::uint64_t(1) << n) - 1));
    window_ >>= n;
    count_ -= n;
    return v;
  }

private:
  const unsigned char* data_;
  const unsigned char* end_;
  std::uint64_t window_ = 0;
  int count_ = 0;
};

/// @brief Decodes one frame from a bit source (has(n), take(n): EerBitReader, or the CUDA upload's
/// reader of aligned words): emit(position, symbol) for every electron, in stream order, with
/// the stored symbol inversion undone. A run reaching `pixel_count` ends the frame; what follows
/// (a filler, padding) is ignored.
/// @return true when the codes end exactly at `pixel_count`; false for a corrupt frame (the
/// stream ends early or a run passes the last pixel), after the electrons emitted so far.
template <class Bits, class Emit>
FROST_HD bool decode_eer_codes(Bits& bits, const EerCodes& codes, std::int64_t pixel_count, Emit& emit) {
  const std::uint32_t max_run = codes.max_run(), flip = codes.symbol_xor();
  const int rb = codes.run_bits, sb = codes.symbol_bits;
  std::int64_t pos = 0;
  while (pos < pixel_count) {
    if (!bits.has(rb)) return false; // the stream ends before the last pixel
    const std::uint32_t run = bits.take(rb);
    pos += run;
    if (pos >= pixel_count) break;
    if (run == max_run) {
      if (codes.max_run_has_symbol) {
        if (!bits.has(sb)) return false;
        bits.take(sb);
      }
      continue;
    }
    if (!bits.has(sb)) return false;
    emit(static_cast<std::uint32_t>(pos), bits.take(sb) ^ flip);
    ++pos;
  }
  return pos == pixel_count;
}

/// @brief decode_eer_codes() of the `bytes` at `data`.
template <class Emit>
FROST_HD bool for_each_eer_event(const unsigned char* data, std::size_t bytes, const EerCodes& codes,
                                 std::int64_t pixel_count, Emit& emit) {
  EerBitReader bits(data, bytes);
  return decode_eer_codes(bits, codes, pixel_count, emit);
}

/// @brief Index of an electron in the render grid of (width * upsampling) columns, x fastest.
/// upsampling 1: (x, y) = (n mod W, n div W); 2: (2x + bit1(s), 2y + bit3(s)) for 4-bit symbols,
/// (2x + bit0(s), 2y + bit1(s)) for 2-bit symbols; 4: (4x + (s & 3), 4y + ((s >> 2) & 3)).
FROST_HD inline std::int64_t eer_grid_index(std::uint32_t position, std::uint32_t symbol, std::int64_t width,
                                            int symbol_bits, int upsampling) {
  // 32-bit division: positions are below 2^32 and sensors at most 65535 wide; 64-bit division is
  // emulated, and dear, on a GPU.
  const auto w = static_cast<std::uint32_t>(width);
  const std::int64_t x = position % w, y = position / w;
  if (upsampling == 2) {
    // The half-pixel bit of each axis is the high bit of its field.
    const std::int64_t gx = 2 * x + (symbol_bits == 4 ? (symbol >> 1) & 1u : symbol & 1u);
    const std::int64_t gy = 2 * y + (symbol_bits == 4 ? (symbol >> 3) & 1u : (symbol >> 1) & 1u);
    return gy * 2 * width + gx;
  }
  if (upsampling == 4) return (4 * y + ((symbol >> 2) & 3u)) * 4 * width + 4 * x + (symbol & 3u);
  return y * width + x;
}

} // namespace frost::io
