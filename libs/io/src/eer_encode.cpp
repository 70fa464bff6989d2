#include "frost/io/eer_encode.hpp"

#include <string>

#include "frost/core/error.hpp"
#include "frost/io/eer_writer.hpp"

namespace frost::io {

namespace {

/// Appends codes least-significant bit first through a 64-bit accumulator.
class BitPacker {
public:
  explicit BitPacker(std::vector<unsigned char>& out) : out_(out) {}
  void put(std::uint32_t value, int bits) {
    acc_ |= static_cast<std::uint64_t>(value & ((1u << bits) - 1u)) << used_;
    used_ += bits;
    while (used_ >= 8) {
      out_.push_back(static_cast<unsigned char>(acc_ & 0xFFu));
      acc_ >>= 8;
      used_ -= 8;
    }
  }
  void flush() {
    if (used_ > 0) out_.push_back(static_cast<unsigned char>(acc_ & 0xFFu));
    acc_ = 0;
    used_ = 0;
  }

private:
  std::vector<unsigned char>& out_;
  std::uint64_t acc_ = 0;
  int used_ = 0;
};

} // namespace

std::vector<unsigned char> encode_eer_frame(const std::vector<EerEvent>& events, std::int64_t pixel_count,
                                            const EerEncoding& encoding) {
  const std::uint32_t max_run = encoding.max_run();
  const int code_bits = encoding.run_bits + encoding.symbol_bits;
  std::vector<unsigned char> out;
  out.reserve(events.size() * static_cast<std::size_t>(code_bits) / 8 + 16);
  BitPacker bits(out);
  const auto put_max = [&] {
    bits.put(max_run, encoding.run_bits);
    if (encoding.max_run_has_symbol) bits.put(0, encoding.symbol_bits); // filler the decoders skip
  };
  std::int64_t cursor = 0;
  for (const EerEvent& e : events) {
    const auto position = static_cast<std::int64_t>(e.position);
    FROST_EXPECTS(position >= cursor && position < pixel_count,
                  "encode_eer_frame: electrons must be sorted, one per pixel, inside the frame");
    std::int64_t gap = position - cursor;
    for (; gap >= max_run; gap -= max_run) put_max();
    bits.put(static_cast<std::uint32_t>(gap), encoding.run_bits);
    bits.put(e.symbol ^ encoding.symbol_xor(), encoding.symbol_bits);
    cursor = position + 1;
  }
  // The trailing empty pixels: maximum codes, then the rest (0 after an electron on the last
  // pixel) as one last whole unit, run and filler symbol, ending exactly at pixel_count. Decoders
  // that read a unit only while a whole one lies beyond it (imagecodecs) would otherwise miss an
  // electron coded last; they also need an even number of bytes. frost's decoder stops at the
  // last pixel and ignores what follows.
  std::int64_t rest = pixel_count - cursor;
  for (; rest > max_run; rest -= max_run) put_max();
  bits.put(static_cast<std::uint32_t>(rest), encoding.run_bits);
  bits.put(0, encoding.symbol_bits);
  bits.flush();
  if (out.size() % 2 != 0) out.push_back(0);
  return out;
}

// Pure: built in every configuration, so the writer and its stand-in without libtiff share it.
EerEncoding eer_write_encoding(const EerWriteOptions& options) {
  if (options.compression == kEerCompressionDetailed)
    return make_detailed_eer_encoding(options.run_bits, options.sub_bits, options.sub_bits, "the EER writer");
  if (options.compression != kEerCompression8Bit && options.compression != kEerCompression7Bit)
    throw_usage_error("EER compression " + std::to_string(options.compression) + " is not 65000, 65001 or 65002");
  return eer_encoding_for_compression(options.compression, "the EER writer");
}

} // namespace frost::io
