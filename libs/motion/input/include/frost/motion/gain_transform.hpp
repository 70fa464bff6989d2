#pragma once
/// @file gain_transform.hpp
/// @brief Orientation of gain, dark and defect references (docs/movie_align.md#reference-orientation):
/// rotation by k·90° first, then a flip, with MotionCor2's -RotGain/-FlipGain semantics.
#include <string>

#include "frost/core/error.hpp"
#include "frost/core/image.hpp"

namespace frost::motion {

/// @brief `--gain-rot k --gain-flip f`.
///
/// For an input of width W and height H (memory row y, column x):
///   rot 1: out[x][H-1-y] = in[y][x] (output H wide, W tall)
///   rot 2: out[H-1-y][W-1-x] = in[y][x]
///   rot 3: out[W-1-x][y] = in[y][x] (output H wide, W tall)
///   flip 1 (upside down): out[y][x] = in[H'-1-y][x]; flip 2 (left-right): out[y][x] = in[y][W'-1-x],
/// with W', H' the size after the rotation.
struct GainTransform {
  int rotation = 0; ///< 0..3, multiples of 90°
  int flip = 0;     ///< 0 none, 1 upside down, 2 left-right

  bool identity() const { return rotation == 0 && flip == 0; }
  /// "--gain-rot 1 --gain-flip 0" for messages.
  std::string describe() const;
};

/// @brief Usage error unless rotation is 0..3 and flip 0..2.
void validate(const GainTransform& t);

/// @brief Size (width, height) of a W x H reference after the transform.
inline void oriented_size(const GainTransform& t, index_t width, index_t height, index_t* out_width, index_t* out_height) {
  const bool swap = t.rotation % 2 == 1;
  *out_width = swap ? height : width;
  *out_height = swap ? width : height;
}

/// @brief Where input pixel (x, y) of a W x H image lands after the transform.
inline void oriented_position(const GainTransform& t, index_t width, index_t height, index_t x, index_t y,
                              index_t* out_x, index_t* out_y) {
  index_t ox = x, oy = y;
  switch (t.rotation) {
  case 1: ox = height - 1 - y; oy = x; break;
  case 2: ox = width - 1 - x; oy = height - 1 - y; break;
  case 3: ox = y; oy = width - 1 - x; break;
  default: break;
  }
  index_t w2 = 0, h2 = 0;
  oriented_size(t, width, height, &w2, &h2);
  if (t.flip == 1) oy = h2 - 1 - oy;
  if (t.flip == 2) ox = w2 - 1 - ox;
  *out_x = ox;
  *out_y = oy;
}

/// @brief The transformed copy of a 2-D image (any element type: gain, dark, defect mask).
template <class T>
Image<T> orient(View<const T> in, const GainTransform& t) {
  validate(t);
  FROST_EXPECTS(in.shape.z == 1 && in.shape.n == 1, "orient: a single 2-D image is expected");
  const index_t w = in.shape.x, h = in.shape.y;
  index_t ow = 0, oh = 0;
  oriented_size(t, w, h, &ow, &oh);
  Image<T> out(Shape::image(ow, oh));
  for (index_t y = 0; y < h; ++y)
    for (index_t x = 0; x < w; ++x) {
      index_t ox = 0, oy = 0;
      oriented_position(t, w, h, x, y, &ox, &oy);
      out(ox, oy) = in(x, y);
    }
  return out;
}

} // namespace frost::motion
