#pragma once
/// @file peak_search.hpp
/// @brief Maximum of a centred correlation map inside the search disc and its sub-pixel position
/// (docs/movie_align.md#peak-search-and-sub-pixel-refinement).
#include "frost/core/image.hpp"
#include "frost/motion/global_settings.hpp"

namespace frost::motion {

/// A located correlation maximum; offsets are relative to the map centre (C_x/2, C_y/2).
struct Peak {
  double x = 0, y = 0;  ///< sub-pixel offset [correlation px]
  int ix = 0, iy = 0;   ///< integer offset of the maximum
  float value = 0;      ///< map value at the integer maximum
  bool edge = false;    ///< integer maximum farther than radius - 1.5 from the centre
};

/// @brief The integer maximum of a map and its 3x3 neighbourhood (periodic): everything a
/// sub-pixel fit reads. The CUDA peak kernel produces one per map, so the host finishes GPU and
/// CPU peaks with the same refine_peak().
struct PeakWindow {
  int ix = 0, iy = 0; ///< integer offset of the maximum from the centre
  float value = 0;    ///< map value there
  float v[9] = {};    ///< map at offsets (ox, oy) in -1..1: v[(oy + 1)·3 + (ox + 1)]
};

/// @brief The Peak of a located maximum: edge flag (on the disc boundary, or on the map border
/// where the map clips the disc; map of width x height) and sub-pixel offset by `method`
/// (geom::refine_peak_2d in double).
Peak refine_peak(const PeakWindow& window, double radius, index_t width, index_t height, SubpixelMethod method);

/// @brief Integer maximum of `map` (C_x x C_y, centre at (C_x/2, C_y/2)) over offsets with
/// |p| <= radius (Euclidean; also |p_x| <= C_x/2 - 1, |p_y| <= C_y/2 - 1), the first one in
/// row-major order on ties, refined by `method`. Neighbours wrap periodically.
Peak find_peak(View<const float> map, double radius, SubpixelMethod method);

} // namespace frost::motion
