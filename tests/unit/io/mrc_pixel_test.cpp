// mrc_pixel (the per-element MRC decode that the CUDA movie upload runs) against the host codec
// decode_mrc_rows, bit for bit, on random bytes of every readable mode and both byte orders
// (NaN payloads, infinities and float16 subnormals included), mode 101 with padded rows.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "frost/io/mrc_codec.hpp"
#include "frost/io/mrc_pixel.hpp"

namespace frost::io {
namespace {

TEST(MrcPixel, MatchesDecodeMrcRowsBitForBit) {
  struct Case {
    int mode;
    bool swap, mode0_unsigned;
    index_t nx;
  };
  const Case cases[] = {{0, false, false, 37}, {0, false, true, 37}, {1, false, false, 40}, {1, true, false, 40},
                        {2, false, false, 33}, {2, true, false, 33}, {6, false, false, 21}, {6, true, false, 21},
                        {12, false, false, 64}, {12, true, false, 64}, {101, false, false, 35}, {101, false, false, 36}};
  const index_t rows = 29;
  for (const Case& c : cases) {
    const std::size_t row_bytes = mrc_row_bytes(c.mode, c.nx);
    std::vector<unsigned char> bytes(row_bytes * static_cast<std::size_t>(rows));
    std::mt19937 rng(static_cast<std::uint32_t>(c.mode * 131 + c.nx));
    for (unsigned char& b : bytes) b = static_cast<unsigned char>(rng() & 0xffu);
    std::vector<float> host(static_cast<std::size_t>(c.nx * rows));
    decode_mrc_rows(c.mode, bytes.data(), c.swap, c.mode0_unsigned, c.nx, rows, host.data());
    for (index_t r = 0; r < rows; ++r)
      for (index_t x = 0; x < c.nx; ++x) {
        const float v = mrc_pixel(c.mode, bytes.data() + static_cast<std::size_t>(r) * row_bytes, x, c.swap,
                                  c.mode0_unsigned);
        const float h = host[static_cast<std::size_t>(r * c.nx + x)];
        ASSERT_EQ(std::memcmp(&v, &h, sizeof v), 0) << "mode " << c.mode << " swap " << c.swap << " row " << r
                                                    << " x " << x;
      }
  }
}

TEST(MrcPixel, HalfBitsAsHalfToFloat) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    std::uint16_t le = static_cast<std::uint16_t>(h);
    unsigned char b[2];
    std::memcpy(b, &le, 2);
    float ref = 0;
    decode_mrc_rows(12, b, false, false, 1, 1, &ref);
    const float v = half_bits_to_float(static_cast<std::uint16_t>(h));
    ASSERT_EQ(std::memcmp(&v, &ref, sizeof v), 0) << h;
  }
}

} // namespace
} // namespace frost::io
