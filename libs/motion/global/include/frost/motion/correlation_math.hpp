#pragma once
/// @file correlation_math.hpp
/// @brief The per-element index and sign rules of the correlation stage
/// (docs/movie_align.md#working-sizes-and-the-low-pass-filter), written once for the CPU loops and
/// the CUDA kernels (cuda/motion).
#include <math.h>

#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"

namespace frost::motion {

/// @brief Row of an M_y-row half spectrum that feeds row `row` of a C_y-row crop: rows 0..C_y/2
/// keep their index, rows C_y/2+1..C_y-1 come from M_y - C_y + row (the negative frequencies).
FROST_HD inline index_t crop_source_row(index_t row, index_t crop_rows, index_t full_rows) {
  return row <= crop_rows / 2 ? row : full_rows - crop_rows + row;
}

/// True for the elements the crop sets to zero: the whole k_y = 0 row and k_x = 0 column (they
/// carry the mean and the axis-aligned streaks of detector lines and non-periodic edges).
FROST_HD inline bool crop_zeroed(index_t x, index_t y) { return x == 0 || y == 0; }

/// (-1)^(kx+ky): multiplying the product spectrum by it moves the zero shift of the inverse
/// transform to the centre (C_x/2, C_y/2) of an even map.
FROST_HD inline float centring_sign(index_t x, index_t y) { return ((x + y) % 2 == 0) ? 1.f : -1.f; }

/// Half extent of the search box along an axis of `length` map pixels: floor(radius), but never
/// beyond length/2 - 1 so that the 3-point fit has both neighbours inside the map.
FROST_HD inline index_t search_extent(double radius, index_t length) {
  const index_t r = static_cast<index_t>(floor(radius));
  return r < length / 2 - 1 ? r : length / 2 - 1;
}

/// True when the offset (dx, dy) from the map centre lies inside the search disc (|p|² <= r²).
FROST_HD inline bool in_search_disc(index_t dx, index_t dy, double radius) {
  return !(static_cast<double>(dx * dx + dy * dy) > radius * radius);
}

} // namespace frost::motion
