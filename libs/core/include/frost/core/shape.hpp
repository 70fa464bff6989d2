#pragma once
/// @file shape.hpp
/// @brief What data is (sizes), separate from where it lives (buffers and views).
#include <cstdint>
#include <string>

#include "frost/core/hd.hpp"

namespace frost {

using index_t = std::int64_t;

/// Sizes of an image (z = 1), a volume, or a stack of n of either. Memory order is
/// x fastest, then y, then z, then n: data[((n*nz + z)*ny + y)*nx + x].
struct Shape {
  index_t x = 1, y = 1, z = 1, n = 1;

  static Shape image(index_t nx, index_t ny, index_t count = 1) { return {nx, ny, 1, count}; }
  static Shape volume(index_t nx, index_t ny, index_t nz, index_t count = 1) { return {nx, ny, nz, count}; }

  FROST_HD index_t pixels_per_item() const { return x * y * z; }
  FROST_HD index_t total() const { return x * y * z * n; }
  FROST_HD index_t index(index_t ix, index_t iy, index_t iz = 0, index_t in = 0) const {
    return ((in * z + iz) * y + iy) * x + ix;
  }
  bool is_2d() const { return z == 1; }
  /// Shape of one item of a stack.
  Shape item() const { return {x, y, z, 1}; }
  /// Shape of the half-complex spectrum of a real transform of this shape (x -> x/2+1).
  Shape half_spectrum() const { return {x / 2 + 1, y, z, n}; }

  friend bool operator==(const Shape& a, const Shape& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.n == b.n;
  }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
};

/// "64x64x1 (n=4)" style text for messages.
std::string to_string(const Shape& s);

/// k modulo n in [0, n) for any integer k (also negative): the index of frequency or offset k on
/// a periodic axis of n samples.
FROST_HD inline index_t periodic_index(index_t k, index_t n) { return ((k % n) + n) % n; }

} // namespace frost
