// Fuzz target: the EER bit-stream decoder and renderer on raw frame bytes. The first byte
// chooses the encoding (7/8-bit runs, 2- or 4-bit symbols, detailed widths) and the sensor.
#include <vector>

#include "frost/io/eer_decode.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  if (size < 2) return 0;
  const std::uint8_t choice = data[0];
  const index_t width = 8 + (data[1] % 64), height = 4 + (data[1] / 64) * 12;
  data += 2, size -= 2;
  fuzz::expect_errors_only([&] {
    io::EerEncoding encoding;
    switch (choice % 4) {
    case 0: encoding = io::eer_encoding_for_compression(io::kEerCompression8Bit, "fuzz"); break;
    case 1: encoding = io::eer_encoding_for_compression(io::kEerCompression7Bit, "fuzz"); break;
    default:
      encoding = io::make_detailed_eer_encoding(1 + (choice >> 2) % 9, (choice >> 5) % 3, (choice >> 6) % 3, "fuzz");
    }
    std::vector<io::EerEvent> events;
    if (!io::decode_eer_frame(data, size, encoding, width * height, events)) return;
    const int upsampling = 1 << ((choice >> 3) % 3);
    std::vector<float> grid(std::size_t(width * height * upsampling * upsampling));
    io::render_eer_events(events, width, encoding.symbol_bits, upsampling, grid.data());
  });
  return 0;
}
