#pragma once
/// @file png_decode.hpp
/// @brief PNG decoding for tests (target frost_test_png): libpng's reader, independent of the
/// encoder in libs/picture, plus the header fields as stored in the file.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace frost::test {

struct DecodedPng {
  int width = 0, height = 0;
  int bit_depth = 0;   ///< IHDR bit depth as stored
  int colour_type = -1;///< IHDR colour type as stored: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
  int channels = 0;    ///< of `pixels`: 1 for grey files, 3 otherwise (alpha dropped)
  std::vector<std::uint8_t> pixels; ///< rows from the top, 8 bits per sample

  const std::uint8_t* at(int x, int y) const {
    return pixels.data() + (static_cast<std::size_t>(y) * width + x) * channels;
  }
};

/// True when the tests were built with libpng (FROST_USE_PNG).
bool png_decoder_available();

/// @brief Decodes a PNG file / PNG bytes; throws std::runtime_error with libpng's message for
/// anything that is not a valid PNG (or when built without libpng).
DecodedPng decode_png_file(const std::string& path);
DecodedPng decode_png(const std::vector<std::uint8_t>& bytes);

} // namespace frost::test

/// Skips the current test with the reason when frost was built without libpng.
#define FROST_REQUIRE_PNG()                                                                        \
  if (!::frost::test::png_decoder_available())                                                    \
  GTEST_SKIP() << "frost was built without libpng (FROST_USE_PNG=OFF): no PNG output to check"
