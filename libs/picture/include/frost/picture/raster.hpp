#pragma once
/// @file raster.hpp
/// @brief An 8-bit picture as a PNG holds it: rows from the top, grey or RGB samples interleaved.
#include <cstdint>
#include <vector>

namespace frost::picture {

/// An sRGB colour.
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
  friend bool operator!=(Rgb a, Rgb b) { return !(a == b); }
};

/// @brief width x height pixels of `channels` 8-bit samples (1 = grey, 3 = RGB), row 0 at the
/// top of the picture, samples of a pixel adjacent: pixels[(y·width + x)·channels + c].
struct Raster {
  int width = 0, height = 0, channels = 1;
  std::vector<std::uint8_t> pixels;

  /// A grey picture filled with `value`.
  static Raster grey(int width, int height, std::uint8_t value = 0);
  /// An RGB picture filled with `colour`.
  static Raster rgb(int width, int height, Rgb colour);

  std::uint8_t* at(int x, int y) { return pixels.data() + (static_cast<std::size_t>(y) * width + x) * channels; }
  const std::uint8_t* at(int x, int y) const {
    return pixels.data() + (static_cast<std::size_t>(y) * width + x) * channels;
  }
  /// The colour at (x, y) (grey pictures give r = g = b).
  Rgb colour(int x, int y) const;
  bool contains(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
};

} // namespace frost::picture
